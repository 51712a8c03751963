"""How fast each long-running command ends after Ctrl-C or SIGTERM: the time from the signal to
the process's exit, at random moments (start-up, table loading, compiling, searching).

Uses the data and cache directories of the environment (CUBELAB_DATA_DIR, CUBELAB_CACHE_DIR):
build the tables first for figures about searches rather than builds. Each command is a
contender (-n runs each, a random delay up to --max-delay and a random signal per run, the same
for every command); medians and maxima, with the exit statuses seen.

    .venv/bin/python bench/bench_interrupt.py [-n 5] [--max-delay 8] [--only korf,count]
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time

from contenders import Function
from harness import Bench

SUPERFLIP = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2"

COMMANDS = {
    "two-phase-60s": ["solve", "--time-limit", "60", SUPERFLIP],
    "two-phase-16": ["solve", "--max-length", "16", SUPERFLIP],
    "korf": ["solve", "--solver", "korf", SUPERFLIP],
    "bfs": ["solve", "--solver", "bfs", "R U F D L"],
    "astar": ["solve", "--solver", "astar", "R U F D L B R2 U' F2 L' D2 B'"],
    "search-12-ll": ["search", "--max-length", "12", "ll"],
    "count-11": ["count", "--depth", "11"],
    "bench-bfs-astar": ["bench", "--solvers", "bfs,astar", "--depths", "4-6", "-k", "3"],
}

bench = Bench(__file__, __doc__, count=5, seed=18)
bench.parser.add_argument("--max-delay", type=float, default=8.0)


def stop_once(command: list[str], case: dict) -> dict:
    p = subprocess.Popen([sys.executable, "-m", "cubelab.tui.cli", *command],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(case["delay"])
    t0 = time.perf_counter()
    p.send_signal(case["signal"])
    p.wait(120)
    took = time.perf_counter() - t0
    return {"seconds": took if p.returncode in (130, 143) else None, "exit": p.returncode,
            "stopped_by_the_signal": p.returncode in (130, 143)}


@bench.contender("command", variants=lambda args: list(COMMANDS))
def _command(args, name):
    return Function(name, lambda case: stop_once(COMMANDS[name], case))


def main(argv=None) -> int:
    args = bench.parse(argv)
    rng = random.Random(args.seed)
    cases = [{"id": k, "delay": rng.uniform(0.3, args.max_delay),
              "signal": int(rng.choice([signal.SIGINT, signal.SIGTERM]))}
             for k in range(args.count)]
    bench.begin(args)
    results = bench.compare(args, cases, fields=("seconds", "stopped_by_the_signal"),
                            show=lambda c, case, o: f"exit {o['exit']}")
    for name, outcomes in results.items():
        codes = {}
        for o in outcomes:
            codes[o.get("exit")] = codes.get(o.get("exit"), 0) + 1
        print(f"{name:<16} exits {codes}")
    bench.finish(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
