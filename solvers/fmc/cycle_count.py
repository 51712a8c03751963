"""How many 3-cycles a leftover needs: the fewest corner (or edge) 3-cycles solving a position.

An insertion takes one 3-cycle off at most, so this count is how many insertions a skeleton
needs, and an insertion is useful when it lowers the count by one. Oriented 3-cycles of one
kind are closed under conjugation by any arrangement of that kind, so the count depends only on
the position's class, the multiset of its cycles (length, net twist or flip); a breadth-first
search over classes (each step: every 3-cycle of the kind, applied to one position of the
class) gives it exactly, up to the depth searched.
"""

from __future__ import annotations

import numpy as np

from cubelab.tables.insertions.algs import three_cycle_rows
from cubelab.tables.jit import kernel

PARTS = {"corners": (slice(0, 8), slice(8, 16), 3), "edges": (slice(16, 28), slice(28, 40), 2)}
"""Each kind's permutation and orientation columns in a state row, and its orientation modulus."""


@kernel
def _class_codes(perm, ori, mod, weights):
    """One integer per row naming its class: the multiset of its cycles (length, net turn),
    pieces at home unturned left out. Conjugation keeps the class, and the fewest 3-cycles
    that solve a position depend on its class only."""
    n = perm.shape[1]
    out = np.zeros(perm.shape[0], dtype=np.int64)
    seen = np.zeros(n, dtype=np.bool_)
    count = np.zeros(n * mod, dtype=np.int64)
    for r in range(perm.shape[0]):
        seen[:] = False
        count[:] = 0
        for s in range(n):
            if seen[s]:
                continue
            length = 0
            net = 0
            i = s
            while not seen[i]:
                seen[i] = True
                net += ori[r, i]
                length += 1
                i = perm[r, i]
            count[(length - 1) * mod + net % mod] += 1
        code = 0
        for k in range(1, n * mod):            # slot 0: pieces at home, implied by the rest
            code += count[k] * weights[k]
        out[r] = code
    return out


@kernel
def _codes_after(perm, ori, cp, co, mod, weights):
    """codes[r, c]: the class of position r (perm, ori rows) after 3-cycle c."""
    n = perm.shape[1]
    out = np.empty((perm.shape[0], cp.shape[0]), dtype=np.int64)
    p = np.empty((1, n), dtype=np.int64)
    o = np.empty((1, n), dtype=np.int64)
    for r in range(perm.shape[0]):
        for c in range(cp.shape[0]):
            for i in range(n):
                j = cp[c, i]
                p[0, i] = perm[r, j]
                o[0, i] = (ori[r, j] + co[c, i]) % mod
            out[r, c] = _class_codes(p, o, mod, weights)[0]
    return out


class Distances:
    """For one kind: the fewest 3-cycles of that kind solving each class, up to `depth`."""

    def __init__(self, kind: str, depth: int):
        self.kind = kind
        p, o, self.mod = PARTS[kind]
        cycles = three_cycle_rows(kind)
        self.cycles = cycles
        self.cp = cycles[:, p].astype(np.int64)
        self.co = cycles[:, o].astype(np.int64)
        n = self.cp.shape[1]
        # mixed radix: a class has at most n // length cycles of one length
        self._weights = np.zeros(n * self.mod, np.int64)
        scale = 1
        for k in range(1, n * self.mod):
            self._weights[k] = scale
            scale *= n // (k // self.mod + 1) + 1
        ident_p, ident_o = np.arange(n)[None], np.zeros((1, n), np.int64)
        dist = {int(self.codes(ident_p, ident_o)[0]): 0}
        frontier = [(ident_p[0], ident_o[0])]
        for d in range(1, depth + 1):
            nxt = []
            for perm, ori in frontier:
                np_, no = self.after(perm, ori)
                codes = self.codes(np_, no)
                _, first = np.unique(codes, return_index=True)
                for i in first:
                    c = int(codes[i])
                    if c not in dist:
                        dist[c] = d
                        nxt.append((np_[i], no[i]))
            frontier = nxt
        self.depth = depth
        self._codes = np.array(sorted(dist), dtype=np.int64)
        self._dist = np.array([dist[c] for c in self._codes.tolist()], dtype=np.int64)

    def codes(self, perm, ori) -> np.ndarray:
        return _class_codes(np.ascontiguousarray(perm, np.int64),
                            np.ascontiguousarray(ori, np.int64), self.mod, self._weights)

    def after(self, perm, ori):
        """The position after each 3-cycle (rows)."""
        return perm[self.cp], (ori[self.cp] + self.co) % self.mod

    def of_codes(self, codes: np.ndarray) -> np.ndarray:
        """Distances (depth + 1 for a class farther than the search went)."""
        i = np.minimum(np.searchsorted(self._codes, codes), len(self._codes) - 1)
        return np.where(self._codes[i] == codes, self._dist[i], self.depth + 1)

    def of_row(self, row: np.ndarray) -> int:
        p, o, _ = PARTS[self.kind]
        return int(self.of_codes(self.codes(row[None, p], row[None, o]))[0])

    def steps_down(self, row: np.ndarray) -> np.ndarray:
        """The 3-cycles (rows) c with row * c one 3-cycle nearer to solved."""
        p, o, _ = PARTS[self.kind]
        here = self.of_row(row)
        np_, no = self.after(row[p].astype(np.int64), row[o].astype(np.int64))
        d = self.of_codes(self.codes(np_, no))
        return self.cycles[d == here - 1]

    def steps_down_many(self, rows: np.ndarray) -> list[np.ndarray]:
        """steps_down for many rows with one kernel call."""
        p, o, _ = PARTS[self.kind]
        rows = np.atleast_2d(rows)
        here = self.of_codes(self.codes(rows[:, p], rows[:, o]))
        codes = _codes_after(np.ascontiguousarray(rows[:, p], np.int64),
                             np.ascontiguousarray(rows[:, o], np.int64),
                             np.ascontiguousarray(self.cp, np.int64),
                             np.ascontiguousarray(self.co, np.int64), self.mod, self._weights)
        d = self.of_codes(codes.ravel()).reshape(codes.shape)
        return [self.cycles[d[r] == here[r] - 1] for r in range(len(rows))]


_DISTANCES: dict[tuple[str, int], Distances] = {}


def distances(kind: str, depth: int) -> Distances:
    """The counts for one kind up to `depth` (made once per process)."""
    key = (kind, depth)
    if key not in _DISTANCES:
        _DISTANCES[key] = Distances(kind, depth)
    return _DISTANCES[key]
