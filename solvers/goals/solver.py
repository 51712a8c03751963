"""The goal search as a solver of the protocol: made with a goal, a move set and a metric.

`GoalSolver(goal="cross", moves="<R,U,F>", metric="htm")` solves a position towards its goal
through the protocol's template like every solver (background thread, counters, cancel, time
limit, on_solution for each solution found); `solve` also takes masked facelets (a
`MaskedPosition`: with no goal given, the goal is what they show). The result's moves are the
best solution with its AUF turns (what to apply to reach the goal); its `detail` carries the
goal, the move set, the AUF used and the finger-trick cost and, when a list was asked (`all`,
`n`, `within`), the whole list (each solution with its lengths in every metric, its costs and
its AUF). Its declaration is about.py ("goal").
"""

from __future__ import annotations

from cubelab.cube.costs import CostModel, check_metric
from cubelab.cube.goal_catalog import resolve_goal, resolve_moveset
from cubelab.cube.goals import TurnedGoal
from cubelab.cube.masked_facelets import MaskedPosition, require_known
from cubelab.cube.metrics import Metric
from cubelab.cube.moves import apply_moves
from cubelab.cube.state import CubeState

from ..protocol import Answer, SolverBase, SolverError, check_solvable
from .about import GOAL, LIST_OPTIONS, check_combination
from .problem import table_specs
from .search import find, problems_for


class GoalSolver(SolverBase):
    """Every solution of a goal in a move set, shortest first (see the module docstring)."""

    description = GOAL

    def __init__(self, goal: str | None = None, moves: str = "all", metric: str = "htm",
                 weights: str | None = None, auf: str = "none", all: bool = False,
                 n: int | None = None, within: float | None = None, fold: bool = False,
                 max_solutions: int = 10_000):
        check_combination({"all": all, "n": n, "within": within})
        self.goal = goal
        """None: "solved", or what masked facelets show."""
        self.moveset = resolve_moveset(moves)
        self._metric = Metric(check_metric(metric))
        self.costs = CostModel(self._metric.value, weights)
        self.costs.check_moves(self.moveset.moves)
        self.weights = weights
        self.auf = auf
        self.options = {"all": all, "n": n, "within": within, "fold": fold,
                        "max_solutions": max_solutions}
        self._specs: tuple = ()

    # ---- what it is: one entry, made in the metric asked ------------------------------------
    @property
    def metric(self) -> Metric:
        return self._metric

    @property
    def metrics(self) -> tuple[Metric, ...]:
        return (self._metric,)

    @property
    def lists(self) -> bool:
        """Whether it was asked for a list of solutions (all, n, within)."""
        return any(self.options[k] not in (None, False) for k in LIST_OPTIONS)

    def _goal_text(self) -> str:
        return self.goal or "solved"

    # ---- tables ---------------------------------------------------------------------------------
    def table_specs(self) -> tuple:
        """The tables of the goal as held (a position turned or masked may need others, made
        at its solve)."""
        if not self._specs:
            start = CubeState.identity()
            self._specs = table_specs([(start, g, self.moveset, self.costs, self.auf)
                                       for g in resolve_goal(self._goal_text(), start)])
        return self._specs

    def _prepare(self, progress, cancel, log) -> None:
        try:
            problems = problems_for(CubeState.identity(), self._goal_text(), self.moveset,
                                    self.costs, self.auf, progress, cancel, log)
        except ValueError as e:
            raise SolverError(str(e)) from None
        self._specs = tuple(s for p in problems for s in p.plan.specs())
        # compile the kernel now (a search from the solved start, which ends at once)
        find(None, None, self.moveset, metric=self._metric.value, weights=self.weights,
             problems=problems[:1], max_length=1)

    # ---- the solve ------------------------------------------------------------------------------
    def check(self, state):
        """A CubeState or masked facelets (a MaskedPosition), kept as given: the goal reads the
        centres itself (a cross is the cross matching them, wherever they are)."""
        check_solvable(state.state if isinstance(state, MaskedPosition) else state)
        if isinstance(state, MaskedPosition) and self.goal is not None:
            # a named goal the stickers contradict is refused before any table is made for it
            try:
                for goal in resolve_goal(self._goal_text(), state.state):
                    require_known(goal, state)
            except ValueError as e:
                raise SolverError(str(e)) from None
        return state

    def solved(self, job):
        """None: a position already meeting the goal is answered by the search (bound 0)."""
        return None

    def _goal_for(self, state):
        """What `find` takes as the goal of this position: None for masked facelets' own."""
        if self.goal is None and isinstance(state, MaskedPosition):
            return None
        return self._goal_text()

    def search(self, job) -> Answer:
        def streamed(solution):
            # verified by the search's compiled check before it gets here
            job.offer(solution.full(), verified=True, detail=solution.to_json())
        try:
            result = find(job.state, self._goal_for(job.state), self.moveset,
                          metric=self._metric.value, weights=self.weights, auf=self.auf,
                          max_length=job.max_length, counters=job.counters, cancel=job.cancel,
                          on_solution=streamed if job.on_solution is not None else None,
                          **self.options)
        except ValueError as e:     # GoalError, Unreachable, MoveSetError, CostError
            raise SolverError(str(e)) from None
        if job.on_solution is None:
            for solution in result.solutions:
                job.offer(solution.full(), verified=True, detail=solution.to_json())
        return self._answer(job, result)

    def _answer(self, job, result) -> Answer:
        best = result.best
        detail = {"goal": result.goal, "moveset": result.moveset}
        if self.weights:
            detail["weights"] = self.weights
            detail["optimal_cost"] = result.optimal
            if result.optimum is not None:
                detail["cost_optimum"] = result.optimum
        if best is not None:
            detail["auf"] = best.to_json()["auf"]
            detail["cost"] = best.ergonomics
            if len(result.goals) > 1:
                detail["met"] = best.goal
        if self.lists:
            detail["solutions"] = [s.to_json() for s in result.solutions]
            detail["truncated"] = result.truncated
            detail["complete"] = not job.stopped() and not result.truncated
        if best is None:
            return Answer(None, lower_bound=self._bound(result))
        moves = list(best.full())
        _last_offered(job, moves)
        return Answer(moves, optimal=result.optimal and not self.costs.weighted,
                      lower_bound=self._bound(result), detail=detail)

    def _bound(self, result) -> int | None:
        if self.costs.weighted or result.lower_bound is None:
            return None
        return int(result.lower_bound)

    def verify(self, state, moves) -> None:
        """RuntimeError unless the moves take the position to the goal (as the template checks
        every solver's answer; the search checked each already, in compiled code)."""
        masked = isinstance(state, MaskedPosition)
        start = state.state if masked else state
        goal = self._goal_for(state)
        goals = [TurnedGoal(state.goal)] if goal is None else resolve_goal(goal, start)
        after = apply_moves(start, moves)
        if not any(g.is_met(after) for g in goals):
            raise RuntimeError(f"goal solver produced a sequence that does not reach "
                               f"{', '.join(g.name for g in goals)}: rebuild its tables "
                               f"(cubelab tables clear)")


def _last_offered(job, moves) -> None:
    """Put the best solution last among those offered (the template returns the last one
    offered as the answer, verified; a list's best is not always the last found)."""
    for i, solution in enumerate(job.solutions):
        if solution.moves == moves:
            job.solutions.append(job.solutions.pop(i))
            job.verified = True
            return
