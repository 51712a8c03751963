"""The front ends' one background runner: solves and algorithm searches in threads, polled or awaited.

Textual-free. A `Runner` keeps one instance of each solver a front end has used (its tables stay
loaded) and starts runs: `solve(...)` gives a `SolverRun` (get the solver, offer its missing
tables through a hook, prepare them with progress and log, solve with counters, cancel and a
time limit, solutions streamed as they improve), `search(...)` a `SearchRun`. A run's thread
only writes its fields and sets `done` at the end; the other side reads them (the workbench's
panels ten times a second) or waits (the REPL), and raises the cancel flag with `stop()`.
Waiting goes through the `done` Latch, never Thread.join or an Event: on Python 3.11 a Ctrl-C that
interrupts join() can leave a thread marked finished while it still runs, and one that interrupts
Event.wait can leave its lock released twice (see interrupts.Latch).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .interrupts import GRACE, Latch, Terminated
from .method_steps import method_lines, performed
from .records import SearchRequest, SolutionRow

POLL_SECONDS = 0.1
"""How often a front end looks at its runs (the searches write their counters about as often)."""


# The solvers' protocol (and the solver descriptions and results it brings: ~10 ms with the
# registry) is imported where a run uses it, not with this module: the workbench makes its
# Runner before its first frame, and starts a run only after it.
def _new_counters() -> np.ndarray:
    from cubelab.solvers.protocol import new_counters
    return new_counters()


def _new_cancel() -> np.ndarray:
    from cubelab.solvers.protocol import new_cancel
    return new_cancel()


@dataclass(eq=False, kw_only=True)
class Run:
    """One piece of work in a daemon thread, with the solver protocol's counters and cancel flag.

    `phase` goes from "starting" through the subclass's phases to "done"; `error` says why a run
    ended without its result; `elapsed()` times the part of the work that `started` marks."""

    counters: np.ndarray = field(default_factory=_new_counters)
    cancel: np.ndarray = field(default_factory=_new_cancel)
    phase: str = "starting"
    error: str = ""
    started: float = 0.0
    finished_at: float = 0.0
    done: Latch = field(default_factory=Latch)
    thread: threading.Thread | None = None

    thread_name = "run"
    stop_is_cancel = False
    """Whether a stopped run's `error` says "cancelled" (its result is then not the work's
    end); a search that keeps what it found when stopped leaves `error` empty."""

    def start(self) -> "Run":
        self.thread = threading.Thread(target=self._run, name=self.thread_name, daemon=True)
        self.thread.start()
        return self

    def _run(self) -> None:
        try:
            self._work()
        except Exception as e:  # a broken solver or search must not take the front end down
            # a run the user stopped stays "cancelled" whatever the interrupted work raised
            self.error = self.error or self._message(e)
        finally:
            self.finished_at = time.perf_counter()
            self.phase = "done"
            self.done.set()

    def _work(self) -> None:
        raise NotImplementedError

    def _message(self, error: Exception) -> str:
        return f"{type(error).__name__}: {error}"

    @property
    def active(self) -> bool:
        return self.thread is not None and not self.done.is_set()

    def stop(self) -> bool:
        """Raise the cancel flag; True if the run was still going."""
        if not self.active:
            return False
        if self.stop_is_cancel:
            self.error = self.error or "cancelled"
        self.cancel[0] = 1
        return True

    def elapsed(self) -> float:
        if not self.started:
            return 0.0
        return (self.finished_at or time.perf_counter()) - self.started

    def wait(self, tick: Callable[[], None] | None = None) -> bool:
        """Block until the run ends, calling `tick()` at every poll; Ctrl-C stops the run and
        gives it GRACE seconds to wind down (a table load or a compile that cannot hear the flag
        is left to finish on its own). True when Ctrl-C stopped it; SIGTERM (Terminated) is
        re-raised after the stop, to end the program."""
        try:
            while not self.done.wait(POLL_SECONDS):
                if tick is not None:
                    tick()
        except KeyboardInterrupt as interrupt:
            self.stop()
            self.done.wait(GRACE)
            if isinstance(interrupt, Terminated):
                raise
            return True
        return False


def describe_missing(absent: list, solver=None) -> str | None:
    """What a solver still has to build before it can search (its missing_tables()): how many
    tables, how big, how long; None when nothing is missing."""
    if not absent:
        return None
    from .build_progress import describe_build
    return describe_build(absent, solver=solver)


AskBuild = Callable[["SolverRun", str], bool]
"""The missing-tables offer: called from the run's thread with the run and describe_missing()'s
text; True builds them, False skips the solver. Without one, prepare() builds what is missing."""

_STATUS = {"starting": "loading", "offer": "tables?", "tables": "tables", "search": "search"}


@dataclass(eq=False)
class SolverRun(Run):
    """One solver on one position: phases starting | offer | tables | search | done.

    `progress` (done, total) and `note` follow prepare(); `found` collects the solutions
    streamed while the search improves; `result` is the SolveResult. A run stopped before its
    search is `abandoned`: a table build may not look at the flag for a while, and nobody need
    wait for it."""

    runner: Runner
    name: str
    puzzle: str
    state: object
    time_limit: float | None = None
    cap: float | None = None
    """Seconds of search after which the run is stopped, whatever the solver's own stopping
    rule (such as Kociemba's short improving budget, which a time_limit would replace): a
    protocol.Deadline on the run's cancel flag, so the solver reports "time limit" itself."""
    ask_build: AskBuild | None = None
    options: dict = field(default_factory=dict)     # what the solver is made with
    build: object = None                # a BuildProgress over the tables it builds, if any
    progress: tuple[int, int] = (0, 0)
    note: str = ""                      # the last thing prepare() said it was doing
    found: list = field(default_factory=list)   # protocol.Solution, as they improved
    result: object = None               # protocol.SolveResult once the search ends
    abandoned: bool = False

    @property
    def thread_name(self) -> str:
        return f"solver-{self.name}"

    def _work(self) -> None:
        try:
            solver = self.runner.solver(self.name, self.puzzle, self.options)
        except KeyError as e:
            self.error = str(e.args[0]) if e.args else "unknown solver"
            return
        except ValueError as e:     # an option the solver refuses (OptionError), or its value
            self.error = str(e)
            return
        absent = solver.missing_tables()
        if absent:
            from .build_progress import BuildProgress
            self.build = BuildProgress(absent)
        missing = describe_missing(absent, solver)
        if missing is not None and self.ask_build is not None:
            self.phase = "offer"
            if not self.ask_build(self, missing):
                self.error = self.error or "tables not built"
                return
        if self.cancel[0]:
            return
        self.phase = "tables"
        solver.prepare(progress=self._progress, cancel=self.cancel, log=self._log)
        if self.cancel[0]:
            return
        self.phase = "search"
        self.started = time.perf_counter()
        # the cap starts with the search: loading or building tables never counts
        from cubelab.solvers.protocol import Deadline
        with Deadline(self.cancel, self.cap):
            self.result = solver.solve(self.state, time_limit=self.time_limit,
                                       on_solution=self.found.append, counters=self.counters,
                                       cancel=self.cancel)

    def _progress(self, done: int, total: int) -> None:
        self.progress = (done, total)
        if self.build is not None:
            self.build.progress(done, total)

    def _log(self, message) -> None:
        self.note = str(message)
        if self.build is not None:
            self.build.log(message)

    def _message(self, error: Exception) -> str:
        from cubelab.solvers.protocol import SolverError
        return str(error) if isinstance(error, SolverError) else super()._message(error)

    @property
    def active(self) -> bool:
        return super().active and not self.abandoned

    stop_is_cancel = True

    def stop(self) -> bool:
        if not super().stop():
            return False
        # a search stops within milliseconds; loading or building a table may not check the
        # flag as often, and must not hold the front end hostage meanwhile
        if self.phase != "search":
            self.abandoned = True
        return True

    @property
    def status(self) -> str:
        """One word for the table: loading, tables?, tables, search, or how the run ended
        (the result's status, cancelled, skipped when its tables were declined, error)."""
        if self.abandoned:
            return "cancelled"
        if self.phase != "done":
            return _STATUS[self.phase]
        if self.result is not None:
            return self.result.status
        return {"cancelled": "cancelled", "tables not built": "skipped"}.get(self.error, "error")

    def fill(self, row: SolutionRow) -> None:
        """Copy what the run knows so far into its row of the solutions table."""
        row.status = self.status
        if self.abandoned:
            row.message = "cancelled before the search began"
            return
        from cubelab.solvers.protocol import NODES
        row.nodes = int(self.counters[NODES])
        row.seconds = self.elapsed()
        if self.found:
            row.moves = list(self.found[-1].moves)
            row.solutions = len(self.found)
        if self.phase != "done":
            return
        result = self.result
        if result is None:
            row.message = self.error
            return
        if result.moves is not None:
            row.moves = list(result.moves)
        else:
            # why there is none, in the solver's words ("too deep for bfs: needs > 5")
            row.message = str(result.detail.get("message", ""))
        row.nodes = int(result.nodes)
        row.seconds = float(result.seconds)
        row.optimal = bool(result.optimal)
        record = result.to_json()
        row.played, row.steps = performed(record)
        row.step_lines = tuple(method_lines(record))


@dataclass(eq=False)
class SearchRun(Run):
    """An algorithm search (see solvers/algsearch.py): `classes` grows as they are found, and
    `on_class` (if any) is called for each one from the run's thread."""

    request: SearchRequest
    on_class: Callable[[object], None] | None = None
    classes: list = field(default_factory=list)
    result: object = None               # algsearch.SearchResult once the search ends

    thread_name = "algsearch"

    def _work(self) -> None:
        from cubelab.solvers.algsearch import search
        self.phase = "search"
        self.started = time.perf_counter()
        r = self.request
        self.result = search(r.predicate, r.max_length, r.metric, auf=r.auf,
                             on_class=self._found, counters=self.counters, cancel=self.cancel)

    def _found(self, cls) -> None:
        self.classes.append(cls)
        if self.on_class is not None:
            self.on_class(cls)

    @property
    def complete(self) -> bool:
        """The search ran to its full length."""
        return self.result is not None and self.result.status == "done"

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


class Runner:
    """Starts a front end's runs over a solver registry (solvers.Registry: `make(name, puzzle,
    options)`), keeping one instance per solver: its tables stay loaded."""

    def __init__(self, registry):
        self.registry = registry
        self._solvers: dict[tuple[str, str], object] = {}
        self._lock = threading.Lock()

    def solver(self, name: str, puzzle: str, options: dict | None = None):
        """The solver `name` of `puzzle` made with `options` (such as its table set, checked
        against its declaration first: OptionError), made on first use (KeyError for an
        unknown one). Made with other options, the one kept before is let go: its tables would
        otherwise stay in memory beside the new ones."""
        options = dict(options or {})
        with self._lock:
            key = (puzzle, name, tuple(sorted(options.items())))
            if key not in self._solvers:
                solver = self.registry.make(name, puzzle, options)
                for old in [k for k in self._solvers if k[:2] == key[:2]]:
                    del self._solvers[old]
                self._solvers[key] = solver
            return self._solvers[key]

    def solve(self, name: str, puzzle: str, state, *, time_limit: float | None = None,
              cap: float | None = None, ask_build: AskBuild | None = None,
              options: dict | None = None) -> SolverRun:
        """Start solving `state` with solver `name` of `puzzle`, made with `options`, in a
        thread (see SolverRun for `time_limit` and `cap`)."""
        return SolverRun(self, name, puzzle, state, time_limit=time_limit, cap=cap,
                         ask_build=ask_build, options=dict(options or {})).start()

    def search(self, request: SearchRequest,
               on_class: Callable[[object], None] | None = None) -> SearchRun:
        """Start the algorithm search of `request` in a thread."""
        return SearchRun(request, on_class).start()


if __name__ == "__main__":
    from cubelab.cube.moves import alg_state
    from cubelab.solvers import StandIn
    registry = StandIn()
    run = Runner(registry).solve(registry.solver_names()[0], "3x3", alg_state("R U R' F"))
    run.wait(tick=lambda: print(run.status, int(run.counters[0]), "nodes"))
    print(run.status, run.result.text() if run.result else run.error)
