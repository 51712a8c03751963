"""Benchmark of the 3-cycle solver: HTM and QTM lengths and time per cube over random states."""

from __future__ import annotations

import argparse
import time

import numpy as np

from cubelab.cube.random_states import random_state
from cubelab.solvers.threecycle.solver import ThreeCycleSolver


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("-n", type=int, default=1000, help="number of random states (default 1000)")
    ap.add_argument("--seed", type=int, default=2024, help="seed of the random states")
    args = ap.parse_args(argv)

    solver = ThreeCycleSolver()
    t = time.perf_counter()
    solver.prepare()
    print(f"prepare: {time.perf_counter() - t:.1f} s (commutator table + class distances)")
    rng = np.random.default_rng(args.seed)
    htm, qtm, steps, seconds = [], [], [], []
    for _ in range(args.n):
        state = random_state(rng)
        r = solver.solve(state)
        assert r.verified
        htm.append(r.length["htm"])
        qtm.append(r.length["qtm"])
        steps.append(len(r.detail["steps"]))
        seconds.append(r.seconds)
    htm, qtm = np.array(htm), np.array(qtm)
    print(f"{args.n} random states (seed {args.seed}), all verified")
    print(f"HTM: mean {htm.mean():.2f}  min {htm.min()}  max {htm.max()}  (goal: mean <= 130)")
    print(f"QTM: mean {qtm.mean():.2f}  max {qtm.max()}  (the TIPE averaged 324)")
    print(f"steps (commutators + parity turn): mean {np.mean(steps):.2f}")
    print(f"time per cube: mean {np.mean(seconds) * 1000:.0f} ms  max {np.max(seconds) * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
