"""How long the program takes to start, as a user meets it: `cubelab facts ALG` from the
command to its exit, `cubelab --help`, and the workbench from the command to its first screen
showing the position's facts (in a pseudo-terminal of 100x30).

Every run is a new interpreter, started the way the installed `cubelab` starts
(cubelab.tui.entry.run). Python's bytecode caches are used and kept (this environment sets
PYTHONDONTWRITEBYTECODE, which would make every start compile its modules again: the runs
here drop it, and an untimed run first writes the caches). The settings, the session and the
caches point at a fresh folder, so a saved session changes nothing. With --checkout, each tree
is timed from its own sources, cube by cube (the first contender rotating). With --python,
each start is timed with the cubelab installed for that interpreter (a venv's python): a
non-editable install is what users get, without the editable finder a development install
puts on every start.

    .venv/bin/python bench/bench_cli_start.py -n 21
    .venv/bin/python bench/bench_cli_start.py -n 21 --checkout base=../base --checkout new=.
    python3 -m venv /tmp/new && /tmp/new/bin/pip install -q .
    .venv/bin/python bench/bench_cli_start.py -n 21 --python base=/tmp/base/bin/python \\
        --python new=/tmp/new/bin/python
"""

from __future__ import annotations

import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from contenders import Function
from harness import Bench

bench = Bench(__file__, __doc__, count=11)
bench.parser.add_argument("--alg", default="R U R' U' F2 D' L")
bench.parser.add_argument("--starts", default="facts,help,workbench",
                          help="what to start: facts, help, workbench")
bench.parser.add_argument("--python", action="append", default=[], metavar="LABEL=EXE",
                          help="time the cubelab installed for this interpreter; repeat to "
                               "compare installs side by side")
bench.parser.add_argument("--as-is", action="store_true",
                          help="keep this environment's PYTHONDONTWRITEBYTECODE (every start "
                               "then compiles the modules it imports)")

PAINTED = b"order"
"""Text of the facts panel: the workbench has painted the position when it shows."""


def _environment(args, home: str) -> dict:
    env = dict(os.environ)
    if not args.as_is:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    for name in ("CONFIG", "STATE", "CACHE"):
        env[f"CUBELAB_{name}_DIR"] = os.path.join(home, name.lower())
    env["TERM"] = "xterm-256color"
    return env


def program(argv: list[str], python: str | None = None) -> list[str]:
    """A new interpreter running `cubelab ARGV` from the sources this process imports (the
    tree of a --checkout worker: its import root first on the path), or `python` running the
    cubelab installed for it."""
    if python:
        return [python, "-c", f"import sys; sys.argv = ['cubelab'] + {argv!r}; "
                              "from cubelab.tui.entry import run; run()"]
    import cubelab
    root = os.path.dirname(os.path.dirname(cubelab.__file__)) if cubelab.__file__ else ""
    code = (f"import sys; sys.path.insert(0, {root!r}) if {root!r} else None; "
            f"sys.argv = ['cubelab'] + {argv!r}; "
            "from cubelab.tui.entry import run; run()")
    return [sys.executable, "-c", code]


def _until_exit(argv: list[str], env: dict, python: str | None = None) -> dict:
    """Seconds from the start to the exit, and the CPU seconds the process used (user and
    system: on a busy shared machine they move far less than the wall time)."""
    t = time.perf_counter()
    proc = subprocess.Popen(program(argv, python), env=env, stdout=subprocess.DEVNULL,
                            stdin=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise RuntimeError(f"cubelab {' '.join(argv)} ended with {proc.returncode}")
    return {"seconds": seconds, "cpu_s": usage.ru_utime + usage.ru_stime}


def _until_painted(env: dict, size=(100, 30), timeout: float = 60.0,
                   python: str | None = None) -> float:
    """Seconds from the start of `cubelab` in a pseudo-terminal to PAINTED on its screen."""
    import fcntl
    import pty
    import struct
    import termios
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
    t = time.perf_counter()
    proc = subprocess.Popen(program([], python), stdin=slave, stdout=slave, stderr=slave, env=env,
                            start_new_session=True)
    os.close(slave)
    seen = b""
    try:
        while time.perf_counter() - t < timeout:
            if select.select([master], [], [], 0.5)[0]:
                try:
                    seen += os.read(master, 1 << 16)
                except OSError:             # the program ended
                    break
                if PAINTED in re.sub(rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]", b"", seen):
                    return time.perf_counter() - t
        raise RuntimeError(f"the workbench showed no {PAINTED!r} in {timeout:.0f} s")
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        os.close(master)


def _pythons(args) -> dict[str, str]:
    return dict(p.split("=", 1) if "=" in p else (p, p) for p in args.python)


def _names(args):
    """`start`, or `start:label` for each --python."""
    return [f"{start}:{label}" if label else start for start in args.starts.split(",")
            for label in (list(_pythons(args)) or [""])]


@bench.contender("start", variants=_names)
def _start(args, name):
    start, _, label = name.partition(":")
    python = _pythons(args)[label] if label else None
    home = tempfile.mkdtemp(prefix="cubelab-start-")
    env = _environment(args, home)
    if start == "facts":
        def once():
            return _until_exit(["facts", args.alg], env, python)
    elif start == "help":
        def once():
            return _until_exit(["--help"], env, python)
    elif start == "workbench":
        def once():
            return {"seconds": _until_painted(env, python=python)}
    else:
        raise SystemExit(f"unknown start {start!r}: facts, help or workbench")

    def prepare():
        once()                      # bytecode caches written, files in the page cache
        return {"python": python or sys.executable}

    return Function(name, lambda _case: once(), prepare=prepare,
                    close=lambda: shutil.rmtree(home, ignore_errors=True))


def main(argv=None) -> int:
    args = bench.parse(argv)
    bench.begin(args, alg=args.alg)
    for start in args.starts.split(","):    # one section each: the ratios are to the first
        names = [n for n in _names(args) if n.partition(":")[0] == start]   # tree's, install's
        bench.compare(args, [{"id": r} for r in range(args.count)], label=start,
                      contenders=bench.contenders(args, names),
                      fields=("seconds",) if start == "workbench" else ("seconds", "cpu_s"))
    bench.finish(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
