"""What the 3-cycle solver sees of corners and edges: their steps and class distances.

The steps are the commutator table's elements that act on them; the class distances estimate the
moves still needed from each class of positions.

The cost of solving a position's corners (or edges) depends only on its class: the multiset of
its cycles' lengths and net twists (or flips). A Dijkstra over those few thousand classes, each
step weighted by the mean length of its kind's algs, gives an estimate of the moves still needed
from any position.
"""

from __future__ import annotations

import heapq

import numpy as np

from cubelab.tables.jit import inline_kernel, kernel
from cubelab.tables.threecycle.commutators import Found
from cubelab.tables.threecycle.specs import CommutatorTable


@inline_kernel
def _class_code(p, o, mod, weights, seen):
    """The class of one position (p, o): its cycles' lengths and net turns as one integer."""
    seen[:] = False
    code = 0
    for start in range(p.shape[0]):
        if seen[start]:
            continue
        length = 0
        net = 0
        i = start
        while not seen[i]:
            seen[i] = True
            net += o[i]
            length += 1
            i = p[i]
        code += weights[(length - 1) * mod + net % mod]
    return code


@kernel
def _class_codes(perm, ori, mod, weights):
    out = np.zeros(perm.shape[0], dtype=np.int64)
    seen = np.zeros(perm.shape[1], dtype=np.bool_)
    for r in range(perm.shape[0]):
        out[r] = _class_code(perm[r], ori[r], mod, weights, seen)
    return out


@kernel
def _step_codes(perm, ori, step_perm, step_ori, mod, weights):
    """The class code of the position after each step, without keeping the positions."""
    rows, n = step_perm.shape
    out = np.empty(rows, dtype=np.int64)
    seen = np.zeros(n, dtype=np.bool_)
    p = np.empty(n, dtype=np.int64)
    o = np.empty(n, dtype=np.int64)
    for r in range(rows):
        for i in range(n):
            j = step_perm[r, i]
            p[i] = perm[j]
            o[i] = (ori[j] + step_ori[r, i]) % mod
        out[r] = _class_code(p, o, mod, weights, seen)
    return out


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

    def after_step(self, perm: np.ndarray, ori: np.ndarray, i: int
                   ) -> tuple[np.ndarray, np.ndarray]:
        """The position after step i."""
        return perm[self.perm[i]], (ori[self.perm[i]] + self.ori[i]) % self.mod

    def step_distances(self, perm: np.ndarray, ori: np.ndarray) -> np.ndarray:
        """The class distance of the position after each step."""
        return self._distances_of(_step_codes(
            np.asarray(perm, np.int64), np.asarray(ori, np.int64), self.perm, self.ori,
            self.mod, self._radix_weights))

    def distance(self, perm: np.ndarray, ori: np.ndarray) -> np.ndarray:
        return self._distances_of(self.class_codes(np.atleast_2d(perm), np.atleast_2d(ori)))

    def _distances_of(self, codes: np.ndarray) -> np.ndarray:
        i = np.searchsorted(self.codes, codes)
        i = np.minimum(i, len(self.codes) - 1)
        return np.where(self.codes[i] == codes, self.dist[i], np.inf)
