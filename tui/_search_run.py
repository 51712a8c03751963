"""One algorithm search running in a thread: what it has found so far, its counters, its cancel flag.

Textual-free, so the workbench's search panel and the plain REPL drive it the same way: start it,
read `classes` and `progress()` whenever they like (the thread only appends and writes counters),
raise the flag with `stop()`, and look at `result` or `error` once `active` is False. Waiting goes
through the `done` event, not Thread.join: on Python 3.11 a Ctrl-C that interrupts join() can
leave the thread marked finished while it still runs.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable

from .records import SearchRequest


@dataclass
class SearchRun:
    """A search of `request` (see solvers/algsearch.py); `on_class` is called from the thread."""

    request: SearchRequest
    on_class: Callable[[object], None] | None = None
    classes: list = field(default_factory=list)
    result: object = None
    error: str = ""
    started: float = 0.0
    finished_at: float = 0.0
    counters: object = None
    cancel: object = None
    thread: threading.Thread | None = None
    done: threading.Event = field(default_factory=threading.Event)

    def start(self) -> "SearchRun":
        from cubelab.solvers.protocol import new_cancel, new_counters
        self.counters, self.cancel = new_counters(), new_cancel()
        self.started = time.perf_counter()
        self.thread = threading.Thread(target=self._work, name="algsearch", daemon=True)
        self.thread.start()
        return self

    def _work(self) -> None:
        try:
            from cubelab.solvers.algsearch import search
            r = self.request
            self.result = search(r.predicate, r.max_length, r.metric, auf=r.auf,
                                 on_class=self._found, counters=self.counters, cancel=self.cancel)
        except Exception as e:  # a search bug must not take the front end down
            self.error = f"{type(e).__name__}: {e}"
        finally:
            self.finished_at = time.perf_counter()
            self.done.set()

    def _found(self, cls) -> None:
        self.classes.append(cls)
        if self.on_class is not None:
            self.on_class(cls)

    @property
    def active(self) -> bool:
        return self.thread is not None and not self.done.is_set()

    def stop(self) -> bool:
        """Raise the cancel flag; True if the search was still running."""
        if not self.active:
            return False
        self.cancel[0] = 1
        return True

    def elapsed(self) -> float:
        return (self.finished_at or time.perf_counter()) - self.started

    def progress(self) -> str:
        """One line on where the search is."""
        from cubelab.solvers.protocol import BOUND, NODES, SOLUTIONS
        length = int(self.counters[BOUND])
        if length == 0:
            # the first search of a fresh install compiles its numba kernels
            return f"starting the search (the first one compiles its kernels)… {self.elapsed():.0f}s"
        return (f"length {length}/{self.request.max_length} · {int(self.counters[NODES]):,} "
                f"first halves · {int(self.counters[SOLUTIONS]):,} sequences · "
                f"{len(self.classes)} classes · {self.elapsed():.1f}s")

    def summary(self) -> str:
        """One line on how the search ended."""
        if self.error:
            return f"search failed: {self.error}"
        res = self.result
        if res is None:
            return "search still running"
        shortest = min((c.length for c in res.classes), default=None)
        found = (f"{len(res.classes)} classes, {res.sequences:,} sequences"
                 + (f", shortest {shortest}" if shortest else ""))
        if res.status != "done":
            # the message line is 80 columns: what matters first
            return f"cancelled after length {res.lengths_done}: {found} ({res.seconds:.1f}s)"
        return f"{found}; lengths 1..{res.lengths_done} complete in {res.seconds:.1f}s"
