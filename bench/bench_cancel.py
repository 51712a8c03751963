"""Cancel latency of every solver: the time from raising the cancel flag to solve() returning.

Each solver is cancelled at random moments of solves that would run far longer, in this process
once it is prepared, and (with --first) in fresh processes, where the flag goes up while the
first solve still loads its tables and compiles (or loads) its kernels. Medians and maxima in
milliseconds; the machine is shared, so compare within one run.

    python bench/bench_cancel.py [--solvers kociemba,astar] [--trials 10] [--first 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import threading
import time

import numpy as np

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


def position(spec: str, seed: int):
    from cubelab.cube.moves import alg_state
    from cubelab.cube.random_states import random_state
    if spec == "random":
        return random_state(np.random.default_rng(seed))
    return alg_state(spec)


def cancel_once(solver, state, options: dict, delay: float) -> tuple[float | None, str]:
    """(latency in seconds, status); latency None when the solve ended before the flag."""
    from cubelab.solvers.protocol import SolverError, new_cancel
    cancel = new_cancel()
    done = threading.Event()
    outcome = {}

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
        return None, outcome["status"]
    raised = time.perf_counter()
    cancel[0] = 1
    done.wait(60)
    return outcome["end"] - raised, outcome.get("status", "still running")


def in_process(name: str, trials: int, seed: int) -> dict:
    from cubelab.solvers import get_solver
    solver = get_solver(name)
    solver.prepare()
    spec, options = HARD[name]
    rng = np.random.default_rng(seed)
    latencies, finished = [], 0
    for k in range(trials):
        lat, _ = cancel_once(solver, position(spec, seed + k), options,
                             float(rng.uniform(0.05, 1.0)))
        if lat is None:
            finished += 1
        else:
            latencies.append(lat)
    return {"solver": name, "latencies": latencies, "finished_first": finished}


def first_solve(name: str, delay: float, seed: int) -> dict:
    """One fresh process: its first solve, cancelled `delay` seconds after it began."""
    from cubelab.solvers import get_solver
    spec, options = HARD[name]
    lat, status = cancel_once(get_solver(name), position(spec, seed), options, delay)
    return {"latency": lat, "status": status}


def summary(latencies: list[float]) -> str:
    if not latencies:
        return "no cancellations (every solve ended first)"
    ms = [1000 * x for x in latencies]
    return f"median {statistics.median(ms):7.1f} ms  max {max(ms):7.1f} ms  (n={len(ms)})"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--solvers", default=",".join(HARD))
    p.add_argument("--trials", type=int, default=10)
    p.add_argument("--first", type=int, default=0, help="fresh processes per solver")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--child", nargs=3, metavar=("NAME", "DELAY", "SEED"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        name, delay, seed = args.child
        print(json.dumps(first_solve(name, float(delay), int(seed))))
        return 0
    rng = np.random.default_rng(args.seed)
    for name in args.solvers.split(","):
        r = in_process(name, args.trials, args.seed)
        print(f"{name:<15} prepared:    {summary(r['latencies'])}"
              f"{'; ' + str(r['finished_first']) + ' ended first' if r['finished_first'] else ''}",
              flush=True)
        firsts = []
        for k in range(args.first):
            delay = float(rng.uniform(0.0, 1.5))
            out = subprocess.run([sys.executable, __file__, "--child", name, str(delay),
                                  str(args.seed + k)], capture_output=True, text=True)
            rec = json.loads(out.stdout.strip().splitlines()[-1])
            if rec["latency"] is not None:
                firsts.append(rec["latency"])
        if args.first:
            print(f"{name:<15} first solve: {summary(firsts)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
