"""The one protocol every solver implements, and the solve every solver's search runs inside.

A solver (see `Solver`) carries its declaration (`description`: name, puzzle, metrics, options,
table sets; description.py), lists the tables it needs and which of them are missing, prepares
(loads or builds its tables, compiles its kernels; a solve prepares when needed) and solves. The
UI never blocks on a solver: it runs `solve` in a thread, polls `counters` about ten times a
second, and raises the `cancel` flag to stop it.

`SolverBase.solve` is the template every solver shares: check the position (its puzzle's, and
reachable), answer the solved cube at once, prepare before the clock starts, run the search
under the time limit, verify what it found, and build the result with its status. A solver
writes `search(job)` and returns its `Answer`; `SolveJob.offer` streams improvements.

Why a search was told to stop travels in the cancel flag itself: CANCEL (the caller) or TIME_UP
(a time limit: the solve's own, or a caller's such as the workbench's cap); `stopped_by` reads
it, and is the one place that tells "time limit" from "cancelled".
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable, ClassVar, Protocol

import numpy as np

from cubelab.cube.alg import Move
from cubelab.cube.facts import unreachable_reason
from cubelab.cube.metrics import Metric
from cubelab.cube.moves import apply_moves
from cubelab.cube.puzzles import PUZZLES
from cubelab.cube.state import CubeState

from .description import SolverDescription
# what a solve returns, re-exported: callers import the protocol's names from here
from .results import (  # noqa: F401
    Commutator, Parts, Phase, PhaseLengths, Solution, SolveResult, Status, Step,
)

# Slots of the shared counter array. Searches write NODES (and BOUND, BEST, PHASE where they
# have them) every few thousand nodes; the UI reads them.
NODES, BOUND, BEST, PHASE, SOLUTIONS, LOWER_BOUND = range(6)
N_COUNTERS = 8
NO_VALUE = -1

CANCEL = 1
"""The cancel flag's value when the caller stopped the solve."""
TIME_UP = 2
"""The cancel flag's value when a time limit stopped it (kernels stop on any non-zero value)."""


def new_counters() -> np.ndarray:
    return _FRESH_COUNTERS.copy()


_FRESH_COUNTERS = np.zeros(N_COUNTERS, dtype=np.int64)
_FRESH_COUNTERS[[BOUND, BEST, PHASE, LOWER_BOUND]] = NO_VALUE
_FRESH_COUNTERS.flags.writeable = False


def new_cancel() -> np.ndarray:
    """A one-element flag: 0 = keep going, anything else = stop as soon as you can (CANCEL or
    TIME_UP says why)."""
    return np.zeros(1, dtype=np.int32)


def raise_flag(cancel: np.ndarray, why: int = CANCEL) -> None:
    """Stop the work watching `cancel`, saying why (the first reason given stays)."""
    if not cancel[0]:
        cancel[0] = why


def stopped_by(cancel: np.ndarray | None, expired: bool = False) -> Status | None:
    """Why a search was told to stop: TIME_LIMIT when its time ran out (`expired`, or the flag
    says TIME_UP), CANCELLED when the caller raised the flag, None when nothing stopped it."""
    if expired:
        return Status.TIME_LIMIT
    if cancel is None or not cancel[0]:
        return None
    return Status.TIME_LIMIT if cancel[0] == TIME_UP else Status.CANCELLED


class SolverError(ValueError):
    """The solver refuses the position (unreachable, beyond its limits); the message says why."""


class Solver(Protocol):
    """What every solver offers; callers use exactly this surface, never probe for more."""

    description: SolverDescription
    """Its declaration (the registry serves the same one before any solver is made)."""
    name: str
    puzzle: str
    """The puzzle's name ("3x3", "2x2"): solve refuses a position of another puzzle."""
    metrics: tuple[Metric, ...]
    """The metrics the solver honours: its search minimises lengths counted in them, and its
    results' `optimal`, `lower_bound` and `metric` refer to them. A metric not listed is
    refused by the front ends, never ignored; a solver that counts in another metric when made
    so is another registry entry (the registry's metric_variant finds it)."""
    prepared: bool
    """Whether prepare() has run to its end (a solve then starts its search at once)."""

    def table_specs(self) -> tuple:
        """The store's TableSpecs that prepare loads or builds (empty if none)."""

    def missing_tables(self) -> list:
        """The specs among table_specs() that are neither on disk nor in this process (the UI
        offers to build them, with their sizes, before a solve)."""

    def prepare(self, progress: Callable[[int, int], None] | None = None,
                cancel: np.ndarray | None = None,
                log: Callable[[str], None] | None = None) -> None:
        """Load or build the tables and compile the kernels; progress(done, total) follows the
        work, log(message) says what is being done, cancel stops it (BuildCancelled; nothing
        half-built stays)."""

    def solve(self, state, *, max_length: int | None = None,
              time_limit: float | None = None,
              on_solution: Callable[[Solution], None] | None = None,
              counters: np.ndarray | None = None,
              cancel: np.ndarray | None = None) -> SolveResult:
        """Solve within max_length (in its metric) and time_limit seconds of search (preparing
        never counts); on_solution(sol) is told of each improvement as it is found."""


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


# ---- one solve --------------------------------------------------------------------------------

@dataclass(eq=False)
class SolveJob:
    """One solve as the template hands it to a solver's search."""

    solver: "SolverBase"
    state: object
    """The position as given (what the solution must solve)."""
    position: object
    """The position checked and held with its centres home (what searches start from)."""
    max_length: int | None
    time_limit: float | None
    counters: np.ndarray
    cancel: np.ndarray
    on_solution: Callable[[Solution], None] | None = None
    started: float = field(default_factory=time.perf_counter)
    expired: bool = False
    """The solve's time limit has passed."""
    solutions: list[Solution] = field(default_factory=list)
    """Every solution offered so far, in order (each shorter than the one before, or equal)."""
    run: object = None
    """The solver's own state of this solve, for its `time_up` (kociemba's threads, korf's)."""
    verified: bool = False
    """The last solution offered was verified."""

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def stopped(self) -> Status | None:
        """Why the search was told to stop, if it was (stopped_by)."""
        return stopped_by(self.cancel, self.expired)

    def offer(self, moves: list[Move], verify: bool = True, verified: bool = False,
              detail: dict | None = None) -> Solution:
        """Stream a solution as it is found: verified (RuntimeError when it does not solve the
        position: the tables or the kernel are wrong, and no answer is better than a wrong
        one), kept, counted, its length in BEST, and told to on_solution. `verify=False` for a
        search that streams many improvements (the template then verifies the last one, once);
        `verified`: the caller has just verified it; `detail`: what the solver says of it (its
        record in a list of solutions)."""
        if verify and not verified:
            self.solver.verify(self.state, moves)
        self.verified = verify or verified
        sol = Solution(list(moves), self.elapsed(), int(self.counters[NODES]), dict(detail or {}))
        self.solutions.append(sol)
        self.counters[BEST] = sol.length(self.solver.metric)
        self.counters[SOLUTIONS] += 1
        if self.on_solution is not None:
            self.on_solution(sol)
        return sol


@dataclass
class Answer:
    """What a search returns to the template: the moves (None: nothing found) and what it
    knows of them. `status` is given only where the usual rule (see SolverBase.solve) does not
    say it: NOT_FOUND or TOO_DEEP with a reason, TIME_LIMIT for a solution a search stopped by
    its time did not find itself."""

    moves: list[Move] | None
    optimal: bool = False
    lower_bound: int | None = None
    status: Status | None = None
    detail: dict = field(default_factory=dict)
    phases: Parts | None = None
    steps: Parts | None = None
    nodes: int | None = None
    """Nodes searched, where the counters do not hold them."""


class SolverBase:
    """The template every solver shares (see the module docstring); a solver declares its
    `description`, lists its `table_specs`, loads them in `_prepare` and writes `search`."""

    description: ClassVar[SolverDescription]
    _prepared: object = False
    """Truthy once prepare() has run to its end (a solver may keep what it prepared here)."""
    _lock: threading.Lock | None = None

    # ---- what it is ---------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.description.name

    @property
    def puzzle(self) -> str:
        return self.description.puzzle

    @property
    def metrics(self) -> tuple[Metric, ...]:
        return self.description.metrics

    @property
    def metric(self) -> Metric:
        """The metric it minimises (its results' `optimal` and `lower_bound` count in it)."""
        return self.description.metrics[0]

    # ---- tables -------------------------------------------------------------------------------
    def table_specs(self) -> tuple:
        return ()

    @property
    def prepared(self) -> bool:
        return bool(self._prepared)

    def missing_tables(self) -> list:
        return [] if self.prepared else missing_tables(self.table_specs())

    def prepare(self, progress: Callable[[int, int], None] | None = None,
                cancel: np.ndarray | None = None,
                log: Callable[[str], None] | None = None) -> None:
        """Run `_prepare` once per solver object, under a lock (solves from several threads
        may ask at once)."""
        with self.__dict__.setdefault("_lock", threading.Lock()):
            if not self.prepared:
                self._prepare(progress, cancel, log)
                if not self._prepared:
                    self._prepared = True

    def _prepare(self, progress, cancel, log) -> None:
        """Load or build the tables and compile the kernels (BuildCancelled when cancelled)."""

    # ---- the solve ----------------------------------------------------------------------------
    def solve(self, state, *, max_length: int | None = None, time_limit: float | None = None,
              on_solution: Callable[[Solution], None] | None = None,
              counters: np.ndarray | None = None,
              cancel: np.ndarray | None = None) -> SolveResult:
        """The template: the position checked (SolverError), the solved cube answered, the
        solver prepared before the clock starts, its search run under the time limit, what it
        found verified, and the result's status decided here: what `Answer.status` says, else
        with moves "solved" (or "cancelled" when the caller stopped an improving search) and
        without "time limit", "cancelled" or "not found"."""
        position = self.check(state)
        if max_length is not None and max_length < 0:
            raise SolverError(f"max length must be 0 or more (got {max_length})")
        job = SolveJob(self, state, position, max_length, time_limit,
                       new_counters() if counters is None else counters,
                       new_cancel() if cancel is None else cancel, on_solution)
        found = self.solved(job)
        if found is None:
            if not self.prepared:
                refused = prepare_before_solving(self, job.cancel)
                if refused is not None:
                    return refused
            job.started = time.perf_counter()   # preparing is never part of a solve's time
            with Deadline(job.cancel, self.search_seconds(job), lambda: self._time_up(job)):
                found = self.search(job)
        return self.result(job, found)

    def check(self, state):
        """The position as searches take it (held with its centres home); SolverError for a
        position of another puzzle or one no turns reach."""
        puzzle = PUZZLES[self.puzzle]
        if not puzzle.owns(state):
            raise SolverError(f"this solver solves the {puzzle.title}, not a "
                              f"{type(state).__name__}")
        reason = puzzle.unreachable(state)
        if reason:
            raise SolverError(f"cannot solve: {reason}")
        return state.normalized()

    def solved(self, job: SolveJob) -> Answer | None:
        """The answer for a solved position, given before anything is prepared (None: the
        position is not solved, or the solver's search answers it)."""
        if not job.position.is_identity():
            return None
        job.counters[BEST] = job.counters[LOWER_BOUND] = 0
        return Answer([], optimal=True, lower_bound=0, **self.solved_parts())

    def solved_parts(self) -> dict:
        """The Answer fields (phases, steps, detail) of the solved position's answer."""
        return {}

    def search_seconds(self, job: SolveJob) -> float | None:
        """The seconds after which the solve's time is up (the time limit, by default)."""
        return job.time_limit

    def _time_up(self, job: SolveJob) -> None:
        job.expired = True
        self.time_up(job)

    def time_up(self, job: SolveJob) -> None:
        """What the solve's time running out does: stop the search (the flag says TIME_UP). A
        solver that must run on (to its first solution, or to a fallback) does otherwise."""
        raise_flag(job.cancel, TIME_UP)

    def search(self, job: SolveJob) -> Answer:
        raise NotImplementedError

    def verify(self, state, moves) -> None:
        """RuntimeError unless the moves solve the position (each answer is checked once)."""
        if not PUZZLES[self.puzzle].solves(state, moves):
            raise RuntimeError(f"{self.name} produced a sequence that does not solve the cube: "
                               f"rebuild its tables (cubelab tables clear)")

    def result(self, job: SolveJob, found: Answer) -> SolveResult:
        """The SolveResult of what the search found (verified first: a wrong answer is never
        returned; the tables or the kernel would be at fault)."""
        moves = found.moves
        if moves is not None:
            if not job.solutions or job.solutions[-1].moves != list(moves):
                job.offer(moves)            # verified there
            elif not job.verified:
                self.verify(job.state, moves)
        status = found.status
        if status is None:
            stopped = job.stopped()
            if moves is None:
                status = stopped or Status.NOT_FOUND
            else:
                status = Status.CANCELLED if stopped == Status.CANCELLED else Status.SOLVED
        return SolveResult(
            self.name, None if moves is None else list(moves),
            nodes=int(job.counters[NODES]) if found.nodes is None else found.nodes,
            seconds=job.elapsed(), optimal=found.optimal, lower_bound=found.lower_bound,
            verified=moves is not None, status=status, detail=found.detail,
            solutions=job.solutions, metric=self.metric, phases=found.phases,
            steps=found.steps)


def prepare_before_solving(solver, cancel: np.ndarray | None) -> SolveResult | None:
    """Prepare a solver before its time limit starts (building tables is not part of a solve's
    time): None when ready, a "cancelled" result when the cancel flag went up first.

    Loading a large table (its checksum) and compiling kernels cannot look at the flag, so the
    preparation is watched (see `watched`): a cancelled first solve returns within
    milliseconds, and the preparation finishes (or, for a build, stops at its next check) on
    its own."""
    from cubelab.tables.spec import BuildCancelled
    if solver.prepared:
        return None
    try:
        finished, _ = watched(lambda: solver.prepare(cancel=cancel), cancel,
                              name=f"prepare {solver.name}")
    except BuildCancelled:
        finished = False
    if finished and solver.prepared:
        return None
    return SolveResult(solver.name, None, status=stopped_by(cancel) or Status.CANCELLED,
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
    """A time limit, kept by a timer thread (nopython code cannot read the clock): when it
    passes, `action()` runs (by default the cancel flag goes up with TIME_UP) and `expired`
    turns true. Use as a context manager; no limit (None) starts no thread."""

    def __init__(self, cancel: np.ndarray, seconds: float | None,
                 action: Callable[[], None] | None = None):
        self.cancel = cancel
        self.seconds = seconds
        self.action = action
        self.expired = False
        self._timer: threading.Timer | None = None
        self.start = time.perf_counter()

    def _fire(self):
        self.expired = True
        if self.action is not None:
            self.action()
        else:
            raise_flag(self.cancel, TIME_UP)

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
