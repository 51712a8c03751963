"""Cancel latency of every solver: the time from raising the cancel flag to solve() returning.

Each solver is cancelled at a random moment of a solve that would run far longer: prepared, in
this process (-n trials), and with --first in fresh processes, where the flag goes up while the
first solve still loads its tables and compiles (or loads) its kernels. Medians and maxima in
milliseconds; a solve that ended before the flag counts apart.

    .venv/bin/python bench/bench_cancel.py [--solvers kociemba,astar] [-n 10] [--first 3]
"""

from __future__ import annotations

import threading
import time

import numpy as np

from contenders import Function
from harness import Bench

# positions each solver needs far longer than a second for (a random state; or for the
# exhaustive baselines, scrambles just inside their bounds), and the solve's options
HARD = {
    "kociemba": ("random", {"max_length": 15}),
    "korf": ("random", {}),
    "thistlethwaite": ("random", {"max_length": 20}),
    "threecycle": ("random", {}),
    "bfs": ("R U F D L", {}),
    "astar": ("R U F D L B R2 U' F2 L'", {}),
}

bench = Bench(__file__, __doc__, count=10)
bench.parser.add_argument("--solvers", default=",".join(HARD))
bench.parser.add_argument("--first", type=int, default=0, help="fresh processes per solver")


def position(spec: str, seed: int):
    from cubelab.cube.moves import alg_state
    from cubelab.cube.random_states import random_state
    return random_state(np.random.default_rng(seed)) if spec == "random" else alg_state(spec)


def cancel_once(solver, state, options: dict, delay: float) -> dict:
    """The latency ("seconds") of a cancel `delay` seconds into a solve, and its status; no
    latency when the solve ended before the flag."""
    from cubelab.solvers.protocol import SolverError, new_cancel
    cancel, done, outcome = new_cancel(), threading.Event(), {}

    def work():
        try:
            outcome["status"] = solver.solve(state, cancel=cancel, **options).status
        except SolverError as e:
            outcome["status"] = f"refused: {e}"
        finally:
            outcome["end"] = time.perf_counter()
            done.set()

    threading.Thread(target=work, daemon=True).start()
    if done.wait(delay):
        return {"seconds": None, "ended_first": True, "status": outcome["status"]}
    raised = time.perf_counter()
    cancel[0] = 1
    done.wait(60)
    return {"seconds": outcome.get("end", time.perf_counter()) - raised, "ended_first": False,
            "status": outcome.get("status", "still running")}


def trials(count: int, seed: int, low: float, high: float) -> list[dict]:
    rng = np.random.default_rng(seed)
    return [{"id": k, "delay": float(rng.uniform(low, high)), "seed": seed + k}
            for k in range(count)]


def _solve_cancelled(name: str, solver_of):
    def run(case):
        spec, options = HARD[name]
        return cancel_once(solver_of(), position(spec, case["seed"]), options, case["delay"])
    return run


@bench.contender("prepared", variants=lambda args: args.solvers.split(","))
def _prepared(args, name):
    from cubelab.solvers import get_solver
    solver = get_solver(name)
    return Function(name, _solve_cancelled(name, lambda: solver), prepare=solver.prepare)


@bench.contender("first", fresh=True,
                 variants=lambda args: [f"first:{n}" for n in args.solvers.split(",")])
def _first(args, label):
    from cubelab.solvers import get_solver
    name = label.partition(":")[2]
    return Function(label, _solve_cancelled(name, lambda: get_solver(name)))


def main(argv=None) -> int:
    args = bench.parse(argv)
    bench.begin(args)
    names = args.solvers.split(",")
    bench.compare(args, trials(args.count, args.seed, 0.05, 1.0), label="prepared",
                  contenders=bench.contenders(args, names), fields=("seconds", "ended_first"))
    if args.first:
        bench.compare(args, trials(args.first, args.seed, 0.0, 1.5), label="first solve",
                      contenders=bench.contenders(args, [f"first:{n}" for n in names]),
                      fields=("seconds", "ended_first"))
    bench.finish(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
