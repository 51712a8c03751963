"""Benchmark the CFOP solver on uniformly random states: length per step and in total, time per
cube, beside one-face CFOP (yellow cross only) and, if installed, pycuber's CFOP.

Per step kind (cross, F2L in the order solved, OLL, PLL with its pre-AUF, final AUF): mean and
max HTM of the steps as performed (each ending at its milestone), and what the merges at the
joins save; in total (the solution, merges cancelled): mean, median, max; time per cube:
median, 90th percentile, max (tables and compilation excluded: prepared first). Run:

    CUBELAB_DATA_DIR=... .venv/bin/python bench/bench_cfop.py                # 1,000 states
    .venv/bin/python bench/bench_cfop.py --count 200 --pycuber 50

pycuber (`pip install pycuber`) is a peer for comparison only, run on the first --pycuber
states (it is slow, and prints nothing we need); its lengths are counted in HTM after
cancelling its moves the way cubelab counts.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

SEED = 20261124


def random_states(count: int, seed: int):
    from cubelab.cube.random_states import random_state
    rng = np.random.default_rng(seed)
    return [random_state(rng) for _ in range(count)]


def step_kind(name: str) -> str:
    word = name.split()[0]
    return {"f2l": "f2l (all)"}.get(word, word)


def run_cubelab(states, faces: str):
    from cubelab.solvers.cfop.solver import CfopSolver
    solver = CfopSolver(faces=faces)
    t = time.perf_counter()
    solver.prepare()
    prep = time.perf_counter() - t
    per_step: dict[str, list[int]] = {}
    pairs: list[list[int]] = [[], [], [], []]
    totals, times = [], []
    for s in states:
        t = time.perf_counter()
        r = solver.solve(s)
        times.append(time.perf_counter() - t)
        assert r.verified
        totals.append(r.length["htm"])
        kinds: dict[str, int] = {"merges saved": 0}
        f2l = 0
        for st in r.to_json()["steps"]:
            kinds["merges saved"] += st.get("merge", {}).get("saved", 0)
            kinds[step_kind(st["step"])] = kinds.get(step_kind(st["step"]), 0) + st["length"]
            if st["step"].startswith("f2l"):
                pairs[min(f2l, 3)].append(st["length"])
                f2l += 1
        for k in ("cross", "f2l (all)", "oll", "pll", "auf", "merges saved"):
            per_step.setdefault(k, []).append(kinds.get(k, 0))
    return prep, per_step, pairs, totals, times


def pycuber_lengths(states):
    """pycuber's CFOP on the same positions, lengths in HTM after cancellation."""
    import pycuber
    from pycuber.solver import CFOPSolver

    from cubelab.cube.moves import alg_state, apply_moves
    from cubelab.cube.notation import metric_lengths, parse_moves, simplify
    from cubelab.solvers import get_solver
    kociemba = get_solver("kociemba")
    lengths, times = [], []
    for s in states:
        # pycuber takes a scramble: any sequence reaching the state will do
        scramble = kociemba.solve(s.inverse(), time_limit=0.05).text()
        cube = pycuber.Cube()
        cube(scramble)
        t = time.perf_counter()
        sol = CFOPSolver(cube).solve(suppress_progress_messages=True)
        times.append(time.perf_counter() - t)
        moves = simplify(parse_moves(" ".join(str(m) for m in sol)))
        assert apply_moves(alg_state(scramble), moves).is_solved()
        lengths.append(metric_lengths(moves)["htm"])
    return lengths, times


def line(label, values):
    return (f"  {label:<12} mean {statistics.fmean(values):6.2f}   max {max(values):3d}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--pycuber", type=int, default=0, metavar="K",
                    help="also run pycuber's CFOP on the first K states")
    args = ap.parse_args()
    states = random_states(args.count, args.seed)
    for label, faces in (("cfop, best of six crosses", "DULRFB"), ("cfop, yellow cross only", "D")):
        prep, per_step, pairs, totals, times = run_cubelab(states, faces)
        print(f"{label}: {len(states)} random states (seed {args.seed}); prepare {prep:.1f} s")
        for k, v in per_step.items():
            print(line(k, v))
        for i, v in enumerate(pairs):
            if v:
                print(line(f"  f2l #{i + 1}", v) + f"   (n={len(v)})")
        print(f"  total        mean {statistics.fmean(totals):6.2f}   median "
              f"{statistics.median(totals):g}   max {max(totals)}   min {min(totals)}")
        ts = sorted(times)
        print(f"  time/cube    median {1000 * statistics.median(ts):.1f} ms   90% "
              f"{1000 * ts[int(0.9 * (len(ts) - 1))]:.1f} ms   max {1000 * ts[-1]:.1f} ms")
    if args.pycuber:
        lengths, times = pycuber_lengths(states[:args.pycuber])
        print(f"pycuber CFOP on the first {len(lengths)}: mean {statistics.fmean(lengths):.2f} "
              f"HTM, max {max(lengths)}; median {1000 * statistics.median(times):.0f} ms/cube")


if __name__ == "__main__":
    main()
