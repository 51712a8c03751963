"""Korf's solver in the quarter-turn metric beside Michael Reid's optimal solver, position by
position.

Reid's `optimal` program (shipped in the PyPI package passagemath-rubiks, `pip install
'cubelab[bench]'`) proves optima in QTM. Both solve the same scrambles of 8, 12 and 14 random
face turns (--lengths; -n per length): the QTM optimum each proves (they must agree, and Reid's
solution must solve our model's position), the wall time to the first optimal solution and the
CPU time (ours runs two threads, Reid's one). Exits 1 if they disagree.

    .venv/bin/python bench/bench_korf_qtm.py                      # 5 positions per length
    .venv/bin/python bench/bench_korf_qtm.py --lengths 8,12,14 -n 10
    .venv/bin/python bench/bench_korf_qtm.py --lengths 14 -n 10 --quarter   # 14 quarter turns

Reid's program builds its own table (about half a minute) when it starts; that, like the load of
our tables, is reported apart. Its time per position runs from the moment the position is
written to the moment its first (optimal) solution is printed; the rest of its search at that
depth (it looks for every solution) is then interrupted, as Ctrl-C does at its prompt.
"""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import sysconfig
import time
from pathlib import Path

from contenders import Contender, Solve
from harness import Bench, scrambles, state_of

bench = Bench(__file__, __doc__, count=5, seed=2014)
bench.parser.add_argument("--lengths", default="8,12,14", help="scramble lengths in face turns")
bench.parser.add_argument("--quarter", action="store_true",
                          help="scrambles of quarter turns only (--lengths counts quarter turns)")
bench.parser.add_argument("--timeout", type=float, default=600,
                          help="seconds per position and solver")

PROMPT = b"enter cube"
SOLUTION = re.compile(rb"([URFDLB' 2]+?)\s+\((\d+)q\*?, (\d+)f\*?\)")


def reid_program() -> Path:
    """Where pip put Reid's program (the passagemath-rubiks wheel's own binary)."""
    path = Path(sysconfig.get_paths()["purelib"]) / "sage_wheels" / "bin" / "optimal"
    if not path.exists():
        raise SystemExit("Reid's optimal solver is missing: pip install passagemath-rubiks")
    return path


class Reid(Contender):
    """Reid's `optimal` on a pseudo-terminal (so it prints line by line and Ctrl-C stops a
    search), fed one position at a time in its 20-piece notation."""

    measures_itself = True

    def __init__(self, program: Path, timeout: float):
        self.name, self.program, self.timeout = "reid", program, timeout
        self.pid = None

    def prepare(self):
        program = self.program
        self.pid, self.fd = pty.fork()
        if self.pid == 0:                       # the child: the program, quarter turns
            os.execv(str(program), [str(program)])
        self.buf = b""
        t = time.perf_counter()
        self._read_until(lambda: PROMPT in self.buf, timeout=600)
        self.buf = b""
        return {"start_seconds": time.perf_counter() - t}

    def _read_until(self, done, timeout: float):
        end = time.monotonic() + timeout
        while not done():
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"Reid's solver said nothing useful in {timeout} s")
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                chunk = os.read(self.fd, 4096)
                if not chunk:
                    raise EOFError("Reid's solver ended")
                self.buf += chunk

    def cpu(self) -> float:
        """The program's CPU seconds so far (user + system, from /proc)."""
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def setup(self, case):
        from cubelab.cube.facelets import to_singmaster
        return to_singmaster(state_of(case))

    def run(self, singmaster: str) -> dict:
        """Reid's first (optimal) solution, or qtm None when none came within the timeout."""
        timeout = self.timeout
        cpu0, t = self.cpu(), time.perf_counter()
        os.write(self.fd, singmaster.encode() + b"\n")
        try:
            self._read_until(lambda: SOLUTION.search(self.buf), timeout)
        except TimeoutError:
            pass
        seconds, cpu = time.perf_counter() - t, self.cpu() - cpu0
        match = SOLUTION.search(self.buf)
        os.write(self.fd, b"\x03")              # enough: the first solution is optimal
        self._read_until(lambda: PROMPT in self.buf[match.end() if match else 0:], 60)
        self.buf = b""
        if match is None:
            return {"solution": "", "qtm": None, "seconds": seconds, "cpu_seconds": cpu}
        return {"solution": match.group(1).decode().strip(), "qtm": int(match.group(2)),
                "seconds": seconds, "cpu_seconds": cpu}

    def close(self):
        if getattr(self, "pid", None) is None:
            return
        os.kill(self.pid, signal.SIGTERM)
        os.waitpid(self.pid, 0)
        os.close(self.fd)


@bench.contender("korf-qtm")
def _ours(args):
    from cubelab.solvers.korf.solver import KorfSolver
    return Solve("korf-qtm", lambda: KorfSolver(metric="qtm", fallback=False),
                 time_limit=args.timeout,
                 detail=lambda r: {"qtm": r.length["qtm"] if r.found else None,
                                   "solution": r.text()})


@bench.contender("reid")
def _reid(args):
    return Reid(reid_program(), args.timeout)


def main(argv=None) -> int:
    from cubelab.cube.moves import apply_moves
    from cubelab.cube.notation import parse_moves
    args = bench.parse(argv)
    cases = [dict(c, id=f"{n}:{c['id']}") for n in map(int, args.lengths.split(","))
             for c in scrambles(args.count, n, args.seed, quarter=args.quarter)]
    bench.begin(args)
    results = bench.compare(args, cases, fields=("seconds", "cpu_seconds", "qtm"),
                            show=lambda c, case, o: f"{o.get('qtm')} q")
    agree = True
    if {"korf-qtm", "reid"} <= set(results):
        for case, ours, theirs in zip(cases, results["korf-qtm"], results["reid"]):
            solves = bool(theirs.get("solution")) and apply_moves(
                state_of(case), parse_moves(theirs["solution"])).is_solved()
            same = ours.get("optimal") and ours.get("qtm") == theirs.get("qtm") and solves
            agree &= bool(same)
            if not same:
                print(f"DISAGREE on {case['scramble']}: ours {ours.get('qtm')} (optimal "
                      f"{ours.get('optimal')}), Reid's {theirs.get('qtm')}, his solves: {solves}")
        print(f"all agree: {agree} ({len(cases)} positions)")
    bench.finish(args, all_agree=agree)
    return 0 if agree else 1


if __name__ == "__main__":
    raise SystemExit(main())
