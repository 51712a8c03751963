"""Kociemba's coordinates as numba functions on cubie arrays: twist, flip, sorted UD-slice,
permutation ranks, and the cubie products that move tables and symmetry tables are made of.

Conventions: corners URF UFL ULB UBR DFR DLF DBL DRB, edges UR UF UL UB DR DF DL DB FR FL BL BR;
the UD-slice edges are FR FL BL BR (8..11). A product a*b (a then b) reads b's slots through a:
(a*b).cp[i] = a.cp[b.cp[i]]. Every coordinate is 0 on the solved cube.
"""

from __future__ import annotations

import numpy as np

import cubelab.tables  # noqa: F401  (numba cache location, before numba)
from numba import njit

N_TWIST = 2187          # 3^7: twists of the first seven corners
N_FLIP = 2048           # 2^11: flips of the first eleven edges
N_SLICE = 495           # C(12, 4): which slots hold the four UD-slice edges
N_SLICE_SORTED = 11880  # 495 * 24: those slots and the order of the slice edges in them
N_PERM8 = 40320         # 8!: corner permutation; UD edge permutation inside phase 2
N_PERM4 = 24            # 4!: slice edge permutation inside phase 2
N_FLIPSLICE = N_SLICE * N_FLIP

PHASE2_MOVES = np.array([0, 1, 2, 9, 10, 11, 4, 13, 7, 16], dtype=np.int64)
"""Indices in FACE_MOVES of U U2 U' D D2 D' R2 L2 F2 B2, the moves that keep <U,D,R2,L2,F2,B2>."""

_BINOM = np.array([[0 if k > n else int(np.prod(np.arange(n - k + 1, n + 1)) //
                     np.prod(np.arange(1, k + 1))) for k in range(5)] for n in range(12)],
                  dtype=np.int64)


@njit(cache=True, nogil=True)
def twist_of(co):
    t = 0
    for i in range(7):
        t = 3 * t + co[i]
    return t


@njit(cache=True, nogil=True)
def set_twist(t, co):
    total = 0
    for i in range(6, -1, -1):
        co[i] = t % 3
        total += co[i]
        t //= 3
    co[7] = (3 - total % 3) % 3


@njit(cache=True, nogil=True)
def flip_of(eo):
    f = 0
    for i in range(11):
        f = 2 * f + eo[i]
    return f


@njit(cache=True, nogil=True)
def set_flip(f, eo):
    total = 0
    for i in range(10, -1, -1):
        eo[i] = f & 1
        total += eo[i]
        f >>= 1
    eo[11] = total & 1


@njit(cache=True, nogil=True)
def rank_perm(p, start, n):
    """Lehmer rank of p[start:start+n], whose values are base .. base+n-1 for some base."""
    r = 0
    for i in range(n):
        smaller = 0
        for j in range(i + 1, n):
            if p[start + j] < p[start + i]:
                smaller += 1
        r = r * (n - i) + smaller
    return r


@njit(cache=True, nogil=True)
def unrank_perm(r, out, start, n, base):
    """Write the permutation of base .. base+n-1 with Lehmer rank r into out[start:start+n]."""
    digits = np.empty(n, np.int64)
    for k in range(n):
        digits[n - 1 - k] = r % (k + 1)
        r //= k + 1
    pool = np.arange(n)
    size = n
    for i in range(n):
        d = digits[i]
        out[start + i] = base + pool[d]
        for j in range(d, size - 1):
            pool[j] = pool[j + 1]
        size -= 1


@njit(cache=True, nogil=True)
def slice_sorted_of(ep, binom):
    """Which slots hold the slice edges (0 when they are in slots 8..11) times 24, plus the rank
    of their order read in slot order (0 when FR FL BL BR)."""
    a = 0
    x = 0
    order = np.empty(4, np.int64)
    for j in range(11, -1, -1):
        if ep[j] >= 8:
            a += binom[11 - j, x + 1]
            order[3 - x] = ep[j]
            x += 1
    return a * 24 + rank_perm(order, 0, 4)


@njit(cache=True, nogil=True)
def set_slice_sorted(v, ep, binom):
    """An edge permutation with that sorted-slice coordinate (UD edges in order elsewhere)."""
    a = v // 24
    order = np.empty(4, np.int64)
    unrank_perm(v % 24, order, 0, 4, 8)
    x = 3
    k = 0
    ud = 0
    for j in range(12):
        c = 11 - j
        if x >= 0 and binom[c, x + 1] <= a:
            a -= binom[c, x + 1]
            ep[j] = order[k]
            k += 1
            x -= 1
        else:
            ep[j] = ud
            ud += 1


@njit(cache=True, nogil=True, inline="always")
def _twist_product(ta, tb):
    """Twist of a product's slot from the factors' twists (3 + t marks a mirrored slot)."""
    if tb >= 3:
        val = (tb - ta) % 3
    else:
        val = (ta + tb) % 3
    return val + 3 * ((ta >= 3) ^ (tb >= 3))


@njit(cache=True, nogil=True)
def corner_product(acp, aco, bcp, bco, cp, co):
    for i in range(8):
        cp[i] = acp[bcp[i]]
        co[i] = _twist_product(aco[bcp[i]], bco[i])


@njit(cache=True, nogil=True)
def edge_product(aep, aeo, bep, beo, ep, eo):
    for i in range(12):
        ep[i] = aep[bep[i]]
        eo[i] = (aeo[bep[i]] + beo[i]) & 1


@njit(cache=True, nogil=True)
def conj_corners(cp, co, scp, sco, icp, ico, out_cp, out_co):
    """Corners of S * P * S^-1, given S (scp, sco) and S^-1 (icp, ico)."""
    tcp = np.empty(8, np.int64)
    tco = np.empty(8, np.int64)
    corner_product(scp, sco, cp, co, tcp, tco)
    corner_product(tcp, tco, icp, ico, out_cp, out_co)


@njit(cache=True, nogil=True)
def conj_edges(ep, eo, sep, seo, iep, ieo, out_ep, out_eo):
    tep = np.empty(12, np.int64)
    teo = np.empty(12, np.int64)
    edge_product(sep, seo, ep, eo, tep, teo)
    edge_product(tep, teo, iep, ieo, out_ep, out_eo)


def binomials() -> np.ndarray:
    """binom[n, k] = C(n, k) for n < 12, k <= 4 (argument of the slice functions)."""
    return _BINOM
