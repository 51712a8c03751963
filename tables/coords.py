"""Coordinates over the cubie model as numba kernels: one general piece coordinate and products.

A piece coordinate looks at the corners or the edges in a range of slots [lo, hi) and at a
tuple of tracked pieces, and ranks
- where they are: not at all, as a set of slots (a combination, C(n, k)), or ordered (the
  combination times the arrangement of the tracked pieces read in slot order, k!), and
- how they are turned: not at all, every slot of the range but the last (whose orientation the
  others imply), the tracked pieces in slot order, or the tracked pieces in the order given.

index = position_rank * orientation_size + orientation_rank. The combination is ranked so that
tracked pieces filling the top slots of the range rank 0 (Kociemba's convention, which makes the
UD-slice coordinate 0 when solved, and sorted slice // 24 the plain slice coordinate).

The usual coordinates are instances: twist 3^7, flip 2^11, UD slice 495, sorted slice 11880,
corner permutation 8!, the U/D edges' permutation 8! (slots 0..7), the slice permutation 4!,
and partial permutations of any pieces with or without orientation (Korf's 6 edges are
positions(ordered) x flips(by piece), a product of two coordinates).

The descriptor of a coordinate is an int64 array so one compiled kernel serves them all.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

import cubelab.tables  # noqa: F401  (numba cache location, before numba)
from numba import njit

from cubelab.cube.state import CubeState

CORNER, EDGE = 0, 1
POS_NONE, POS_SET, POS_ORDERED = 0, 1, 2
ORI_NONE, ORI_ALL, ORI_BY_SLOT, ORI_BY_PIECE = 0, 1, 2, 3

# descriptor slots
D_KIND, D_LO, D_HI, D_K, D_POS, D_ORI, D_SIZE, D_POS_SIZE, D_ORI_SIZE, D_PIECES = range(10)
D_WHERE = D_PIECES + 12     # piece -> its index in the tracked tuple, or -1
D_FACT = D_WHERE + 12       # 0! .. 12!
D_BINOM = D_FACT + 13       # C(n, x) at D_BINOM + 13 n + x, n and x in 0..12
DESC_LEN = D_BINOM + 13 * 13
# (the constants ride in the descriptor so the kernels need neither globals nor divisions)

_POS_NAMES = {"none": POS_NONE, "set": POS_SET, "ordered": POS_ORDERED}
_ORI_NAMES = {"none": ORI_NONE, "all": ORI_ALL, "slot": ORI_BY_SLOT, "piece": ORI_BY_PIECE}


# ---- kernels ----------------------------------------------------------------------------

@njit(cache=True, nogil=True)
def encode(desc, cp, co, ep, eo):
    """The coordinate's value for a state given as cubie arrays."""
    if desc[D_KIND] == CORNER:
        perm, ori, base = cp, co, 3
    else:
        perm, ori, base = ep, eo, 2
    lo, hi, k = desc[D_LO], desc[D_HI], desc[D_K]
    pos_mode, ori_mode = desc[D_POS], desc[D_ORI]
    pos = 0
    if pos_mode != POS_NONE:
        # combination: scan from the top slot down
        x = 0
        for j in range(hi - 1, lo - 1, -1):
            if desc[D_WHERE + perm[j]] >= 0:
                pos += desc[D_BINOM + 13 * (hi - 1 - j) + x + 1]
                x += 1
        if pos_mode == POS_ORDERED:
            # arrangement: Lehmer rank of the tracked indices read in slot order; the entries
            # to the right that are smaller are exactly the smaller ones not yet seen
            arr, seen, i = 0, 0, 0
            for j in range(lo, hi):
                t = desc[D_WHERE + perm[j]]
                if t >= 0:
                    below = ~seen & ((1 << t) - 1)
                    smaller = 0
                    while below:
                        below &= below - 1
                        smaller += 1
                    arr = arr * (k - i) + smaller
                    seen |= 1 << t
                    i += 1
            pos = pos * desc[D_FACT + k] + arr
    o = 0
    if ori_mode == ORI_ALL:
        for j in range(lo, hi - 1):
            o = o * base + ori[j]
    elif ori_mode == ORI_BY_SLOT:
        for j in range(lo, hi):
            if desc[D_WHERE + perm[j]] >= 0:
                o = o * base + ori[j]
    elif ori_mode == ORI_BY_PIECE:
        for t in range(k):
            piece = desc[D_PIECES + t]
            for j in range(lo, hi):
                if perm[j] == piece:
                    o = o * base + ori[j]
                    break
    return pos * desc[D_ORI_SIZE] + o


@njit(cache=True, nogil=True)
def decode_positions(desc, index, cp, ep):
    """Write the positions the coordinate fixes into cp or ep (slots of its range only)."""
    pos_mode = desc[D_POS]
    if pos_mode == POS_NONE:
        return
    perm = cp if desc[D_KIND] == CORNER else ep
    lo, hi, k = desc[D_LO], desc[D_HI], desc[D_K]
    pos = index // desc[D_ORI_SIZE]
    if pos_mode == POS_ORDERED:
        fk = desc[D_FACT + k]
        comb, arr = pos // fk, pos % fk
    else:
        comb, arr = pos, 0
    # combination -> which slots hold tracked pieces (greedy, largest binomial first)
    taken = 0
    r = comb
    for x in range(k, 0, -1):
        c = x - 1
        while desc[D_BINOM + 13 * (c + 1) + x] <= r:
            c += 1
        r -= desc[D_BINOM + 13 * c + x]
        taken |= 1 << (hi - 1 - c)
    # tracked slots in increasing order get the arrangement's pieces (Lehmer digits, most
    # significant first, each choosing among the unused tracked indices); the other slots get
    # the range's untracked pieces in increasing order
    used, i, other = 0, 0, lo
    for j in range(lo, hi):
        if taken >> j & 1:
            f = desc[D_FACT + k - 1 - i]
            d = arr // f
            arr %= f
            t = 0
            while True:
                if not used >> t & 1:
                    if d == 0:
                        break
                    d -= 1
                t += 1
            used |= 1 << t
            perm[j] = desc[D_PIECES + t]
            i += 1
        else:
            while desc[D_WHERE + other] >= 0:
                other += 1
            perm[j] = other
            other += 1


@njit(cache=True, nogil=True)
def decode_orientations(desc, index, cp, co, ep, eo):
    """Write the orientations the coordinate fixes (after the positions are in place)."""
    ori_mode = desc[D_ORI]
    if ori_mode == ORI_NONE:
        return
    if desc[D_KIND] == CORNER:
        perm, ori, base = cp, co, 3
    else:
        perm, ori, base = ep, eo, 2
    lo, hi, k = desc[D_LO], desc[D_HI], desc[D_K]
    o = index % desc[D_ORI_SIZE]
    if ori_mode == ORI_ALL:
        total = 0
        for j in range(hi - 2, lo - 1, -1):
            ori[j] = o % base
            total += o % base
            o //= base
        ori[hi - 1] = (base - total % base) % base
    elif ori_mode == ORI_BY_SLOT:
        for j in range(hi - 1, lo - 1, -1):
            if desc[D_WHERE + perm[j]] >= 0:
                ori[j] = o % base
                o //= base
    else:
        for t in range(k - 1, -1, -1):
            piece = desc[D_PIECES + t]
            for j in range(lo, hi):
                if perm[j] == piece:
                    ori[j] = o % base
                    break
            o //= base


@njit(cache=True, nogil=True)
def reset(cp, co, ep, eo):
    for i in range(8):
        cp[i] = i
        co[i] = 0
    for i in range(12):
        ep[i] = i
        eo[i] = 0


@njit(cache=True, nogil=True)
def encode_product(descs, cp, co, ep, eo):
    """Mixed-radix product of several coordinates, the first most significant."""
    idx = 0
    for f in range(descs.shape[0]):
        idx = idx * descs[f, D_SIZE] + encode(descs[f], cp, co, ep, eo)
    return idx


@njit(cache=True, nogil=True)
def _digit(descs, index, f):
    """The value of coordinate f inside a product value."""
    for g in range(descs.shape[0] - 1, f, -1):
        index //= descs[g, D_SIZE]
    return index % descs[f, D_SIZE]


@njit(cache=True, nogil=True)
def decode_product(descs, index, cp, co, ep, eo):
    """A state (solved outside what the coordinates fix) with the given product value."""
    reset(cp, co, ep, eo)
    nf = descs.shape[0]
    for f in range(nf):
        decode_positions(descs[f], _digit(descs, index, f), cp, ep)
    for f in range(nf):
        decode_orientations(descs[f], _digit(descs, index, f), cp, co, ep, eo)


@njit(cache=True, nogil=True)
def encode_batch(descs, cps, cos, eps, eos, out):
    """Product values of many states (rows of the cubie arrays)."""
    for i in range(cps.shape[0]):
        out[i] = encode_product(descs, cps[i], cos[i], eps[i], eos[i])


# ---- the Python face ----------------------------------------------------------------------

@dataclass(frozen=True)
class Coord:
    """A piece coordinate; see the module docstring for what each field means."""

    name: str
    piece: str                      # "corner" | "edge"
    pieces: tuple[int, ...] = ()    # tracked pieces (ignored by orientation "all" alone)
    positions: str = "none"         # "none" | "set" | "ordered"
    orientation: str = "none"       # "none" | "all" | "slot" | "piece"
    slots: tuple[int, int] | None = None   # [lo, hi); all slots by default

    def __post_init__(self):
        n = 8 if self.piece == "corner" else 12
        if self.piece not in ("corner", "edge"):
            raise ValueError(f"{self.name}: piece must be 'corner' or 'edge'")
        if self.positions not in _POS_NAMES or self.orientation not in _ORI_NAMES:
            raise ValueError(f"{self.name}: unknown positions/orientation mode")
        lo, hi = self.slots if self.slots is not None else (0, n)
        object.__setattr__(self, "slots", (lo, hi))
        object.__setattr__(self, "pieces", tuple(int(p) for p in self.pieces))
        if not 0 <= lo < hi <= n:
            raise ValueError(f"{self.name}: bad slot range {self.slots}")
        if len(set(self.pieces)) != len(self.pieces):
            raise ValueError(f"{self.name}: repeated pieces")
        if (lo, hi) != (0, n) and not all(lo <= p < hi for p in self.pieces):
            raise ValueError(f"{self.name}: tracked pieces must lie in the slot range")
        if self.positions == "none" and self.orientation in ("none", "slot"):
            raise ValueError(f"{self.name}: orientation {self.orientation!r} needs positions")
        if self.positions != "none" or self.orientation in ("slot", "piece"):
            if not self.pieces:
                raise ValueError(f"{self.name}: no tracked pieces")

    @property
    def base(self) -> int:
        return 3 if self.piece == "corner" else 2

    @property
    def position_size(self) -> int:
        lo, hi = self.slots
        k = len(self.pieces)
        if self.positions == "none":
            return 1
        comb = math.comb(hi - lo, k)
        return comb * math.factorial(k) if self.positions == "ordered" else comb

    @property
    def orientation_size(self) -> int:
        lo, hi = self.slots
        return {"none": 1, "all": self.base ** (hi - lo - 1)}.get(
            self.orientation, self.base ** len(self.pieces))

    @property
    def size(self) -> int:
        return self.position_size * self.orientation_size

    @cached_property
    def desc(self) -> np.ndarray:
        d = np.full(DESC_LEN, -1, dtype=np.int64)
        d[D_KIND] = CORNER if self.piece == "corner" else EDGE
        d[D_LO], d[D_HI] = self.slots
        d[D_K] = len(self.pieces)
        d[D_POS] = _POS_NAMES[self.positions]
        d[D_ORI] = _ORI_NAMES[self.orientation]
        d[D_SIZE], d[D_POS_SIZE], d[D_ORI_SIZE] = self.size, self.position_size, self.orientation_size
        d[D_PIECES:D_PIECES + len(self.pieces)] = self.pieces
        for t, p in enumerate(self.pieces):
            d[D_WHERE + p] = t
        d[D_FACT:D_FACT + 13] = [math.factorial(n) for n in range(13)]
        d[D_BINOM:] = [math.comb(n, x) for n in range(13) for x in range(13)]
        d.flags.writeable = False
        return d

    @property
    def params(self) -> dict:
        """What defines the coordinate, for a table spec's params."""
        return {"piece": self.piece, "pieces": list(self.pieces), "positions": self.positions,
                "orientation": self.orientation, "slots": list(self.slots)}

    def encode(self, state: CubeState) -> int:
        return int(encode(self.desc, *_cubies(state)))

    def decode(self, index: int) -> CubeState:
        return Product((self,)).decode(index)

    def solved(self) -> int:
        return self.encode(CubeState.identity())


@dataclass(frozen=True)
class Product:
    """Several coordinates read as one mixed-radix number, the first most significant."""

    coords: tuple[Coord, ...]

    def __post_init__(self):
        object.__setattr__(self, "coords", tuple(self.coords))

    @cached_property
    def descs(self) -> np.ndarray:
        d = np.stack([c.desc for c in self.coords]).astype(np.int64)
        d.flags.writeable = False
        return d

    @property
    def size(self) -> int:
        return math.prod(c.size for c in self.coords)

    @property
    def sizes(self) -> tuple[int, ...]:
        return tuple(c.size for c in self.coords)

    @property
    def name(self) -> str:
        return "x".join(c.name for c in self.coords)

    @property
    def params(self) -> dict:
        return {"coords": [dict(c.params, name=c.name) for c in self.coords]}

    def encode(self, state: CubeState) -> int:
        return int(encode_product(self.descs, *_cubies(state)))

    def decode(self, index: int) -> CubeState:
        if not 0 <= index < self.size:
            raise ValueError(f"{self.name}: index {index} out of range 0..{self.size - 1}")
        cp, co, ep, eo = (np.zeros(n, np.uint8) for n in (8, 8, 12, 12))
        decode_product(self.descs, index, cp, co, ep, eo)
        return CubeState(cp, co, ep, eo)

    def split(self, index: int) -> tuple[int, ...]:
        """The value of each coordinate."""
        out = []
        for s in reversed(self.sizes):
            index, d = divmod(index, s)
            out.append(d)
        return tuple(reversed(out))

    def join(self, values) -> int:
        idx = 0
        for v, s in zip(values, self.sizes):
            idx = idx * s + int(v)
        return idx

    def solved(self) -> int:
        return self.encode(CubeState.identity())


def _cubies(state: CubeState):
    return (np.asarray(state.cp, np.uint8), np.asarray(state.co, np.uint8),
            np.asarray(state.ep, np.uint8), np.asarray(state.eo, np.uint8))


SLICE_EDGES = (8, 9, 10, 11)
UD_EDGES = tuple(range(8))

TWIST = Coord("twist", "corner", orientation="all")
"""Corner orientation, 3^7 = 2187: co[0..6] in base 3, co[0] most significant."""
FLIP = Coord("flip", "edge", orientation="all")
"""Edge orientation, 2^11 = 2048."""
UD_SLICE = Coord("slice", "edge", SLICE_EDGES, positions="set")
"""Which 4 slots hold the FR FL BL BR edges, C(12, 4) = 495; 0 when solved."""
SLICE_SORTED = Coord("slice_sorted", "edge", SLICE_EDGES, positions="ordered")
"""Slots and order of the slice edges, 11880; // 24 gives UD_SLICE."""
CORNER_PERM = Coord("corner_perm", "corner", tuple(range(8)), positions="ordered")
"""Corner permutation, 8! = 40320 (the Lehmer rank of cp)."""
EDGE_PERM = Coord("edge_perm", "edge", tuple(range(12)), positions="ordered")
"""Edge permutation, 12! (too large for a move table; for encoding only)."""
EDGE8_PERM = Coord("edge8_perm", "edge", UD_EDGES, positions="ordered", slots=(0, 8))
"""Permutation of the 8 U/D edges in slots 0..7, 8! (valid where the slice edges stay put)."""
SLICE_PERM = Coord("slice_perm", "edge", SLICE_EDGES, positions="ordered", slots=(8, 12))
"""Permutation of the slice edges inside the slice, 4! (valid in <U, D, R2, L2, F2, B2>)."""


def edge_positions(pieces) -> Coord:
    """Where the given edges are (ordered): 12! / (12 - k)!."""
    return Coord(f"edges{''.join(f'{p:x}' for p in pieces)}_pos", "edge", tuple(pieces),
                 positions="ordered")


def edge_flips(pieces) -> Coord:
    """The flips of the given edges in the given order, 2^k (moves need their positions)."""
    return Coord(f"edges{''.join(f'{p:x}' for p in pieces)}_flip", "edge", tuple(pieces),
                 orientation="piece")


def corner_positions(pieces) -> Coord:
    return Coord(f"corners{''.join(map(str, pieces))}_pos", "corner", tuple(pieces),
                 positions="ordered")


def corner_twists(pieces) -> Coord:
    """The twists of the given corners in the given order, 3^k (moves need their positions)."""
    return Coord(f"corners{''.join(map(str, pieces))}_twist", "corner", tuple(pieces),
                 orientation="piece")


if __name__ == "__main__":
    from cubelab.cube.moves import alg_state
    s = alg_state("R U R' U'")
    for c in (TWIST, FLIP, UD_SLICE, SLICE_SORTED, CORNER_PERM, EDGE_PERM):
        print(f"{c.name:14} size {c.size:>12,}  R U R' U' -> {c.encode(s)}")
