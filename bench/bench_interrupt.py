"""How fast each long-running command ends after Ctrl-C or SIGTERM: the time from the signal to
the process's exit, at random moments (startup, table loading, compiling, searching).

Uses the data and cache directories of the environment (CUBELAB_DATA_DIR, CUBELAB_CACHE_DIR):
build the tables first for figures about searches rather than builds. Medians and maxima in
milliseconds, with the exit statuses seen. `--solvers` stops `solve --solver NAME` of every
registered solver instead, from `--min-delay` (0.05 s: start-up included); `--load` keeps every
core busy meanwhile (a loop per core), as a shared machine is. Ctrl-C goes to the process group,
as a terminal sends it.

    python bench/bench_interrupt.py [--runs 5] [--max-delay 8] [--solvers] [--load]
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from collections import Counter

SUPERFLIP = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2"

COMMANDS = {
    "solve (two-phase, --time-limit 60)": ["solve", "--time-limit", "60", SUPERFLIP],
    "solve (two-phase, --max-length 16)": ["solve", "--max-length", "16", SUPERFLIP],
    "solve --solver korf": ["solve", "--solver", "korf", SUPERFLIP],
    "solve --solver bfs": ["solve", "--solver", "bfs", "R U F D L"],
    "solve --solver astar": ["solve", "--solver", "astar", "R U F D L B R2 U' F2 L' D2 B'"],
    "search -n 12 ll": ["search", "--max-length", "12", "ll"],
    "count --depth 11": ["count", "--depth", "11"],
    "bench bfs,astar": ["bench", "--solvers", "bfs,astar", "--depths", "4-6", "-k", "3"],
}


PROGRAM = "cubelab.tui.entry"
"""The module started (--module: another program's entry, for a side-by-side run)."""


def stop_once(args: list[str], delay: float, sig: int) -> tuple[float, int]:
    p = subprocess.Popen([sys.executable, "-m", PROGRAM, *args],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)
    time.sleep(delay)
    t0 = time.perf_counter()
    try:
        if sig == signal.SIGINT:
            os.killpg(p.pid, sig)       # Ctrl-C reaches the whole command
        else:
            p.send_signal(sig)
    except ProcessLookupError:
        pass
    p.wait(120)
    return time.perf_counter() - t0, p.returncode


def solver_commands() -> dict[str, list[str]]:
    from cubelab.solvers import solver_names
    out = {}
    for name in solver_names("3x3") + solver_names("2x2"):
        puzzle = ["--puzzle", "2x2"] if name.startswith("pocket") else []
        position = ("R U F R' U2 F'" if puzzle else "R U F D L" if name == "bfs"
                    else SUPERFLIP if name.startswith(("korf", "kociemba"))
                    else "R U F D L B R2 U' F2 L' D2 B'")
        out[f"solve --solver {name}"] = ["solve", "--solver", name, *puzzle, "--time-limit",
                                         "60", position]
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--max-delay", type=float, default=8.0)
    parser.add_argument("--only", help="commands whose label contains this text")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--min-delay", type=float, default=0.3)
    parser.add_argument("--solvers", action="store_true", help="every solver's solve instead")
    parser.add_argument("--load", action="store_true", help="a busy loop on every core")
    parser.add_argument("--module", default="cubelab.tui.entry", help="the program's entry module")
    args = parser.parse_args(argv)
    global PROGRAM
    PROGRAM = args.module
    rng = random.Random(args.seed)
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
             for _ in range(os.cpu_count() or 1)] if args.load else []
    try:
        _measure(args, rng, solver_commands() if args.solvers else COMMANDS)
    finally:
        for p in loops:
            p.kill()
            p.wait()
    return 0


def _measure(args, rng, commands) -> None:
    for label, command in commands.items():
        if args.only and args.only not in label:
            continue
        seconds, codes = [], Counter()
        for _ in range(args.runs):
            sig = rng.choice([signal.SIGINT, signal.SIGTERM])
            took, code = stop_once(command, rng.uniform(args.min_delay, args.max_delay), sig)
            codes[code] += 1
            if code in (130, 143):
                seconds.append(took)
        ms = [1000 * s for s in seconds]
        figures = (f"median {statistics.median(ms):6.0f} ms  max {max(ms):6.0f} ms"
                   if ms else "never stopped by the signal")
        print(f"{label:<38} {figures}  exits {dict(codes)}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
