"""Benchmark a plain `cubelab solve` (Kociemba's improving budget with the optimality prover)
against the first-solution mode (`--first`), side by side on the same positions.

Positions: face-turn scrambles (cube/random_states.py) of lengths up to 12 (their optimum is at most the
scramble's length), and uniformly random states. Reports, per group and mode: the median and
the largest time, the mean length, and the share of solutions marked optimal. Run:

    CUBELAB_DATA_DIR=... python bench/bench_default_solve.py            # 10 per length
    python bench/bench_default_solve.py --per-length 4 --random 5
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np


def positions(per_length: int, random_count: int, seed: int):
    from cubelab.cube.moves import apply_moves
    from cubelab.cube.random_states import face_scramble, random_state
    from cubelab.cube.state import CubeState
    rng = np.random.default_rng(seed)
    groups = {}
    for length in (4, 8, 10, 11, 12):
        groups[f"scramble {length}"] = [
            apply_moves(CubeState.identity(), face_scramble(rng, length))
            for _ in range(per_length)]
    if random_count:
        groups["random"] = [random_state(rng) for _ in range(random_count)]
    return groups


def run(solver, states):
    times, lengths, optimal = [], [], []
    for s in states:
        began = time.perf_counter()
        result = solver.solve(s)
        times.append(time.perf_counter() - began)
        assert result.verified
        lengths.append(len(result.moves))
        optimal.append(bool(result.optimal))
    return times, lengths, optimal


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-length", type=int, default=10)
    ap.add_argument("--random", type=int, default=5)
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args(argv)
    from cubelab.solvers.kociemba.solver import KociembaSolver
    modes = {"default": KociembaSolver(), "--first": KociembaSolver(budget=None)}
    for solver in modes.values():
        solver.prepare()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
    print("| positions | mode | median ms | max ms | mean length | optimal |")
    print("|---|---|---|---|---|---|")
    for group, states in positions(args.per_length, args.random, args.seed).items():
        for mode, solver in modes.items():       # side by side, in one run
            times, lengths, optimal = run(solver, states)
            print(f"| {group} (n={len(states)}) | {mode} | {1000 * np.median(times):.1f} | "
                  f"{1000 * max(times):.1f} | {np.mean(lengths):.2f} | "
                  f"{100 * np.mean(optimal):.0f}% |", flush=True)
    print(f"load average now {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
