"""How the program stops on Ctrl-C and SIGTERM: one line on stderr, exit 130 or 143, within half a
second, from the first instruction to the last.

Python raises a signal's KeyboardInterrupt in the main thread wherever it is. Most places turn
that into an orderly stop (interrupts.run_interruptible raises the work's cancel flag, cli.main
prints the line, cli.run reaps workers and removes half-written files), but not all: during
start-up it prints a traceback; inside an import of a compiled module it can come out as an
ImportError, or be swallowed by a library's fallback and the command runs on (an audit saw a
SIGTERM ignored for 53 s). So the handler installed here (by entry.py, before anything else)
remembers the signal and acts by stage:

- starting (the command line not yet parsed): nothing is under way, the process ends at once;
- running: the interrupt is raised once, for the orderly stop, and a backstop timer is set
  (SIGALRM, BACKSTOP seconds): if the process still runs then, it is stopped hard (the line if
  not said yet, child processes killed, the table files and scratch folders this process was
  writing removed, exit 130/143). A stop under way (`acknowledge`) gets LATE seconds more, so a
  loaded machine does not cut short the printing of what was found. A further signal while
  stopping changes nothing. An interrupt that was swallowed is still known: main() reports an
  exception that follows it as the interrupt, and run_interruptible raises it before starting
  any work (`raise_if_pending`);
- handed over: the Textual workbench handles its own signals.

A handler runs in the main thread between two bytecodes: a main thread inside one long call into
compiled code hears the signal when the call returns, which is why long work runs in a thread
(interrupts.run_interruptible) while the main thread waits.

The REPL claims SIGINT (`claim_sigint`): there Ctrl-C stops the solve under way, not the program.
Nothing here is installed when cli.main is called in-process (tests): each function is then a
no-op and main keeps its plain SIGTERM handler.
"""

from __future__ import annotations

import os
import signal
import sys
import time

STARTING, RUNNING, HANDED_OVER = "starting", "running", "handed over"

BACKSTOP = 0.4
"""Seconds from the signal to the hard stop, unless an orderly stop is under way."""

LATE = 2.0
"""Seconds more an orderly stop under way gets (a loaded machine printing what was found)."""


class Terminated(KeyboardInterrupt):
    """SIGTERM: ends a command as Ctrl-C does, with exit status 143."""


class _State:
    stage: str | None = None        # None: not installed (cli.main called in-process)
    pending: int | None = None      # the signal being acted on
    since = 0.0                     # when the handler saw it (monotonic)
    acknowledged = False
    said = False
    sigint_claimed = False


_state = _State()


def begin() -> None:
    """Install the program's handlers (main thread, before the command line is read)."""
    _state.stage = STARTING
    for sig in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(sig) is not signal.SIG_IGN:
            signal.signal(sig, _on_signal)
    signal.signal(signal.SIGALRM, _on_backstop)
    os.register_at_fork(after_in_child=_forget)


def installed() -> bool:
    return _state.stage is not None


def running() -> None:
    """The command starts: from here a signal stops it in order (see the module docstring)."""
    if _state.stage == STARTING:
        _state.stage = RUNNING


def hand_over() -> None:
    """The Textual workbench ends on its own: Python's Ctrl-C and SIGTERM's default again."""
    if _state.stage is not None:
        _state.stage = HANDED_OVER
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def claim_sigint() -> None:
    """Ctrl-C interrupts what runs (a KeyboardInterrupt for the REPL to catch), never ending
    the program by itself; SIGTERM still does."""
    if _state.stage is not None:
        _state.sigint_claimed = True


def acknowledge() -> None:
    """An orderly stop is under way (the interrupt was caught where it is handled)."""
    _state.acknowledged = True


def pending_interrupt() -> KeyboardInterrupt | None:
    """The interrupt a signal being acted on stands for (None when there is none)."""
    if _state.pending is None:
        return None
    return Terminated() if _state.pending == signal.SIGTERM else KeyboardInterrupt()


def raise_if_pending() -> None:
    """Raise the interrupt of a signal that came and was swallowed on its way (work must not
    start after it)."""
    interrupt = pending_interrupt()
    if interrupt is not None:
        raise interrupt


def say(line: str) -> None:
    """Print the stop's one line on stderr (once: the hard stop does not repeat it)."""
    if not _state.said:
        _state.said = True
        print(line, file=sys.stderr, flush=True)
        _quiet_after_the_line()


def _quiet_after_the_line() -> None:
    """The stop's line is the last thing said: threads still winding down (Dask's event loop
    reporting a worker it was starting, asyncio's 'Task exception was never retrieved') would
    log their own errors under it. (Nothing is imported here: this runs in a signal handler too,
    perhaps in the middle of an import; a process that has not loaded logging has no logger.)"""
    logging = sys.modules.get("logging")
    disable = getattr(logging, "disable", None)
    if disable is not None and hasattr(logging, "CRITICAL"):
        disable(logging.CRITICAL)


def _message(signum: int) -> str:
    return "cubelab: terminated" if signum == signal.SIGTERM else "cubelab: interrupted"


def _on_signal(signum, frame):
    if signum == signal.SIGINT and _state.sigint_claimed:
        raise KeyboardInterrupt()
    if _state.stage == STARTING:
        hard_stop(signum)
    if _state.pending is not None:
        return              # already stopping: the backstop ends it if the stop does not
    _state.pending, _state.since = signum, time.monotonic()
    signal.setitimer(signal.ITIMER_REAL, BACKSTOP)
    raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


def _on_backstop(signum, frame):
    if _state.pending is None:
        return
    if _state.acknowledged:
        left = _state.since + BACKSTOP + LATE - time.monotonic()
        if left > 0.01:
            signal.setitimer(signal.ITIMER_REAL, left)
            return
    hard_stop(_state.pending)


def hard_stop(signum: int) -> None:
    """End the process now: the line (unless said), our child processes killed, the files this
    process was writing removed, exit 128 + the signal's number."""
    if not _state.said:
        _state.said = True
        flush_briefly()
        try:
            os.write(2, (_message(signum) + "\n").encode())
        except OSError:
            pass
        _quiet_after_the_line()
    leave_nothing_behind()
    os._exit(128 + signum)


def leave_nothing_behind() -> None:
    """Before an exit that skips the usual clean-up (an interrupt): remove the temporary and
    lock files of table builds under way and the scratch folders of local clusters, and end
    every process started below this one (workers, a cluster's worker processes)."""
    store = sys.modules.get("cubelab.tables.store")
    if store is not None:
        store.abandon_in_flight()
    cluster = sys.modules.get("cubelab.tables.cluster")
    if cluster is not None:
        cluster.remove_scratch()
    _kill_descendants()


def _forget() -> None:
    """A forked child is not the program: it does not inherit a stop under way."""
    _state.stage, _state.pending, _state.acknowledged = None, None, False
    try:
        signal.setitimer(signal.ITIMER_REAL, 0)
    except (OSError, ValueError):
        pass


def flush_briefly(seconds: float = 0.2) -> None:
    """Flush stdout and stderr, but give up after `seconds`: a reader that stopped reading (a
    full pipe) must not keep a stopping program alive."""
    import threading

    def flush() -> None:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError, RuntimeError):
                pass
    writer = threading.Thread(target=flush, name="flush", daemon=True)
    writer.start()
    writer.join(seconds)


def _kill_descendants() -> None:
    """SIGKILL every process below this one (workers, a cluster's worker processes), but
    multiprocessing's resource tracker: it leaves by itself when this process is gone, after
    releasing what the others held."""
    tracker = sys.modules.get("multiprocessing.resource_tracker")
    spare = getattr(getattr(tracker, "_resource_tracker", None), "_pid", None)
    below, todo = [], [pid for pid in _children(os.getpid()) if pid != spare]
    while todo:
        pid = todo.pop()
        below.append(pid)
        todo.extend(_children(pid))
    for pid in below:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def _children(pid: int) -> list[int]:
    """The child processes of `pid`, from each of its threads' list in /proc (a read of a
    few small files: an interrupted exit must not scan every process of a busy machine)."""
    out = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children", "rb") as f:
                out.extend(int(word) for word in f.read().split())
        except FileNotFoundError:
            if not os.path.exists(f"/proc/{pid}/task/{task}"):
                continue                # the thread ended meanwhile
            return _children_by_scan(pid)   # a kernel without the lists
        except (OSError, ValueError):
            continue
    return out


def _children_by_scan(pid: int) -> list[int]:
    """The child processes of `pid`, reading every process's parent from /proc."""
    out = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return out
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        # the command name is in parentheses and may hold anything: read after the last ')'
        if int(stat[stat.rindex(b")") + 2:].split()[1]) == pid:
            out.append(int(entry))
    return out
