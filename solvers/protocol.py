"""The one protocol every solver implements, and what a solve returns.

A solver (see `Solver`) names the puzzle it solves, lists the tables it needs and which of them
are missing, prepares (loads or builds its tables, compiles its kernels; solve calls it when
needed) and solves. The UI never blocks on a solver: it runs `solve` in a thread, polls
`counters` about ten times a second, and sets `cancel[0] = 1` to stop it.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Protocol

import numpy as np

from cubelab.cube.facts import unreachable_reason
from cubelab.cube.moves import apply_moves
from cubelab.cube.alg import Move
from cubelab.cube.notation import format_moves, metric_lengths
from cubelab.cube.state import CubeState

# Slots of the shared counter array. Searches write NODES (and BOUND, BEST, PHASE where they
# have them) every few thousand nodes; the UI reads them.
NODES, BOUND, BEST, PHASE, SOLUTIONS, LOWER_BOUND = range(6)
N_COUNTERS = 8
NO_VALUE = -1


def new_counters() -> np.ndarray:
    c = np.zeros(N_COUNTERS, dtype=np.int64)
    c[[BOUND, BEST, PHASE, LOWER_BOUND]] = NO_VALUE
    return c


def new_cancel() -> np.ndarray:
    """A one-element flag: 0 = keep going, anything else = stop as soon as you can."""
    return np.zeros(1, dtype=np.int32)


class SolverError(ValueError):
    """The solver refuses the position (unreachable, beyond its limits); the message says why."""


@dataclass
class Solution:
    """One solution found on the way (solvers that improve stream several)."""

    moves: list[Move]
    seconds: float
    nodes: int

    @property
    def htm(self) -> int:
        return metric_lengths(self.moves)["htm"]

    @property
    def qtm(self) -> int:
        return metric_lengths(self.moves)["qtm"]

    def text(self) -> str:
        return format_moves(self.moves)


@dataclass
class SolveResult:
    """What a solve returns: the best solution (None if none was found) and how it was found."""

    solver: str
    moves: list[Move] | None
    nodes: int = 0
    seconds: float = 0.0
    optimal: bool = False
    lower_bound: int | None = None
    verified: bool = False
    status: str = "solved"          # solved | cancelled | time limit | not found | too deep
    detail: dict = field(default_factory=dict)   # solver-specific: phases, steps, ...
    solutions: list[Solution] = field(default_factory=list)
    metric: str = "htm"
    """The metric the solver minimised: `optimal` and `lower_bound` count in it."""

    @property
    def found(self) -> bool:
        return self.moves is not None

    @property
    def length(self) -> dict[str, int] | None:
        if self.moves is None:
            return None
        m = metric_lengths(self.moves)
        return {"htm": m["htm"], "qtm": m["qtm"]}

    def text(self) -> str:
        return format_moves(self.moves) if self.moves is not None else ""

    def to_json(self) -> dict:
        d = {
            "solver": self.solver,
            "solution": self.text() if self.moves is not None else None,
            "length": self.length,
            "optimal": self.optimal,
            "nodes": int(self.nodes),
            "seconds": round(float(self.seconds), 6),
            "verified": self.verified,
            "status": self.status,
            "metric": self.metric,
        }
        if self.lower_bound is not None:
            d["lower_bound"] = int(self.lower_bound)
        d.update(self.detail)
        return d


class Solver(Protocol):
    """What every solver offers; callers use exactly this surface, never probe for more."""

    name: str
    description: str
    puzzle: str
    """"3x3" or "2x2": solve refuses a position of another puzzle."""
    metrics: tuple[str, ...]
    """The metrics the solver honours ("htm", "qtm"): its search minimises lengths counted in
    them, and its results' `optimal`, `lower_bound` and `metric` refer to them. A metric not
    listed is refused by the front ends, never ignored; a solver that counts in another metric
    when made so is another registry entry (solvers.metric_variant finds it)."""

    def table_specs(self) -> tuple:
        """The store's TableSpecs that prepare loads or builds (empty if none)."""

    def missing_tables(self) -> list:
        """The specs among table_specs() that are neither on disk nor in this process (the UI
        offers to build them, with their sizes, before a solve)."""

    def prepare(self, progress: Callable[[int, int], None] | None = None,
                cancel: np.ndarray | None = None,
                log: Callable[[str], None] | None = None) -> None:
        """Load or build the tables and compile the kernels; progress(done, total) follows the
        work, log(message) says what is being done, cancel stops it (nothing half-built stays)."""

    def solve(self, state: CubeState, *, max_length: int | None = None,
              time_limit: float | None = None,
              on_solution: Callable[[Solution], None] | None = None,
              counters: np.ndarray | None = None,
              cancel: np.ndarray | None = None) -> SolveResult: ...


def missing_tables(specs) -> list:
    """The specs whose table is neither built on disk (a header that checks out) nor held in
    memory by this process."""
    if not specs:
        return []
    from cubelab.tables.store import table_status
    missing = []
    for spec in specs:
        status = table_status(spec)
        if not (status["built"] or status["in_memory"]):
            missing.append(spec)
    return missing


class PrepareOnce:
    """For solvers whose prepare loads their tables once per object: `missing_tables()` follows
    `table_specs()` until then, and `prepare()` runs the solver's `_prepare(progress, cancel,
    log)` the first time only, under a lock (solves from several threads may ask at once)."""

    _prepared = False

    def missing_tables(self) -> list:
        return [] if self._prepared else missing_tables(self.table_specs())

    def prepare(self, progress: Callable[[int, int], None] | None = None,
                cancel: np.ndarray | None = None,
                log: Callable[[str], None] | None = None) -> None:
        with self.__dict__.setdefault("_prepare_lock", threading.Lock()):
            if not self._prepared:
                self._prepare(progress, cancel, log)
                self._prepared = True


def begin_solve(state: CubeState, counters: np.ndarray | None, cancel: np.ndarray | None
                ) -> tuple[CubeState, np.ndarray, np.ndarray]:
    """What a 3x3x3 solve starts with: the state relative to its centres (SolverError if it
    cannot be solved), the counters and the cancel flag (new ones where none were given)."""
    return (check_solvable(state), new_counters() if counters is None else counters,
            new_cancel() if cancel is None else cancel)


def open_solve(solver, state: CubeState, counters: np.ndarray | None,
               cancel: np.ndarray | None, detail: dict | None = None):
    """The opening every table solver shares: begin_solve's (state, counters, cancel) and an
    early answer or None: the empty optimal one for a solved cube (with the solver's own
    `detail`), or prepare_before_solving's "cancelled"."""
    s, counters, cancel = begin_solve(state, counters, cancel)
    if s.is_identity():
        return s, counters, cancel, SolveResult(solver.name, [], optimal=True, lower_bound=0,
                                                verified=True,
                                                detail={} if detail is None else detail)
    return s, counters, cancel, prepare_before_solving(solver, cancel)


def prepare_before_solving(solver, cancel: np.ndarray | None) -> SolveResult | None:
    """Prepare a solver before its time limit starts (building tables is not part of a solve's
    time): None when ready, a "cancelled" result when the cancel flag went up first.

    Loading a large table (its checksum) and compiling kernels cannot look at the flag, so the
    preparation is watched (see `watched`): a cancelled first solve returns within
    milliseconds, and the preparation finishes (or, for a build, stops at its next check) on
    its own."""
    from cubelab.tables.spec import BuildCancelled
    if getattr(solver, "_prepared", None):
        return None     # the common case (PrepareOnce, or a solver keeping what it prepared
        # there, as korf does): no thread needed
    try:
        finished, _ = watched(lambda: solver.prepare(cancel=cancel), cancel,
                              name=f"prepare {solver.name}")
    except BuildCancelled:
        finished = False
    return None if finished else SolveResult(solver.name, None, status="cancelled",
                                             metric=solver.metrics[0])


def watched(work: Callable[[], object], cancel: np.ndarray | None,
            name: str = "watched") -> tuple[bool, object]:
    """(True, work()) when the work ends, (False, None) as soon as the cancel flag is up.

    For work that looks at the flag too seldom (a compile, a checksum, one large numpy step):
    it runs in a helper thread while this one watches the flag every CANCEL_POLL seconds, so
    the caller returns at once and the work stops at its own next check. Its exception is
    re-raised here when it ends first."""
    outcome: dict = {}
    done = threading.Event()

    def run():
        try:
            outcome["value"] = work()
        except BaseException as e:  # re-raised by the caller, unless it gave up waiting
            outcome["error"] = e
        finally:
            done.set()

    threading.Thread(target=run, name=name, daemon=True).start()
    while not done.wait(CANCEL_POLL):
        if cancel is not None and cancel[0]:
            return False, None
    if "error" in outcome:
        raise outcome["error"]
    return True, outcome["value"]


CANCEL_POLL = 0.01
"""How often a solve waiting for its preparation looks at the cancel flag (seconds)."""


def check_solvable(state: CubeState) -> CubeState:
    """The state relative to its centres, or SolverError naming the invariant that fails (or
    saying that the position is not a 3x3x3's)."""
    if not isinstance(state, CubeState):
        raise SolverError(f"this solver solves the 3x3x3, not a {type(state).__name__}")
    reason = unreachable_reason(state)
    if reason:
        raise SolverError(f"cannot solve: {reason}")
    return state.normalized()


def verify(state: CubeState, moves) -> bool:
    """Whether the moves, applied to the position, solve it (relative to the centres)."""
    return apply_moves(state, moves).is_solved()


class Deadline:
    """Enforces a time limit by raising the cancel flag from a timer thread (nopython code
    cannot read the clock). Use as a context manager; `expired` tells whether it fired."""

    def __init__(self, cancel: np.ndarray, seconds: float | None):
        self.cancel = cancel
        self.seconds = seconds
        self.expired = False
        self._timer: threading.Timer | None = None
        self.start = time.perf_counter()

    def _fire(self):
        self.expired = True
        self.cancel[0] = 1

    def __enter__(self) -> "Deadline":
        self.start = time.perf_counter()
        if self.seconds is not None:
            self._timer = threading.Timer(max(0.0, self.seconds), self._fire)
            self._timer.daemon = True
            self._timer.start()
        return self

    def __exit__(self, *exc):
        if self._timer is not None:
            self._timer.cancel()
        return False

    def elapsed(self) -> float:
        return time.perf_counter() - self.start
