"""Benchmark of Pos(n) sharded over a Dask LocalCluster beside the one-process count.

Run: .venv/bin/python bench/bench_count_cluster.py [--metric htm] [--depth 8] [--workers 2]
Counts in this process (two threads, as `cubelab count`), then on local:N (one thread a worker),
each after its kernels are compiled, and prints per level the seconds of both, and at the end the
total times, the count's own arrays at their peak (one process; each worker) and the peak
resident memory (this process; each worker process). Exits 1 if any count differs.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--metric", choices=("qtm", "htm"), default="htm")
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()

    from cubelab.tables.cluster import connect
    from cubelab.tables.counting import count_positions, warm_up
    from cubelab.tables.counting.sharded import count_on_cluster

    with connect(f"local:{args.workers}") as client:     # before this process grows
        t = time.perf_counter()
        spread = count_on_cluster(client, args.metric, args.depth)
        cluster_seconds = time.perf_counter() - t
    warm_up()
    t = time.perf_counter()
    here = count_positions(args.metric, args.depth, threads=2)
    here_seconds = time.perf_counter() - t
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    wrong = 0
    print(f"{args.metric.upper()} to depth {args.depth}: one process (2 threads) beside "
          f"local:{args.workers}")
    print(f"{'depth':>5} {'positions':>16} {'one s':>8} {'cluster s':>10}")
    for h, c in zip(here, spread):
        same = (h.positions, h.classes_sym, h.classes_sym_inv) == \
            (c.count.positions, c.count.classes_sym, c.count.classes_sym_inv)
        wrong += not same
        print(f"{h.depth:>5} {h.positions:>16,} {h.seconds:8.2f} {c.count.seconds:10.2f}"
              f"{'' if same else '  DIFFERENT'}")
    mib = 2 ** 20
    print(f"total: one process {here_seconds:.1f} s, local:{args.workers} {cluster_seconds:.1f} s "
          f"(with the workers' kernel start-up)")
    print(f"arrays at peak: one process {max(c.peak_bytes for c in here) / mib:.0f} MiB; workers "
          + ", ".join(f"{max(lv.peak_bytes[k] for lv in spread) / mib:.0f}"
                      for k in range(args.workers)) + " MiB")
    print(f"peak RSS: one process {rss / mib:.0f} MiB; workers "
          + ", ".join(f"{spread[-1].max_rss[k] / mib:.0f}" for k in range(args.workers))
          + " MiB")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
