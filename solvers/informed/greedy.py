"""Greedy best-first search: always expand the position the heuristic likes best.

One of the competition's players: it ignores the moves already made (f = h), so it is fast
when the heuristic points the right way and its solutions are long and never optimal. Bounded
by a number of expanded nodes (50,000 by default: under a minute in Python), and its memory
with it.
"""

from __future__ import annotations

import heapq


from cubelab.cube.moves import FACE_MOVES
from cubelab.cube.state import CubeState
from cubelab.tables.cfop.coords import code_move_tables

from ..baselines import coordinates
from ..protocol import BOUND, NODES, Answer, SolveJob, SolverError, Status
from .about import GREEDY
from .heuristics import piece_codes, piece_distances
from .player import InformedPlayer

_GOAL = tuple(range(0, 24, 3)) + tuple(range(0, 24, 2))


class GreedySolver(InformedPlayer):
    """Greedy best-first search on a heuristic (misplaced, manhattan, manhattan-raw, pdb)."""

    description = GREEDY

    def __init__(self, heuristic: str = "pdb", max_nodes: int = 50_000):
        super().__init__(heuristic, max_nodes)

    def describe(self) -> str:
        return (f"Greedy best-first search on the {self.heuristic} heuristic: quick when it "
                f"points the right way, never optimal; gives up after {self.max_nodes:,} "
                f"expanded nodes.")

    def _ready(self) -> None:
        cm, em = code_move_tables()
        self._corner_mv, self._edge_mv = cm.T.tolist(), em.T.tolist()
        cd, ed = piece_distances()
        self._cdist, self._edist = cd.tolist(), ed.tolist()

    def _h(self, codes, coords) -> int:
        kind = self.heuristic
        if kind == "pdb":
            return self._pdb.h(*coords)
        if kind == "misplaced":
            return (sum(a != b for a, b in zip(codes, _GOAL)) + 7) // 8
        sc = sum(self._cdist[i][codes[i]] for i in range(8))
        se = sum(self._edist[i][codes[8 + i]] for i in range(12))
        if kind == "manhattan-raw":
            return sc + se
        return max((sc + 3) // 4, (se + 3) // 4)

    def search(self, job: SolveJob) -> Answer:
        path, expanded, why = self._search(job.position, job.cancel, job.counters)
        job.counters[NODES] = expanded
        if path is None:
            if why == "budget":
                raise SolverError(f"greedy ({self.heuristic}) gave up after {self.max_nodes:,} "
                                  f"expanded nodes")
            return Answer(None)
        if job.max_length is not None and len(path) > job.max_length:
            return Answer(None, status=Status.NOT_FOUND)
        return Answer([FACE_MOVES[m] for m in path], detail={"heuristic": self.heuristic})

    def _search(self, s: CubeState, cancel, counters):
        """(path, nodes expanded, why it stopped without one)."""
        cm, em = self._corner_mv, self._edge_mv
        pdb = self._pdb
        use_pdb = self.heuristic == "pdb"
        cc, ec = piece_codes(s)
        start = tuple(int(c) for c in cc) + tuple(int(e) for e in ec)
        coords0 = coordinates(s)
        # parents: codes -> (previous codes, move); the heap holds (h, tie, codes, coords)
        parent = {start: (None, -1)}
        heap = [(self._h(start, coords0), 0, start, coords0)]
        tie = 0
        expanded = 0
        while heap:
            _, _, codes, crd = heapq.heappop(heap)
            if codes == _GOAL:
                path = []
                while parent[codes][0] is not None:
                    codes, m = parent[codes]
                    path.append(m)
                return path[::-1], expanded, None
            expanded += 1
            if expanded % 256 == 0:
                counters[NODES] = expanded
                counters[BOUND] = len(parent)
                if cancel[0]:
                    return None, expanded, "cancel"
            if expanded > self.max_nodes:
                return None, expanded, "budget"
            for m in range(18):
                cmv, emv = cm[m], em[m]
                child = tuple(cmv[c] for c in codes[:8]) + tuple(emv[e] for e in codes[8:])
                if child in parent:
                    continue
                parent[child] = (codes, m)
                # the coordinates only matter to the pattern databases
                cc2 = ((pdb.twist_mv[m][crd[0]], pdb.flip_mv[m][crd[1]], pdb.cperm_mv[m][crd[2]])
                       if use_pdb else crd)
                tie += 1
                heapq.heappush(heap, (self._h(child, cc2), tie, child, cc2))
        return None, expanded, "budget"


