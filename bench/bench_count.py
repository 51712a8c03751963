"""Benchmark of Pos(n): positions and classes by distance, QTM to depth 9 and HTM to depth 8.

Run: .venv/bin/python bench/bench_count.py [--metric qtm|htm] [--depth N] [--threads T]
Without --metric it runs QTM 9 then HTM 8, each in its own process so each reports its own
peak memory. Prints one line per level (positions, classes, seconds, = or != the published
count), the total time, the peak resident memory, and exits 1 if a count differs.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

TARGETS = {"qtm": 9, "htm": 8}


def run_one(metric: str, depth: int, threads: int) -> int:
    from cubelab.tables.counting import PUBLISHED, count_positions, warm_up

    t = time.perf_counter()
    warm_up()
    compile_seconds = time.perf_counter() - t
    print(f"{metric.upper()} to depth {depth}, {threads} threads "
          f"(kernels ready in {compile_seconds:.1f} s)", flush=True)
    wrong = 0

    def on_level(c):
        nonlocal wrong
        pub = PUBLISHED[metric][c.depth] if c.depth < len(PUBLISHED[metric]) else None
        mark = "" if pub is None else ("=" if pub == c.positions else f"!= {pub:,}")
        wrong += pub is not None and pub != c.positions
        print(f"  {c.depth:>2} {c.positions:>16,} {c.classes_sym:>13,} {c.classes_sym_inv:>13,}"
              f" {c.seconds:>8.1f} s  {c.candidates:>12,} neighbours  {mark}", flush=True)

    start = time.perf_counter()
    counts = count_positions(metric, depth, threads=threads, on_level=on_level)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"metric": metric, "depth": depth, "threads": threads,
                      "seconds": round(seconds, 1), "peak_rss_bytes": peak,
                      "positions": [c.positions for c in counts],
                      "classes_sym": [c.classes_sym for c in counts],
                      "classes_sym_inv": [c.classes_sym_inv for c in counts],
                      "all_published_equal": not wrong}), flush=True)
    print(f"  total {seconds:.1f} s, peak RSS {peak / 2**30:.2f} GiB", flush=True)
    return 1 if wrong else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--metric", choices=("qtm", "htm"))
    ap.add_argument("--depth", type=int)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    if args.metric:
        return run_one(args.metric, args.depth or TARGETS[args.metric], args.threads)
    status = 0
    for metric, depth in TARGETS.items():
        status |= subprocess.call([sys.executable, __file__, "--metric", metric, "--depth",
                                   str(args.depth or depth), "--threads", str(args.threads)])
    return status


if __name__ == "__main__":
    sys.exit(main())
