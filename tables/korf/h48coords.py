"""The 48-symmetric coset coordinate: corners by tetrad and twist, edges by slice and flip class.

A position is seen through what each slot holds, forgetting which piece of a class it is: for a
corner slot, which tetrad its piece belongs to ({URF, ULB, DLF, DRB} or the other four) and its
twist; for an edge slot, which slice its piece belongs to (M, S or E) and its flip, with the
flips of one slice's four pieces read up to flipping all four. Moves act on slots, so the
coordinate of a position after a move is a function of the coordinate before it, and the
positions with the solved coordinate (corners in their tetrads and untwisted, edges in their
slices with each slice's flips all equal) are reached from the solved cube by half turns.

Why flips up to complementing a slice: the flip of an edge depends on which sticker is its
reference, and the 48 symmetries move the reference of whole slices (a quarter turn of the cube
about U-D makes the F-B reference an R-L one for the E slice's edges). Changing a slice's
reference complements the flips of that slice's pieces, which the flip class does not see, and
flips a fixed set of slots, which it does; so the coordinate is a function of the conjugate's
coordinate for all 48 symmetries, the property the one-probe table needs (Tronto's H48 solver
reduces the same corner coordinate by the same symmetries).

Sizes: corners 70 tetrad separations x 2,187 twists = 153,090 raw values in 3,393 classes under
the 48 symmetries; edges 34,650 slice memberships x 256 flip classes = 8,870,400 raw values.
The flip class is 8 bits: for each slice (M, S, E) in turn, the flips of its second, third and
fourth slots (in slot order) relative to its first one; the ninth such bit follows from the
parity of all flips.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from cubelab.tables.jit import kernel

from ..cubies import CO, CP, EO, EP, N_MOVES, ROW_BYTES, conjugate_into, move_rows, multiply, \
    symmetry_rows
from ..ranks import BINOM, N_TWIST, rank_combination
from .h48probe import N_MEMBER, N_SYM

N_TETRAD = 70
N_CRAW = N_TETRAD * N_TWIST
"""Raw corner values: tetrad separation * 2,187 + twist (153,090)."""
N_CCLASS = 3393
"""Classes of the raw corner values under the 48 symmetries (checked when computed)."""
N_FCLASS = 256
N_ERAW = N_MEMBER * N_FCLASS
"""Raw edge values: membership * 256 + flip class (8,870,400)."""

TETRAD_A = (0, 2, 5, 7)
"""URF, ULB, DLF, DRB: no two share an edge."""
SLICE_OF_PIECE = np.array([1, 0, 1, 0, 1, 0, 1, 0, 2, 2, 2, 2], np.int64)
"""M = 0 (UF UB DF DB), S = 1 (UR UL DR DL), E = 2 (FR FL BL BR), by edge piece."""
_IN_TETRAD_A = np.array([1 if p in TETRAD_A else 0 for p in range(8)], np.int64)


@lru_cache(maxsize=1)
def rank_luts() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """rank12[mask] of 4-of-12 masks, rank8[mask] of 4-of-8 masks (-1 elsewhere), and their
    inverses unrank12[r], unrank8[r] (the masks), read-only. Made on first use, not at import
    (a few tenths of a second): only the H48 set and its tests need them."""
    rank12 = np.full(1 << 12, -1, np.int64)
    rank8 = np.full(1 << 8, -1, np.int64)
    unrank12 = np.zeros(495, np.int64)
    unrank8 = np.zeros(70, np.int64)
    for mask in range(1 << 12):
        if bin(mask).count("1") == 4:
            r = rank_combination(mask, 12, BINOM)
            rank12[mask], unrank12[r] = r, mask
            if mask < 256:
                r = rank_combination(mask, 8, BINOM)
                rank8[mask], unrank8[r] = r, mask
    for a in (rank12, rank8, unrank12, unrank8):
        a.flags.writeable = False
    return rank12, rank8, unrank12, unrank8


_LUTS = ("RANK12", "RANK8", "UNRANK12", "UNRANK8")


def __getattr__(name: str):
    """RANK12, RANK8, UNRANK12 and UNRANK8: rank_luts()'s tables, made when first read."""
    if name in _LUTS:
        return rank_luts()[_LUTS.index(name)]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ---- coordinates of a 40-byte row -----------------------------------------------------------

@kernel
def corner_raw(row, in_a, rank8):
    """tetrad separation * 2,187 + twist of a row."""
    mask = 0
    t = 0
    for i in range(8):
        if in_a[row[CP + i]]:
            mask |= 1 << i
        if i < 7:
            t = 3 * t + row[CO + i]
    return rank8[mask] * 2187 + t


@kernel
def edge_raw(row, slice_of, rank12, rank8):
    """membership * 256 + flip class of a row."""
    emask = 0
    mmask = 0
    j = 0                       # position among the slots not holding E pieces
    first = np.full(3, -1, np.int64)
    count = np.zeros(3, np.int64)
    bits = 0
    for i in range(12):
        s = slice_of[row[EP + i]]
        if s == 2:
            emask |= 1 << i
        else:
            if s == 0:
                mmask |= 1 << j
            j += 1
        f = row[EO + i]
        if first[s] < 0:
            first[s] = f
        else:
            bits |= (f ^ first[s]) << (3 * s + count[s])
            count[s] += 1
    return (rank12[emask] * 70 + rank8[mmask]) * 256 + (bits & 255)


@kernel
def corner_row(c, unrank8, row):
    """Set the corner part of row to a state with raw corner value c (tetrad A pieces in its
    slots in increasing order)."""
    mask = unrank8[c // 2187]
    a, b = 0, 0
    tetrad_a = (0, 2, 5, 7)
    tetrad_b = (1, 3, 4, 6)
    for i in range(8):
        if mask >> i & 1:
            row[CP + i] = tetrad_a[a]
            a += 1
        else:
            row[CP + i] = tetrad_b[b]
            b += 1
    t = c % 2187
    total = 0
    for i in range(6, -1, -1):
        row[CO + i] = t % 3
        total += t % 3
        t //= 3
    row[CO + 7] = (3 - total % 3) % 3


@kernel
def edge_row(e, unrank12, unrank8, row):
    """Set the edge part of row to a state with raw edge value e (each slice's pieces in its
    slots in increasing order, each slice's first slot unflipped)."""
    pieces = ((1, 3, 5, 7), (0, 2, 4, 6), (8, 9, 10, 11))
    f = e % 256
    m = e // 256
    emask = unrank12[m // 70]
    mmask = unrank8[m % 70]
    parity = 0
    for b in range(8):
        parity ^= f >> b & 1
    bits = f | parity << 8
    used = np.zeros(3, np.int64)
    j = 0
    for i in range(12):
        if emask >> i & 1:
            s = 2
        else:
            s = 0 if mmask >> j & 1 else 1
            j += 1
        k = used[s]
        row[EP + i] = pieces[s][k]
        row[EO + i] = 0 if k == 0 else bits >> (3 * s + k - 1) & 1
        used[s] = k + 1


# ---- move and symmetry tables ---------------------------------------------------------------

@kernel
def _corner_tables(unrank8, in_a, rank8, mrows, sym, move, conj):
    row = np.zeros(ROW_BYTES, np.uint8)
    out = np.zeros(ROW_BYTES, np.uint8)
    for i in range(12):
        row[EP + i] = i
    for c in range(N_CRAW):
        corner_row(c, unrank8, row)
        for m in range(mrows.shape[0]):
            multiply(row, mrows[m], out)
            move[c, m] = corner_raw(out, in_a, rank8)
        for k in range(N_SYM):
            conjugate_into(row, sym, k, out)
            conj[c, k] = corner_raw(out, in_a, rank8)


@kernel
def _classes(conj, inv, cls, sym_of, reps, stab):
    """Classes of a coordinate under the 48 symmetries: cls[v], sym_of[v] (conj[v, sym_of[v]]
    is the representative), reps, stab[class] (bit k: S_k fixes the representative)."""
    n = 0
    for raw in range(conj.shape[0]):
        if cls[raw] >= 0:
            continue
        reps[n] = raw
        cls[raw] = n
        sym_of[raw] = 0
        for k in range(N_SYM):
            other = conj[raw, k]
            if other == raw:
                stab[n] |= np.int64(1) << k
            elif cls[other] < 0:
                cls[other] = n
                sym_of[other] = inv[k]
        n += 1
    return n


@lru_cache(maxsize=1)
def symmetry_inverses() -> np.ndarray:
    """inv[k]: the index of S_k^-1 among the 48 symmetries."""
    sym = symmetry_rows()
    inv = np.empty(N_SYM, np.int64)
    for k in range(N_SYM):
        inv[k] = next(j for j in range(N_SYM) if (sym[j, :40] == sym[k, 40:80]).all())
    inv.flags.writeable = False
    return inv


@dataclass(frozen=True)
class CornerTables:
    """move[c, m], conj[c, k] on raw corner values; cls[c] its class, sym_of[c] a symmetry k
    with conj[c, k] = rep[cls[c]]; stab[class] the 48-bit mask of symmetries fixing the
    representative."""

    move: np.ndarray
    conj: np.ndarray
    cls: np.ndarray
    sym_of: np.ndarray
    rep: np.ndarray
    stab: np.ndarray


@lru_cache(maxsize=1)
def corner_tables() -> CornerTables:
    mrows = move_rows("htm")
    move = np.empty((N_CRAW, N_MOVES), np.int32)
    conj = np.empty((N_CRAW, N_SYM), np.int32)
    _, rank8, _, unrank8 = rank_luts()
    _corner_tables(unrank8, _IN_TETRAD_A, rank8, mrows, symmetry_rows(), move, conj)
    cls = np.full(N_CRAW, -1, np.int32)
    sym_of = np.zeros(N_CRAW, np.int8)
    reps = np.empty(N_CRAW, np.int32)
    stab = np.zeros(N_CRAW, np.int64)
    n = _classes(conj, symmetry_inverses(), cls, sym_of, reps, stab)
    if n != N_CCLASS:
        raise AssertionError(f"{n} corner classes, expected {N_CCLASS}")
    tables = CornerTables(move, conj, cls, sym_of, reps[:n].copy(), stab[:n].copy())
    for a in vars(tables).values():
        a.flags.writeable = False
    return tables


def coords_of(state) -> tuple[int, int]:
    """(raw corner value, raw edge value) of a CubeState."""
    from ..cubies import state_row
    row = state_row(state)
    rank12, rank8, _, _ = rank_luts()
    return (int(corner_raw(row, _IN_TETRAD_A, rank8)),
            int(edge_raw(row, SLICE_OF_PIECE, rank12, rank8)))


# ---- edges as affine maps of the flip class -------------------------------------------------
# A move or a symmetry sends membership m to one membership m' whatever the flips, and the flip
# class f to A f + b over GF(2) (each output flip is a sum of input flips plus a constant). So
# each (m, move) and (m, symmetry) is m' and two 16-entry tables: f' = lo[f & 15] ^ hi[f >> 4],
# lo carrying the constant b.

@kernel
def _affine(unrank12, unrank8, slice_of, rank12, rank8, mrows, sym, mem, lut, conj):
    """For every membership m and operation j (a move row, or conj=True: a symmetry index):
    mem[m, j] and lut[m, j, 0:16] (low nibble, with the constant), lut[m, j, 16:32] (high)."""
    row = np.zeros(ROW_BYTES, np.uint8)
    out = np.zeros(ROW_BYTES, np.uint8)
    for i in range(8):
        row[CP + i] = i
    n_ops = mem.shape[1]
    images = np.zeros(9, np.int64)
    for m in range(N_MEMBER):
        for j in range(n_ops):
            for b in range(9):
                edge_row(m * 256 + (0 if b == 0 else 1 << (b - 1)), unrank12, unrank8, row)
                if conj:
                    conjugate_into(row, sym, j, out)
                else:
                    multiply(row, mrows[j], out)
                images[b] = edge_raw(out, slice_of, rank12, rank8)
            mem[m, j] = images[0] // 256
            const = images[0] % 256
            for x in range(16):
                lo = const
                hi = 0
                for b in range(4):
                    if x >> b & 1:
                        lo ^= (images[1 + b] % 256) ^ const
                        hi ^= (images[5 + b] % 256) ^ const
                lut[m, j, x] = lo
                lut[m, j, 16 + x] = hi


EdgeAffine = NamedTuple("EdgeAffine", [("mem_move", np.ndarray), ("flip_move", np.ndarray),
                                       ("mem_conj", np.ndarray), ("flip_conj", np.ndarray)])
"""mem_move[m, move], flip_move[m, move, 32]; mem_conj[m, k], flip_conj[m, k, 32] (see the
comment above _affine): 66 MB that stand in for 2.3 GB of full edge tables."""


@lru_cache(maxsize=1)
def edge_affine() -> EdgeAffine:
    rank12, rank8, unrank12, unrank8 = rank_luts()
    args = (unrank12, unrank8, SLICE_OF_PIECE, rank12, rank8, move_rows("htm"), symmetry_rows())
    mem_move = np.empty((N_MEMBER, N_MOVES), np.int32)
    flip_move = np.empty((N_MEMBER, N_MOVES, 32), np.uint8)
    _affine(*args, mem_move, flip_move, False)
    mem_conj = np.empty((N_MEMBER, N_SYM), np.int32)
    flip_conj = np.empty((N_MEMBER, N_SYM, 32), np.uint8)
    _affine(*args, mem_conj, flip_conj, True)
    tables = EdgeAffine(mem_move, flip_move, mem_conj, flip_conj)
    for a in tables:
        a.flags.writeable = False
    return tables
