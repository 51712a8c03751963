"""Cubie states: the group element a cube shows, with value semantics.

A state records, for each corner slot, which corner sits there (cp) and its twist (co, 0..2,
clockwise), for each edge slot which edge and its flip (ep, eo), and for each centre position
which face's centre sits there (cc; one of the 24 rotations). Products read left to right:
`a * b` is "do a, then b", so `state * move` applies a move to a state.
"""

from __future__ import annotations

import math
from functools import lru_cache, reduce

import numpy as np

from .pieces import CORNER_KOCIEMBA, EDGE_NAMES, FACES, corner_slot, edge_slot

_NCORNERS, _NEDGES, _NCENTRES = 8, 12, 6


def _frozen(values, n: int) -> np.ndarray:
    arr = np.array(values, dtype=np.uint8).reshape(n)
    arr.flags.writeable = False
    return arr


class CubeState:
    """An element of the group of cube assemblies (centres included), immutable and hashable."""

    __slots__ = ("cp", "co", "ep", "eo", "cc", "_key")

    def __init__(self, cp, co, ep, eo, cc=None):
        self.cp = _frozen(cp, _NCORNERS)
        self.co = _frozen(co, _NCORNERS)
        self.ep = _frozen(ep, _NEDGES)
        self.eo = _frozen(eo, _NEDGES)
        self.cc = _frozen(range(6) if cc is None else cc, _NCENTRES)
        self._key = None

    @classmethod
    def identity(cls) -> "CubeState":
        return _IDENTITY

    @classmethod
    def _raw(cls, cp, co, ep, eo, cc) -> "CubeState":
        """Wrap arrays that are already uint8 and owned by nobody else (skips copying)."""
        s = object.__new__(cls)
        for name, arr in (("cp", cp), ("co", co), ("ep", ep), ("eo", eo), ("cc", cc)):
            arr.flags.writeable = False
            object.__setattr__(s, name, arr)
        s._key = None
        return s

    def __setattr__(self, name, value):
        if name == "_key":
            object.__setattr__(self, name, value)
        elif hasattr(self, "_key"):
            raise AttributeError("CubeState is immutable")
        else:
            object.__setattr__(self, name, value)

    # ---- value semantics -------------------------------------------------------------
    def key(self) -> bytes:
        """A compact byte string that identifies the state (equality and hashing use it)."""
        if self._key is None:
            self._key = b"".join(a.tobytes() for a in (self.cp, self.co, self.ep, self.eo, self.cc))
        return self._key

    def __eq__(self, other) -> bool:
        return isinstance(other, CubeState) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return (f"CubeState(cp={self.cp.tolist()}, co={self.co.tolist()}, ep={self.ep.tolist()}, "
                f"eo={self.eo.tolist()}, cc={self.cc.tolist()})")

    def __reduce__(self):
        return (CubeState, (self.cp.tolist(), self.co.tolist(), self.ep.tolist(),
                            self.eo.tolist(), self.cc.tolist()))

    # ---- group operations ------------------------------------------------------------
    def __mul__(self, other: "CubeState") -> "CubeState":
        if not isinstance(other, CubeState):
            return NotImplemented
        return self.compose(other)

    def compose(self, other: "CubeState") -> "CubeState":
        """self then other."""
        bcp, bep = other.cp, other.ep
        return CubeState._raw(
            self.cp[bcp],
            (self.co[bcp] + other.co) % 3,
            self.ep[bep],
            (self.eo[bep] + other.eo) & 1,
            self.cc[other.cc],
        )

    def inverse(self) -> "CubeState":
        cp, co = invert_part(self.cp, self.co, 3)
        ep, eo = invert_part(self.ep, self.eo, 2)
        cc, _ = invert_part(self.cc, np.zeros(6, np.uint8), 1)
        return CubeState._raw(cp, co, ep, eo, cc)

    def __invert__(self) -> "CubeState":
        return self.inverse()

    def __pow__(self, n: int) -> "CubeState":
        return self.power(n)

    def power(self, n: int) -> "CubeState":
        """self ** n by repeated squaring (negative n uses the inverse)."""
        return group_power(self, n)

    def conjugate(self, by: "CubeState") -> "CubeState":
        """[by: self] = by self by^-1."""
        return by * self * by.inverse()

    def commutator(self, other: "CubeState") -> "CubeState":
        """[self, other] = self other self^-1 other^-1."""
        return self * other * self.inverse() * other.inverse()

    # ---- simple questions ------------------------------------------------------------
    def is_identity(self) -> bool:
        return self.key() == _IDENTITY.key()

    def centres_home(self) -> bool:
        return bool((self.cc == np.arange(6)).all())

    def is_solved(self) -> bool:
        """Solved relative to the centres (a whole-cube rotation counts as solved)."""
        return self.normalized().is_identity()

    def normalized(self) -> "CubeState":
        """The same position re-expressed with the centres at home.

        If S shows centres rotated by R, the result is T = R^-1 S: the moves that solve T are
        exactly the moves, named by the faces where the centres now are, that solve S.
        """
        if self.centres_home():
            return self
        return rotation_with_centres(self.cc).inverse() * self

    def order(self) -> int:
        """The order of the group element: lcm over cycles, a cycle with net twist or flip
        counting three or two times its length; centres count too."""
        lengths = (cycle_orders(self.cp, self.co, 3) + cycle_orders(self.ep, self.eo, 2)
                   + [len(c) for c in permutation_cycles(self.cc)])
        return reduce(math.lcm, lengths, 1)


def rotation_with_centres(cc) -> CubeState:
    """The whole-cube rotation that puts the centres where `cc` says (cc[p]: the face whose
    centre sits at position p)."""
    return _rotation(bytes(int(c) for c in cc))


@lru_cache(maxsize=None)
def _rotation(cc: bytes) -> CubeState:
    # A rotation carries every piece along with the centres, so each slot holds the piece
    # whose faces' centres now sit on the slot's faces; a corner's twist is where its U or D
    # colour landed, an edge is flipped when its first colour is not on the slot's first face.
    def seen(slot_name: str) -> str:
        return "".join(FACES[cc[FACES.index(f)]] for f in slot_name)

    corners = [seen(name) for name in CORNER_KOCIEMBA]
    edges = [seen(name) for name in EDGE_NAMES]
    ep = [edge_slot(e) for e in edges]
    return CubeState([corner_slot(c) for c in corners],
                     [next(k for k, f in enumerate(c) if f in "UD") for c in corners],
                     ep, [int(e[0] != EDGE_NAMES[p][0]) for e, p in zip(edges, ep)], list(cc))


def as_lists(state: CubeState) -> tuple:
    """(cp, co, ep, eo, cc) as plain lists: products of a few states run faster on lists than
    on 8-entry numpy arrays (verifying many solutions does thousands of them)."""
    return (state.cp.tolist(), state.co.tolist(), state.ep.tolist(), state.eo.tolist(),
            state.cc.tolist())


def lists_product(a: tuple, b: tuple) -> tuple:
    """a then b, on the lists of `as_lists` (the rule of CubeState.compose)."""
    acp, aco, aep, aeo, acc = a
    bcp, bco, bep, beo, bcc = b
    return ([acp[j] for j in bcp], [(aco[j] + t) % 3 for j, t in zip(bcp, bco)],
            [aep[j] for j in bep], [(aeo[j] + f) & 1 for j, f in zip(bep, beo)],
            [acc[j] for j in bcc])


def permutation_cycles(perm, include_fixed: bool = False) -> list[list[int]]:
    """Cycles of length >= 2 (all cycles with include_fixed) of a permutation given as
    perm[i] = what lands at slot i.

    Each cycle lists slots in the order pieces travel: the piece at c[0] goes to c[1], ...
    """
    n = len(perm)
    where = [0] * n
    for slot, piece in enumerate(perm):
        where[int(piece)] = slot
    seen = [False] * n
    cycles = []
    for start in range(n):
        if seen[start] or (where[start] == start and not include_fixed):
            seen[start] = True
            continue
        cycle = []
        i = start
        while not seen[i]:
            seen[i] = True
            cycle.append(i)
            i = where[i]
        cycles.append(cycle)
    return cycles


def cycle_orders(perm, ori, mod: int) -> list[int]:
    """What each cycle of pieces contributes to an element's order: its length, times `mod`
    when its pieces come back turned (orientations mod `mod`)."""
    out = []
    for cycle in permutation_cycles(perm, include_fixed=True):
        net = sum(int(ori[i]) for i in cycle) % mod
        out.append(len(cycle) * (mod if net else 1))
    return out


def invert_part(perm, ori, mod: int) -> tuple[np.ndarray, np.ndarray]:
    """The inverse of one kind of pieces, where slot i holds piece perm[i] turned by ori[i]
    (orientations mod `mod`)."""
    n = len(perm)
    inv_perm = np.empty(n, np.uint8)
    inv_perm[perm] = np.arange(n, dtype=np.uint8)
    inv_ori = np.empty(n, np.uint8)
    inv_ori[perm] = (mod - ori.astype(np.int16)) % mod
    return inv_perm, inv_ori


def group_power(x, n: int):
    """x ** n by repeated squaring for any element with *, inverse() and identity() (negative n
    uses the inverse)."""
    base = x if n >= 0 else x.inverse()
    n = abs(n)
    result = type(x).identity()
    while n:
        if n & 1:
            result = result * base
        n >>= 1
        if n:
            base = base * base
    return result


def permutation_parity(perm) -> int:
    """0 for an even permutation, 1 for an odd one."""
    return sum(len(c) - 1 for c in permutation_cycles(perm)) & 1


_IDENTITY = CubeState(range(8), [0] * 8, range(12), [0] * 12, range(6))
