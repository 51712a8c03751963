"""The two-phase fallback of a time-limited optimal solve, made ready while the search runs.

When a time limit stops Korf's search, the user still wants a solution: the two-phase solver
gives a short (not proven optimal) one in the seconds kept for it. Loading its tables and
compiling its kernels can take far longer than those seconds on a cold cache, so that work
starts in a background thread when the optimal search starts, and the fallback waits for it
only within its own share of the limit: a limit of 8 s returns after about 8 s, with or
without the fallback's answer.
"""

from __future__ import annotations

import threading
import time

import numpy as np


def two_phase_ready() -> bool:
    """Whether the two-phase solver's tables are at hand (building them could take far longer
    than the time the fallback gets)."""
    from cubelab.solvers.protocol import missing_tables
    from cubelab.tables.kociemba.specs import SPECS
    try:
        return not missing_tables(SPECS)
    except Exception:   # a status we cannot read means: do not count on it
        return False


def two_phase_solver():
    """A new two-phase solver (a solver of the protocol: the tests put a stand-in here)."""
    from cubelab.solvers.kociemba.solver import KociembaSolver
    return KociembaSolver()


class TwoPhaseFallback:
    """One two-phase solver per optimal solver, prepared once, in the background."""

    def __init__(self):
        self._solver = None
        self._error: str | None = None
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def warm(self) -> None:
        """Start preparing the two-phase solver (once; returns at once)."""
        with self._lock:
            if self._thread is not None:
                return
            self._thread = threading.Thread(target=self._prepare, name="two-phase fallback",
                                            daemon=True)
            self._thread.start()

    def _prepare(self) -> None:
        try:
            solver = two_phase_solver()
            # its own flag: a cancelled solve must not leave a half-prepared fallback
            solver.prepare(cancel=np.zeros(1, np.int32))
            self._solver = solver
        except Exception as e:  # the fallback is a courtesy: its failure must not hide ours
            self._error = f"{type(e).__name__}: {e}"
        finally:
            self._ready.set()

    def solve(self, state, seconds: float, cancel):
        """The two-phase result within `seconds`, waiting for the preparation included.
        Raises TimeoutError when the solver is not ready in time, RuntimeError when its
        preparation failed."""
        self.warm()
        start = time.perf_counter()
        if not self._ready.wait(seconds):
            raise TimeoutError(f"the two-phase solver was not ready within {seconds:.1f} s")
        if self._solver is None:
            raise RuntimeError(self._error or "the two-phase solver could not be prepared")
        left = max(0.05, seconds - (time.perf_counter() - start))
        return self._solver.solve(state, time_limit=left, cancel=cancel)
