"""Benchmark Korf's optimal solver: tables, heuristic strength, correctness and speed.

Sections (each can be sized or skipped):
- tables: build time and size of both sets (from the table files; built here if missing).
- heuristic: the korf1997 set's average heuristic value, as Korf reported it (8.878 for his
  databases), by exact table averages and over random states; the strong set's, over the same.
- correctness: scrambles of 4..14 random moves (fixed seed), solved with each set; checked
  against plain breadth-first search (bfs solver) up to 5 moves, and beyond against each other
  and against the two-phase solver's best (which can never be shorter than the optimum).
- speed: time per cube for 16-move scrambles, 18-move scrambles and uniformly random states,
  with nodes, nodes per second per core (wall and CPU) and the optimal lengths; every cube is
  solved by each of the speed sets in turn (side by side), with their ratios.
- memory: a solve in a fresh process per speed set: peak resident memory, private against
  mapped-file memory after it.
- superflip (--superflip SET): its optimum proven, with the time and nodes of every bound.
- short (--short N): N scrambles each of 8, 10, 12 and 13 face turns, the median milliseconds
  of a solve per speed set: what a solve costs beyond its search.

    /work/venv/bin/python bench/bench_korf.py                          # the defaults below
    /work/venv/bin/python bench/bench_korf.py --sets strong --n16 20 --n18 20 --random 10
    /work/venv/bin/python bench/bench_korf.py --skip correctness,heuristic --time-limit 120
    .venv/bin/python bench/bench_korf.py --sets strong,layers --speed-sets strong,layers \\
        --skip heuristic,correctness --n16 0 --n18 0 --random 10 --superflip layers

A cube stopped by --time-limit counts with the time spent and its proven lower bound. The CPU
columns (process CPU time over both search threads) are less disturbed by a shared machine
than the wall clock.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import numpy as np

SEED = 19970701


def scramble(rng, n: int):
    """n random face turns, never the same face twice in a row."""
    from cubelab.cube.moves import FACE_MOVES
    moves, last = [], -1
    while len(moves) < n:
        m = int(rng.integers(18))
        if m // 3 != last:
            moves.append(FACE_MOVES[m])
            last = m // 3
    return moves


def state_of(moves):
    from cubelab.cube.moves import apply_moves
    from cubelab.cube.state import CubeState
    return apply_moves(CubeState.identity(), moves)


def log(*args):
    print(*args, flush=True)


# ---- tables ------------------------------------------------------------------------------

def bench_tables(sets):
    from cubelab.solvers.korf.sets import korf_set
    from cubelab.tables.fileformat import read_header
    from cubelab.tables.store import table_path, load_or_build
    out = {}
    for name in sets:
        ts = korf_set(name).tables()
        rows = []
        for spec in ts.specs:
            start = time.perf_counter()
            load_or_build(spec, log=lambda m: None)
            loaded = time.perf_counter() - start
            header, _ = read_header(table_path(spec), spec)
            rows.append({"table": spec.name, "bytes": header["nbytes"],
                         "build_s": header["build_seconds"], "load_s": round(loaded, 2)})
        out[name] = {"tables": rows, "bytes": sum(r["bytes"] for r in rows),
                     "build_s": round(sum(r["build_s"] for r in rows), 1)}
        log(f"[tables] {name}: {out[name]['bytes'] / 1e6:.1f} MB, built in "
            f"{out[name]['build_s']} s " + ", ".join(
                f"({r['table']} {r['bytes'] / 1e6:.1f} MB {r['build_s']} s)" for r in rows))
    return out


# ---- heuristic ---------------------------------------------------------------------------

def bench_heuristic(sets, samples):
    from cubelab.cube.random_states import random_state
    from cubelab.solvers.korf.solver import KorfSolver
    from cubelab.tables.korf.coords import N_CORNERS, N_EDGE6
    from cubelab.solvers.korf.sets import korf_set
    from cubelab.tables.packed import unpack4
    out = {}
    if "korf1997" in sets:
        corners, ea, eb = korf_set("korf1997").tables().load()
        means = {}
        for label, tab, n in (("corners", corners, N_CORNERS), ("edges_a", ea, N_EDGE6),
                              ("edges_b", eb, N_EDGE6)):
            means[label] = float(unpack4(tab, n).mean(dtype=np.float64))
        out["korf1997_table_means"] = means
        log("[heuristic] korf1997 table averages: " +
            ", ".join(f"{k} {v:.3f}" for k, v in means.items()))
    rng = np.random.default_rng(SEED + 1)
    states = [random_state(rng) for _ in range(samples)]
    for name in sets:
        solver = KorfSolver(name, fallback=False)
        solver.prepare()
        h = [solver.heuristic(s) for s in states]
        out[f"{name}_random_mean"] = float(np.mean(h))
        out[f"{name}_random_hist"] = {int(k): int(v) for k, v in
                                      zip(*np.unique(h, return_counts=True))}
        log(f"[heuristic] {name}: mean h over {samples} random states = {np.mean(h):.3f} "
            f"(histogram {out[f'{name}_random_hist']})")
    return out


# ---- correctness -------------------------------------------------------------------------

def bench_correctness(sets, per_length, lengths, time_limit):
    from cubelab.solvers import get_solver, solver_names
    from cubelab.solvers.korf.solver import KorfSolver
    rng = np.random.default_rng(SEED)
    solvers = {}
    for name in sets:
        solvers[name] = KorfSolver(name, fallback=False)
        solvers[name].prepare()
    bfs = get_solver("bfs") if "bfs" in solver_names() else None
    two_phase = get_solver("kociemba") if "kociemba" in solver_names() else None
    if two_phase is not None:
        two_phase.prepare()
    rows, failures = [], []
    for n in lengths:
        for _ in range(per_length):
            moves = scramble(rng, n)
            state = state_of(moves)
            found = {}
            for name, solver in solvers.items():
                r = solver.solve(state, time_limit=time_limit)
                found[name] = r.length["htm"] if r.optimal else None
                if r.found and not r.verified:
                    failures.append((n, name, "unverified"))
            reference, how = None, ""
            if bfs is not None and n <= 5:
                reference, how = bfs.solve(state).length["htm"], "bfs"
            lengths_found = {v for v in found.values() if v is not None}
            if len(lengths_found) > 1:
                failures.append((n, "sets disagree", found))
            if reference is not None and lengths_found and lengths_found != {reference}:
                failures.append((n, "bfs", reference, found))
            best = None
            if two_phase is not None and n > 5:
                best = two_phase.solve(state, time_limit=1.0).length["htm"]
                how = how or "two-phase"
                if lengths_found and min(lengths_found) > best:
                    failures.append((n, "longer than two-phase", best, found))
            if lengths_found and max(lengths_found) > n:
                failures.append((n, "longer than the scramble", found))
            rows.append({"scramble": n, "found": found, "bfs": reference, "two_phase": best})
        done = [r for r in rows if r["scramble"] == n]
        optimal = [min((v for v in r["found"].values() if v is not None), default=None)
                   for r in done]
        log(f"[correctness] {n:2d} moves: optimal lengths {optimal} checked by "
            f"{how or 'the sets agreeing'}")
    log(f"[correctness] {len(rows)} scrambles, {len(failures)} failures {failures or ''}")
    return {"rows": rows, "failures": failures}


# ---- speed -------------------------------------------------------------------------------

def solve_many(solver, states, time_limit, label, first=0):
    import resource
    rows = []
    for i, state in enumerate(states):
        c0 = resource.getrusage(resource.RUSAGE_SELF)
        w0 = time.perf_counter()
        r = solver.solve(state, time_limit=time_limit)
        wall = time.perf_counter() - w0
        c1 = resource.getrusage(resource.RUSAGE_SELF)
        cpu = (c1.ru_utime + c1.ru_stime) - (c0.ru_utime + c0.ru_stime)
        rows.append({"length": r.length["htm"] if r.optimal else None,
                     "lower_bound": r.lower_bound, "optimal": r.optimal, "seconds": wall,
                     "cpu_seconds": cpu, "nodes": r.nodes})
        shown = f"{r.length['htm']:2d}*" if r.optimal else f">={r.lower_bound} "
        log(f"  {label} #{first + i + 1}: {shown} {wall:8.2f} s  {r.nodes:>14,} nodes  "
            f"{r.nodes / max(wall, 1e-9) / solver.threads / 1e6:6.2f} M/s/core wall  "
            f"{r.nodes / max(cpu, 1e-9) / 1e6:6.2f} M/s per CPU-second")
    return rows


def summarize(rows, threads):
    secs = [r["seconds"] for r in rows]
    nodes = sum(r["nodes"] for r in rows)
    wall = sum(secs)
    cpu = sum(r["cpu_seconds"] for r in rows)
    lengths = [r["length"] for r in rows if r["optimal"]]
    return {
        "cubes": len(rows), "solved_optimally": len(lengths),
        "mean_s": statistics.mean(secs), "median_s": statistics.median(secs), "max_s": max(secs),
        "mean_length": round(statistics.mean(lengths), 2) if lengths else None,
        "nodes": nodes, "mnodes_per_s_per_core_wall": nodes / max(wall, 1e-9) / threads / 1e6,
        "mnodes_per_cpu_s": nodes / max(cpu, 1e-9) / 1e6,
    }


def speed_states(n16: int, n18: int, n_random: int) -> dict:
    """The speed section's cubes by group (fixed seed: every run, and bench_task_order.py,
    sees the same ones)."""
    from cubelab.cube.random_states import random_state
    rng = np.random.default_rng(SEED + 2)
    return {
        "16-move scrambles": [state_of(scramble(rng, 16)) for _ in range(n16)],
        "18-move scrambles": [state_of(scramble(rng, 18)) for _ in range(n18)],
        "random states": [random_state(rng) for _ in range(n_random)],
    }


def bench_speed(sets, n16, n18, n_random, time_limit, threads):
    """Each cube is solved by every set in turn (side by side: the machine's load changes
    slowly, so neighbouring solves see the same load)."""
    from cubelab.solvers.korf.solver import KorfSolver
    groups = speed_states(n16, n18, n_random)
    solvers = {}
    for name in sets:
        # "SET/fixed": the same tables, the start nodes in their fixed order (what the order
        # by past cost gains, side by side)
        base, _, variant = name.partition("/")
        solvers[name] = KorfSolver(base, threads=threads, fallback=False,
                                   order_starts=variant != "fixed")
        solvers[name].prepare()
    out = {name: {} for name in sets}
    for label, states in groups.items():
        if not states:
            continue
        log(f"[speed] {label} ({len(states)} cubes, sets {', '.join(sets)} side by side, time "
            f"limit {time_limit} s):")
        rows = {name: [] for name in sets}
        for i, state in enumerate(states):
            for name in sets:
                rows[name] += solve_many(solvers[name], [state], time_limit, f"{name} {label}",
                                         first=i)
        for name in sets:
            s = summarize(rows[name], threads)
            out[name][label] = {"summary": s, "rows": rows[name]}
            log(f"[speed] {name}, {label}: mean {s['mean_s']:.2f} s, median {s['median_s']:.2f} s,"
                f" max {s['max_s']:.2f} s, {s['solved_optimally']}/{s['cubes']} optimal, mean "
                f"length {s['mean_length']}, {s['nodes'] / len(rows[name]):,.0f} nodes per cube, "
                f"{s['mnodes_per_s_per_core_wall']:.2f} M nodes/s per core (wall), "
                f"{s['mnodes_per_cpu_s']:.2f} M nodes per CPU-second")
        if len(sets) > 1:
            ref = out[sets[0]][label]["summary"]
            for name in sets[1:]:
                s = out[name][label]["summary"]
                log(f"[speed] {label}: {name} / {sets[0]}: mean time x"
                    f"{s['mean_s'] / max(ref['mean_s'], 1e-9):.2f}, median x"
                    f"{s['median_s'] / max(ref['median_s'], 1e-9):.2f}, nodes x"
                    f"{s['nodes'] / max(ref['nodes'], 1):.3f}")
    return out


def build_full_layers():
    """The full layer table (of the `layers` set), built through the store with its levels
    logged, for measuring the builder."""
    from cubelab.tables.korf.specs import layer_spec
    from cubelab.tables.store import load_or_build
    start = time.perf_counter()
    load_or_build(layer_spec(), log=log)
    log(f"[tables] korf.layers: ready in {time.perf_counter() - start:.1f} s")


# ---- memory and the superflip ------------------------------------------------------------

_MEMORY_PROBE = """
import json, sys
from cubelab.cube.random_states import random_state
from cubelab.solvers.korf.solver import KorfSolver
solver = KorfSolver(sys.argv[1], fallback=False)
solver.prepare()
solver.solve(random_state(int(sys.argv[2])), time_limit=float(sys.argv[3]))
status = dict(l.split(":", 1) for l in open("/proc/self/status") if ":" in l)
smaps = dict(l.split(":", 1) for l in open("/proc/self/smaps_rollup") if ":" in l)
kb = lambda d, k: int(d[k].split()[0]) if k in d else None
print(json.dumps({"peak_rss_mb": kb(status, "VmHWM") / 1024, "rss_mb": kb(status, "VmRSS") / 1024,
                  "anonymous_mb": kb(smaps, "Anonymous") / 1024,
                  "file_mapped_mb": (kb(smaps, "Rss") - kb(smaps, "Anonymous")) / 1024}))
"""


def bench_memory(sets, time_limit):
    """A solve in a fresh process per set: its peak resident memory, and how much of what stays
    resident is private (anonymous) against file pages shared with other processes."""
    import subprocess
    out = {}
    for name in sets:
        done = subprocess.run([sys.executable, "-c", _MEMORY_PROBE, name, str(SEED),
                               str(time_limit)], capture_output=True, text=True)
        if done.returncode:
            log(f"[memory] {name}: failed: {done.stderr.strip().splitlines()[-1:]}")
            continue
        out[name] = json.loads(done.stdout.strip().splitlines()[-1])
        m = out[name]
        log(f"[memory] {name}: a solve peaks at {m['peak_rss_mb']:.0f} MB resident; after it "
            f"{m['rss_mb']:.0f} MB, of which {m['anonymous_mb']:.0f} MB private and "
            f"{m['file_mapped_mb']:.0f} MB mapped table files")
    return out


_TUI_PROBE = """
import asyncio, json, resource, sys, tempfile
from pathlib import Path
from cubelab.tui.app import CubeLabApp
from cubelab.tui.history import InputHistory

def rss_mb():
    for line in open('/proc/self/status'):
        if line.startswith('VmRSS'):
            return int(line.split()[1]) / 1024

async def body():
    app = CubeLabApp(history=InputHistory(Path(tempfile.mkdtemp()) / 'h'),
                     compare_time_limit=None)
    async with app.run_test(size=(120, 40)) as pilot:
        before = rss_mb()
        for line in (sys.argv[1], ':solve korf'):
            await pilot.press(*line, 'enter')
            await pilot.pause()
        while True:
            await pilot.pause(0.5)
            rows = app.session.solutions
            if rows and rows[0].status != 'running' and not app.solver_panel.running:
                break
        after = rss_mb()
        row = rows[0]
        print(json.dumps({'before_mb': before, 'after_mb': after, 'status': row.status,
                          'length': len(row.moves or []),
                          'peak_mb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))

asyncio.run(body())
"""


def bench_tui_memory(alg: str):
    """The workbench in a fresh process (its tables built already): resident memory before a
    `:solve korf` (default set), after it, and at its peak."""
    import subprocess
    done = subprocess.run([sys.executable, "-c", _TUI_PROBE, alg], capture_output=True,
                          text=True)
    if done.returncode:
        log(f"[tui memory] failed: {done.stderr.strip().splitlines()[-3:]}")
        return None
    m = json.loads(done.stdout.strip().splitlines()[-1])
    log(f"[tui memory] workbench before :solve korf {m['before_mb']:.0f} MB, after "
        f"{m['after_mb']:.0f} MB, peak {m['peak_mb']:.0f} MB ({m['status']}, {m['length']} moves)")
    return m


def bench_superflip(name, time_limit, threads):
    """The superflip (optimum 20): time and nodes of every bound, as far as the limit allows."""
    from cubelab.cube.state import CubeState
    from cubelab.solvers.korf.solver import KorfSolver
    solver = KorfSolver(name, threads=threads, fallback=False)
    solver.prepare()
    superflip = CubeState(range(8), [0] * 8, range(12), [1] * 12)
    log(f"[superflip] {name}, {threads} threads, time limit {time_limit} s:")
    r = solver.solve(superflip, time_limit=time_limit)
    for b in r.detail["bounds"]:
        log(f"  bound {b['bound']:2d}: {b['nodes']:>16,} nodes {b['seconds']:9.2f} s")
    shown = f"{r.length['htm']} (optimal)" if r.optimal else f">= {r.lower_bound} ({r.status})"
    log(f"[superflip] {name}: {shown} in {r.seconds:.1f} s, {r.nodes:,} nodes")
    return {"set": name, "optimal": r.optimal, "length": r.length["htm"] if r.found else None,
            "lower_bound": r.lower_bound, "seconds": r.seconds, "nodes": r.nodes,
            "bounds": r.detail["bounds"]}


def bench_short(sets, per_length, threads):
    """Median milliseconds of a solve of short scrambles (optimum at most 13), per set: at
    these lengths the search takes well under a millisecond, the rest is the solve's own cost."""
    from cubelab.solvers.korf.solver import KorfSolver
    rng = np.random.default_rng(SEED + 3)
    lengths = (8, 10, 12, 13)
    groups = {n: [state_of(scramble(rng, n)) for _ in range(per_length)] for n in lengths}
    out = {}
    for name in sets:
        solver = KorfSolver(name, threads=threads, fallback=False)
        solver.prepare()
        for st in groups[8][:3]:
            solver.solve(st)        # the first solves page the tables in
        out[name] = {}
        for n, states in groups.items():
            ms = []
            for st in states:
                t = time.perf_counter()
                solver.solve(st)
                ms.append((time.perf_counter() - t) * 1000)
            out[name][n] = round(statistics.median(ms), 3)
            log(f"[short] {name}: {n}-move scrambles, median {out[name][n]:.2f} ms a solve "
                f"({len(ms)} solves)")
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="strong,korf1997")
    ap.add_argument("--skip", default="",
                    help="comma list of: tables,heuristic,correctness,speed,memory")
    ap.add_argument("--samples", type=int, default=20000, help="random states for heuristic")
    ap.add_argument("--per-length", type=int, default=3, help="correctness scrambles per length")
    ap.add_argument("--n16", type=int, default=20)
    ap.add_argument("--n18", type=int, default=20)
    ap.add_argument("--random", type=int, default=10)
    ap.add_argument("--speed-sets", default="strong",
                    help="sets timed on the speed section (SET/fixed: without the order of "
                         "the start nodes by past cost)")
    ap.add_argument("--time-limit", type=float, default=600.0, help="seconds per cube (speed)")
    ap.add_argument("--check-limit", type=float, default=60.0,
                    help="seconds per cube and set in the correctness section")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--memory-limit", type=float, default=60.0,
                    help="seconds of the solve whose memory is measured (memory section)")
    ap.add_argument("--superflip", help="prove the superflip's optimum with this set")
    ap.add_argument("--build-full-layers", action="store_true",
                    help="build the full layer table (2.75 GB, the layers set) and time it")
    ap.add_argument("--superflip-limit", type=float, default=900.0)
    ap.add_argument("--tui-memory", metavar="ALG",
                    help="the workbench's memory around a :solve korf of this scramble")
    ap.add_argument("--short", type=int, default=0, metavar="N",
                    help="time N solves each of 8..13-move scrambles per speed set")
    ap.add_argument("--json", help="write all figures to this file")
    args = ap.parse_args(argv)
    sets = [s for s in args.sets.split(",") if s]
    speed_sets = [s for s in args.speed_sets.split(",") if s]
    skip = set(args.skip.split(","))
    report = {"argv": sys.argv[1:]}
    if args.build_full_layers:
        build_full_layers()
    if "tables" not in skip:
        report["tables"] = bench_tables(sets)
    if "heuristic" not in skip:
        report["heuristic"] = bench_heuristic(sets, args.samples)
    if "correctness" not in skip:
        report["correctness"] = bench_correctness(sets, args.per_length, range(4, 15),
                                                  args.check_limit)
    if "speed" not in skip:
        report["speed"] = bench_speed(speed_sets, args.n16, args.n18, args.random,
                                      args.time_limit, args.threads)
    if "memory" not in skip:
        report["memory"] = bench_memory(speed_sets, args.memory_limit)
    if args.tui_memory:
        report["tui_memory"] = bench_tui_memory(args.tui_memory)
    if args.short:
        report["short"] = bench_short(speed_sets, args.short, args.threads)
    if args.superflip:
        report["superflip"] = bench_superflip(args.superflip, args.superflip_limit, args.threads)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1, default=str)
    failures = report.get("correctness", {}).get("failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
