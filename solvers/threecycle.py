"""The elementary 3-cycle solver: one quarter turn for parity, then commutators, each a step.

The TIPE's method, tuned: a position is even after at most one quarter turn; from there its
corners and edges are solved separately by oriented 3-cycles (a corner 3-cycle also sets the
twists of the pieces it moves) and, where that is cheaper, pair twists, each performed by a
commutator from the searched table (cubelab.solvers.commutators).

Which 3-cycles? Not a fixed buffer: the cost of solving a position depends only on its class
(the multiset of its cycles' lengths and net twists or flips), so a Dijkstra over those few
thousand classes, with each step weighted by the mean length of its algs, gives an estimate of
the moves still needed from any position. A small beam search then walks down that estimate,
choosing among the 3-cycles that keep to it the ones whose algs are short and cancel best with
the moves before them. On a position without twists or flips it uses exactly as many 3-cycles
as the textbook decomposition, cubelab.cube.facts.three_cycles (the tests check it); with
twists and flips it weighs oriented 3-cycles against pair twists and pair flips.
"""

from __future__ import annotations

import heapq
import threading
from dataclasses import dataclass

import numpy as np

import cubelab.tables  # noqa: F401  (numba's cache location, before numba)
from numba import njit

from cubelab.cube.facts import corner_cycles, edge_cycles
from cubelab.cube.moves import FACE_MOVES, apply_moves, move_state
from cubelab.cube.state import CubeState, permutation_parity

from .commutators import CommutatorTable, Found, cancel, load_or_search
from .protocol import (NODES, PHASE, Deadline, Solution, SolveResult, check_solvable,
                       new_cancel, new_counters, verify)

BEAM = 12
"""Partial solutions kept at each step of the beam search."""
BRANCH = 10
"""Steps tried from each partial solution (the most promising by table length)."""
SLACK = 0.5
"""How far (in estimated moves) a step may stray above the class distance's best."""


@njit(cache=True, nogil=True)
def _class_codes(perm, ori, mod, weights):
    rows, n = perm.shape
    out = np.zeros(rows, dtype=np.int64)
    seen = np.zeros(n, dtype=np.bool_)
    for r in range(rows):
        seen[:] = False
        code = 0
        for start in range(n):
            if seen[start]:
                continue
            length = 0
            net = 0
            i = start
            while not seen[i]:
                seen[i] = True
                net += ori[r, i]
                length += 1
                i = perm[r, i]
            code += weights[(length - 1) * mod + net % mod]
        out[r] = code
    return out


# ---- piece sets: what the decomposition sees of corners and of edges -------------------------

class PieceSet:
    """The corners or the edges: the steps that act on them and the class distances."""

    def __init__(self, name: str, n: int, mod: int, table: CommutatorTable, kinds, columns):
        self.name, self.n, self.mod = name, n, mod
        idx = [i for k in kinds for i in table.of_kind(k)]
        self.table_index = np.array(idx, dtype=np.intp)
        pcol, ocol = columns
        self.perm = table.elements[idx][:, pcol].astype(np.intp)
        self.ori = table.elements[idx][:, ocol].astype(np.int64)
        self.algs: list[list[Found]] = [table.algs[i] for i in idx]
        self.kinds = [table.kinds[i] for i in idx]
        self.best_len = np.array([len(a[0].flat) for a in self.algs], dtype=np.float64)
        # each step weighs the mean best length of its kind (a class function, as it must be)
        self.weight = np.empty(len(idx))
        for k in set(self.kinds):
            mask = np.array([kk == k for kk in self.kinds])
            self.weight[mask] = self.best_len[mask].mean()
        self._radix_weights = self._make_radix()
        self.codes, self.dist = self._distances()

    def _make_radix(self) -> np.ndarray:
        """Weights turning per-type cycle counts into one integer (mixed radix, exact)."""
        n, mod = self.n, self.mod
        w = np.zeros(n * mod, dtype=np.int64)
        scale = 1
        for length in range(1, n + 1):
            for net in range(mod):
                if length == 1 and net == 0:
                    continue       # pieces at home: implied by the others
                w[(length - 1) * mod + net] = scale
                scale *= n // length + 1
        assert scale < 2 ** 62
        return w

    def class_codes(self, perm: np.ndarray, ori: np.ndarray) -> np.ndarray:
        """One integer per row naming its class: how many cycles of each (length, net turn)."""
        return _class_codes(np.ascontiguousarray(perm, dtype=np.int64),
                            np.ascontiguousarray(ori, dtype=np.int64), self.mod,
                            self._radix_weights)

    def _distances(self) -> tuple[np.ndarray, np.ndarray]:
        """Dijkstra over classes from the solved one, steps weighted by `weight`."""
        ident_p = np.arange(self.n)[None]
        ident_o = np.zeros((1, self.n), dtype=np.int64)
        start = int(self.class_codes(ident_p, ident_o)[0])
        best = {start: 0.0}
        reps = {start: (ident_p[0], ident_o[0])}
        heap = [(0.0, start)]
        done = set()
        while heap:
            d, code = heapq.heappop(heap)
            if code in done:
                continue
            done.add(code)
            p, o = reps[code]
            np_, no = self.apply(p, o)
            nd = d + self.weight
            for c, dd, i in zip(self.class_codes(np_, no).tolist(), nd.tolist(),
                                range(len(nd))):
                if dd < best.get(c, np.inf) - 1e-9:
                    best[c] = dd
                    reps[c] = (np_[i], no[i])
                    heapq.heappush(heap, (dd, c))
        codes = np.array(sorted(best), dtype=np.int64)
        return codes, np.array([best[c] for c in codes.tolist()])

    def apply(self, perm: np.ndarray, ori: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The position after each step: perm then step, for every step (rows)."""
        return perm[self.perm], (ori[self.perm] + self.ori) % self.mod

    def distance(self, perm: np.ndarray, ori: np.ndarray) -> np.ndarray:
        codes = self.class_codes(np.atleast_2d(perm), np.atleast_2d(ori))
        i = np.searchsorted(self.codes, codes)
        i = np.minimum(i, len(self.codes) - 1)
        return np.where(self.codes[i] == codes, self.dist[i], np.inf)


# ---- the beam search -------------------------------------------------------------------------

@dataclass
class _Node:
    moves: tuple[int, ...]          # flat moves so far, cancelled
    parts: list[tuple[np.ndarray, np.ndarray]]
    steps: list[tuple[str, int, Found]]   # (piece set, step index, alg)
    remaining: list[float]
    prefix: tuple[int, ...] = ()    # the parity turn, if any

    @property
    def estimate(self) -> float:
        return len(self.moves) + sum(self.remaining)

    def key(self) -> bytes:
        return b"".join(p.astype(np.uint8).tobytes() + o.astype(np.uint8).tobytes()
                        for p, o in self.parts)


def _append(moves: tuple[int, ...], flat: tuple[int, ...]) -> tuple[int, ...]:
    # cancellation reaches back at most as far as the new moves plus a same-axis pair
    k = len(flat) + 2
    return moves[:-k] + cancel(moves[-k:] + flat) if len(moves) > k else cancel(moves + flat)


def _expand(node: _Node, sets: list[PieceSet], part: int) -> list[_Node]:
    ps = sets[part]
    perm, ori = node.parts[part]
    np_, no = ps.apply(perm, ori)
    d_next = ps.distance(np_, no)
    here = node.remaining[part]
    ok = np.nonzero(ps.weight + d_next <= here + SLACK + 1e-9)[0]
    if len(ok) == 0:    # the class estimate always has a successor; guard against rounding
        ok = np.array([int(np.argmin(ps.weight + d_next))])
    order = ok[np.lexsort((ps.best_len[ok], ps.weight[ok] + d_next[ok]))]
    children = []
    for i in order[:BRANCH]:
        best_moves, best_alg = None, None
        for alg in ps.algs[i]:
            m = _append(node.moves, alg.flat)
            if best_moves is None or len(m) < len(best_moves):
                best_moves, best_alg = m, alg
        parts = list(node.parts)
        parts[part] = (np_[i], no[i])
        remaining = list(node.remaining)
        remaining[part] = float(d_next[i])
        children.append(_Node(best_moves, parts, node.steps + [(ps.name, int(i), best_alg)],
                              remaining, node.prefix))
    return children


def _beam_search(starts: list[_Node], sets: list[PieceSet], cancel_flag, counters) -> _Node | None:
    beam = starts
    while True:
        if cancel_flag[0]:
            return None
        if all(max(n.remaining) <= 1e-9 for n in beam):
            return min(beam, key=lambda n: len(n.moves))
        children: dict[bytes, _Node] = {}
        for node in beam:
            part = next((k for k, r in enumerate(node.remaining) if r > 1e-9), None)
            kids = [node] if part is None else _expand(node, sets, part)
            counters[NODES] += len(kids)
            for kid in kids:
                k = kid.key() + bytes(kid.moves[-2:])
                old = children.get(k)
                if old is None or len(kid.moves) < len(old.moves):
                    children[k] = kid
        beam = sorted(children.values(), key=lambda n: (n.estimate, len(n.moves)))[:BEAM]


# ---- the solver ------------------------------------------------------------------------------

_CORNER_COLUMNS = (slice(0, 8), slice(8, 16))
_EDGE_COLUMNS = (slice(16, 28), slice(28, 40))


def _describe(name: str, kind: str, alg: Found) -> str:
    state = apply_moves(CubeState.identity(), [FACE_MOVES[m] for m in alg.flat])
    if kind == "corner":
        return f"corner 3-cycle {corner_cycles(state)}"
    if kind == "edge":
        return f"edge 3-cycle {edge_cycles(state)}"
    if kind == "twist":
        return "twist " + corner_cycles(state).replace("(", "").replace(")", "")
    return "flip " + edge_cycles(state).replace("(", "").replace(")", "")


class ThreeCycleSolver:
    """The TIPE's elementary method: parity turn, then commutators from a searched table."""

    name = "threecycle"
    description = ("Elementary method: at most one quarter turn for parity, then corner and "
                   "edge 3-cycles and pair twists, each a commutator [setup: [A, B]] found by "
                   "search; annotated steps, then the flat moves after cancellation.")
    puzzle = "3x3"

    def __init__(self):
        self._lock = threading.Lock()
        self._sets: list[PieceSet] | None = None
        self.table: CommutatorTable | None = None

    def table_specs(self) -> tuple:
        return ()

    def missing_tables(self) -> list:
        return []

    def prepare(self, progress=None, cancel=None, log=None) -> None:
        with self._lock:
            if self._sets is not None:
                return
            table = load_or_search(progress=progress, cancel_flag=cancel)
            if cancel is not None and cancel[0]:
                return
            self.table = table
            self._sets = [
                PieceSet("corners", 8, 3, table, ("corner", "twist"), _CORNER_COLUMNS),
                PieceSet("edges", 12, 2, table, ("edge", "flip"), _EDGE_COLUMNS),
            ]

    def _starts(self, s: CubeState) -> list[_Node]:
        sets = self._sets
        prefixes: list[tuple[int, ...]] = [()]
        if permutation_parity(s.cp):
            prefixes = [(m,) for m in range(18) if m % 3 != 1]    # the twelve quarter turns
        starts = []
        for pre in prefixes:
            t = s
            for m in pre:
                t = t * move_state(FACE_MOVES[m])
            parts = [(np.asarray(t.cp, np.intp), np.asarray(t.co, np.int64)),
                     (np.asarray(t.ep, np.intp), np.asarray(t.eo, np.int64))]
            remaining = [float(ps.distance(p, o)[0]) for ps, (p, o) in zip(sets, parts)]
            starts.append(_Node(pre, parts, [], remaining, pre))
        return starts

    def solve(self, state: CubeState, *, max_length=None, time_limit=None, on_solution=None,
              counters=None, cancel=None) -> SolveResult:
        s = check_solvable(state)
        cancel = cancel if cancel is not None else new_cancel()
        counters = counters if counters is not None else new_counters()
        if s.is_identity():
            return SolveResult(self.name, [], verified=True, detail={"steps": []})
        with Deadline(cancel, time_limit) as clock:
            self.prepare(cancel=cancel)
            if self._sets is None:
                return SolveResult(self.name, None, status="cancelled", seconds=clock.elapsed())
            counters[PHASE] = 0
            best = _beam_search(self._starts(s), self._sets, cancel, counters)
        seconds = clock.elapsed()
        if best is None:
            return SolveResult(self.name, None, seconds=seconds,
                               status="time limit" if clock.expired else "cancelled")
        moves = [FACE_MOVES[m] for m in best.moves]
        if not verify(state, moves):
            raise RuntimeError("3-cycle solver produced a sequence that does not solve the cube")
        nodes = int(counters[NODES])
        if max_length is not None and len(moves) > max_length:
            return SolveResult(self.name, None, nodes=nodes, seconds=seconds,
                               status="not found",
                               detail={"message": f"the 3-cycle method needs {len(moves)} "
                                                  f"moves here, more than {max_length}"})
        steps = []
        for m in best.prefix:
            steps.append({"does": "parity: one quarter turn makes both permutations even",
                          "alg": str(FACE_MOVES[m]), "moves": str(FACE_MOVES[m])})
        for set_name, i, alg in best.steps:
            ps = next(p for p in self._sets if p.name == set_name)
            steps.append({"does": _describe(set_name, ps.kinds[i], alg),
                          "alg": alg.notation(), "moves": alg.flat_text()})
        sol = Solution(moves, seconds, nodes)
        if on_solution is not None:
            on_solution(sol)
        return SolveResult(self.name, moves, nodes=nodes, seconds=seconds, verified=True,
                           detail={"steps": steps}, solutions=[sol])
