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
import itertools
import math
import threading
from operator import itemgetter

import numpy as np

from cubelab.cube.moves import FACE_MOVES, move_state
from cubelab.cube.state import CubeState

from .protocol import (NODES, BOUND, Deadline, Solution, SolveResult, SolverError,
                       check_solvable, new_cancel, verify)

_MOVES = [move_state(m) for m in FACE_MOVES]
_FACE = [i // 3 for i in range(18)]
# A turn of a face never follows a turn of the same face, nor of its opposite face when that
# one comes first in U R F order (U D = D U): every position is still reached optimally.
_ALLOWED_AFTER = [[m for m in range(18)
                   if last < 0 or (_FACE[m] != _FACE[last]
                                   and not (_FACE[m] % 3 == _FACE[last] % 3 and _FACE[m] < _FACE[last]))]
                  for last in range(-1, 18)]


def _rows(state: CubeState) -> np.ndarray:
    return np.concatenate([state.cp, state.co, state.ep, state.eo]).astype(np.uint8)


_MOVE_ROWS = np.array([_rows(s) for s in _MOVES])
_SOLVED_ROW = _rows(CubeState.identity())


def _apply(rows: np.ndarray, m: int) -> np.ndarray:
    """Each row (a state) followed by face turn m."""
    mv = _MOVE_ROWS[m]
    cp, ep = mv[:8].astype(np.intp), mv[16:28].astype(np.intp)
    out = np.empty_like(rows)
    out[:, :8] = rows[:, cp]
    out[:, 8:16] = (rows[:, 8 + cp] + mv[8:16]) % 3
    out[:, 16:28] = rows[:, 16 + ep]
    out[:, 28:40] = (rows[:, 28 + ep] + mv[28:40]) & 1
    return out


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
    ends = {-1: 1}          # sequences of the current length, by the face they end on
    total = 1
    for _ in range(depth):
        new: dict[int, int] = {}
        for last_face, n in ends.items():
            last = -1 if last_face < 0 else 3 * last_face
            for m in _ALLOWED_AFTER[last + 1]:
                new[_FACE[m]] = new.get(_FACE[m], 0) + n
        ends = new
        total += sum(new.values())
    return total


# ---- breadth-first search ----------------------------------------------------------------------

class BFSSolver:
    """Plain breadth-first search from the position, level by level, with a depth bound."""

    name = "bfs"
    puzzle = "3x3"
    description = ("Breadth-first search: every position 1, 2, 3... moves away until the solved "
                   "one appears; optimal, and refuses positions deeper than its bound.")

    def __init__(self, max_depth: int = 5):
        self.max_depth = max_depth

    def table_specs(self) -> tuple:
        return ()

    def missing_tables(self) -> list:
        return []

    def prepare(self, progress=None, cancel=None, log=None) -> None:
        """Nothing to load or build."""

    def solve(self, state: CubeState, *, max_length=None, time_limit=None, on_solution=None,
              counters=None, cancel=None) -> SolveResult:
        s = check_solvable(state)
        cancel = cancel if cancel is not None else new_cancel()
        limit = self.max_depth if max_length is None else min(self.max_depth, max_length)
        if s.is_identity():
            return SolveResult(self.name, [], optimal=True, lower_bound=0, verified=True)
        with Deadline(cancel, time_limit) as clock:
            found, nodes, depth = self._search(_rows(s), limit, cancel, counters)
        seconds = clock.elapsed()
        if found is None and cancel[0]:
            return SolveResult(self.name, None, nodes=nodes, seconds=seconds, lower_bound=depth,
                               status="time limit" if clock.expired else "cancelled")
        if found is None:
            if limit < self.max_depth:
                return SolveResult(self.name, None, nodes=nodes, seconds=seconds,
                                   lower_bound=limit + 1, status="not found")
            raise SolverError(f"bfs explores at most depth {self.max_depth} (about "
                              f"{_positions_within(self.max_depth):,} positions); this position "
                              f"needs more")
        moves = [FACE_MOVES[m] for m in found]
        ok = verify(state, moves)
        if not ok:
            raise RuntimeError("bfs produced a sequence that does not solve the cube")
        sol = Solution(moves, seconds, nodes)
        if on_solution is not None:
            on_solution(sol)
        return SolveResult(self.name, moves, nodes=nodes, seconds=seconds, optimal=True,
                           lower_bound=len(moves), verified=True, solutions=[sol])

    @staticmethod
    def _search(start: np.ndarray, limit: int, cancel, counters):
        """(moves or None, positions generated, depth proven clear)."""
        solved_key = _keys(_SOLVED_ROW[None])[0]
        frontier = start[None]
        last = np.array([-1])
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
                ok = np.array([m in _ALLOWED_AFTER[lm + 1] for lm in range(-1, 18)])[last + 1]
                idx = np.nonzero(ok)[0]
                if len(idx) == 0:
                    continue
                kids.append(_apply(frontier[idx], m))
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
            # keep the first copy of each new position
            _, first = np.unique(keys, return_index=True)
            fresh = first[~np.isin(keys[first], seen)]
            fresh.sort()
            frontier, last = rows[fresh], move[fresh]
            parents[-1], moves_in[-1] = parent[fresh], move[fresh]
            seen = np.union1d(seen, keys[fresh])
        return None, nodes, limit


# ---- pattern databases -------------------------------------------------------------------------

_TWIST_WEIGHTS = 3 ** np.arange(6, -1, -1)
_FLIP_WEIGHTS = 2 ** np.arange(10, -1, -1)
N_TWIST, N_FLIP, N_CPERM = 3 ** 7, 2 ** 11, math.factorial(8)


def twist_coord(co: np.ndarray) -> np.ndarray:
    """Corner twist of the first 7 corners in base 3 (the last is implied)."""
    return np.atleast_2d(co)[:, :7].astype(np.int64) @ _TWIST_WEIGHTS


def flip_coord(eo: np.ndarray) -> np.ndarray:
    return np.atleast_2d(eo)[:, :11].astype(np.int64) @ _FLIP_WEIGHTS


def perm_rank(perms: np.ndarray) -> np.ndarray:
    """Lehmer rank of each row (the identity ranks 0)."""
    perms = np.atleast_2d(perms).astype(np.int64)
    n = perms.shape[1]
    rank = np.zeros(len(perms), dtype=np.int64)
    for i in range(n):
        smaller = (perms[:, i + 1:] < perms[:, i:i + 1]).sum(1)
        rank = rank * (n - i) + smaller
    return rank


def _move_tables():
    """twist, flip and corner permutation after each face turn: (18, N) int arrays."""
    digits3 = (np.arange(N_TWIST)[:, None] // _TWIST_WEIGHTS) % 3
    co = np.concatenate([digits3, (-digits3.sum(1, keepdims=True)) % 3], 1)
    digits2 = (np.arange(N_FLIP)[:, None] // _FLIP_WEIGHTS) % 2
    eo = np.concatenate([digits2, digits2.sum(1, keepdims=True) % 2], 1)
    perms = np.array(list(itertools.permutations(range(8))))   # in Lehmer order
    twist_mv = np.empty((18, N_TWIST), dtype=np.int32)
    flip_mv = np.empty((18, N_FLIP), dtype=np.int32)
    cperm_mv = np.empty((18, N_CPERM), dtype=np.int32)
    for m, mv in enumerate(_MOVES):
        cp, ep = mv.cp.astype(np.intp), mv.ep.astype(np.intp)
        twist_mv[m] = twist_coord((co[:, cp] + mv.co) % 3)
        flip_mv[m] = flip_coord((eo[:, ep] + mv.eo) & 1)
        cperm_mv[m] = perm_rank(perms[:, cp])
    return twist_mv, flip_mv, cperm_mv


def _bfs_distances(n: int, neighbours, start: int) -> np.ndarray:
    """Distances from `start` over n coordinate values; neighbours(idx) -> (18, len) array."""
    dist = np.full(n, 255, dtype=np.uint8)
    dist[start] = 0
    frontier = np.array([start])
    d = 0
    while len(frontier):
        d += 1
        for lo in range(0, len(frontier), 1 << 18):    # chunks keep memory small
            nxt = neighbours(frontier[lo:lo + (1 << 18)]).ravel()
            dist[nxt[dist[nxt] == 255]] = d
        frontier = np.nonzero(dist == d)[0]
    return dist


class PatternDatabases:
    """The two admissible tables A* uses, and the move tables that index them."""

    def __init__(self):
        self.twist_mv, self.flip_mv, self.cperm_mv = _move_tables()
        tw, fl = self.twist_mv, self.flip_mv

        def twist_flip_neighbours(idx):
            t, f = idx // N_FLIP, idx % N_FLIP
            return tw[:, t].astype(np.int64) * N_FLIP + fl[:, f]

        self.twist_flip = _bfs_distances(N_TWIST * N_FLIP, twist_flip_neighbours, 0)
        self.cperm = _bfs_distances(N_CPERM, lambda idx: self.cperm_mv[:, idx], 0)

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
    for mv in _MOVES:
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


class AStarSolver:
    """A* over positions, f = moves so far + max(twist x flip, corner permutation) databases."""

    name = "astar"
    puzzle = "3x3"
    description = ("A* search with an admissible pattern-database heuristic (corner twist x edge "
                   "flip, corner permutation); optimal, bounded by a number of expanded nodes.")

    def __init__(self, max_nodes: int = 60_000):
        self.max_nodes = max_nodes
        self._pdb: PatternDatabases | None = None
        self._code_moves = None
        self._lock = threading.Lock()

    def table_specs(self) -> tuple:
        return ()

    def missing_tables(self) -> list:
        return []     # its two small databases are built in memory by prepare (a second)

    def prepare(self, progress=None, cancel=None, log=None) -> None:
        with self._lock:
            if self._pdb is None:
                if progress is not None:
                    progress(0, 1)
                self._pdb = PatternDatabases()
                self._code_moves = _code_moves()
                if progress is not None:
                    progress(1, 1)

    def solve(self, state: CubeState, *, max_length=None, time_limit=None, on_solution=None,
              counters=None, cancel=None) -> SolveResult:
        s = check_solvable(state)
        cancel = cancel if cancel is not None else new_cancel()
        if s.is_identity():
            return SolveResult(self.name, [], optimal=True, lower_bound=0, verified=True)
        with Deadline(cancel, time_limit) as clock:
            self.prepare()
            path, nodes, bound, why = self._search(s, max_length, cancel, counters)
        seconds = clock.elapsed()
        if path is None:
            if why == "budget":
                raise SolverError(f"astar expands at most {self.max_nodes:,} nodes (enough for "
                                  f"most positions up to depth 10); this position needs more "
                                  f"(it is at least {bound} moves from solved)")
            status = {"cancel": "time limit" if clock.expired else "cancelled",
                      "length": "not found"}[why]
            return SolveResult(self.name, None, nodes=nodes, seconds=seconds, lower_bound=bound,
                               status=status)
        moves = [FACE_MOVES[m] for m in path]
        if not verify(state, moves):
            raise RuntimeError("astar produced a sequence that does not solve the cube")
        sol = Solution(moves, seconds, nodes)
        if on_solution is not None:
            on_solution(sol)
        return SolveResult(self.name, moves, nodes=nodes, seconds=seconds, optimal=True,
                           lower_bound=len(moves), verified=True, solutions=[sol])

    def _search(self, s: CubeState, max_length, cancel, counters):
        """(path, nodes expanded, best lower bound, why it stopped without a path)."""
        pdb, code_moves = self._pdb, self._code_moves
        tw_mv, fl_mv, cp_mv = (t.tolist() for t in (pdb.twist_mv, pdb.flip_mv, pdb.cperm_mv))
        twist_flip, cperm = pdb.twist_flip, pdb.cperm
        start = bytes(_piece_codes(s))
        t0 = int(twist_coord(s.co)[0])
        f0 = int(flip_coord(s.eo)[0])
        c0 = int(perm_rank(s.cp)[0])
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
            if expanded % 4096 == 0:
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
