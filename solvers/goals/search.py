"""The goal search driver: iterative deepening over one or several goals, every solution.

`find` sets up one Problem per goal (`cross:any` is six; tables are built or loaded first, not
on the time limit's clock), then raises the bound from the largest lower bound of the starts,
running the kernel on every goal at each bound in a background thread (it holds no lock on
Python) while this thread streams what it writes: each solution is checked on the position
(the goal met, AUF turns found), deduplicated by its text and passed to `on_solution`.

What ends the search:
- by default, the first solution (at the least bound that has one: an optimal solution);
- `all`: every solution of the optimal cost;
- `n`: the N best (whole bounds until N are found, then ranked and cut);
- `within`: every solution up to K beyond the optimum (K in the metric's units);
- `max_length` (a cap on the cost), `time_limit`, the cancel flag, `max_solutions`.
A result is `optimal` when its best cost is proven least: every lower bound was exhausted.
Solutions that begin (with pre-AUF) or end (with post-AUF) by an AUF turn are dropped: the
same solution with another AUF is shorter.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass, field

from cubelab.cube.costs import CostModel
from cubelab.cube.goal_catalog import resolve_goal, resolve_moveset
from cubelab.cube.goals import TurnedGoal
from cubelab.cube.masked_facelets import MaskedPosition
from cubelab.cube.movesets import MoveSet

from ..protocol import BEST, BOUND, NODES, PHASE, Deadline, new_cancel, new_counters
from .kernel import CANCELLED, FULL, NO_BOUND
from .problem import Problem, SolutionBuffer
from .solutions import GoalSolution, fold as fold_classes, ranked

MAX_SOLUTIONS = 10_000
POLL = 0.02
BALL_AFTER_NODES = 4_000_000
"""Searches of one goal and move set that have walked this many nodes in all read the goal's
ball (building it if needed): cheap searches never pay for it, a case set soon does."""


@dataclass
class GoalSearchResult:
    """What a goal search returns (see the module docstring)."""

    solutions: list
    goal: str
    moveset: str
    metric: str
    optimal: bool = False
    optimum: float | None = None
    lower_bound: float | None = None
    status: str = "solved"      # solved | not found | cancelled | time limit
    nodes: int = 0
    seconds: float = 0.0
    truncated: bool = False
    goals: list = field(default_factory=list)

    @property
    def best(self) -> GoalSolution | None:
        return self.solutions[0] if self.solutions else None

    def to_json(self) -> dict:
        return {
            "goal": self.goal, "moveset": self.moveset, "metric": self.metric,
            "optimal": self.optimal, "optimum": self.optimum, "lower_bound": self.lower_bound,
            "status": self.status, "nodes": int(self.nodes),
            "seconds": round(float(self.seconds), 6), "truncated": self.truncated,
            "solutions": [s.to_json() for s in self.solutions],
        }


def problems_for(start, goal, moves, costs: CostModel, auf: str = "none", progress=None,
                 cancel=None, log=None) -> list[Problem]:
    """One Problem per goal `goal` stands for (a name, a piece list, TurnedGoals, or None for
    what masked facelets show)."""
    moveset = moves if isinstance(moves, MoveSet) else resolve_moveset(moves)
    if goal is None:
        if not isinstance(start, MaskedPosition):
            raise ValueError("a goal is needed (only masked facelets carry their own)")
        goals = [TurnedGoal(start.goal, label="shown stickers")]
    elif isinstance(goal, str):
        state = start.state if isinstance(start, MaskedPosition) else start
        goals = resolve_goal(goal, state)
    elif isinstance(goal, TurnedGoal):
        goals = [goal]
    else:
        goals = list(goal)
    return [Problem(start, g, moveset, costs, auf, progress, cancel, log) for g in goals]


class _Collector:
    """Reads the kernel's rows as they come: checks, dedupes and streams them."""

    def __init__(self, problems, costs, on_solution, started, counters):
        self.problems = problems
        self.costs = costs
        self.on_solution = on_solution
        self.started = started
        self.counters = counters
        self.seen: set[str] = set()
        self.found: list[GoalSolution] = []

    def take(self, problem: Problem, buffer: SolutionBuffer, done: int) -> int:
        """Check and keep the rows written since `done`; returns the new count."""
        count = int(buffer.count[0])
        if done >= count:
            return done
        rows = problem.read_rows(buffer, done, count)
        checks = problem.check(buffer, done, count)
        for row, (met, post) in zip(rows, checks):
            moves = problem.moves_of(row)
            pre = problem.pre_moves[row.start]
            if moves and problem.auf in ("pre", "both") and \
                    problem.pre_moves[1].family == moves[0].family:
                continue        # an AUF before an AUF: the same solution from another start
            if not met:
                raise RuntimeError(f"goal search produced {moves} for {problem.label}, which "
                                   "does not meet it")
            if post is not None and moves and moves[-1].family == post.family:
                continue
            self._keep(GoalSolution(tuple(moves), problem.label, self.costs.value(row.cost),
                                    pre, post, time.perf_counter() - self.started,
                                    int(self.counters[NODES])))
        return count

    def _keep(self, solution: GoalSolution) -> None:
        if solution.text in self.seen:
            return
        self.seen.add(solution.text)
        self.found.append(solution)
        if self.on_solution is not None:
            self.on_solution(solution)


def find(start, goal, moves, *, metric: str = "htm", weights=None, auf: str = "none",
         all: bool = False, n: int | None = None, within: float | None = None,
         max_length: float | None = None, max_solutions: int = MAX_SOLUTIONS,
         fold: bool = False, time_limit: float | None = None, on_solution=None,
         counters=None, cancel=None, progress=None, log=None,
         problems: list | None = None) -> GoalSearchResult:
    """Search a goal (see the module docstring); `start` a CubeState or MaskedPosition, `goal` a
    name/piece list/TurnedGoal(s) (None: what masked facelets show), `moves` a move set."""
    costs = CostModel(metric, weights)
    counters = new_counters() if counters is None else counters
    cancel = new_cancel() if cancel is None else cancel
    if problems is None:
        problems = problems_for(start, goal, moves, costs, auf, progress, cancel, log)
    started = time.perf_counter()
    label = ", ".join(p.label for p in problems) if len(problems) <= 3 else \
        f"{problems[0].label.split(':')[0]}:any"
    result = GoalSearchResult([], label, problems[0].moveset.text, costs.name,
                              goals=[p.label for p in problems])
    collector = _Collector(problems, costs, on_solution, started, counters)
    scale = costs.scale
    # caps in whole units, rounded down: a cap of 3.4 at weights in halves is 6 units (3.0),
    # never 7 (3.5, over the cap); the small slack keeps 3.5 itself at 7 despite binary floats
    cap_units = None if max_length is None else math.floor(max_length * scale + 1e-9)
    extra = None if within is None else math.floor(within * scale + 1e-9)
    first_only = not all and n is None and within is None
    bound = min(p.lower_bound() for p in problems)
    floor = -1
    optimum_units = None
    buffer = _buffer(1 if first_only else max_solutions)
    nodes_at_start = int(counters[NODES])
    with Deadline(cancel, time_limit) as clock:
        while bound < int(NO_BOUND):
            if cap_units is not None and bound > cap_units:
                break
            if extra is not None and optimum_units is not None and bound > optimum_units + extra:
                break
            counters[BOUND] = bound
            next_bound = int(NO_BOUND)
            stop = False
            for i, problem in enumerate(problems):
                counters[PHASE] = i
                buffer.clear()
                status, nb = _run(problem, bound, floor, buffer, counters, cancel, collector)
                next_bound = min(next_bound, int(nb))
                if status == CANCELLED:
                    stop = True
                    break
                if status == FULL:
                    result.truncated = not first_only
                    stop = True
                    break
            if collector.found and optimum_units is None:
                optimum_units = bound
                counters[BEST] = bound
            if stop or cancel[0]:
                break
            if collector.found:
                if first_only or all:
                    break
                if n is not None and len(collector.found) >= n and extra is None:
                    break
            if len(collector.found) >= max_solutions:
                result.truncated = True
                break
            floor = bound
            bound = next_bound
            walked = int(counters[NODES]) - nodes_at_start
            nodes_at_start += walked
            for problem in problems:
                problem.want_ball(walked // len(problems), BALL_AFTER_NODES, progress, cancel,
                                  log)
        exhausted = bound >= int(NO_BOUND)
    result.seconds = time.perf_counter() - started
    result.nodes = int(counters[NODES])
    solutions = ranked(collector.found)
    if n is not None:
        solutions = solutions[:n]
    if fold:
        solutions = fold_classes(solutions)
    result.solutions = solutions
    result.lower_bound = costs.value(bound if optimum_units is None else optimum_units)
    if optimum_units is not None:
        result.optimum = costs.value(optimum_units)
        result.optimal = True
        result.status = "solved"
    elif cancel[0]:
        result.status = "time limit" if clock.expired else "cancelled"
    else:
        result.status = "not found"
        if exhausted:
            result.lower_bound = None
    if cancel[0] and optimum_units is not None and not clock.expired:
        result.status = "cancelled"
    return result


_LOCAL = threading.local()


def _buffer(capacity: int) -> SolutionBuffer:
    """A solution buffer of this thread, reused from search to search (allocating megabytes
    for every cross of a hundred is what made small searches slow)."""
    cache = getattr(_LOCAL, "buffers", None)
    if cache is None:
        cache = _LOCAL.buffers = {}
    buf = cache.get(capacity)
    if buf is None:
        buf = cache[capacity] = SolutionBuffer(capacity)
    return buf


def _run(problem, bound, floor, buffer, counters, cancel, collector) -> tuple[int, int]:
    """Run one kernel iteration; in a worker thread, streaming its solutions meanwhile, when
    someone listens (`on_solution`), else here (it still watches the cancel flag)."""
    if collector.on_solution is None:
        result = problem.run(bound, floor, buffer, counters, cancel)
        collector.take(problem, buffer, 0)
        return result
    outcome = {}

    def work():
        try:
            outcome["value"] = problem.run(bound, floor, buffer, counters, cancel)
        except BaseException as e:      # re-raised below
            outcome["error"] = e

    worker = threading.Thread(target=work, name=f"goal search {problem.label}", daemon=True)
    worker.start()
    done = 0
    while worker.is_alive():
        worker.join(POLL)
        done = collector.take(problem, buffer, done)
    if "error" in outcome:
        raise outcome["error"]
    collector.take(problem, buffer, done)
    return outcome["value"]
