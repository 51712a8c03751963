"""Pos(n): positions and classes by distance, QTM to depth 9 and HTM to depth 8, each count in a
fresh process (its own peak memory), rounds taking turns.

Per count: the seconds and positions of every level (checked against the published counts),
the total, the peak resident memory; the kernels are compiled (or loaded from numba's cache)
before the clock. Exits 1 if a count differs from the published one.

    .venv/bin/python bench/bench_count.py                        # QTM 9 and HTM 8, one round
    .venv/bin/python bench/bench_count.py --metrics htm -n 3     # HTM 8, three rounds
    .venv/bin/python bench/bench_count.py --metrics htm -n 3 --checkout base=../base --checkout new=.
"""

from __future__ import annotations

import resource
import time

from contenders import Function
from harness import Bench

TARGETS = {"qtm": 9, "htm": 8}

bench = Bench(__file__, __doc__, count=1)
bench.parser.add_argument("--metrics", default="qtm,htm", help="qtm,htm")
bench.parser.add_argument("--depth", type=int, help="instead of QTM 9 / HTM 8")
bench.parser.add_argument("--threads", type=int, default=2)


@bench.contender("count", fresh=True, variants=lambda args: args.metrics.split(","))
def _count(args, metric):
    depth = args.depth or TARGETS[metric]

    def prepare():
        from cubelab.tables.counting import warm_up
        warm_up()
        return {"metric": metric, "depth": depth, "threads": args.threads}

    def run(_round):
        from cubelab.tables.counting import PUBLISHED, count_positions
        start = time.perf_counter()
        counts = count_positions(metric, depth, threads=args.threads)
        seconds = time.perf_counter() - start
        published = PUBLISHED[metric]
        return {"seconds": seconds, "levels": [
                    {"depth": c.depth, "positions": c.positions, "seconds": c.seconds,
                     "classes_sym": c.classes_sym, "classes_sym_inv": c.classes_sym_inv,
                     "neighbours": c.candidates}
                    for c in counts],
                "peak_rss_gib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20,
                "published_equal": all(c.positions == published[c.depth] for c in counts
                                       if c.depth < len(published))}

    return Function(metric, run, prepare=prepare)


def main(argv=None) -> int:
    args = bench.parse(argv)
    bench.begin(args, depth=args.depth, threads=args.threads)
    rounds = [{"id": r} for r in range(args.count)]
    results = bench.compare(args, rounds, fields=("seconds", "peak_rss_gib"),
                            show=lambda c, case, o: f"published counts equal: "
                                                    f"{o['published_equal']}")
    wrong = False
    for name, outcomes in results.items():
        for o in outcomes[:1]:
            for lv in o.get("levels", []):
                print(f"  {name:<10} {lv['depth']:>2} {lv['positions']:>16,} "
                      f"{lv['classes_sym']:>13,} {lv['classes_sym_inv']:>13,} "
                      f"{lv['seconds']:>8.1f} s")
        wrong |= any(not o.get("published_equal") for o in outcomes)
    bench.finish(args)
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
