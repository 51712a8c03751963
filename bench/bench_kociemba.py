"""Benchmark cubelab's two-phase solver against the PyPI `kociemba` (C) and `RubikTwoPhase`
(Kociemba's own Python) on the same uniformly random states, side by side.

Reports, per solver: median and 90th percentile of the time to the first solution of at most
20 moves, the mean length reached with a budget of 0.1 s and 1 s per cube, and (separately)
table load/build time and compile time. Run:

    /work/venv/bin/python bench/bench_kociemba.py                 # 100 states, all three
    /work/venv/bin/python bench/bench_kociemba.py --count 20 --skip rubiktwophase --threads 1

`kociemba` has no time budget: each budget run forks a worker that asks for ever shorter
solutions (max_depth = last length - 1) and is stopped when the budget is spent; a solution
counts if it arrived within the budget (wall clock, measured in the worker, as cubelab's and
RubikTwoPhase's time limits are). The cpu_ columns are the solving thread's (process's) CPU
time (all threads), which a shared machine disturbs less than the wall clock. RubikTwoPhase
builds its tables in <cache dir>/peers/RubikTwoPhase on first use (half an hour or more).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import sys
import time

import numpy as np

SEED = 20240401
BUDGETS = (0.1, 1.0)
C_CAP = 60.0   # seconds: a kociemba (C) search still running then is stopped and counted as this


def random_states(count: int, seed: int):
    from cubelab.cube.random_states import random_state
    rng = np.random.default_rng(seed)
    return [random_state(rng) for _ in range(count)]


def summary(times, cpu_times, lengths_by_budget, load, compile_, note=""):
    t = np.array(times) * 1000
    c = np.array(cpu_times) * 1000
    return {
        "median_ms": float(np.median(t)), "p90_ms": float(np.percentile(t, 90)),
        "cpu_median_ms": float(np.median(c)), "cpu_p90_ms": float(np.percentile(c, 90)),
        **{f"mean_len_{b:g}s": float(np.mean(v)) for b, v in lengths_by_budget.items()},
        "load_s": load, "compile_s": compile_, "note": note,
    }


# ---- cubelab -------------------------------------------------------------------------------

def bench_cubelab(states, budgets, threads=1):
    from cubelab.solvers.kociemba.solver import KociembaSolver
    from cubelab.tables.kociemba.specs import load_tables
    start = time.perf_counter()
    load_tables()
    load = time.perf_counter() - start
    solver = KociembaSolver(threads=threads, budget=None)   # the first-solution mode
    solver.prepare()          # tables are cached in the process now: this is the compile
    compile_ = solver.compile_seconds
    times, cpu = [], []
    for s in states:
        began, cpu_began = time.perf_counter(), time.process_time()
        result = solver.solve(s)
        times.append(time.perf_counter() - began)
        cpu.append(time.process_time() - cpu_began)   # all threads of the process
        assert result.verified and len(result.moves) <= 20
    lengths = {}
    for b in budgets:
        lengths[b] = [len(solver.solve(s, time_limit=b).moves) for s in states]
    note = "" if threads == 1 else "tables and code already loaded by the row above"
    return summary(times, cpu, lengths, load, compile_, note)


# ---- kociemba (C) --------------------------------------------------------------------------

def _c_worker(facelets, first_depth, queue):
    import kociemba
    start, cpu_start = time.perf_counter(), time.process_time()
    depth = first_depth
    while depth > 0:
        try:
            sol = kociemba.solve(facelets, max_depth=depth)
        except ValueError:
            break
        n = len(sol.split())
        queue.put((n, time.perf_counter() - start, time.process_time() - cpu_start))
        if first_depth == 20:
            break
        depth = n - 1
    queue.put(None)


def _c_run(facelets, first_depth, budget):
    """(lengths with their times) reported by a forked worker within the budget."""
    ctx = mp.get_context("fork")
    queue = ctx.Queue()
    proc = ctx.Process(target=_c_worker, args=(facelets, first_depth, queue), daemon=True)
    proc.start()
    found = []
    deadline = time.perf_counter() + budget + 0.2
    while True:
        try:
            item = queue.get(timeout=max(0.01, deadline - time.perf_counter()))
        except Exception:
            break
        if item is None:
            break
        found.append(item)
        if item[1] > budget:
            break
    proc.kill()
    proc.join()
    return found


def bench_c(states, budgets):
    import kociemba
    from cubelab.cube.facelets import to_facelets
    faces = [to_facelets(s) for s in states]
    start = time.perf_counter()
    kociemba.solve(faces[0])  # loads its tables (in the parent: the forked workers share them)
    load = time.perf_counter() - start
    times, cpu, capped = [], [], 0
    for f in faces:
        found = _c_run(f, 20, C_CAP)
        if found and found[0][1] <= C_CAP:
            times.append(found[0][1])
            cpu.append(found[0][2])
        else:
            times.append(C_CAP)
            cpu.append(C_CAP)
            capped += 1
    lengths = {}
    for b in budgets:
        lengths[b] = []
        for f in faces:
            found = [n for n, t, _ in _c_run(f, 24, b) if t <= b]
            lengths[b].append(min(found) if found else np.nan)
    missing = {b: int(np.isnan(v).sum()) for b, v in lengths.items()}
    lengths = {b: [x for x in v if not np.isnan(x)] for b, v in lengths.items()}
    note = f"{capped} searches stopped at {C_CAP:g} s; no solution within budget: {missing}"
    return summary(times, cpu, lengths, load, 0.0, note)


# ---- RubikTwoPhase -------------------------------------------------------------------------

def bench_rtp(states, budgets):
    from cubelab.cube.facelets import to_facelets
    from cubelab.cube.paths import cache_dir
    folder = cache_dir() / "peers" / "RubikTwoPhase"
    (folder / "twophase").mkdir(parents=True, exist_ok=True)
    here = os.getcwd()
    os.chdir(folder)    # it keeps its tables in ./twophase
    try:
        start = time.perf_counter()
        import twophase.solver as sv
        load = time.perf_counter() - start
    finally:
        os.chdir(here)
    faces = [to_facelets(s) for s in states]

    def length(text):
        return int(text.strip().rsplit("(", 1)[1].rstrip("f)"))

    times, cpu = [], []
    for f in faces:
        began, cpu_began = time.perf_counter(), time.process_time()
        out = sv.solve(f, 20, 1000)
        times.append(time.perf_counter() - began)
        cpu.append(time.process_time() - cpu_began)
        assert length(out) <= 20, out
    lengths = {b: [length(sv.solve(f, 0, b)) for f in faces] for b in budgets}
    return summary(times, cpu, lengths, load, 0.0, "CPython, its own six threads")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--skip", nargs="*", default=[], choices=["kociemba", "rubiktwophase"])
    ap.add_argument("--threads", nargs="*", type=int, default=[1, 2],
                    help="cubelab search threads, one row each (default: 1 2)")
    args = ap.parse_args(argv)
    states = random_states(args.count, args.seed)
    rows = {}
    print(f"{args.count} random states, seed {args.seed}; load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores", flush=True)
    for n in args.threads:
        name = "cubelab" if n == 1 else f"cubelab ({n} threads)"
        rows[name] = bench_cubelab(states, BUDGETS, n)
        print(name, rows[name], flush=True)
    if "kociemba" not in args.skip:
        rows["kociemba (C)"] = bench_c(states, BUDGETS)
        print("kociemba", rows["kociemba (C)"], flush=True)
    if "rubiktwophase" not in args.skip:
        rows["RubikTwoPhase"] = bench_rtp(states, BUDGETS)
        print("RubikTwoPhase", rows["RubikTwoPhase"], flush=True)

    keys = (["median_ms", "p90_ms", "cpu_median_ms", "cpu_p90_ms"]
            + [f"mean_len_{b:g}s" for b in BUDGETS] + ["load_s", "compile_s"])
    print()
    print("| solver | " + " | ".join(keys) + " |")
    print("|---" * (len(keys) + 1) + "|")
    for name, row in rows.items():
        print(f"| {name} | " + " | ".join(f"{row[k]:.2f}" for k in keys) + " |")
    for name, row in rows.items():
        if row["note"]:
            print(f"{name}: {row['note']}")
    if "kociemba (C)" in rows and "cubelab" in rows:
        c, us = rows["kociemba (C)"], rows["cubelab"]
        print(f"ratio kociemba/cubelab: median {c['median_ms'] / us['median_ms']:.1f}x, "
              f"p90 {c['p90_ms'] / us['p90_ms']:.1f}x; CPU time: median "
              f"{c['cpu_median_ms'] / us['cpu_median_ms']:.1f}x, "
              f"p90 {c['cpu_p90_ms'] / us['cpu_p90_ms']:.1f}x")
    print(f"load average now {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
