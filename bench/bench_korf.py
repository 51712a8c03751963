"""Korf's optimal solver: speed per table set side by side, and its tables, heuristic,
correctness and memory.

Sections (--sections, comma separated; default speed):
- speed: time per cube of every set in --sets, cube by cube on the same cases: 16- and 18-move
  scrambles (--n16, --n18) and -n uniformly random states; length, nodes, nodes per second per
  core (wall) and per CPU-second. A cube stopped by --time-limit counts with the time spent.
  (SET/fixed: the same tables, the start nodes in their fixed order.)
- short: --short N scrambles each of 8, 10, 12, 13 face turns: what a solve costs beyond its
  search (median milliseconds).
- tables: build time (from the files' headers) and size of every set (built here if missing);
  --build-full-layers builds the layers set's table with its levels logged, timed (wall and
  CPU; point CUBELAB_DATA_DIR at an empty directory to build it afresh).
- heuristic: the average heuristic over --samples random states, and korf1997's table means
  (8.878 in Korf's paper).
- correctness: scrambles of 4..14 moves solved by every set, checked against breadth-first
  search up to 5 moves, beyond against each other and the two-phase solver's best.
- memory: a solve in a fresh process per set: peak resident memory, private against mapped.
- tui-memory (--tui-memory ALG): the workbench's resident memory before, after and at the peak
  of a `:solve korf` of ALG.
- superflip (--superflip SET): its optimum proven, the time and nodes of every bound.

    CUBELAB_DATA_DIR=... .venv/bin/python bench/bench_korf.py --sets layers -n 20
    .venv/bin/python bench/bench_korf.py --sets strong,layers --n16 20 --sections speed,memory
    .venv/bin/python bench/bench_korf.py --sets layers -n 10 --checkout base=../base --checkout new=.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

from contenders import Solve
from harness import Bench, describe, random_states, scrambles, state_of

bench = Bench(__file__, __doc__, count=10)
p = bench.parser
p.add_argument("--sets", default="layers", help="table sets (SET/fixed: fixed start order)")
p.add_argument("--sections", default="speed",
               help="speed,short,tables,heuristic,correctness,memory,superflip")
p.add_argument("--n16", type=int, default=0, help="16-move scrambles (speed)")
p.add_argument("--n18", type=int, default=0, help="18-move scrambles (speed)")
p.add_argument("--time-limit", type=float, default=600.0, help="seconds per cube (speed)")
p.add_argument("--threads", type=int, default=2)
p.add_argument("--short", type=int, default=10, metavar="N", help="scrambles per length (short)")
p.add_argument("--samples", type=int, default=20000, help="random states (heuristic)")
p.add_argument("--per-length", type=int, default=3, help="scrambles per length (correctness)")
p.add_argument("--check-limit", type=float, default=60.0, help="seconds a cube (correctness)")
p.add_argument("--memory-limit", type=float, default=60.0, help="seconds of the solve (memory)")
p.add_argument("--superflip", metavar="SET", help="prove the superflip's optimum with this set")
p.add_argument("--superflip-limit", type=float, default=900.0)
p.add_argument("--build-full-layers", action="store_true")
p.add_argument("--tui-memory", metavar="ALG", help="the workbench's memory around :solve korf")


def solver(name: str, threads: int):
    from cubelab.solvers.korf.solver import KorfSolver
    base, _, variant = name.partition("/")
    return KorfSolver(base, threads=threads, fallback=False, order_starts=variant != "fixed")


@bench.contender("set", variants=lambda args: args.sets.split(","))
def _set(args, name):
    return Solve(name, lambda: solver(name, args.threads), time_limit=args.time_limit)


def rates(threads):
    def derive(c, o):
        return {"mnodes_per_s_per_core": o["nodes"] / max(o["seconds"], 1e-9) / threads / 1e6,
                "mnodes_per_cpu_s": o["nodes"] / max(o["cpu_seconds"], 1e-9) / 1e6}
    return derive


def show(c, case, o):
    length = f"{o['length']:2d}*" if o["optimal"] else f">={o['lower_bound']}"
    return f"{length} {o['nodes']:>14,} nodes"


def bench_speed(args):
    groups = {"16-move scrambles": scrambles(args.n16, 16, args.seed),
              "18-move scrambles": scrambles(args.n18, 18, args.seed),
              "random states": random_states(args.count, args.seed)}
    fields = ("seconds", "nodes", "mnodes_per_s_per_core", "mnodes_per_cpu_s", "length")
    for label, cases in groups.items():
        if cases:
            bench.compare(args, cases, label=label, fields=fields, show=show,
                          derive=rates(args.threads))


def bench_short(args):
    """Median milliseconds of solves of short scrambles: the search takes well under a
    millisecond there, the rest is the solve's own cost."""
    cases = [dict(c, id=f"{n}:{c['id']}") for n in (8, 10, 12, 13)
             for c in scrambles(args.short, n, args.seed)]
    out = bench.compare(args, cases, label="short", fields=("seconds",))
    by_length = {name: {n: describe(o["seconds"] * 1000 for o in rows
                                    if str(o["case"]).startswith(f"{n}:"))["median"]
                        for n in (8, 10, 12, 13)} for name, rows in out.items()}
    print(f"[short] median ms by scramble length: {by_length}")
    return by_length


def bench_tables(args):
    from cubelab.tables.fileformat import read_header
    from cubelab.solvers.korf.sets import korf_set
    from cubelab.tables.korf.specs import layer_spec
    from cubelab.tables.store import load_or_build, table_path
    if args.build_full_layers:
        # wall and CPU (user + sys of this process: both build threads), with the load around
        # it: on a shared machine the wall time says as much about the others as about the build
        import os
        load = os.getloadavg()[0]
        start, cpu = time.perf_counter(), os.times()
        load_or_build(layer_spec(), log=print)
        end = os.times()
        used = end.user - cpu.user + end.system - cpu.system
        print(f"[tables] korf.layers: ready in {time.perf_counter() - start:.1f} s, "
              f"{used:.1f} s CPU (load {load:.1f} before, {os.getloadavg()[0]:.1f} after)")
    out = {}
    for name in {s.partition("/")[0] for s in args.sets.split(",")}:
        rows = []
        for spec in korf_set(name).tables().specs:
            start = time.perf_counter()
            load_or_build(spec, log=lambda m: None)
            header, _ = read_header(table_path(spec), spec)
            rows.append({"table": spec.name, "bytes": header["nbytes"],
                         "build_s": header["build_seconds"],
                         "load_s": round(time.perf_counter() - start, 2)})
        out[name] = rows
        print(f"[tables] {name}: " + ", ".join(
            f"{r['table']} {r['bytes'] / 1e6:.1f} MB built in {r['build_s']} s" for r in rows))
    return out


def bench_heuristic(args):
    import numpy as np

    from cubelab.tables.korf.coords import N_CORNERS, N_EDGE6
    from cubelab.solvers.korf.sets import korf_set
    from cubelab.tables.packed import unpack4
    out = {}
    sets = {s.partition("/")[0] for s in args.sets.split(",")}
    if "korf1997" in sets:
        corners, ea, eb = korf_set("korf1997").tables().load()
        out["korf1997_table_means"] = {
            label: float(unpack4(tab, n).mean(dtype=np.float64))
            for label, tab, n in (("corners", corners, N_CORNERS), ("edges_a", ea, N_EDGE6),
                                  ("edges_b", eb, N_EDGE6))}
        print(f"[heuristic] korf1997 table means {out['korf1997_table_means']}")
    states = [state_of(c) for c in random_states(args.samples, args.seed + 1)]
    for name in sets:
        s = solver(name, 1)
        s.prepare()
        h = [s.heuristic(x) for x in states]
        out[name] = {"mean": float(np.mean(h)), "histogram": {
            int(k): int(v) for k, v in zip(*np.unique(h, return_counts=True))}}
        print(f"[heuristic] {name}: mean {out[name]['mean']:.3f} over {len(h)} random states "
              f"{out[name]['histogram']}")
    return out


def bench_correctness(args):
    from cubelab.solvers import get_solver
    sets = [s for s in args.sets.split(",")]
    solvers = {name: solver(name, args.threads) for name in sets}
    for s in solvers.values():
        s.prepare()
    bfs, two_phase = get_solver("bfs"), get_solver("kociemba")
    two_phase.prepare()
    failures = []
    for n in range(4, 15):
        optima = []
        for case in scrambles(args.per_length, n, args.seed + 100 + n):
            state = state_of(case)
            found = {}
            for name, s in solvers.items():
                r = s.solve(state, time_limit=args.check_limit)
                found[name] = r.length["htm"] if r.optimal else None
                if r.found and not r.verified:
                    failures.append((case["scramble"], name, "unverified"))
            lengths = {v for v in found.values() if v is not None}
            reference = bfs.solve(state).length["htm"] if n <= 5 else None
            best = two_phase.solve(state, time_limit=1.0).length["htm"] if n > 5 else None
            if len(lengths) > 1 or (reference is not None and lengths and
                                    lengths != {reference}) or \
                    (best is not None and lengths and min(lengths) > best) or \
                    (lengths and max(lengths) > n):
                failures.append((case["scramble"], found, reference, best))
            optima.append(min(lengths, default=None))
        print(f"[correctness] {n:2d} moves: optima {optima}", flush=True)
    print(f"[correctness] {len(failures)} failures {failures or ''}")
    return failures


MEMORY_PROBE = """
import json, sys
from cubelab.cube.random_states import random_state
from cubelab.solvers.korf.solver import KorfSolver
solver = KorfSolver(sys.argv[1], fallback=False)
solver.prepare()
solver.solve(random_state(int(sys.argv[2])), time_limit=float(sys.argv[3]))
status = dict(l.split(":", 1) for l in open("/proc/self/status") if ":" in l)
smaps = dict(l.split(":", 1) for l in open("/proc/self/smaps_rollup") if ":" in l)
mb = lambda d, k: int(d[k].split()[0]) / 1024
print(json.dumps({"peak_rss_mb": mb(status, "VmHWM"), "rss_mb": mb(status, "VmRSS"),
                  "anonymous_mb": mb(smaps, "Anonymous"),
                  "file_mapped_mb": mb(smaps, "Rss") - mb(smaps, "Anonymous")}))
"""


def bench_memory(args):
    out = {}
    for name in args.sets.split(","):
        done = subprocess.run([sys.executable, "-c", MEMORY_PROBE, name.partition("/")[0],
                               str(args.seed), str(args.memory_limit)],
                              capture_output=True, text=True)
        if done.returncode:
            print(f"[memory] {name}: failed: {done.stderr.strip().splitlines()[-1:]}")
            continue
        out[name] = m = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"[memory] {name}: peak {m['peak_rss_mb']:.0f} MB resident; after the solve "
              f"{m['rss_mb']:.0f} MB, {m['anonymous_mb']:.0f} MB private, "
              f"{m['file_mapped_mb']:.0f} MB mapped table files")
    return out


TUI_PROBE = """
import asyncio, json, resource, sys, tempfile
from pathlib import Path
from cubelab.tui.app import CubeLabApp
from cubelab.tui.history import InputHistory

def rss_mb():
    return next(int(l.split()[1]) / 1024 for l in open('/proc/self/status')
                if l.startswith('VmRSS'))

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
        print(json.dumps({'before_mb': before, 'after_mb': rss_mb(), 'status': rows[0].status,
                          'length': len(rows[0].moves or []),
                          'peak_mb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))

asyncio.run(body())
"""


def bench_tui_memory(args):
    done = subprocess.run([sys.executable, "-c", TUI_PROBE, args.tui_memory],
                          capture_output=True, text=True)
    if done.returncode:
        print(f"[tui memory] failed: {done.stderr.strip().splitlines()[-3:]}")
        return None
    m = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"[tui memory] before :solve korf {m['before_mb']:.0f} MB, after {m['after_mb']:.0f} "
          f"MB, peak {m['peak_mb']:.0f} MB ({m['status']}, {m['length']} moves)")
    return m


def bench_superflip(args):
    from cubelab.cube.state import CubeState
    s = solver(args.superflip, args.threads)
    s.prepare()
    r = s.solve(CubeState(range(8), [0] * 8, range(12), [1] * 12),
                time_limit=args.superflip_limit)
    for b in r.detail["bounds"]:
        print(f"  bound {b['bound']:2d}: {b['nodes']:>16,} nodes {b['seconds']:9.2f} s")
    print(f"[superflip] {args.superflip}: "
          f"{r.length['htm'] if r.optimal else '>= %s' % r.lower_bound} in {r.seconds:.1f} s, "
          f"{r.nodes:,} nodes")
    return {"optimal": r.optimal, "lower_bound": r.lower_bound, "seconds": r.seconds,
            "nodes": r.nodes, "bounds": r.detail["bounds"]}


SECTIONS = {"tables": bench_tables, "heuristic": bench_heuristic,
            "correctness": bench_correctness, "speed": bench_speed, "short": bench_short,
            "memory": bench_memory, "tui-memory": bench_tui_memory,
            "superflip": bench_superflip}


def main(argv=None) -> int:
    args = bench.parse(argv)
    bench.begin(args, sets=args.sets, threads=args.threads)
    extra = {}
    chosen = [s for s in args.sections.split(",") if s]
    if args.superflip:
        chosen.append("superflip")
    if args.tui_memory:
        chosen.append("tui-memory")
    for section in chosen:
        extra[section] = SECTIONS[section](args)
    bench.finish(args, **extra)
    return 1 if extra.get("correctness") else 0


if __name__ == "__main__":
    raise SystemExit(main())
