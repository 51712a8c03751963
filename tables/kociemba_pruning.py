"""Kociemba's pruning tables, built breadth-first by numba kernels.

Two big symmetry-reduced tables store the exact distance mod 3 in 2 bits (3 = not reached yet):
phase 1 over (flip-slice class, twist) and phase 2 over (corner-permutation class, UD-edge
permutation). The search recovers exact distances from the mod-3 values because one move
changes a distance by at most one. Two small phase-2 tables store exact distances in bytes:
corner permutation x slice permutation and UD-edge permutation x slice permutation.

The big builds sweep class by class: for one class and one move, every neighbour lands in one
class's block (a few hundred bytes to 10 kB), so the sweeps stay in cache. Early depths expand
the entries at the current depth; once the table is mostly full, the empty entries look for a
neighbour at the current depth instead.
"""

from __future__ import annotations

import numpy as np

import cubelab.tables  # noqa: F401  (numba cache location, before numba)
from numba import njit

from .kociemba_coords import N_FLIP, N_PERM4, N_PERM8, N_TWIST
from .packed import get2, set2

_BACKWARD_FRACTION = 0.35   # switch to filling empty entries once this much is filled


@njit(cache=True, nogil=True)
def _fill_images(table, base, t, stab, conj, value):
    """Set the entries that a stabilizing symmetry of the class's representative makes equal."""
    n = 0
    for k in range(1, 16):
        if (stab >> k) & 1:
            idx = base + conj[t, k]
            if get2(table, idx) == 3:
                set2(table, idx, value)
                n += 1
    return n


@njit(cache=True, nogil=True)
def _sweep_block(table, c, size, nmoves, ncls, nsym, coord_move, conj, stab, cur, nxt, backward):
    """One depth step over the block of class c (size entries): forward, mark the unreached
    neighbours of entries at `cur`; backward, mark unreached entries with a neighbour at `cur`.
    Move k sends the class to ncls[k] (through symmetry nsym[k]) and the coordinate x to
    conj[coord_move[x, k], nsym[k]]. Returns how many entries were set."""
    base = c * size
    added = 0
    for x in range(size):
        val = get2(table, base + x)
        if backward:
            if val != 3:
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
                x2 = conj[coord_move[x, k], nsym[k]]
                nb = ncls[k] * size
                if get2(table, nb + x2) == 3:
                    set2(table, nb + x2, nxt)
                    added += 1 + _fill_images(table, nb, x2, stab[ncls[k]], conj, nxt)
    return added


@njit(cache=True, nogil=True)
def build_phase1(fs_cls, fs_rep, fs_stab, flip_move, slice_move, twist_move, twist_conj,
                 counters, cancel):
    """2-bit table over class * 2187 + twist (twist conjugated into the class's frame)."""
    nclass = fs_rep.shape[0]
    total = nclass * N_TWIST
    table = np.full((total + 3) // 4, 0xFF, np.uint8)
    set2(table, 0, 0)
    filled = 1 + _fill_images(table, 0, 0, fs_stab[0], twist_conj, 0)
    ncls = np.empty(18, np.int64)
    nsym = np.empty(18, np.int64)
    depth = 0
    counters[1] = total
    while filled < total:
        backward = filled > _BACKWARD_FRACTION * total
        cur = depth % 3
        nxt = (depth + 1) % 3
        added = 0
        for c in range(nclass):
            if (c & 255) == 0:
                if cancel[0]:
                    return table
                counters[0] = filled + added
            rep = fs_rep[c]
            comb = rep // N_FLIP
            flip = rep % N_FLIP
            for m in range(18):
                v = fs_cls[(slice_move[comb * 24, m] // 24) * N_FLIP + flip_move[flip, m]]
                ncls[m] = v >> 4
                nsym[m] = v & 15
            added += _sweep_block(table, c, N_TWIST, 18, ncls, nsym, twist_move, twist_conj,
                                  fs_stab, cur, nxt, backward)
        if added == 0:
            break
        filled += added
        depth += 1
    counters[0] = filled
    return table


@njit(cache=True, nogil=True)
def build_phase2(cp_cls, cp_rep, cp_stab, cp_move, edge8_move, edge8_conj, p2moves, counters,
                 cancel):
    """2-bit table over corner class * 40320 + UD-edge permutation (conjugated into the frame)."""
    nclass = cp_rep.shape[0]
    total = nclass * N_PERM8
    table = np.full((total + 3) // 4, 0xFF, np.uint8)
    set2(table, 0, 0)
    filled = 1 + _fill_images(table, 0, 0, cp_stab[0], edge8_conj, 0)
    ncls = np.empty(10, np.int64)
    nsym = np.empty(10, np.int64)
    depth = 0
    counters[1] = total
    while filled < total:
        backward = filled > _BACKWARD_FRACTION * total
        cur = depth % 3
        nxt = (depth + 1) % 3
        added = 0
        for c in range(nclass):
            if (c & 15) == 0:
                if cancel[0]:
                    return table
                counters[0] = filled + added
            rep = cp_rep[c]
            for k in range(10):
                v = cp_cls[cp_move[rep, p2moves[k]]]
                ncls[k] = v >> 4
                nsym[k] = v & 15
            added += _sweep_block(table, c, N_PERM8, 10, ncls, nsym, edge8_move, edge8_conj,
                                  cp_stab, cur, nxt, backward)
        if added == 0:
            break
        filled += added
        depth += 1
    counters[0] = filled
    return table


@njit(cache=True, nogil=True)
def build_perm_slice(perm_move, move_columns, slice_move, p2moves, counters, cancel):
    """Exact phase-2 distance (bytes) over perm * 24 + slice permutation; phase-2 move k
    (FACE_MOVES index p2moves[k]) moves the permutation by column move_columns[k] of perm_move."""
    total = N_PERM8 * N_PERM4
    table = np.full(total, 255, np.uint8)
    table[0] = 0
    filled = 1
    depth = 0
    counters[1] = total
    while filled < total:
        if cancel[0]:
            return table
        added = 0
        for i in range(total):
            if table[i] != depth:
                continue
            p = i // N_PERM4
            s = i % N_PERM4
            for k in range(10):
                j = perm_move[p, move_columns[k]] * N_PERM4 + slice_move[s, p2moves[k]]
                if table[j] == 255:
                    table[j] = depth + 1
                    added += 1
        if added == 0:
            break
        filled += added
        depth += 1
        counters[0] = filled
    return table


@njit(cache=True, nogil=True)
def build_coord_slice(coord_move, slice_move, counters, cancel):
    """Exact phase-1 distance (bytes) over coord * 495 + slice slots, for twist or flip: a
    small, cache-resident lower bound the search asks before the big table."""
    n = coord_move.shape[0]
    total = n * 495
    table = np.full(total, 255, np.uint8)
    table[0] = 0
    filled = 1
    depth = 0
    counters[1] = total
    while filled < total:
        if cancel[0]:
            return table
        added = 0
        for i in range(total):
            if table[i] != depth:
                continue
            a = i // 495
            comb = i % 495
            for m in range(18):
                j = coord_move[a, m] * 495 + slice_move[comb * 24, m] // 24
                if table[j] == 255:
                    table[j] = depth + 1
                    added += 1
        if added == 0:
            break
        filled += added
        depth += 1
        counters[0] = filled
    return table
