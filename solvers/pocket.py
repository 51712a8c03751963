"""The optimal 2x2x2 solver: a walk down the complete distance table, in HTM or QTM.

Every position's distance is in the table, so an optimal solution is found by taking, at each
step, a turn of U, R or F that lowers the distance by one: no search at all. The solution is
then renamed for the way the cube is held (the table assumes DLB home), so it applies to the
state exactly as given: afterwards the cube is solved, possibly rotated in hand.
"""

from __future__ import annotations

import time
from typing import Callable

import numpy as np

from cubelab.cube.notation import Move, simplify
from cubelab.cube.pocket import (
    PocketState, apply_moves, holding_rotation, is_reachable, move_state, rename_moves, twist,
)
from cubelab.solvers.protocol import (
    BEST, BOUND, LOWER_BOUND, NODES, SOLUTIONS, Solution, SolveResult, SolverError,
    PrepareOnce, new_counters, prepare_before_solving,
)
from cubelab.tables.pocket_tables import (
    SPECS, corner_index, distance_table, index_of, metric_moves,
)


def as_pocket(state) -> PocketState:
    """The state itself; SolverError for anything that is not a 2x2x2 position (a 3x3x3's
    corners are not its solution)."""
    if isinstance(state, PocketState):
        return state
    raise SolverError(f"the 2x2x2 solver solves the 2x2x2, not a {type(state).__name__}")


class PocketSolver(PrepareOnce):
    """Optimal 2x2x2 solutions in the chosen metric ('htm' or 'qtm') from the distance table."""

    name = "pocket"
    description = "2x2x2: optimal from the complete distance table (3,674,160 positions)"
    puzzle = "2x2"

    def __init__(self, metric: str = "htm"):
        if metric not in SPECS:
            raise ValueError(f"unknown metric {metric!r} (choose htm or qtm)")
        self.metric = metric
        self.metrics = (metric,)
        self._table: np.ndarray | None = None
        self._moves = metric_moves(metric)
        self._move_states = [move_state(m) for m in self._moves]

    def table_specs(self) -> tuple:
        return (SPECS[self.metric],)

    def _prepare(self, progress, cancel, log) -> None:
        """Load (or build, under a second) the metric's distance table."""
        self._table = distance_table(self.metric, progress=progress, cancel=cancel, log=log)

    def distance(self, state) -> int:
        """Optimal length of a reachable position in the solver's metric."""
        self.prepare()
        return int(self._table[index_of(as_pocket(state))])

    def solve(self, state, *, max_length: int | None = None, time_limit: float | None = None,
              on_solution: Callable[[Solution], None] | None = None,
              counters: np.ndarray | None = None,
              cancel: np.ndarray | None = None) -> SolveResult:
        start = time.perf_counter()
        given = as_pocket(state)
        if not is_reachable(given):
            raise SolverError(f"cannot solve: unreachable: one corner twisted "
                              f"(twist sum {twist(given)} mod 3)")
        counters = new_counters() if counters is None else counters
        refused = prepare_before_solving(self, cancel)
        if refused is not None:
            return refused
        table = self._table
        holding = holding_rotation(given)
        current = given * holding.inverse()
        depth = int(table[index_of(current)])
        counters[LOWER_BOUND] = counters[BOUND] = depth
        if max_length is not None and depth > max_length:
            return SolveResult(solver=self.name, moves=None, nodes=1,
                               seconds=time.perf_counter() - start, optimal=False,
                               lower_bound=depth, status="not found",
                               detail={"puzzle": "2x2"}, metric=self.metric)
        path: list[Move] = []
        probes = 1
        while depth > 0:
            for move, mstate in zip(self._moves, self._move_states):
                nxt = current * mstate
                probes += 1
                d = int(table[corner_index(nxt.cp, nxt.co)])
                if d == depth - 1:
                    path.append(move)
                    current, depth = nxt, d
                    break
            else:  # a damaged table: no neighbour is one closer
                raise RuntimeError("2x2x2 distance table inconsistent; rebuild it")
        counters[NODES] += probes
        moves = simplify(rename_moves(path, holding))
        if not apply_moves(given, moves).is_rotation():
            raise RuntimeError("the 2x2x2 solver produced a sequence that does not solve the cube")
        seconds = time.perf_counter() - start
        sol = Solution(moves, seconds, probes)
        counters[BEST] = len(moves)
        counters[SOLUTIONS] += 1
        if on_solution is not None:
            on_solution(sol)
        return SolveResult(
            solver=self.name, moves=moves, nodes=probes, seconds=seconds, optimal=True,
            lower_bound=len(path), verified=True, status="solved",
            detail={"puzzle": "2x2"}, solutions=[sol], metric=self.metric)


if __name__ == "__main__":
    import sys
    from cubelab.cube.pocket import from_alg
    pos = from_alg(" ".join(sys.argv[1:]) or "R U R' U' F2 R U2")
    for metric in ("htm", "qtm"):
        print(PocketSolver(metric).solve(pos.state).to_json())
