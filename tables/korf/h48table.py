"""The H48 table: distances of the 48-symmetric coset coordinate, 2 bits an entry, and its builder.

An entry is (corner class, membership, flip class) with the edge part seen from the corner
class's representative (h48coords). A row, one corner class and one membership, is the 256 flip
classes: 64 bytes, one cache line. An entry holds its distance mod 3 (3: not reached yet); a
search knows its parent's exact distance and a move changes the distance by at most one, so the
residue names the child's distance (the builder's own frontier is read the same way).

The builder is a breadth-first search through the shared driver (bfs.py). Forward levels run on
one thread and also set the images of an entry under the symmetries fixing its corner class's
representative (the same position seen another way); backward levels each settle the unknown
entries of their own corner classes, so two threads never write the same byte, and a position's
images settle together because their neighbours are images of each other.
"""

from __future__ import annotations

import numpy as np

import cubelab.tables  # noqa: F401  (numba cache location, before numba)
from numba import njit

from ..bfs import LevelStats, run_levels
from .h48coords import N_CCLASS, N_ERAW, N_MEMBER, N_SYM, coords_of, corner_tables, edge_affine

ROW_BYTES = 64
TABLE_BYTES = N_CCLASS * N_MEMBER * ROW_BYTES
UNKNOWN = 3
_M5 = np.uint64(0x5555555555555555)
_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)


def class_moves() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(trans[c, move] = new class * 64 + symmetry taking the moved representative to its own
    class's representative; stabs[c, :n_stab[c]] = the symmetries other than the identity fixing
    rep[c])."""
    ct = corner_tables()
    moved = ct.move[ct.rep].astype(np.int64)
    trans = (ct.cls[moved].astype(np.int64) << 6) | ct.sym_of[moved].astype(np.int64)
    stabs = np.zeros((N_CCLASS, N_SYM), np.int64)
    n_stab = np.zeros(N_CCLASS, np.int64)
    for c in range(N_CCLASS):
        fixers = [k for k in range(1, N_SYM) if int(ct.stab[c]) >> k & 1]
        stabs[c, :len(fixers)] = fixers
        n_stab[c] = len(fixers)
    return trans, stabs, n_stab


@njit(cache=True, nogil=True, inline="always")
def _apply(lut, j, m, f):
    """lut[j, m] applied to flip class f (the builder keeps the operation first, so one move's
    or one symmetry's tables are contiguous)."""
    return lut[j, m, f & 15] ^ lut[j, m, 16 + (f >> 4)]


@njit(cache=True, nogil=True, inline="always")
def _get(table, i):
    return (table[i >> 2] >> ((i & 3) << 1)) & 3


@njit(cache=True, nogil=True, inline="always")
def _put(table, i, v):
    s = (i & 3) << 1
    table[i >> 2] = (table[i >> 2] & ~np.uint8(3 << s)) | np.uint8(v << s)


@njit(cache=True, nogil=True)
def _masks(words, c, pattern, masks, active):
    """masks[m, q]: the entries of row (c, m), word q, whose code is `pattern` (one bit per
    entry, at the entry's low bit), active[m] whether the row has any; returns how many rows
    have any."""
    rows = 0
    for m in range(N_MEMBER):
        base = (c * N_MEMBER + m) * 8
        any_ = np.uint64(0)
        for q in range(8):
            x = words[base + q] ^ pattern
            eq = ~(x | (x >> np.uint64(1))) & _M5
            masks[m, q] = eq
            any_ |= eq
        active[m] = any_ != 0
        if any_ != 0:
            rows += 1
    return rows


@njit(cache=True, nogil=True)
def _forward(table, words, d, lo, hi, part, parts, trans, stabs, n_stab, mem_move, flip_move,
             mem_conj, flip_conj, cancel):
    """Expand the entries of classes [lo, hi) whose code is d mod 3 (older entries with the same
    code only find known neighbours), setting the neighbours in classes c2 = part mod parts;
    returns the entries set to d + 1. One move at a time, so the writes stay in one class's
    2.2 MB."""
    pattern = np.uint64(d % 3) * _M5
    new = (d + 1) % 3
    n = 0
    masks = np.zeros((N_MEMBER, 8), np.uint64)
    active = np.zeros(N_MEMBER, np.uint8)
    for c in range(lo, hi):
        if cancel[0]:
            return n
        if _masks(words, c, pattern, masks, active) == 0:
            continue
        for mv in range(trans.shape[1]):
            t = trans[c, mv]
            c2 = t >> 6
            if c2 % parts != part:
                continue
            k = t & 63
            for m in range(N_MEMBER):
                if active[m] == 0:
                    continue
                m1 = mem_move[mv, m]
                m2 = mem_conj[k, m1]
                dest = (c2 * N_MEMBER + m2) * 256
                for q in range(8):
                    eq = masks[m, q]
                    if eq == 0:
                        continue
                    for b in range(32):
                        if not (eq >> np.uint64(2 * b)) & np.uint64(1):
                            continue
                        f2 = _apply(flip_conj, k, m1, _apply(flip_move, mv, m, q * 32 + b))
                        i = dest + f2
                        if _get(table, i) != UNKNOWN:
                            continue
                        _put(table, i, new)
                        n += 1
                        for s in range(n_stab[c2]):
                            sk = stabs[c2, s]
                            i3 = (c2 * N_MEMBER + mem_conj[sk, m2]) * 256 + \
                                _apply(flip_conj, sk, m2, f2)
                            if _get(table, i3) == UNKNOWN:
                                _put(table, i3, new)
                                n += 1
    return n


@njit(cache=True, nogil=True)
def _backward(table, words, d, lo, hi, trans, mem_move, flip_move, mem_conj, flip_conj, cancel):
    """Settle the unknown entries of classes [lo, hi) having a neighbour at depth d, one move
    at a time (the reads stay in one class's 2.2 MB); returns how many."""
    want = d % 3
    new = (d + 1) % 3
    n = 0
    masks = np.zeros((N_MEMBER, 8), np.uint64)
    active = np.zeros(N_MEMBER, np.uint8)
    unknown = np.uint64(UNKNOWN) * _M5
    for c in range(lo, hi):
        if cancel[0]:
            return n
        left = _masks(words, c, unknown, masks, active)
        for mv in range(trans.shape[1]):
            if left == 0:
                break
            t = trans[c, mv]
            c2 = t >> 6
            k = t & 63
            for m in range(N_MEMBER):
                had = np.uint64(0)
                for q in range(8):
                    had |= masks[m, q]
                if had == 0:
                    continue
                m1 = mem_move[mv, m]
                m2 = mem_conj[k, m1]
                dest = (c2 * N_MEMBER + m2) * 256
                r = (c * N_MEMBER + m) * 256
                row_any = False
                for q in range(8):
                    u = masks[m, q]
                    if u == 0:
                        continue
                    for b in range(32):
                        if not (u >> np.uint64(2 * b)) & np.uint64(1):
                            continue
                        f2 = _apply(flip_conj, k, m1, _apply(flip_move, mv, m, q * 32 + b))
                        if _get(table, dest + f2) == want:
                            _put(table, r + q * 32 + b, new)
                            u &= ~(np.uint64(1) << np.uint64(2 * b))
                            n += 1
                    masks[m, q] = u
                    if u != 0:
                        row_any = True
                if not row_any:
                    left -= 1
    return n


def seed(table: np.ndarray) -> None:
    """Set the solved position's entry to 0."""
    ct = corner_tables()
    af = edge_affine()
    from cubelab.cube.state import CubeState
    c_raw, e_raw = coords_of(CubeState.identity())
    k = int(ct.sym_of[c_raw])
    m, f = divmod(e_raw, 256)
    m2 = int(af.mem_conj[m, k])
    f2 = int(af.flip_conj[m, k, f & 15] ^ af.flip_conj[m, k, 16 + (f >> 4)])
    _put(table, (int(ct.cls[c_raw]) * N_MEMBER + m2) * 256 + f2, 0)


def build(ctx=None, threads: int = 2) -> tuple[np.ndarray, LevelStats]:
    """The whole table (7.5 GB) and how the levels went."""
    trans, stabs, n_stab = class_moves()
    af = edge_affine()
    table = np.full(TABLE_BYTES, 0xFF, np.uint8)
    words = table.view(np.uint64)
    seed(table)
    cancel = ctx.cancel if ctx is not None else np.zeros(1, np.int32)
    aff = tuple(np.ascontiguousarray(np.moveaxis(a, 1, 0))
                for a in (af.mem_move, af.flip_move, af.mem_conj, af.flip_conj))

    def forward(d, lo, hi, part):
        return _forward(table, words, d, lo, hi, part, threads, trans, stabs, n_stab, *aff,
                        cancel)

    def backward(d, lo, hi):
        return _backward(table, words, d, lo, hi, trans, *aff, cancel)

    stats = run_levels(ctx, n_rows=N_CCLASS, total=N_CCLASS * N_ERAW, initial=1, chunk_rows=1,
                       forward=forward, backward=backward, threads=threads,
                       forward_parts=threads)
    return table, stats

