"""What the method benchmarks share: arguments, a timed prepare, seeded random states."""

from __future__ import annotations

import argparse
import time

import numpy as np

from cubelab.cube.random_states import random_state


def parse_args(doc: str, argv=None, count: int = 1000) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=doc)
    ap.add_argument("-n", type=int, default=count,
                    help=f"number of random states (default {count})")
    ap.add_argument("--seed", type=int, default=2024, help="seed of the random states")
    return ap.parse_args(argv)


def prepared(solver, what: str):
    """The solver, prepared, after saying how long that took."""
    t = time.perf_counter()
    solver.prepare()
    print(f"prepare: {time.perf_counter() - t:.1f} s ({what})")
    return solver


def random_states(args):
    """args.n uniformly random states from args.seed."""
    rng = np.random.default_rng(args.seed)
    return (random_state(rng) for _ in range(args.n))
