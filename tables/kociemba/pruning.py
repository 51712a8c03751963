"""Kociemba's pruning tables, built breadth-first by the shared level driver (cubelab.tables.bfs).

Two big symmetry-reduced tables store the exact distance mod 3 in 2 bits (3 = not reached yet):
phase 1 over (flip-slice class, twist) and phase 2 over (corner-permutation class, UD-edge
permutation). The search recovers exact distances from the mod-3 values because one move
changes a distance by at most one. Four small tables store exact distances in bytes: twist x
slice slots and flip x slice slots for phase 1, corner permutation x slice permutation and
UD-edge permutation x slice permutation for phase 2.

The big builds sweep class by class: for one class and one move, every neighbour lands in one
class's block (a few hundred bytes to 10 kB), so the sweeps stay in cache. A row of the driver is
one class; rows are handed out in multiples of four classes so that two threads never share a
byte of the 2-bit table (a phase-1 block is 2,187 entries).
"""

from __future__ import annotations

import numpy as np

import cubelab.tables  # noqa: F401  (numba cache location, before numba)
from numba import njit

from ..bfs import pair_distances, run_levels
from ..packed import UNKNOWN2, get2, new_packed2, set2
from ..ranks import N_PERM4, N_PERM8, N_TWIST

_CHECK_EVERY = 64
_CHUNK_CLASSES = 256


@njit(cache=True, nogil=True)
def _fill_images(table, base, t, stab, conj, value):
    """Set the entries that a stabilizing symmetry of the class's representative makes equal."""
    n = 0
    for k in range(1, 16):
        if (stab >> k) & 1:
            idx = base + conj[t, k]
            if get2(table, idx) == UNKNOWN2:
                set2(table, idx, value)
                n += 1
    return n


@njit(cache=True, nogil=True)
def _sweep_block(table, c, size, nmoves, ncls, nsym, coord_move, conj, stab, cur, nxt, backward,
                 c_lo, c_hi):
    """One depth step over the block of class c (size entries): forward, mark the unreached
    neighbours of entries at `cur` that lie in classes [c_lo, c_hi); backward, mark unreached
    entries with a neighbour at `cur`. Move k sends the class to ncls[k] (through symmetry
    nsym[k]) and the coordinate x to conj[coord_move[x, k], nsym[k]]. Returns the entries set."""
    base = c * size
    added = 0
    for x in range(size):
        val = get2(table, base + x)
        if backward:
            if val != UNKNOWN2:
                continue
            for k in range(nmoves):
                x2 = conj[coord_move[x, k], nsym[k]]
                if get2(table, ncls[k] * size + x2) == cur:
                    set2(table, base + x, nxt)
                    added += 1 + _fill_images(table, base, x, stab[c], conj, nxt)
                    break
        else:
            if val != cur:
                continue
            for k in range(nmoves):
                if ncls[k] < c_lo or ncls[k] >= c_hi:
                    continue
                x2 = conj[coord_move[x, k], nsym[k]]
                nb = ncls[k] * size
                if get2(table, nb + x2) == UNKNOWN2:
                    set2(table, nb + x2, nxt)
                    added += 1 + _fill_images(table, nb, x2, stab[ncls[k]], conj, nxt)
    return added


@njit(cache=True, nogil=True)
def phase1_sweep(table, d, lo, hi, c_lo, c_hi, backward, fs_cls, fs_rep, fs_stab, flip_move,
                 slice_move, twist_move, twist_conj, cancel):
    """Depth d -> d + 1 over the classes [lo, hi) of the phase-1 table (flip-slice class x twist,
    the twist seen from the class representative)."""
    ncls = np.empty(18, np.int64)
    nsym = np.empty(18, np.int64)
    added = 0
    for c in range(lo, hi):
        if (c & (_CHECK_EVERY - 1)) == 0 and cancel[0]:
            break
        rep = fs_rep[c]
        comb = rep // 2048
        flip = rep % 2048
        for m in range(18):
            v = fs_cls[(slice_move[comb * 24, m] // 24) * 2048 + flip_move[flip, m]]
            ncls[m] = v >> 4
            nsym[m] = v & 15
        added += _sweep_block(table, c, N_TWIST, 18, ncls, nsym, twist_move, twist_conj, fs_stab,
                              d % 3, (d + 1) % 3, backward, c_lo, c_hi)
    return added


@njit(cache=True, nogil=True)
def phase2_sweep(table, d, lo, hi, c_lo, c_hi, backward, cp_cls, cp_rep, cp_stab, cp_move,
                 edge8_move, edge8_conj, p2moves, cancel):
    """Depth d -> d + 1 over the classes [lo, hi) of the phase-2 table (corner-permutation class
    x UD-edge permutation seen from the representative)."""
    ncls = np.empty(10, np.int64)
    nsym = np.empty(10, np.int64)
    added = 0
    for c in range(lo, hi):
        if cancel[0]:
            break
        rep = cp_rep[c]
        for k in range(10):
            v = cp_cls[cp_move[rep, p2moves[k]]]
            ncls[k] = v >> 4
            nsym[k] = v & 15
        added += _sweep_block(table, c, N_PERM8, 10, ncls, nsym, edge8_move, edge8_conj, cp_stab,
                              d % 3, (d + 1) % 3, backward, c_lo, c_hi)
    return added


def _symmetric_table(ctx, nclass, size, stab0, conj, sweep) -> np.ndarray:
    """Run the driver over a 2-bit table of nclass blocks of `size` entries from the solved
    entry 0; sweep(table, d, lo, hi, c_lo, c_hi, backward) does one chunk."""
    table = new_packed2(nclass * size, ctx.check_cancel if ctx is not None else None)
    set2(table, 0, 0)
    initial = 1 + _fill_images(table, 0, 0, stab0, conj, 0)
    half = (nclass // 2) // 4 * 4
    parts = ((0, half), (half, nclass))
    run_levels(ctx, n_rows=nclass, total=nclass * size, initial=initial,
               chunk_rows=_CHUNK_CLASSES, forward_parts=len(parts),
               forward=lambda d, lo, hi, part: sweep(table, d, lo, hi, *parts[part], False),
               backward=lambda d, lo, hi: sweep(table, d, lo, hi, 0, nclass, True))
    return table


def _built(ctx, sweep, size, rep, stab, conj, *tables) -> np.ndarray:
    """The symmetric table of len(rep) classes x `size`, each chunk done by
    sweep(table, d, lo, hi, c_lo, c_hi, backward, *tables, cancel)."""
    cancel = ctx.cancel
    return _symmetric_table(
        ctx, len(rep), size, stab[0], conj,
        lambda table, d, lo, hi, c_lo, c_hi, back: sweep(table, d, lo, hi, c_lo, c_hi, back,
                                                         *tables, cancel))


def build_phase1(ctx, fs_cls, fs_rep, fs_stab, flip_move, slice_move, twist_move,
                 twist_conj) -> np.ndarray:
    """2-bit table over class * 2187 + twist (twist conjugated into the class's frame)."""
    return _built(ctx, phase1_sweep, N_TWIST, fs_rep, fs_stab, twist_conj, fs_cls, fs_rep,
                  fs_stab, flip_move, slice_move, twist_move, twist_conj)


def build_phase2(ctx, cp_cls, cp_rep, cp_stab, cp_move, edge8_move, edge8_conj,
                 p2moves) -> np.ndarray:
    """2-bit table over corner class * 40320 + UD-edge permutation (conjugated into the frame)."""
    return _built(ctx, phase2_sweep, N_PERM8, cp_rep, cp_stab, edge8_conj, cp_cls, cp_rep,
                  cp_stab, cp_move, edge8_move, edge8_conj, p2moves)


def build_perm_slice(ctx, perm_move, slice_move) -> np.ndarray:
    """Exact phase-2 distance (bytes) over perm * 24 + slice permutation, both move tables over
    the ten phase-2 moves."""
    return pair_distances(perm_move, np.asarray(slice_move)[:N_PERM4], [0], ctx)


def build_coord_slice(ctx, coord_move, slice_move) -> np.ndarray:
    """Exact phase-1 distance (bytes) over coord * 495 + slice slots, for twist or flip: a
    small, cache-resident lower bound the search asks before the big table."""
    comb_move = np.asarray(slice_move)[::24] // 24
    return pair_distances(coord_move, comb_move, [0], ctx)
