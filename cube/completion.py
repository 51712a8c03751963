"""Completing a partly known position: a whole, reachable position within given constraints.

Masked facelets (some stickers grey) and goals (some pieces free) both describe sets of
positions; a goal or a sticker pattern is usable only if the set is not empty. Constraints are,
per orbit, a table allowed[piece, slot, orientation]. `complete` finds a position meeting them
and the cube's laws (twists add up to whole turns, flips to an even number, corner and edge
permutations of the same parity), or raises `Impossible` saying why: a set of slots whose
candidate pieces are fewer than the slots (Hall's condition), or the law that cannot be met.

The search assigns the most constrained slot or piece first; once every slot left accepts every
piece left in every orientation, the rest is filled directly, a free piece absorbing the twist
or flip sum and two free pieces the parity.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .state import CubeState, permutation_parity

MAX_NODES = 200_000
"""Assignments tried before the search gives up (never reached by the program's own uses)."""


@dataclass
class Impossible(Exception):
    """No position meets the constraints: `kind` is "hall" (`slots` can only hold `pieces`,
    fewer than the slots), "twist", "flip", "parity" or "too hard"."""

    kind: str
    orbit: str = ""
    slots: tuple = ()
    pieces: tuple = ()

    def __str__(self) -> str:
        return f"{self.kind} {self.orbit} {self.slots} {self.pieces}"


def free(n: int, k: int) -> np.ndarray:
    """allowed[piece, slot, ori]: everything allowed (n pieces, k orientations)."""
    return np.ones((n, n, k), dtype=bool)


def _hall(allowed: np.ndarray, orbit: str) -> None:
    """Impossible("hall") when no perfect matching of pieces to slots exists."""
    n = allowed.shape[0]
    if n == 0:
        return
    ok = allowed.any(axis=2)                       # ok[piece, slot]
    match_slot = [-1] * n                          # slot -> piece

    def augment(p: int, seen: set) -> bool:
        for s in range(n):
            if ok[p, s] and s not in seen:
                seen.add(s)
                if match_slot[s] < 0 or augment(match_slot[s], seen):
                    match_slot[s] = p
                    return True
        return False

    for p in range(n):
        augment(p, set())
    if min(match_slot) >= 0:
        return
    # an unmatched slot: the slots reachable from it by alternating paths can only hold the
    # pieces matched to them, one fewer than the slots (Hall's condition fails on that set)
    matched = {s: p for s, p in enumerate(match_slot) if p >= 0}
    start = match_slot.index(-1)
    slots, pieces, todo = {start}, set(), [start]
    while todo:
        s = todo.pop()
        for p in range(n):
            if ok[p, s] and p not in pieces:
                pieces.add(p)
                s2 = next(x for x, q in matched.items() if q == p)
                if s2 not in slots:
                    slots.add(s2)
                    todo.append(s2)
    raise Impossible("hall", orbit, tuple(sorted(slots)), tuple(sorted(pieces)))


def complete(corners: np.ndarray, edges: np.ndarray, cc=None, trace=(0, 0, 0)) -> CubeState:
    """A position meeting allowed[piece, slot, ori] for corners (8, 8, 3) and edges
    (12, 12, 2) whose raw invariants (parity difference, flip sum, twist sum of the cubie
    arrays) equal `trace` (0 for a position with its centres home; a held rotation's own
    otherwise); `cc` the centres it gets. Impossible otherwise."""
    _hall(corners, "corner")
    _hall(edges, "edge")
    search = _Search(corners, edges, trace)
    found = search.run()
    if found is None:
        raise Impossible(search.failure or "too hard")
    cp, co, ep, eo = found
    return CubeState(cp, co, ep, eo, cc)


class _Search:
    def __init__(self, corners, edges, trace):
        self.allowed = {"c": corners, "e": edges}
        self.trace = trace
        self.nodes = 0
        self.failure = None
        self.assign = {"c": {}, "e": {}}          # piece -> (slot, ori)

    def run(self):
        try:
            return self._step()
        except _GiveUp:
            self.failure = "too hard"
            return None

    def _open(self, orbit):
        a = self.allowed[orbit]
        taken = {s for s, _ in self.assign[orbit].values()}
        pieces = [p for p in range(a.shape[0]) if p not in self.assign[orbit]]
        slots = [s for s in range(a.shape[0]) if s not in taken]
        return a, pieces, slots

    def _choose(self):
        """The most constrained open piece (or None when everything left is free)."""
        best = None
        for orbit in "ce":
            a, pieces, slots = self._open(orbit)
            if not pieces:
                continue
            sub = a[np.ix_(pieces, slots)]
            if sub.all():
                continue
            for i, p in enumerate(pieces):
                options = [(slots[j], o) for j in range(len(slots)) for o in range(a.shape[2])
                           if sub[i, j, o]]
                if len(options) < len(slots) * a.shape[2]:
                    if best is None or len(options) < len(best[2]):
                        best = (orbit, p, options)
            for j, s in enumerate(slots):
                options = [(pieces[i], o) for i in range(len(pieces)) for o in range(a.shape[2])
                           if sub[i, j, o]]
                if len(options) < len(pieces) * a.shape[2]:
                    if best is None or len(options) < len(best[2]):
                        best = (orbit, ("slot", s), options)
        return best

    def _step(self):
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise _GiveUp()
        choice = self._choose()
        if choice is None:
            return self._finish()
        orbit, what, options = choice
        for opt in options:
            if isinstance(what, tuple):
                piece, ori, slot = opt[0], opt[1], what[1]
            else:
                piece, (slot, ori) = what, opt
            self.assign[orbit][piece] = (slot, ori)
            if self._matchable(orbit):
                found = self._step()
                if found is not None:
                    return found
            del self.assign[orbit][piece]
        return None

    def _matchable(self, orbit) -> bool:
        a, pieces, slots = self._open(orbit)
        try:
            _hall(a[np.ix_(pieces, slots)], orbit)
        except Impossible:
            return False
        return True

    def _finish(self):
        """Fill the free pieces; fix the invariants with them where the assigned ones do not."""
        arrays = {}
        freedom = {}
        for orbit, n, k in (("c", 8, 3), ("e", 12, 2)):
            a, pieces, slots = self._open(orbit)
            perm = np.zeros(n, np.int64)
            ori = np.zeros(n, np.int64)
            for p, (s, o) in self.assign[orbit].items():
                perm[s], ori[s] = p, o
            for p, s in zip(pieces, slots):
                perm[s], ori[s] = p, 0
            arrays[orbit] = [perm, ori]
            freedom[orbit] = list(slots)
        want_parity, want_flip, want_twist = self.trace
        cp, co = arrays["c"]
        ep, eo = arrays["e"]
        twist = (int(co.sum()) - want_twist) % 3
        if twist:
            if not freedom["c"]:
                self.failure = self.failure or "twist"
                return None
            co[freedom["c"][0]] = (co[freedom["c"][0]] - twist) % 3
        flip = (int(eo.sum()) - want_flip) % 2
        if flip:
            if not freedom["e"]:
                self.failure = self.failure or "flip"
                return None
            eo[freedom["e"][0]] ^= 1
        if (permutation_parity(cp) ^ permutation_parity(ep)) != want_parity:
            for orbit, perm in (("e", ep), ("c", cp)):
                if len(freedom[orbit]) >= 2:
                    a, b = freedom[orbit][:2]
                    perm[a], perm[b] = perm[b], perm[a]
                    break
            else:
                self.failure = self.failure or "parity"
                return None
        return cp, co, ep, eo


class _GiveUp(Exception):
    pass


def raw_trace(state: CubeState) -> tuple[int, int, int]:
    """(corner parity xor edge parity, flip sum mod 2, twist sum mod 3) of the cubie arrays."""
    return (permutation_parity(state.cp) ^ permutation_parity(state.ep),
            int(state.eo.sum()) % 2, int(state.co.sum()) % 3)
