"""IDA*: iterative deepening on f = moves + heuristic, one of the competition's players.

Depth-first within each bound, so it needs almost no memory; optimal when its heuristic is
admissible (see heuristics.py), and then the bound it has cleared is a proven lower bound. A
node budget (50 million by default) stops it on positions too deep for its heuristic, with a
message, rather than running for hours.
"""

from __future__ import annotations

import numpy as np

from cubelab.cube.moves import FACE_MOVES
from cubelab.cube.state import CubeState
from cubelab.tables.cfop.coords import code_move_tables
from cubelab.tables.cubies import allowed_after
from cubelab.tables.jit import kernel
from cubelab.tables.ranks import N_FLIP

from ..baselines import coordinates
from ..protocol import BOUND, LOWER_BOUND, NODES, Answer, SolveJob, SolverError, Status
from .about import IDASTAR
from .heuristics import ADMISSIBLE, KIND, piece_codes, piece_distances
from .player import InformedPlayer

MAX_DEPTH = 24


@kernel
def _h(kind, cc, ec, tw, fl, cp, cdist, edist, twist_flip, cperm, n_flip):
    if kind == 3:
        a = twist_flip[tw * n_flip + fl]
        b = cperm[cp]
        return a if a > b else b
    if kind == 0:
        m = 0
        for i in range(8):
            if cc[i] != 3 * i:
                m += 1
        for i in range(12):
            if ec[i] != 2 * i:
                m += 1
        return (m + 7) // 8
    sc = 0
    se = 0
    for i in range(8):
        sc += cdist[i, cc[i]]
    for i in range(12):
        se += edist[i, ec[i]]
    if kind == 2:
        return sc + se
    sc = (sc + 3) // 4
    se = (se + 3) // 4
    return sc if sc > se else se


@kernel
def _solved(cc, ec):
    for i in range(8):
        if cc[i] != 3 * i:
            return False
    for i in range(12):
        if ec[i] != 2 * i:
            return False
    return True


@kernel
def ida(cc0, ec0, tw0, fl0, cp0, kind, corner_move, edge_move, cdist, edist, twist_mv, flip_mv,
        cperm_mv, twist_flip, cperm, n_flip, max_depth, max_bound, max_nodes, out, counters,
        cancel):
    """Returns the solution's length (moves in out), or -1 (none within max_depth moves and
    max_bound on moves + heuristic), -2 (cancelled) or -3 (node budget spent).
    counters[BOUND] holds the bound being searched."""
    cs = np.empty((MAX_DEPTH + 1, 8), np.int64)
    es = np.empty((MAX_DEPTH + 1, 12), np.int64)
    co = np.empty((MAX_DEPTH + 1, 3), np.int64)
    nxt = np.zeros(MAX_DEPTH + 1, np.int64)
    mv = np.zeros(MAX_DEPTH + 1, np.int64)
    cs[0] = cc0
    es[0] = ec0
    co[0, 0], co[0, 1], co[0, 2] = tw0, fl0, cp0
    if _solved(cc0, ec0):
        return 0
    bound = _h(kind, cc0, ec0, tw0, fl0, cp0, cdist, edist, twist_flip, cperm, n_flip)
    if bound < 1:
        bound = 1
    nodes = 0
    while bound <= max_bound:
        counters[BOUND] = bound
        p = 0
        nxt[0] = 0
        while p >= 0:
            if nxt[p] >= 18:
                p -= 1
                continue
            m = nxt[p]
            nxt[p] += 1
            if p > 0 and not allowed_after(m // 3, mv[p - 1] // 3):
                continue
            for i in range(8):
                cs[p + 1, i] = corner_move[cs[p, i], m]
            for i in range(12):
                es[p + 1, i] = edge_move[es[p, i], m]
            co[p + 1, 0] = twist_mv[co[p, 0], m]
            co[p + 1, 1] = flip_mv[co[p, 1], m]
            co[p + 1, 2] = cperm_mv[co[p, 2], m]
            nodes += 1
            if (nodes & 4095) == 0:
                counters[NODES] += 4096
                if cancel[0]:
                    return -2
                if nodes >= max_nodes:
                    return -3
            mv[p] = m
            if _solved(cs[p + 1], es[p + 1]):
                out[:p + 1] = mv[:p + 1]
                counters[NODES] += nodes & 4095
                return p + 1
            h = _h(kind, cs[p + 1], es[p + 1], co[p + 1, 0], co[p + 1, 1], co[p + 1, 2], cdist,
                   edist, twist_flip, cperm, n_flip)
            if p + 1 + h > bound or p + 1 >= max_depth:
                continue
            p += 1
            nxt[p] = 0
        bound += 1
    counters[NODES] += nodes & 4095
    return -1


class IDAStarSolver(InformedPlayer):
    """IDA* with a choice of heuristic (misplaced, manhattan, manhattan-raw, pdb)."""

    description = IDASTAR

    def __init__(self, heuristic: str = "pdb", max_nodes: int = 50_000_000):
        super().__init__(heuristic, max_nodes)
        self._args = None

    def describe(self) -> str:
        return (f"IDA* (iterative deepening A*) with the {self.heuristic} heuristic"
                + ("; optimal" if ADMISSIBLE[self.heuristic] else
                   " (not admissible: solutions are not proven optimal)")
                + f"; gives up after {self.max_nodes:,} nodes.")

    def _ready(self) -> None:
        """Gather the kernel's tables and compile it."""
        pdb = self._pdb
        corner_move, edge_move = code_move_tables()
        cdist, edist = piece_distances()
        self._args = (corner_move, edge_move, cdist, edist,
                      *(np.ascontiguousarray(np.asarray(t).T, np.int64)
                        for t in (pdb.twist_mv, pdb.flip_mv, pdb.cperm_mv)),
                      pdb.twist_flip, pdb.cperm, N_FLIP)
        from cubelab.cube.moves import alg_state
        self._run(alg_state("R U"), 3, np.zeros(1, np.int32), np.zeros(8, np.int64))

    def _run(self, s: CubeState, max_depth, cancel, counters):
        cc, ec = piece_codes(s)
        tw, fl, cp = coordinates(s)
        out = np.zeros(MAX_DEPTH + 1, np.int64)
        # an admissible bound never exceeds the moves left; an inadmissible one may, by up to
        # eight times (a face turn moves eight pieces)
        max_bound = max_depth if ADMISSIBLE[self.heuristic] else 9 * max_depth
        n = ida(cc, ec, tw, fl, cp, KIND[self.heuristic], *self._args, max_depth, max_bound,
                self.max_nodes, out, counters, cancel)
        return n, [int(m) for m in out[:max(n, 0)]]

    def search(self, job: SolveJob) -> Answer:
        admissible = ADMISSIBLE[self.heuristic]
        limit = MAX_DEPTH if job.max_length is None else min(MAX_DEPTH, job.max_length)
        n, seq = self._run(job.position, limit, job.cancel, job.counters)
        counters = job.counters
        # with an admissible heuristic every bound below the one being searched is cleared
        cleared = int(counters[BOUND]) if admissible and counters[BOUND] > 0 else None
        if n == -3:
            raise SolverError(f"idastar ({self.heuristic}) gave up after {self.max_nodes:,} "
                              f"nodes" + (f"; the position needs at least {cleared} moves"
                                          if cleared else ""))
        if n == -2:
            return Answer(None, lower_bound=cleared)
        if n < 0:
            return Answer(None, lower_bound=limit + 1 if admissible else None,
                          status=Status.NOT_FOUND)
        if admissible:
            counters[LOWER_BOUND] = n
        return Answer([FACE_MOVES[m] for m in seq], optimal=admissible,
                      lower_bound=n if admissible else None,
                      detail={"heuristic": self.heuristic, "admissible": admissible})
