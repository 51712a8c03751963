"""Breadth-first search and A* with pattern databases: the seed study's baselines, with bounds.

Both find optimal (HTM) solutions of shallow positions and refuse deeper ones with a message
instead of filling the machine's memory: BFS stops after a depth (5 by default: about 620,000
positions), A* after a number of expanded nodes (60,000 by default: most positions up to depth
10, under 200 MB). A*'s heuristic is the larger of two pattern databases built at prepare time,
both admissible and consistent: corner twist x edge flip (4,478,976 entries) and corner
permutation (40,320).
"""

from __future__ import annotations

import heapq
from operator import itemgetter

import numpy as np

from cubelab.cube.moves import FACE_MOVES, move_state
from cubelab.cube.state import CubeState
from cubelab.tables import movetables
from cubelab.tables.bfs import pair_distances
from cubelab.tables.cubies import canonical_successors, move_rows, state_row
from cubelab.tables.ranks import N_FLIP, flip_of, rank_perm, twist_of
from cubelab.tables.sequences import NO_MOVE, products, sequence_counts, successor_table
from cubelab.tables.store import load_or_build

from .baselines_about import ASTAR, BFS, BFS_DEPTH
from .protocol import NODES, BOUND, Answer, SolveJob, SolverBase, Status, watched


def _successor_lists() -> list[list[int]]:
    """For each move (and -1 for none), the moves that may follow it in canonical order."""
    lists, counts = canonical_successors()
    rows = [0] + [m // 3 + 1 for m in range(18)]
    return [lists[r, :counts[r]].tolist() for r in rows]


_ALLOWED_AFTER = _successor_lists()
"""_ALLOWED_AFTER[last + 1]: the moves allowed after move `last` (-1: none yet)."""


def _keys(rows: np.ndarray) -> np.ndarray:
    """Two 64-bit words per state: each corner as piece*3+twist, each edge as piece*2+flip,
    five bits apiece (equal keys = equal states)."""
    c = rows[:, :8].astype(np.uint64) * 3 + rows[:, 8:16]
    e = rows[:, 16:28].astype(np.uint64) * 2 + rows[:, 28:40]
    shifts = np.arange(12, dtype=np.uint64) * np.uint64(5)
    kc = (c << shifts[:8]).sum(1, dtype=np.uint64)
    ke = (e << shifts).sum(1, dtype=np.uint64)
    return np.stack([kc, ke], 1).view(np.dtype((np.void, 16))).ravel()


def _positions_within(depth: int) -> int:
    """Canonical sequences of at most `depth` face turns: an upper bound of the positions BFS
    holds (a close one up to depth 6)."""
    return sum(sequence_counts("htm", depth))


# ---- breadth-first search ----------------------------------------------------------------------

class BFSSolver(SolverBase):
    """Plain breadth-first search from the position, level by level, with a depth bound."""

    description = BFS

    def __init__(self, max_depth: int = BFS_DEPTH):
        self.max_depth = max_depth
        self._prepared = True       # nothing to load or build

    def search(self, job: SolveJob) -> Answer:
        limit = self.max_depth if job.max_length is None else min(self.max_depth, job.max_length)
        cancel, counters = job.cancel, job.counters
        # one level's numpy steps take up to a second and cannot look at the flag
        finished, outcome = watched(lambda: self._search(state_row(job.position), limit, cancel,
                                                         counters), cancel, name="bfs")
        if not finished:
            outcome = None, int(counters[NODES]), max(0, int(counters[BOUND]) - 1)
        found, nodes, depth = outcome
        if found is None and cancel[0]:
            return Answer(None, lower_bound=depth, nodes=nodes)
        if found is None:
            if limit < self.max_depth:
                return Answer(None, lower_bound=limit + 1, status=Status.NOT_FOUND, nodes=nodes)
            # a limit of the method, not a fault of the position: a status, as for a time limit
            return Answer(None, lower_bound=self.max_depth + 1, status=Status.TOO_DEEP,
                          nodes=nodes,
                          detail={"message": f"too deep for bfs: needs > {self.max_depth} "
                                             f"(it explores about "
                                             f"{_positions_within(self.max_depth):,} "
                                             "positions)"})
        return Answer([FACE_MOVES[m] for m in found], optimal=True, lower_bound=len(found),
                      nodes=nodes)

    @staticmethod
    def _search(start: np.ndarray, limit: int, cancel, counters):
        """(moves or None, positions generated, depth proven clear)."""
        solved_key = _keys(state_row(CubeState.identity())[None])[0]
        follows = successor_table().astype(bool)
        turns = move_rows("htm")
        frontier = start[None]
        last = np.array([NO_MOVE])
        seen = np.sort(_keys(frontier))
        # per level: for each frontier position, its parent's index and the move from there
        parents: list[np.ndarray] = []
        moves_in: list[np.ndarray] = []
        nodes = 1
        for depth in range(1, limit + 1):
            if counters is not None:
                counters[BOUND] = depth
            kids, kid_parent, kid_move = [], [], []
            for m in range(18):
                if cancel[0]:
                    return None, nodes, depth - 1
                ok = follows[last, m]
                idx = np.nonzero(ok)[0]
                if len(idx) == 0:
                    continue
                kids.append(products(frontier[idx], turns[m]))
                kid_parent.append(idx)
                kid_move.append(np.full(len(idx), m))
            rows = np.concatenate(kids)
            parent = np.concatenate(kid_parent)
            move = np.concatenate(kid_move)
            keys = _keys(rows)
            nodes += len(rows)
            if counters is not None:
                counters[NODES] = nodes
            hit = np.nonzero(keys == solved_key)[0]
            parents.append(parent)
            moves_in.append(move)
            if len(hit):
                path, i = [], int(hit[0])
                for level in range(depth - 1, -1, -1):
                    path.append(int(moves_in[level][i]))
                    i = int(parents[level][i])
                return path[::-1], nodes, depth
            if depth == limit or cancel[0]:
                # no level follows (or none is wanted): the deduplication below, the costliest
                # step, would be wasted; this level is clear of the solved cube either way
                return None, nodes, depth
            # keep the first copy of each new position
            _, first = np.unique(keys, return_index=True)
            fresh = first[~np.isin(keys[first], seen)]
            fresh.sort()
            frontier, last = rows[fresh], move[fresh]
            parents[-1], moves_in[-1] = parent[fresh], move[fresh]
            seen = np.union1d(seen, keys[fresh])
        return None, nodes, limit


# ---- pattern databases -------------------------------------------------------------------------

MOVE_TABLES = (movetables.TWIST, movetables.FLIP, movetables.CORNER_PERM)
"""The shared move tables of the coordinates the pattern databases index."""


def coordinates(state: CubeState) -> tuple[int, int, int]:
    """(twist, flip, corner permutation rank) of a state, as cubelab.tables.ranks ranks them."""
    return (int(twist_of(np.asarray(state.co, np.int64))),
            int(flip_of(np.asarray(state.eo, np.int64))),
            int(rank_perm(np.asarray(state.cp, np.int64), 0, 8)))


class PatternDatabases:
    """The two admissible tables A* uses (built in memory by the shared breadth-first builder)
    and the move tables that index them, as lists by move then value for the Python search."""

    def __init__(self, progress=None, cancel=None, log=None):
        twist, flip, cperm = (load_or_build(s, progress=progress, cancel=cancel, log=log)
                              for s in MOVE_TABLES)
        self.twist_flip = pair_distances(twist, flip, [0])
        self.cperm = pair_distances(cperm, np.zeros((1, 18), np.int64), [0])
        self.twist_mv, self.flip_mv, self.cperm_mv = (t.T.tolist() for t in (twist, flip, cperm))

    def h(self, twist: int, flip: int, cperm: int) -> int:
        return max(int(self.twist_flip[twist * N_FLIP + flip]), int(self.cperm[cperm]))


# ---- A* ----------------------------------------------------------------------------------------

def _piece_codes(state: CubeState) -> tuple[int, ...]:
    """A state as 20 small ints: corner slots piece*3+twist, then edge slots piece*2+flip."""
    return tuple(int(p) * 3 + int(o) for p, o in zip(state.cp, state.co)) + \
        tuple(int(p) * 2 + int(o) for p, o in zip(state.ep, state.eo))


def _code_moves():
    """For each move: a getter of the 20 source slots, and per slot the map from the source's
    code to the new one (the turn's twist or flip added)."""
    out = []
    for mv in (move_state(m) for m in FACE_MOVES):
        sources, tables = [], []
        for i in range(8):
            add = int(mv.co[i])
            sources.append(int(mv.cp[i]))
            tables.append(tuple((c // 3) * 3 + (c % 3 + add) % 3 for c in range(24)))
        for i in range(12):
            add = int(mv.eo[i])
            sources.append(8 + int(mv.ep[i]))
            tables.append(tuple((c // 2) * 2 + (c % 2 + add) % 2 for c in range(24)))
        out.append((itemgetter(*sources), tuple(tables)))
    return out


class AStarSolver(SolverBase):
    """A* over positions, f = moves so far + max(twist x flip, corner permutation) databases."""

    description = ASTAR

    def __init__(self, max_nodes: int = 60_000):
        self.max_nodes = max_nodes
        self._pdb: PatternDatabases | None = None
        self._code_moves = None

    def table_specs(self) -> tuple:
        """The shared move tables; its two small databases are built in memory by prepare."""
        return MOVE_TABLES

    def _prepare(self, progress, cancel, log) -> None:
        """Load the move tables and build the pattern databases (under a second)."""
        self._pdb = PatternDatabases(progress, cancel, log)
        self._code_moves = _code_moves()

    def search(self, job: SolveJob) -> Answer:
        path, nodes, bound, why = self._search(job.position, job.max_length, job.cancel,
                                               job.counters)
        job.counters[NODES] = nodes
        if path is None:
            if why == "budget":
                return Answer(None, lower_bound=bound, status=Status.TOO_DEEP,
                              detail={"message": f"too deep for astar: needs >= {bound} "
                                                 f"(it expands at most {self.max_nodes:,} "
                                                 "nodes, enough for most positions up to "
                                                 "depth 10)"})
            return Answer(None, lower_bound=bound,
                          status=Status.NOT_FOUND if why == "length" else None)
        return Answer([FACE_MOVES[m] for m in path], optimal=True, lower_bound=len(path))

    def _search(self, s: CubeState, max_length, cancel, counters):
        """(path, nodes expanded, best lower bound, why it stopped without a path)."""
        pdb, code_moves = self._pdb, self._code_moves
        tw_mv, fl_mv, cp_mv = pdb.twist_mv, pdb.flip_mv, pdb.cperm_mv
        twist_flip, cperm = pdb.twist_flip, pdb.cperm
        start = bytes(_piece_codes(s))
        t0, f0, c0 = coordinates(s)
        goal = bytes(_piece_codes(CubeState.identity()))
        h0 = pdb.h(t0, f0, c0)
        # heap entries: (f, -g, tie, state, twist, flip, cperm, last move); states are 20-byte
        # strings, and one dict maps each to (g, parent, move), to keep memory per node small
        heap = [(h0, 0, 0, start, t0, f0, c0, -1)]
        known = {start: (0, None, -1)}
        tie = 0
        expanded = 0
        bound = h0
        while heap:
            f, neg_g, _, codes, t, fl, c, last = heapq.heappop(heap)
            g = -neg_g
            if g > known[codes][0]:
                continue
            bound = max(bound, f)
            if codes == goal:
                path = []
                while known[codes][1] is not None:
                    _, codes, m = known[codes]
                    path.append(m)
                return path[::-1], expanded, g, None
            if max_length is not None and f > max_length:
                return None, expanded, f, "length"
            if expanded % 64 == 0:     # a node takes 50-200 us: the flag is seen within ~15 ms
                if counters is not None:
                    counters[NODES] = expanded
                    counters[BOUND] = bound
                if cancel[0]:
                    return None, expanded, bound, "cancel"
            expanded += 1
            if expanded > self.max_nodes:
                return None, expanded, bound, "budget"
            cg = g + 1
            for m in _ALLOWED_AFTER[last + 1]:
                gather, tables = code_moves[m]
                child = bytes([tab[v] for tab, v in zip(tables, gather(codes))])
                old = known.get(child)
                if old is not None and old[0] <= cg:
                    continue
                nt, nf, nc = tw_mv[m][t], fl_mv[m][fl], cp_mv[m][c]
                h = max(twist_flip[nt * N_FLIP + nf], cperm[nc])
                known[child] = (cg, codes, m)
                tie += 1
                heapq.heappush(heap, (cg + int(h), -cg, tie, child, nt, nf, nc, m))
        return None, expanded, bound, "budget"
