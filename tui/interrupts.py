"""Ctrl-C and SIGTERM on the command line: long work runs in a thread while the main thread waits.

Python runs signal handlers only in the main thread and only between bytecodes, so a main
thread inside a numba kernel (or a table's checksum, or a compile) would not see Ctrl-C until
the work ended. Every long command therefore hands its work to `run_interruptible`, which waits
on a `Latch` (a wait Python interrupts, and one an interrupt cannot leave half done); on a signal
it raises the work's cancel flag, gives the work `GRACE` seconds to wind down and hand back what
it has, and re-raises, so the command ends within half a second whatever the work is doing.
SIGTERM raises `Terminated`, a KeyboardInterrupt, so the same clean-up runs; `cli.main` turns
them into exit statuses 130 and 143.
"""

from __future__ import annotations

import signal
import threading
from typing import Callable, TypeVar

T = TypeVar("T")

GRACE = 0.2
"""Seconds the work gets, after the flag goes up, to return what it found (a search sees the flag
within milliseconds; a compile or a build step may not, and is abandoned)."""

POLL = 0.05


class Latch:
    """A one-way flag the main thread can wait on through Ctrl-C: set once, by any thread.

    threading.Event.wait is not safe there. Its Condition releases its lock, waits, and takes
    the lock back in a `finally`; a signal whose handler raises between that release and the
    re-acquire leaves the lock released, and the `with` around it then fails with
    "RuntimeError: release unlocked lock", which hides the KeyboardInterrupt (CPython 3.11;
    seen in CI as an internal error instead of exit 130). Here the waiter only tries a raw lock
    that `set` releases: an interrupt anywhere leaves the flag true or false, never a lock half
    taken."""

    __slots__ = ("_flag", "_gate")

    def __init__(self) -> None:
        self._flag = False
        self._gate = threading.Lock()
        self._gate.acquire()

    def set(self) -> None:
        if not self._flag:
            self._flag = True
            self._gate.release()

    def is_set(self) -> bool:
        return self._flag

    def wait(self, timeout: float | None = None) -> bool:
        """True once set; False when `timeout` seconds pass first (None: wait for ever)."""
        if self._flag:
            return True
        if self._gate.acquire(timeout=-1 if timeout is None else max(0.0, timeout)):
            # pass the gate on to any other waiter; an interrupt before this line leaves it
            # taken, which only the flag (already true) is read past
            self._gate.release()
        return self._flag


class Terminated(KeyboardInterrupt):
    """SIGTERM: ends a command as Ctrl-C does, with exit status 143."""


received: list[int] = []
"""The signals (SIGINT, SIGTERM) that came since the handlers were installed. An exception that
follows one is its doing: a Ctrl-C landing in a C extension's import (numpy's, while a slow
machine starts the program) comes back as an ImportError, not as KeyboardInterrupt."""


def _raise_terminated(signum, frame):
    received.append(signum)
    raise Terminated()


def _raise_interrupt(signum, frame):
    received.append(signum)
    raise KeyboardInterrupt()


def install_sigterm() -> None:
    """Make SIGTERM raise Terminated in the main thread (only the main thread may set handlers),
    and have both it and Ctrl-C noted in `received`."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _raise_terminated)
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _raise_interrupt)


def restore_sigterm() -> None:
    """SIGTERM's default again (the Textual workbench handles its own ending)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def interrupt_behind(error: BaseException) -> KeyboardInterrupt | None:
    """The interrupt an exception is the doing of (a signal came before it), or None."""
    if not received:
        return None
    return Terminated() if received[-1] == signal.SIGTERM else KeyboardInterrupt()


def exit_status(interrupt: KeyboardInterrupt) -> int:
    """128 + the signal's number: 143 for SIGTERM, 130 for Ctrl-C."""
    cause = getattr(interrupt, "cause", interrupt)
    return 143 if isinstance(cause, Terminated) else 130


def message(interrupt: KeyboardInterrupt) -> str:
    """The one stderr line a stopped command prints."""
    return "cubelab: terminated" if exit_status(interrupt) == 143 else "cubelab: interrupted"


class Interrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM stopped `run_interruptible`; `partial` is what the work returned within
    the grace period (None when it was abandoned), `cause` the interrupt that stopped it."""

    def __init__(self, cause: KeyboardInterrupt, partial=None):
        super().__init__()
        self.cause = cause
        self.partial = partial


def run_interruptible(work: Callable[[], T], cancel, *, grace: float = GRACE,
                      name: str = "work") -> T:
    """work() in a daemon thread, its value returned (its exception re-raised) here.

    A Ctrl-C or SIGTERM while it runs sets cancel[0] = 1, waits up to `grace` seconds for the
    work to return and raises Interrupted carrying that value (or None). A work that ignores the
    flag is left behind: its thread is a daemon and dies with the process."""
    box: dict = {}
    done = Latch()

    def target():
        try:
            box["value"] = work()
        except BaseException as e:  # handed to the waiting thread
            box["error"] = e
        finally:
            done.set()

    threading.Thread(target=target, name=name, daemon=True).start()
    try:
        while not done.wait(POLL):
            pass
    except KeyboardInterrupt as stop:
        if cancel is not None:
            cancel[0] = 1
        done.wait(grace)
        raise Interrupted(stop if not isinstance(stop, Interrupted) else stop.cause,
                          box.get("value")) from None
    if "error" in box:
        raise box["error"]
    return box["value"]
