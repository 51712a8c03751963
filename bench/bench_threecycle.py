"""Benchmark of the 3-cycle solver: HTM and QTM lengths and time per cube over random states."""

from __future__ import annotations

import numpy as np

from cubelab.solvers.threecycle.solver import ThreeCycleSolver
from solver_runs import parse_args, prepared, random_states


def main(argv=None) -> int:
    args = parse_args(__doc__, argv)
    solver = prepared(ThreeCycleSolver(), "commutator table + class distances")
    htm, qtm, steps, seconds = [], [], [], []
    for state in random_states(args):
        r = solver.solve(state)
        assert r.verified
        htm.append(r.length["htm"])
        qtm.append(r.length["qtm"])
        steps.append(len(r.to_json()["steps"]))
        seconds.append(r.seconds)
    htm, qtm = np.array(htm), np.array(qtm)
    print(f"{args.n} random states (seed {args.seed}), all verified")
    print(f"HTM: mean {htm.mean():.2f}  min {htm.min()}  max {htm.max()}  (goal: mean <= 130)")
    print(f"QTM: mean {qtm.mean():.2f}  max {qtm.max()}  (the TIPE averaged 324)")
    print(f"steps (commutators + parity turn): mean {np.mean(steps):.2f}")
    print(f"time per cube: mean {np.mean(seconds) * 1000:.0f} ms  "
          f"max {np.max(seconds) * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
