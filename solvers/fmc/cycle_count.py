"""How many 3-cycles a leftover needs: the fewest corner (or edge) 3-cycles solving a position.

An insertion takes one 3-cycle off at most, so this count is how many insertions a skeleton
needs, and an insertion is useful when it lowers the count by one. Oriented 3-cycles of one
kind are closed under conjugation by any arrangement of that kind, so the count depends only on
the position's class, the multiset of its cycles (length, net twist or flip); a breadth-first
search over classes (each step: every 3-cycle of the kind, applied to one position of the
class) gives it exactly, up to the depth searched.

An odd leftover (parity) takes one parity alg, a corner 2-swap with an edge 2-swap, and
3-cycles for the rest. 2-swaps of one kind are one class and closed under conjugation too, so
the fewest 3-cycles after the best 2-swap is a second breadth-first search over classes, from
the 2-swap's class; corners and edges are counted apart, since any corner swap goes with any
edge swap.
"""

from __future__ import annotations

import functools

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
    """For one kind: the fewest 3-cycles of that kind solving each class, up to `depth`; for a
    class of odd permutations, the fewest after one 2-swap of the kind (a parity alg swaps two
    corners and two edges at once, so an odd skeleton takes one and 3-cycles for the rest)."""

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
        self.depth = depth
        ident_p, ident_o = np.arange(n)[None], np.zeros((1, n), np.int64)
        self._codes, self._dist = self._walk(ident_p[0], ident_o[0], depth)
        # the 2-swaps of the kind, twisted (flipped) within the swap as a position allows
        swaps = [(a, b, t) for a in range(n) for b in range(a + 1, n) for t in range(self.mod)]
        self.sp = np.tile(np.arange(n), (len(swaps), 1))
        self.so = np.zeros((len(swaps), n), np.int64)
        for r, (a, b, t) in enumerate(swaps):
            self.sp[r, a], self.sp[r, b] = b, a
            self.so[r, a], self.so[r, b] = t, (self.mod - t) % self.mod

    @functools.cached_property
    def _odd(self) -> tuple[np.ndarray, np.ndarray]:
        """The odd classes' (codes, distances): every 2-swap is one class, walked from. Made
        on the first odd leftover only (most skeletons leave none)."""
        return self._walk(self.sp[0], self.so[0], self.depth)

    def _walk(self, perm, ori, depth: int) -> tuple[np.ndarray, np.ndarray]:
        """Breadth-first over classes from the class of (perm, ori), stepping by 3-cycles (the
        set of 3-cycles is closed under conjugation, so one position of a class stands for
        it): (sorted class codes, their distances)."""
        dist = {int(self.codes(perm[None], ori[None])[0]): 0}
        frontier = [(perm, ori)]
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
        codes = np.array(sorted(dist), dtype=np.int64)
        return codes, np.array([dist[c] for c in codes.tolist()], dtype=np.int64)

    def codes(self, perm, ori) -> np.ndarray:
        return _class_codes(np.ascontiguousarray(perm, np.int64),
                            np.ascontiguousarray(ori, np.int64), self.mod, self._weights)

    def after(self, perm, ori):
        """The position after each 3-cycle (rows)."""
        return perm[self.cp], (ori[self.cp] + self.co) % self.mod

    def of_codes(self, codes: np.ndarray, odd=False) -> np.ndarray:
        """Distances (depth + 1 for a class farther than the search went); `odd` (one flag, or
        one per code) reads the odd classes' table."""
        codes = np.asarray(codes, np.int64)
        even = self._lookup(self._codes, self._dist, codes)
        if not np.any(odd):
            return even
        return np.where(odd, self._lookup(*self._odd, codes), even)

    def _lookup(self, table: np.ndarray, dist: np.ndarray, codes: np.ndarray) -> np.ndarray:
        i = np.minimum(np.searchsorted(table, codes), len(table) - 1)
        return np.where(table[i] == codes, dist[i], self.depth + 1)

    def odd_rows(self, rows: np.ndarray) -> np.ndarray:
        """Whether each row's pieces of this kind are oddly permuted."""
        p, _, _ = PARTS[self.kind]
        return _odd_permutations(np.ascontiguousarray(np.atleast_2d(rows)[:, p], np.int64))

    def of_row(self, row: np.ndarray) -> int:
        p, o, _ = PARTS[self.kind]
        return int(self.of_codes(self.codes(row[None, p], row[None, o]),
                                 self.odd_rows(row)[0])[0])

    def steps_down(self, row: np.ndarray) -> np.ndarray:
        """The 3-cycles (rows) c with row * c one 3-cycle nearer to solved."""
        return self.steps_down_many(np.atleast_2d(row))[0]

    def steps_down_many(self, rows: np.ndarray) -> list[np.ndarray]:
        """steps_down for many rows with one kernel call."""
        p, o, _ = PARTS[self.kind]
        rows = np.atleast_2d(rows)
        odd = self.odd_rows(rows)
        here = self.of_codes(self.codes(rows[:, p], rows[:, o]), odd)
        codes = _codes_after(np.ascontiguousarray(rows[:, p], np.int64),
                             np.ascontiguousarray(rows[:, o], np.int64),
                             np.ascontiguousarray(self.cp, np.int64),
                             np.ascontiguousarray(self.co, np.int64), self.mod, self._weights)
        d = self.of_codes(codes.ravel(), np.repeat(odd, codes.shape[1])).reshape(codes.shape)
        return [self.cycles[d[r] == here[r] - 1] for r in range(len(rows))]

    def swaps_down_many(self, rows: np.ndarray) -> list[np.ndarray]:
        """For each row whose pieces of this kind are oddly permuted, the 2-swaps s (as
        (perm, ori) of this kind's pieces, one per row of the pair of arrays) after which the
        row needs no more 3-cycles than it did: the swap half of a parity alg that takes one
        insertion off. Empty for an even row."""
        p, o, _ = PARTS[self.kind]
        rows = np.atleast_2d(rows)
        odd = self.odd_rows(rows)
        here = self.of_codes(self.codes(rows[:, p], rows[:, o]), odd)
        codes = _codes_after(np.ascontiguousarray(rows[:, p], np.int64),
                             np.ascontiguousarray(rows[:, o], np.int64), self.sp, self.so,
                             self.mod, self._weights)
        d = self.of_codes(codes.ravel()).reshape(codes.shape)
        none = np.zeros(0, np.int64)
        return [np.nonzero(d[r] == here[r])[0] if odd[r] else none for r in range(len(rows))]


@kernel
def _odd_permutations(perm):
    out = np.zeros(perm.shape[0], dtype=np.bool_)
    seen = np.zeros(perm.shape[1], dtype=np.bool_)
    for r in range(perm.shape[0]):
        seen[:] = False
        odd = False
        for s in range(perm.shape[1]):
            if seen[s]:
                continue
            i = s
            length = 0
            while not seen[i]:
                seen[i] = True
                length += 1
                i = perm[r, i]
            if length % 2 == 0:
                odd = not odd
        out[r] = odd
    return out


_DISTANCES: dict[tuple[str, int], Distances] = {}


def distances(kind: str, depth: int) -> Distances:
    """The counts for one kind up to `depth` (made once per process)."""
    key = (kind, depth)
    if key not in _DISTANCES:
        _DISTANCES[key] = Distances(kind, depth)
    return _DISTANCES[key]
