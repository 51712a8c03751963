"""Benchmark of Thistlethwaite's solver: lengths and time per cube over random states, against
the textbook (one optimal solution per phase, walked down the same tables)."""

from __future__ import annotations

import time

import numpy as np

from cubelab.cube.moves import FACE_MOVES, move_state
from cubelab.solvers.thistlethwaite.solver import ThistlethwaiteSolver
from cubelab.tables.thistlethwaite.coords import PHASE_MOVES, phase_coordinates
from solver_runs import parse_args, prepared, random_states


def textbook_lengths(tables, state) -> list[int]:
    """Per-phase optimal lengths, one phase after the other (the first optimal move each time)."""
    lengths = []
    for k in range(4):
        n = 0
        size_b = tables.move_b[k].shape[0]
        while True:
            a, b = phase_coordinates(k, state.cp, state.co, state.ep, state.eo, tables.lookups)
            d = tables.dist[k][a * size_b + b]
            if d == 0:
                break
            col = next(c for c in range(len(PHASE_MOVES[k]))
                       if tables.dist[k][tables.move_a[k][a, c] * size_b
                                         + tables.move_b[k][b, c]] == d - 1)
            state = state * move_state(FACE_MOVES[PHASE_MOVES[k][col]])
            n += 1
        lengths.append(n)
    return lengths


def main(argv=None) -> int:
    args = parse_args(__doc__, argv)
    solver = prepared(ThistlethwaiteSolver(), "tables loaded or built, kernel compiled")
    lengths, phase_lengths, textbook, seconds, nodes = [], [], [], [], []
    cpu0 = time.process_time()
    for state in random_states(args):
        r = solver.solve(state)
        assert r.verified
        lengths.append(r.length["htm"])
        phase_lengths.append([p["length"] for p in r.to_json()["phases"]])
        textbook.append(sum(textbook_lengths(solver._tables, state)))
        seconds.append(r.seconds)
        nodes.append(r.nodes)
    cpu = (time.process_time() - cpu0) / args.n
    lengths = np.array(lengths)
    print(f"{args.n} random states (seed {args.seed}), all verified")
    print(f"HTM: mean {lengths.mean():.2f}  min {lengths.min()}  max {lengths.max()}  "
          f"(goal: mean <= 30)")
    print("per phase (before merging across boundaries): "
          + "  ".join(f"{m:.2f}" for m in np.mean(phase_lengths, 0)))
    print(f"textbook, one optimal solution per phase: mean {np.mean(textbook):.2f}  "
          f"max {np.max(textbook)}")
    print(f"time per cube: mean {np.mean(seconds) * 1000:.0f} ms  max "
          f"{np.max(seconds) * 1000:.0f} ms wall (CPU incl. the textbook walk {cpu * 1000:.0f} ms);"
          f" nodes mean {np.mean(nodes):,.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
