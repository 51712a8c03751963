"""Symmetry reduction of Kociemba's coordinates under the 16 symmetries that keep the UD axis:
conjugation tables for twist and UD-edge permutation, and the classes of flip-slice and of
corner permutation (class, the symmetry that maps a coordinate to its representative, and the
representatives' stabilizers).

All conjugations are built from the cubie arrays of cubelab.cube.symmetry; S_k * P * S_k^-1 is
"P conjugated by k". A class table entry is class << 4 | k where conjugating by k gives the
representative.
"""

from __future__ import annotations

import numpy as np

import cubelab.tables  # noqa: F401  (numba cache location, before numba)
from numba import njit

from .kociemba_coords import (
    N_FLIP, N_FLIPSLICE, N_PERM8, N_TWIST, conj_corners, conj_edges, flip_of, rank_perm,
    set_flip, set_slice_sorted, set_twist, slice_sorted_of, unrank_perm,
)

N_SYM = 16
EMPTY32 = np.uint32(0xFFFFFFFF)


def ud_symmetry_arrays():
    """The 16 UD symmetries and their inverses as int64 arrays (scp, sco, sep, seo, icp, ico,
    iep, ieo), plus inv[k] = index of S_k^-1."""
    from cubelab.cube.symmetry import (
        inverse_symmetry_arrays, symmetry_arrays, symmetry_inverse_index,
    )
    s = symmetry_arrays()
    i = inverse_symmetry_arrays()
    out = [np.ascontiguousarray(a[:N_SYM, :].astype(np.int64)) for a in (s[0], s[1], s[2], s[3])]
    out += [np.ascontiguousarray(a[:N_SYM, :].astype(np.int64)) for a in (i[0], i[1], i[2], i[3])]
    inv = np.asarray(symmetry_inverse_index()[:N_SYM], dtype=np.int64)
    assert (inv < N_SYM).all()
    return tuple(out), inv


@njit(cache=True, nogil=True)
def _twist_conj(scp, sco, icp, ico):
    table = np.empty((N_TWIST, N_SYM), np.uint16)
    cp = np.arange(8)
    co = np.zeros(8, np.int64)
    ocp = np.empty(8, np.int64)
    oco = np.empty(8, np.int64)
    for t in range(N_TWIST):
        set_twist(t, co)
        for k in range(N_SYM):
            conj_corners(cp, co, scp[k], sco[k], icp[k], ico[k], ocp, oco)
            v = 0
            for i in range(7):
                v = 3 * v + oco[i]
            table[t, k] = v
    return table


@njit(cache=True, nogil=True)
def _edge8_conj(sep, seo, iep, ieo):
    table = np.empty((N_PERM8, N_SYM), np.uint16)
    ep = np.empty(12, np.int64)
    eo = np.zeros(12, np.int64)
    oep = np.empty(12, np.int64)
    oeo = np.empty(12, np.int64)
    for i in range(8, 12):
        ep[i] = i
    for e in range(N_PERM8):
        unrank_perm(e, ep, 0, 8, 0)
        for k in range(N_SYM):
            conj_edges(ep, eo, sep[k], seo[k], iep[k], ieo[k], oep, oeo)
            table[e, k] = rank_perm(oep, 0, 8)
    return table


@njit(cache=True, nogil=True)
def _flipslice_classes(sep, seo, iep, ieo, inv, binom):
    cls = np.full(N_FLIPSLICE, EMPTY32, np.uint32)
    reps = np.empty(N_FLIPSLICE // 8, np.uint32)
    stab = np.zeros(N_FLIPSLICE // 8, np.uint16)
    ep = np.empty(12, np.int64)
    eo = np.empty(12, np.int64)
    oep = np.empty(12, np.int64)
    oeo = np.empty(12, np.int64)
    n = 0
    for raw in range(N_FLIPSLICE):
        if cls[raw] != EMPTY32:
            continue
        set_slice_sorted((raw // N_FLIP) * 24, ep, binom)
        set_flip(raw % N_FLIP, eo)
        reps[n] = raw
        cls[raw] = np.uint32(n << 4)
        for k in range(N_SYM):
            conj_edges(ep, eo, sep[k], seo[k], iep[k], ieo[k], oep, oeo)
            other = (slice_sorted_of(oep, binom) // 24) * N_FLIP + flip_of(oeo)
            if other == raw:
                stab[n] |= np.uint16(1 << k)
            elif cls[other] == EMPTY32:
                cls[other] = np.uint32((n << 4) | inv[k])
        n += 1
    return cls, reps[:n].copy(), stab[:n].copy()


@njit(cache=True, nogil=True)
def _corner_perm_classes(scp, sco, icp, ico, inv):
    cls = np.full(N_PERM8, EMPTY32, np.uint32)
    reps = np.empty(N_PERM8, np.uint32)
    stab = np.zeros(N_PERM8, np.uint16)
    cp = np.empty(8, np.int64)
    co = np.zeros(8, np.int64)
    ocp = np.empty(8, np.int64)
    oco = np.empty(8, np.int64)
    n = 0
    for raw in range(N_PERM8):
        if cls[raw] != EMPTY32:
            continue
        unrank_perm(raw, cp, 0, 8, 0)
        reps[n] = raw
        cls[raw] = np.uint32(n << 4)
        for k in range(N_SYM):
            conj_corners(cp, co, scp[k], sco[k], icp[k], ico[k], ocp, oco)
            other = rank_perm(ocp, 0, 8)
            if other == raw:
                stab[n] |= np.uint16(1 << k)
            elif cls[other] == EMPTY32:
                cls[other] = np.uint32((n << 4) | inv[k])
        n += 1
    return cls, reps[:n].copy(), stab[:n].copy()


def twist_conjugation() -> np.ndarray:
    """table[t, k] = twist of S_k * T * S_k^-1 (uint16, 2187 x 16)."""
    (scp, sco, _, _, icp, ico, _, _), _ = ud_symmetry_arrays()
    return _twist_conj(scp, sco, icp, ico)


def edge8_conjugation() -> np.ndarray:
    """table[e, k] = UD-edge permutation rank of S_k * E * S_k^-1 (uint16, 40320 x 16)."""
    (_, _, sep, seo, _, _, iep, ieo), _ = ud_symmetry_arrays()
    return _edge8_conj(sep, seo, iep, ieo)


def flipslice_classes(binom):
    """(class table over slice*2048+flip, representatives, stabilizer masks)."""
    (_, _, sep, seo, _, _, iep, ieo), inv = ud_symmetry_arrays()
    return _flipslice_classes(sep, seo, iep, ieo, inv, binom)


def corner_perm_classes():
    (scp, sco, _, _, icp, ico, _, _), inv = ud_symmetry_arrays()
    return _corner_perm_classes(scp, sco, icp, ico, inv)
