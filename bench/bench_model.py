"""Benchmark of the cube model: parse + apply a 20-move alg, all facts of a position, morph.

Run: .venv/bin/python bench/bench_model.py [--repeat N]
Prints the median and 90th percentile of each over N random 20-move algs / random states.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from cubelab.cube.facts import facts
from cubelab.cube.moves import alg_state
from cubelab.cube.random_states import random_state
from cubelab.cube.symmetry import morph


def random_alg(rng: np.random.Generator, n: int = 20) -> str:
    faces, out, last = "URFDLB", [], None
    while len(out) < n:
        f = faces[rng.integers(6)]
        if f == last:
            continue
        last = f
        out.append(f + ["", "2", "'"][rng.integers(3)])
    return " ".join(out)


def timed(fn, items) -> list[float]:
    out = []
    for x in items:
        t = time.perf_counter()
        fn(x)
        out.append(time.perf_counter() - t)
    return out


def report(name: str, samples: list[float]) -> None:
    ms = sorted(s * 1e3 for s in samples)
    p90 = ms[int(0.9 * (len(ms) - 1))]
    print(f"{name:32s} median {statistics.median(ms):8.3f} ms   p90 {p90:8.3f} ms   (n={len(ms)})")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=500)
    args = ap.parse_args()
    rng = np.random.default_rng(2026)
    algs = [random_alg(rng) for _ in range(args.repeat)]
    states = [random_state(i) for i in range(args.repeat)]
    facts(states[0])  # warm caches (move states, symmetry arrays)
    report("parse + apply 20-move alg", timed(alg_state, algs))
    report("all facts of a random state", timed(facts, states))
    report("facts of a 20-move alg (parse too)", timed(lambda a: facts(alg_state(a)), algs))
    report("morph of a random state", timed(morph, states))


if __name__ == "__main__":
    main()
