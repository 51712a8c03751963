"""Benchmark of the algorithm search's symmetry predicate, beside searches that existed before it.

Run: .venv/bin/python bench/bench_symmetry_search.py [--repeat N]
Medians of N runs (the machine is shared and noisy). The first rows use predicates older than
the symmetry test: run this file against a checkout without it (PYTHONPATH) to compare the
kernels side by side; the symmetry rows are skipped there.
"""

from __future__ import annotations

import argparse
import statistics
import time

from cubelab.solvers import algsearch as A

SEARCHES = [
    ("ll", lambda: A.last_layer(), 10, "qtm"),
    ("corner-3cycle", lambda: A.corner_3cycle(), 8, "htm"),
    ("symmetry C4h", lambda: A.parse_predicate(["symmetry", "C4h"]), 5, "htm"),
    ("symmetry Oh", lambda: A.parse_predicate(["symmetry", "Oh"]), 6, "htm"),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    A.search(A.last_layer(), 4, "qtm")       # compile the kernels outside the timings
    print(f"{'predicate':<16} {'N':>3} {'metric':>6} {'median s':>9} {'classes':>8}")
    for name, make, n, metric in SEARCHES:
        try:
            predicate = make()
        except ValueError:
            print(f"{name:<16} (not in this checkout)")
            continue
        times, classes = [], 0
        for _ in range(args.repeat):
            start = time.perf_counter()
            classes = len(A.search(predicate, n, metric).classes)
            times.append(time.perf_counter() - start)
        print(f"{name:<16} {n:>3} {metric:>6} {statistics.median(times):>9.2f} {classes:>8}")


if __name__ == "__main__":
    main()
