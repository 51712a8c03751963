"""The optimal 2x2x2 solver: a walk down the complete distance table, in HTM or QTM.

Every position's distance is in the table, so an optimal solution is found by taking, at each
step, a turn of U, R or F that lowers the distance by one: no search at all. The solution is
then renamed for the way the cube is held (the table assumes DLB home), so it applies to the
state exactly as given: afterwards the cube is solved, possibly rotated in hand.
"""

from __future__ import annotations

import numpy as np

from cubelab.cube.metrics import Metric
from cubelab.cube.notation import Move, simplify
from cubelab.cube.pocket import PocketState, holding_rotation, move_state, rename_moves
from cubelab.solvers.protocol import BOUND, LOWER_BOUND, NODES, Answer, SolveJob, SolverBase, \
    SolverError, Status
from cubelab.tables.pocket_tables import (
    SPECS, corner_index, distance_table, index_of, metric_moves,
)

from .pocket_about import BY_METRIC


def as_pocket(state) -> PocketState:
    """The state itself; SolverError for anything that is not a 2x2x2 position (a 3x3x3's
    corners are not its solution)."""
    if isinstance(state, PocketState):
        return state
    raise SolverError(f"the 2x2x2 solver solves the 2x2x2, not a {type(state).__name__}")


class PocketSolver(SolverBase):
    """Optimal 2x2x2 solutions in the chosen metric ('htm' or 'qtm') from the distance table."""

    name = "pocket"
    """Its results say "pocket" whichever metric's entry made it (the metric says which)."""

    def __init__(self, metric: str = "htm"):
        if metric not in SPECS:
            raise ValueError(f"unknown metric {metric!r} (choose htm or qtm)")
        self.description = BY_METRIC[Metric(metric)]
        self._table: np.ndarray | None = None
        self._moves = metric_moves(metric)
        self._move_states = [move_state(m) for m in self._moves]

    def table_specs(self) -> tuple:
        return (SPECS[self.metric.value],)

    def _prepare(self, progress, cancel, log) -> None:
        """Load (or build, under a second) the metric's distance table."""
        self._table = distance_table(self.metric.value, progress=progress, cancel=cancel,
                                     log=log)

    def distance(self, state) -> int:
        """Optimal length of a reachable position in the solver's metric."""
        self.prepare()
        return int(self._table[index_of(as_pocket(state))])

    def check(self, state):
        """The position as given (the walk holds it itself); SolverError for a position of
        another puzzle or one no turns reach."""
        given = as_pocket(state)
        super().check(given)
        return given

    def solved(self, job: SolveJob) -> Answer | None:
        return None     # the walk answers a solved cube too (one probe)

    def search(self, job: SolveJob) -> Answer:
        table, given, counters = self._table, job.position, job.counters
        holding = holding_rotation(given)
        current = given * holding.inverse()
        depth = int(table[index_of(current)])
        counters[LOWER_BOUND] = counters[BOUND] = depth
        if job.max_length is not None and depth > job.max_length:
            return Answer(None, lower_bound=depth, status=Status.NOT_FOUND, nodes=1,
                          detail={"puzzle": "2x2"})
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
        return Answer(simplify(rename_moves(path, holding)), optimal=True,
                      lower_bound=len(path), nodes=probes, detail={"puzzle": "2x2"})


if __name__ == "__main__":
    import sys
    from cubelab.cube.pocket import from_alg
    pos = from_alg(" ".join(sys.argv[1:]) or "R U R' U' F2 R U2")
    for metric in BY_METRIC:
        print(PocketSolver(metric).solve(pos.state).to_json())
