"""Running the real `cubelab` program and stopping it with a signal, as a user's Ctrl-C would."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

def _program() -> list[str]:
    """The `cubelab` command as users start it: the installed console script beside this
    Python, else its entry module (the same first instructions, tui/entry.py)."""
    script = Path(sys.executable).with_name("cubelab")
    if script.is_file() and "cubelab.tui.entry" in script.read_text(errors="replace"):
        return [sys.executable, str(script)]
    return [sys.executable, "-m", "cubelab.tui.entry"]


CUBELAB = _program()


@dataclass
class Stopped:
    returncode: int
    seconds: float          # from the signal to the exit
    stdout: str
    stderr: str
    children: list[int]     # the program's child processes just before the signal
    started: bool = True    # the program's first instruction had run when the signal came
    ended_first: bool = False   # the program had ended on its own before the signal


def program_started(pid: int) -> bool:
    """Whether the program's own first instructions (tui/entry.py) have run in process `pid`:
    they catch SIGTERM, which Python itself leaves alone (the SigCgt mask in /proc)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True
    for line in status.splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) >> (signal.SIGTERM - 1) & 1)
    return True


def descendants_of(pid: int) -> list[int]:
    """Every process below `pid` (its children, theirs, ...)."""
    out, todo = [], children_of(pid)
    while todo:
        kid = todo.pop()
        out.append(kid)
        todo.extend(children_of(kid))
    return out


def stop_like_a_user(args: list[str], *, after: float, sig: int, env: dict | None = None,
                     cwd=None, timeout: float = 60) -> Stopped:
    """Start the program in its own process group (as a shell starts a command), wait `after`
    seconds and stop it as a user would: Ctrl-C reaches every process of the group (the
    terminal sends it so), SIGTERM (kill PID) only the program."""
    p = subprocess.Popen(CUBELAB + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         stdin=subprocess.DEVNULL, text=True, cwd=cwd, start_new_session=True,
                         env={**os.environ, **(env or {})})
    time.sleep(after)
    started = program_started(p.pid)
    kids = descendants_of(p.pid)
    t0 = time.monotonic()
    ended_first = p.poll() is not None     # (an ended child is a zombie: a kill would "work")
    try:
        if ended_first:
            pass
        elif sig == signal.SIGINT:
            os.killpg(p.pid, sig)
        else:
            p.send_signal(sig)
    except ProcessLookupError:
        pass
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        raise AssertionError(f"{args} did not end {timeout} s after the signal: {err[-800:]}")
    return Stopped(p.returncode, time.monotonic() - t0, out, err, kids, started, ended_first)


def children_of(pid: int) -> list[int]:
    """Processes whose parent is `pid` (from /proc)."""
    kids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # the command name is in parentheses and may hold spaces: read after the last ')'
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[1]) == pid:
            kids.append(int(entry.name))
    return kids


def alive(pid: int) -> bool:
    """Whether `pid` exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def run_cubelab(args: list[str], env: dict | None = None, stdin: str | None = None,
                timeout: float = 120, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(CUBELAB + args, capture_output=True, text=True, input=stdin,
                          env={**os.environ, **(env or {})}, timeout=timeout, cwd=cwd)


def stop_cubelab(args: list[str], *, after: float | str, sig: int = signal.SIGINT,
                 env: dict | None = None, ready_timeout: float = 240,
                 stdin_path: Path | None = None, cpu: bool = False) -> Stopped:
    """Start the program, wait `after` seconds (or until its stdout or stderr shows the text
    `after`; with `cpu`, until it has worked `after` seconds of CPU, a clock a loaded machine
    does not stretch), send `sig` and time how long it takes to exit."""
    stdin = open(stdin_path, "rb") if stdin_path is not None else subprocess.DEVNULL
    try:
        p = subprocess.Popen(CUBELAB + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             stdin=stdin, text=True, env={**os.environ, **(env or {})})
    finally:
        if stdin_path is not None:
            stdin.close()
    if isinstance(after, str):
        import threading

        def pump(stream, sink):
            for line in stream:
                sink.append(line)
        out_lines: list[str] = []
        err_lines: list[str] = []
        threads = [threading.Thread(target=pump, args=(p.stdout, out_lines), daemon=True),
                   threading.Thread(target=pump, args=(p.stderr, err_lines), daemon=True)]
        for t in threads:
            t.start()
        deadline = time.monotonic() + ready_timeout
        while not any(after in line for line in out_lines + err_lines):
            if p.poll() is not None or time.monotonic() > deadline:
                p.kill()
                raise AssertionError(f"never showed {after!r}: {''.join(err_lines)[-500:]}")
            time.sleep(0.02)
        kids = children_of(p.pid)
        t0 = time.monotonic()
        p.send_signal(sig)
        p.wait(timeout=60)
        seconds = time.monotonic() - t0
        for t in threads:
            t.join(5)
        return Stopped(p.returncode, seconds, "".join(out_lines), "".join(err_lines), kids)
    if cpu:
        from helpers_timing import process_cpu
        deadline = time.monotonic() + ready_timeout
        while (process_cpu(p.pid) or 0.0) < after:
            if p.poll() is not None or time.monotonic() > deadline:
                break       # it ended first (or never worked that long): the caller sees
            time.sleep(0.02)
    else:
        time.sleep(after)
    kids = children_of(p.pid)
    t0 = time.monotonic()
    p.send_signal(sig)
    try:
        p.wait(timeout=60)
    finally:
        seconds = time.monotonic() - t0
    out, err = p.communicate()
    return Stopped(p.returncode, seconds, out, err, kids)


def stray_files(data_dir: Path) -> list[str]:
    """Temporary and lock files left in a data directory's tables."""
    return sorted(str(p) for p in Path(data_dir).rglob("*") if p.name.endswith((".tmp", ".lock")))
