"""Benchmark Korf's solver in the quarter-turn metric against Michael Reid's optimal solver.

Reid's `optimal` program (shipped in the PyPI package passagemath-rubiks, `pip install
'cubelab[bench]'`) proves optima in QTM as shipped. Both solve the same positions, one after the
other in this one run: scrambles of 8, 12 and 14 random face turns (a fixed seed). For each we
report the QTM optimum each proves (they must agree, and Reid's solution must solve our model's
position), the wall time to the first optimal solution and the CPU time (the machine is shared:
CPU time is the steadier figure; ours runs two threads, Reid's one).

    .venv/bin/python bench/bench_korf_qtm.py                      # 5 positions per length
    .venv/bin/python bench/bench_korf_qtm.py --lengths 8,12,14 --count 10 --json out.json

Reid's program builds its own table (about half a minute) when it starts; that, like the load of
our tables, is reported apart and not counted per position. Its time per position is measured
from the moment the position is written to the moment its first (optimal) solution is printed;
the rest of its search at that depth (it looks for every solution) is then interrupted, as
Ctrl-C does at its prompt.
"""

from __future__ import annotations

import argparse
import json
import os
import pty
import re
import select
import signal
import statistics
import sysconfig
import time
from pathlib import Path

PROMPT = b"enter cube"
SOLUTION = re.compile(rb"([URFDLB' 2]+?)\s+\((\d+)q\*?, (\d+)f\*?\)")


def reid_program() -> Path:
    """Where pip put Reid's program (the passagemath-rubiks wheel's own binary)."""
    path = Path(sysconfig.get_paths()["purelib"]) / "sage_wheels" / "bin" / "optimal"
    if not path.exists():
        raise SystemExit("Reid's optimal solver is missing: pip install passagemath-rubiks")
    return path


class Reid:
    """Reid's `optimal` on a pseudo-terminal (so it prints line by line and Ctrl-C stops a
    search), fed one position at a time in its 20-piece notation."""

    def __init__(self, program: Path):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:                       # the child: the program, quarter turns
            os.execv(str(program), [str(program)])
        self.buf = b""
        t = time.perf_counter()
        self._read_until(lambda: PROMPT in self.buf, timeout=600)
        self.startup = time.perf_counter() - t
        self.buf = b""

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

    def solve(self, singmaster: str, timeout: float) -> dict:
        """Reid's first (optimal) solution, or qtm None when none came within timeout."""
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
            return {"moves": [], "qtm": None, "htm": None, "seconds": seconds, "cpu": cpu}
        return {"moves": match.group(1).decode().split(), "qtm": int(match.group(2)),
                "htm": int(match.group(3)), "seconds": seconds, "cpu": cpu}

    def close(self):
        os.kill(self.pid, signal.SIGTERM)
        os.waitpid(self.pid, 0)
        os.close(self.fd)


def positions(lengths, count, seed):
    from cubelab.cube.random_states import face_scramble, generator
    g = generator(seed)
    return [(n, face_scramble(g, n)) for n in lengths for _ in range(count)]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lengths", default="8,12,14", help="scramble lengths in face turns")
    ap.add_argument("--count", type=int, default=5, help="positions per length")
    ap.add_argument("--seed", type=int, default=2014)
    ap.add_argument("--timeout", type=float, default=600, help="seconds per position and solver")
    ap.add_argument("--json", metavar="PATH", help="write every row as JSON")
    args = ap.parse_args(argv)

    from cubelab.cube.facelets import to_singmaster
    from cubelab.cube.moves import apply_moves
    from cubelab.cube.notation import format_moves, parse_moves
    from cubelab.cube.state import CubeState
    from cubelab.solvers.korf.solver import KorfSolver

    t = time.perf_counter()
    ours = KorfSolver(metric="qtm", fallback=False)
    ours.prepare()
    print(f"korf-qtm: tables loaded and kernel compiled in {time.perf_counter() - t:.1f} s")
    reid = Reid(reid_program())
    print(f"Reid's optimal: started (its table built) in {reid.startup:.1f} s\n")
    print(f"{'n':>3} {'scramble':<44} {'QTM':>4} {'ours s':>8} {'cpu':>7} {'Reid s':>8} "
          f"{'cpu':>7} {'R/ours':>6}")
    rows = []
    try:
        for n, scramble in positions([int(x) for x in args.lengths.split(",")], args.count,
                                     args.seed):
            state = apply_moves(CubeState.identity(), scramble)
            cpu0 = time.process_time()
            r = ours.solve(state, time_limit=args.timeout)
            mine = {"qtm": r.length["qtm"] if r.found else None, "seconds": r.seconds,
                    "cpu": time.process_time() - cpu0, "optimal": r.optimal,
                    "nodes": r.nodes, "solution": r.text()}
            theirs = reid.solve(to_singmaster(state), args.timeout)
            reid_solves = theirs["qtm"] is not None and apply_moves(
                state, parse_moves(" ".join(theirs["moves"]))).is_solved()
            agree = mine["optimal"] and mine["qtm"] == theirs["qtm"] and reid_solves
            rows.append({"scramble_length": n, "scramble": format_moves(scramble), "ours": mine,
                         "reid": theirs, "reid_solves": reid_solves, "agree": agree})
            print(f"{n:>3} {format_moves(scramble):<44} {mine['qtm'] or '-':>4} "
                  f"{mine['seconds']:>8.3f} {mine['cpu']:>7.3f} {theirs['seconds']:>8.3f} "
                  f"{theirs['cpu']:>7.3f} {theirs['seconds'] / max(mine['seconds'], 1e-6):>6.1f}"
                  + ("" if agree else f"   DISAGREE: ours {mine['qtm']} "
                     f"(optimal {mine['optimal']}), Reid's {theirs['qtm']} (None: timed out), "
                     f"his solution solves: {reid_solves}"), flush=True)
    except KeyboardInterrupt:
        print("interrupted: the positions so far")
    finally:
        reid.close()

    print("\nby scramble length: median seconds (ours / Reid's), total, ratio of totals")
    for n in sorted({r["scramble_length"] for r in rows}):
        part = [r for r in rows if r["scramble_length"] == n]
        for what in ("seconds", "cpu"):
            a = [r["ours"][what] for r in part]
            b = [r["reid"][what] for r in part]
            print(f"  {n:>2} face turns, {what:<7}: median {statistics.median(a):.3f} / "
                  f"{statistics.median(b):.3f}, total {sum(a):.2f} / {sum(b):.2f}, "
                  f"Reid/ours {sum(b) / max(sum(a), 1e-6):.1f}x; optima "
                  f"{sorted(r['ours']['qtm'] or 0 for r in part)}")
    print(f"all agree: {all(r['agree'] for r in rows)} ({len(rows)} positions)")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0 if all(r["agree"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
