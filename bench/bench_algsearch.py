"""Benchmark of the algorithm search: the TIPE's last-layer search and a few harder ones.

Run: .venv/bin/python bench/bench_algsearch.py [--quick]
For each search: seconds, first halves walked, sequences and classes found, the shortest
length. Then the last-layer classes of at most 8 quarter turns (up to AUF), one line each:
the TIPE found these fall into a handful of families, the shortest of 6 quarter turns.
"""

from __future__ import annotations

import argparse
import time

from cubelab.cube.moves import alg_state
from cubelab.solvers.algsearch import (
    corner_3cycle, edge_3cycle, equals, last_layer, orients, search,
)
from cubelab.solvers.protocol import NODES, new_counters

SEARCHES = [
    ("ll", last_layer, 8, "qtm"),
    ("ll", last_layer, 10, "qtm"),
    ("ll", last_layer, 12, "qtm"),
    ("ll", last_layer, 10, "htm"),
    ("corner-3cycle", corner_3cycle, 10, "htm"),
    ("edge-3cycle", edge_3cycle, 10, "htm"),
    ("orient", orients, 12, "htm"),
    ("equals (12-move scramble)",
     lambda: equals(alg_state("R U2 F' L D B2 R' U F2 D' L2 B")), 12, "htm"),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="only the searches of up to 10 moves")
    args = ap.parse_args()
    search(last_layer(), 4, "qtm")       # compile the kernels outside the timings
    print(f"{'predicate':<26} {'N':>3} {'metric':>6} {'seconds':>8} {'first halves':>13} "
          f"{'sequences':>10} {'classes':>8} {'shortest':>8}")
    for name, make, n, metric in SEARCHES:
        if args.quick and n > 10:
            continue
        counters = new_counters()
        t = time.perf_counter()
        res = search(make(), n, metric, counters=counters)
        seconds = time.perf_counter() - t
        shortest = min((c.length for c in res.classes), default="-")
        print(f"{name:<26} {n:>3} {metric:>6} {seconds:>8.2f} {counters[NODES]:>13,} "
              f"{res.sequences:>10,} {len(res.classes):>8} {shortest:>8}", flush=True)

    print("\nlast-layer classes of at most 8 quarter turns, up to symmetry, inversion and AUF:")
    res = search(last_layer(), 8, "qtm", auf=True)
    for c in res.classes:
        d = c.as_dict()
        print(f"  {c.length}  {d['moves']:<26} corners {d['corners']:<16} edges {d['edges']:<18}"
              f" order {d['order']:<3} sequences {sum(c.sequences.values())}")
    print(f"  {len(res.classes)} classes, {res.sequences} sequences")


if __name__ == "__main__":
    main()
