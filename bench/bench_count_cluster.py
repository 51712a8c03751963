"""Pos(n) sharded over a Dask LocalCluster beside the one-process count.

Counts in a process of its own (two threads, as `cubelab count`) and on local:N (one thread a
worker), each after its kernels are compiled, rounds taking turns; prints per level the seconds
of both, the count's own arrays at their peak (one process; each worker) and the peak resident
memory (the process; each worker process). Exits 1 if any count differs.

    .venv/bin/python bench/bench_count_cluster.py [--metric htm] [--depth 8] [--workers 2]
"""

from __future__ import annotations

import resource
import time

from contenders import Function
from harness import Bench

bench = Bench(__file__, __doc__, count=1)
bench.parser.add_argument("--metric", choices=("qtm", "htm"), default="htm")
bench.parser.add_argument("--depth", type=int, default=8)
bench.parser.add_argument("--workers", type=int, default=2)

MIB = 2 ** 20


def _levels(counts, seconds, peaks, rss):
    return {"levels": [[c.positions, c.classes_sym, c.classes_sym_inv] for c in counts],
            "level_seconds": seconds, "peak_array_mib": peaks, "peak_rss_mib": rss}


@bench.contender("one-process", fresh=True)
def _one(args):
    def run(_round):
        from cubelab.tables.counting import count_positions
        t = time.perf_counter()
        counts = count_positions(args.metric, args.depth, threads=2)
        seconds = time.perf_counter() - t
        return {"seconds": seconds, **_levels(
            counts, [c.seconds for c in counts], [max(c.peak_bytes for c in counts) / MIB],
            [resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / MIB])}

    def prepare():
        from cubelab.tables.counting import warm_up
        warm_up()
    return Function("one-process", run, prepare=prepare)


@bench.contender("cluster", fresh=True)
def _cluster(args):
    def run(_round):
        from cubelab.tables.cluster import connect
        from cubelab.tables.counting.sharded import count_on_cluster
        with connect(f"local:{args.workers}") as client:
            t = time.perf_counter()
            spread = count_on_cluster(client, args.metric, args.depth)
            seconds = time.perf_counter() - t
        return {"seconds": seconds, "note": "with the workers' kernel start-up", **_levels(
            [lv.count for lv in spread], [lv.count.seconds for lv in spread],
            [max(lv.peak_bytes[k] for lv in spread) / MIB for k in range(args.workers)],
            [spread[-1].max_rss[k] / MIB for k in range(args.workers)])}
    return Function("cluster", run)


def main(argv=None) -> int:
    args = bench.parse(argv)
    bench.begin(args, metric=args.metric, depth=args.depth, workers=args.workers)
    runs = bench.compare(args, [{"id": r} for r in range(args.count)], fields=("seconds",))
    good = {name: next((o for o in out if "error" not in o), None) for name, out in runs.items()}
    differ = False
    if all(good.values()) and len(good) == 2:
        one, spread = good["one-process"], good["cluster"]
        print(f"{'depth':>5} {'positions':>16} {'one s':>8} {'cluster s':>10}")
        for d, (a, b, sa, sb) in enumerate(zip(one["levels"], spread["levels"],
                                               one["level_seconds"], spread["level_seconds"])):
            differ |= a != b
            print(f"{d:>5} {a[0]:>16,} {sa:8.2f} {sb:10.2f}{'' if a == b else '  DIFFERENT'}")
        for name, o in good.items():
            print(f"{name}: arrays at peak {[round(x) for x in o['peak_array_mib']]} MiB, peak "
                  f"RSS {[round(x) for x in o['peak_rss_mib']]} MiB")
    bench.finish(args)
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
