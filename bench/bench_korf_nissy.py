"""Benchmark Korf's solver against nissy's H48 optimal solver on the same random states, side by side.

nissy-core (Sebastiano Tronto's H48 solver, the fastest published optimal solver per table byte)
is not on PyPI: build its library from a checkout of https://github.com/sebastianotronto/nissy-core
and generate its table with its own tool (both use the machine's cores):

    THREADS=2 ./build.sh sharedlib && cc -shared -pthread -o libnissy.so nissy.o
    THREADS=2 ./build.sh tool gendata h48h7           # writes tables/h48h7 (3.8 GB)

then, from our project root:

    .venv/bin/python bench/bench_korf_nissy.py --nissy NISSY_DIR --random 20
    .venv/bin/python bench/bench_korf_nissy.py --nissy NISSY_DIR --solver h48h7 --set layers \\
        --random 100 --json out.json

The states are the speed section's uniformly random states of bench_korf.py (the same fixed seed,
so its figures and these line up). nissy reads move sequences: each state is handed over as the
inverse of our two-phase solution, and both answers are checked on our model of the state. Both
solvers run two threads and look for one optimal solution; they take turns state by state (the
first one alternating), in this one process, so the machine's slowly changing load falls on both.
Their tables are loaded once, before the clock starts: nissy's into memory advised for huge pages,
as ours are, 64-byte aligned as its reader expects.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import statistics
import sys
import time
from pathlib import Path

SOLVED = b"ABCDEFGH=ABCDEFGHIJKL=A"
"""nissy's solved cube in its own notation."""
NISSFLAG_NORMAL = 1
N_STATS = 10
SOLUTIONS_BYTES = 1 << 16


class Nissy:
    """nissy's library through ctypes, one solver and its table in memory."""

    def __init__(self, directory: Path, solver: str, threads: int):
        from cubelab.tables.memory import zeroed
        lib_path = directory / "libnissy.so"
        if not lib_path.exists():
            raise SystemExit(f"{lib_path} is missing: build it as this script's docstring says")
        self.lib = lib = ctypes.CDLL(str(lib_path))
        lib.nissy_solverinfo.restype = ctypes.c_longlong
        lib.nissy_checkdata.restype = ctypes.c_longlong
        lib.nissy_checkdata.argtypes = [ctypes.c_char_p, ctypes.c_ulonglong, ctypes.c_void_p]
        lib.nissy_applymoves.restype = ctypes.c_longlong
        lib.nissy_solve.restype = ctypes.c_longlong
        lib.nissy_solve.argtypes = (
            [ctypes.c_char_p, ctypes.c_char_p] + [ctypes.c_uint] * 6
            + [ctypes.c_ulonglong, ctypes.c_void_p, ctypes.c_uint, ctypes.c_char_p,
               ctypes.POINTER(ctypes.c_longlong), ctypes.c_void_p, ctypes.c_void_p])
        self.solver = solver.encode()
        self.threads = threads
        data_id = ctypes.create_string_buffer(256)
        size = lib.nissy_solverinfo(self.solver, data_id)
        if size <= 0:
            raise SystemExit(f"nissy does not know the solver {solver!r}")
        table = directory / "tables" / data_id.value.decode()
        if not table.exists() or table.stat().st_size != size:
            raise SystemExit(f"{table} is missing or incomplete: generate it with nissy's "
                             f"'./build.sh tool gendata {solver}'")
        t = time.perf_counter()
        # a mapping starts on a page boundary: 64-byte aligned, as nissy's reader requires
        self.data = zeroed(size, huge_pages=True)
        with open(table, "rb") as f:
            f.readinto(memoryview(self.data))
        if lib.nissy_checkdata(self.solver, size, self.data.ctypes.data) != 0:
            raise SystemExit(f"{table} fails nissy's own check")
        self.load_seconds = time.perf_counter() - t
        self.stats = (ctypes.c_longlong * N_STATS)()

    def solve(self, scramble: str) -> tuple[str, int]:
        """One optimal solution of the position the scramble reaches, and the nodes visited."""
        cube = ctypes.create_string_buffer(32)
        if self.lib.nissy_applymoves(SOLVED, scramble.encode(), cube) != 0:
            raise ValueError(f"nissy rejects the scramble {scramble!r}")
        out = ctypes.create_string_buffer(SOLUTIONS_BYTES)
        found = self.lib.nissy_solve(cube.value, self.solver, NISSFLAG_NORMAL, 0, 20, 1, 0,
                                     self.threads, self.data.nbytes, self.data.ctypes.data,
                                     SOLUTIONS_BYTES, out, self.stats, None, None)
        if found < 1:
            raise RuntimeError(f"nissy found no solution (code {found}) for {scramble!r}")
        return out.value.decode().split("\n")[0], int(self.stats[0])


def summary(rows: list[dict], who: str) -> dict:
    seconds = [r[who]["seconds"] for r in rows]
    nodes = [r[who]["nodes"] for r in rows]
    return {"mean_s": statistics.fmean(seconds), "median_s": statistics.median(seconds),
            "max_s": max(seconds), "nodes_per_cube": statistics.fmean(nodes)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nissy", required=True, metavar="DIR",
                    help="nissy-core checkout holding libnissy.so and tables/")
    ap.add_argument("--solver", default="h48h7", help="nissy's solver (h48h0 .. h48h11)")
    ap.add_argument("--set", default="layers", help="our table set")
    ap.add_argument("--random", type=int, default=20, help="random states")
    ap.add_argument("--first", type=int, default=0, help="skip this many of them")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--json", metavar="PATH", help="write every row as JSON")
    args = ap.parse_args(argv)

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_korf import speed_states
    from cubelab.cube.moves import apply_moves
    from cubelab.cube.notation import format_moves, invert_moves, parse_moves
    from cubelab.solvers import get_solver
    from cubelab.solvers.korf.solver import KorfSolver

    t = time.perf_counter()
    ours = KorfSolver(args.set, threads=args.threads, fallback=False)
    ours.prepare()
    print(f"korf ({args.set}): tables loaded in {time.perf_counter() - t:.1f} s")
    peer = Nissy(Path(args.nissy), args.solver, args.threads)
    print(f"nissy ({args.solver}): table loaded and checked in {peer.load_seconds:.1f} s")
    two_phase = get_solver("kociemba")
    states = speed_states(0, 0, args.first + args.random)["random states"][args.first:]
    scrambles = [format_moves(invert_moves(two_phase.solve(s).moves)) for s in states]
    # compile and fault in both before the clock runs
    ours.solve(states[0])
    peer.solve(scrambles[0])

    print(f"{'#':>4} {'len':>3} {'ours s':>8} {'nissy s':>8} {'n/ours':>7} "
          f"{'ours Mnodes':>11} {'nissy Mnodes':>12}")
    rows = []
    for i, (state, scramble) in enumerate(zip(states, scrambles), start=args.first):
        if apply_moves(type(state).identity(), parse_moves(scramble)) != state:
            raise AssertionError(f"state {i}: the scramble handed to nissy is wrong")
        row = {"state": i, "scramble": scramble}
        for who in (("ours", "nissy") if i % 2 == 0 else ("nissy", "ours")):
            t = time.perf_counter()
            if who == "ours":
                r = ours.solve(state)
                row["ours"] = {"seconds": time.perf_counter() - t, "length": r.length["htm"],
                               "optimal": r.optimal, "nodes": r.nodes, "solution": r.text()}
            else:
                solution, nodes = peer.solve(scramble)
                seconds = time.perf_counter() - t
                solves = apply_moves(state, parse_moves(solution)).is_solved()
                row["nissy"] = {"seconds": seconds, "length": len(parse_moves(solution)),
                                "solves": solves, "nodes": nodes, "solution": solution}
        row["agree"] = (row["ours"]["optimal"] and row["nissy"]["solves"]
                        and row["ours"]["length"] == row["nissy"]["length"])
        rows.append(row)
        o, n = row["ours"], row["nissy"]
        print(f"{i:>4} {o['length']:>3} {o['seconds']:>8.2f} {n['seconds']:>8.2f} "
              f"{n['seconds'] / o['seconds']:>7.2f} {o['nodes'] / 1e6:>11.1f} "
              f"{n['nodes'] / 1e6:>12.1f}{'' if row['agree'] else '  DISAGREE'}", flush=True)

    result = {"argv": sys.argv[1:], "ours": summary(rows, "ours"),
              "nissy": summary(rows, "nissy"), "rows": rows,
              "median_ratio_nissy_over_ours": statistics.median(
                  r["nissy"]["seconds"] / r["ours"]["seconds"] for r in rows),
              "all_agree": all(r["agree"] for r in rows)}
    for who in ("ours", "nissy"):
        s = result[who]
        print(f"{who:>5}: mean {s['mean_s']:.2f} s, median {s['median_s']:.2f} s, "
              f"max {s['max_s']:.2f} s, {s['nodes_per_cube'] / 1e6:.1f} M nodes per cube")
    print(f"median per-state ratio nissy/ours: {result['median_ratio_nissy_over_ours']:.2f}; "
          f"ratio of means: {result['nissy']['mean_s'] / result['ours']['mean_s']:.2f}; "
          f"all lengths agree: {result['all_agree']}")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))
    return 0 if result["all_agree"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
