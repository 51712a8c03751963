"""The goal search as a solver of the protocol: made with a goal, a move set and a metric.

`GoalSolver(goal="cross", moves="<R,U,F>", metric="htm")` solves any position towards its
goal through `solve` like every solver (background thread, counters, cancel, time limit,
on_solution for each solution found); the result's `solution` is the best one, its `detail`
carries the goal, the move set and, with `all`, `n` or `within`, the whole list (each with its
lengths, finger-trick cost and AUF). The registry can list it as an entry with these options.
"""

from __future__ import annotations

import time

from cubelab.cube.costs import CostModel, check_metric
from cubelab.cube.goal_catalog import resolve_goal, resolve_moveset
from cubelab.cube.masked_facelets import MaskedPosition
from cubelab.cube.state import CubeState

from ..protocol import (
    PrepareOnce, Solution, SolveResult, SolverError, check_solvable, new_cancel,
    new_counters, prepare_before_solving,
)
from .problem import table_specs
from .search import find, problems_for


class GoalSolver(PrepareOnce):
    """Every solution of a goal in a move set, shortest first (see the module docstring)."""

    name = "goal"
    description = ("Solves a goal (a cross, an F2L pair, an OLL, a DR...) in a chosen move set "
                   "and metric: optimal, every optimal solution or the N best, ranked by "
                   "finger-trick cost.")
    puzzle = "3x3"
    metrics = ("htm",)
    """The default; an instance honours the metric it is made with (`metrics` = (metric,))."""

    def __init__(self, goal: str = "solved", moves: str = "all", metric: str = "htm",
                 weights: str | None = None, auf: str = "none", all: bool = False,
                 n: int | None = None, within: float | None = None, fold: bool = False,
                 max_solutions: int = 10_000):
        self.goal = goal
        self.moveset = resolve_moveset(moves)
        self.metric = check_metric(metric)
        self.costs = CostModel(self.metric, weights)
        self.costs.check_moves(self.moveset.moves)
        self.weights = weights
        self.auf = auf
        self.options = {"all": all, "n": n, "within": within, "fold": fold,
                        "max_solutions": max_solutions}
        self.metrics = (self.metric,)
        self._specs: tuple = ()

    def table_specs(self) -> tuple:
        """The tables of the goal as held (a position turned or masked may need others)."""
        if not self._specs:
            start = CubeState.identity()
            self._specs = table_specs([(start, g, self.moveset, self.costs, self.auf)
                                       for g in resolve_goal(self.goal, start)])
        return self._specs

    def _prepare(self, progress, cancel, log) -> None:
        problems = problems_for(CubeState.identity(), self.goal, self.moveset, self.costs,
                                self.auf, progress, cancel, log)
        self._specs = tuple(s for p in problems for s in p.plan.specs())
        # compile the kernel now (a search from the solved start, which ends at once)
        find(None, None, self.moveset, metric=self.metric, weights=self.weights,
             problems=problems[:1], max_length=1)

    def solve(self, state, *, max_length=None, time_limit=None, on_solution=None,
              counters=None, cancel=None) -> SolveResult:
        position = state
        if isinstance(state, MaskedPosition):
            position = state.state
        check_solvable(position)
        counters = new_counters() if counters is None else counters
        cancel = new_cancel() if cancel is None else cancel
        early = prepare_before_solving(self, cancel)
        if early is not None:
            return early
        started = time.perf_counter()

        def streamed(sol):
            if on_solution is not None:
                on_solution(Solution(list(sol.full()), time.perf_counter() - started,
                                     sol.nodes))
        try:
            goal = None if isinstance(state, MaskedPosition) and self.goal == "shown" \
                else self.goal
            result = find(state, goal, self.moveset, metric=self.metric, weights=self.weights,
                          auf=self.auf, max_length=max_length, time_limit=time_limit,
                          on_solution=streamed, counters=counters, cancel=cancel,
                          **self.options)
        except ValueError as e:
            raise SolverError(str(e)) from None
        best = result.best
        moves = list(best.full()) if best is not None else None
        detail = {"goal": result.goal, "moveset": result.moveset,
                  "metric_name": result.metric}
        if best is not None:
            detail["auf"] = best.to_json()["auf"]
            detail["cost"] = best.ergonomics
        if any(self.options[k] for k in ("all", "n", "within")):
            detail["solutions"] = [s.to_json() for s in result.solutions]
            detail["truncated"] = result.truncated
        optimal = result.optimal and not self.costs.weighted
        lower = result.lower_bound if not self.costs.weighted else None
        return SolveResult(self.name, moves, nodes=result.nodes, seconds=result.seconds,
                           optimal=optimal,
                           lower_bound=None if lower is None else int(lower),
                           verified=best is not None, status=result.status, detail=detail,
                           solutions=[Solution(list(s.full()), s.seconds, s.nodes)
                                      for s in result.solutions],
                           metric=self.metric)
