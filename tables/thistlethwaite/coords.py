"""Thistlethwaite's four phases as coset coordinates: moves, coordinate kernels, corner lookups.

G0 = <U, R, F, D, L, B>  ->  G1 = <L, R, F2, B2, U, D>  ->  G2 = <L, R, F2, B2, U2, D2>
->  G3 = <L2, R2, F2, B2, U2, D2>  ->  G4 = {solved}.

Phase k solves the coset G_k x of a position x in G_{k-1}; a coordinate of phase k is a function
of that coset (unchanged when x is multiplied on the left by an element of G_k), so a move acts
on it through a move table, and the coordinate of the solved cube is reached exactly when x is in
G_k. Cosets per phase: 2,048 / 1,082,565 / 29,400 / 663,552.

- Phase 1, G0 -> G1: edge flip (F and B quarter turns flip edges; nothing in G1 does): 2^11.
- Phase 2, G1 -> G2: corner twist measured against the L/R axis (L and R quarter turns keep a
  corner's L/R sticker on the L/R faces; U and D quarter turns do not), 3^7, times the slots of
  the four M-slice edges UF UB DF DB, C(12, 4) = 495.
- Phase 3, G2 -> G3: corners must lie in their tetrads {URF ULB DLF DRB} and {UFL UBR DFR DBL}
  AND their permutation must lie in the 96-element group the half turns generate: of the
  4! x 4! = 576 tetrad-keeping permutations only a sixth do, which is the "parity" condition that
  makes G3 exact. So the corner coordinate is the class of a permutation p under relabelling by
  that group H (the set {h o p : h in H}): 8! / 96 = 420 classes = 70 tetrad splits x 6. Times
  the slots of the E-slice edges among the eight non-M slots, C(8, 4) = 70: 29,400. (Edge parity
  needs no coordinate: in G2 it equals the corner parity, and every element of H is even.)
- Phase 4, G3 -> solved: the corner permutation as an element of H (96) times the edges'
  orders inside their three slices with even total parity, 24 * 24 * 12 = 6,912: 663,552.

Permutations, slot sets and flips are ranked by cubelab.tables.ranks.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from cubelab.tables.jit import kernel

from ..cubies import face_turn_arrays
from ..ranks import BINOM, N_PERM8, flip_of, rank_combination, rank_perm, unrank_perm

# ---- the phases' moves (indices into cubelab.cube.moves.FACE_MOVES: U R F D L B, each as
#      quarter, half, inverse quarter) -----------------------------------------------------------
_U, _R, _F, _D, _L, _B = (3 * k for k in range(6))
PHASE_MOVES = (
    np.arange(18),
    np.array([_U, _U + 1, _U + 2, _R, _R + 1, _R + 2, _F + 1, _D, _D + 1, _D + 2,
              _L, _L + 1, _L + 2, _B + 1]),
    np.array([_U + 1, _R, _R + 1, _R + 2, _F + 1, _D + 1, _L, _L + 1, _L + 2, _B + 1]),
    np.array([_U + 1, _R + 1, _F + 1, _D + 1, _L + 1, _B + 1]),
)
"""The moves each phase may use: G0's, G1's, G2's and G3's generators."""

SUBGROUPS = ("G1 = <L, R, F2, B2, U, D>", "G2 = <L, R, F2, B2, U2, D2>",
             "G3 = <L2, R2, F2, B2, U2, D2>", "solved")
"""What each phase reaches."""

N_FLIP, N_TWIST, N_MSLICE = 2 ** 11, 3 ** 7, 495
N_CCLASS, N_ESLICE = 420, 70
N_H, N_EDGES4 = 96, 6912
PHASE_SIZES = (N_FLIP, N_TWIST * N_MSLICE, N_CCLASS * N_ESLICE, N_H * N_EDGES4)

M_SLOTS = np.array([1, 3, 5, 7])          # UF UB DF DB
E_SLOTS = np.array([8, 9, 10, 11])        # FR FL BL BR
S_SLOTS = np.array([0, 2, 4, 6])          # UR UL DR DL
M_PIECES = 0b000010101010
"""The M-slice edges (and their home slots) as a bit set."""
E_PIECES = 0b111100000000
LR_STICKER = np.array([1, 2, 1, 2, 2, 1, 2, 1])
"""For each corner slot (Kociemba order), which of its stickers (clockwise from the U/D one)
lies on the L or R face."""


# ---- the coordinates (scalar, in numba: the search computes them at each phase boundary) ------

@kernel
def twist_lr_of(cp, co, lr):
    """Corner twist against the L/R axis. The piece's sticker j sits at the slot's position
    (j + co) % 3, so its L/R sticker is lr[piece] + co positions round from the slot's L/R one."""
    v = 0
    for i in range(7):
        v = 3 * v + (lr[cp[i]] + co[i] - lr[i]) % 3
    return v


@kernel
def slot_set_of(ep, skip, pieces, binom):
    """Which slots outside the bit set `skip` hold the pieces of the bit set `pieces`, ranked
    among the sets of that size (the slots numbered in order, skipping `skip`)."""
    bits = 0
    k = 0
    for j in range(12):
        if (skip >> j) & 1:
            continue
        if (pieces >> ep[j]) & 1:
            bits |= 1 << k
        k += 1
    return rank_combination(bits, k, binom)


@kernel
def cclass_of(cp, cclass):
    return cclass[rank_perm(cp, 0, 8)]


@kernel
def h_index_of(cp, h_index):
    return h_index[rank_perm(cp, 0, 8)]


@kernel
def _slice_order(ep, slots):
    """Lehmer rank of the order of a slice's four pieces in its four slots (the pieces of a
    slice are numbered in the order of its slots, so the rank of their numbers is that order's)."""
    p = np.empty(4, np.int64)
    for k in range(4):
        p[k] = ep[slots[k]]
    return rank_perm(p, 0, 4)


@kernel
def edges4_of(ep, m_slots, e_slots, s_slots):
    """Edge orders inside the M, E and S slices: m * 288 + e * 12 + s // 2 (s's last Lehmer
    digit is the parity, which the other two and the corners fix)."""
    m = _slice_order(ep, m_slots)
    e = _slice_order(ep, e_slots)
    s = _slice_order(ep, s_slots)
    return m * 288 + e * 12 + s // 2


@kernel
def coordinate(which, cp, co, ep, eo, lr, cclass, h_index, m_slots, e_slots, s_slots,
               binom):
    """Coordinate number `which` of COORD_NAMES."""
    if which == 0:
        return flip_of(eo)
    if which == 1:
        return twist_lr_of(cp, co, lr)
    if which == 2:
        return slot_set_of(ep, 0, M_PIECES, binom)          # M edges among all 12 slots
    if which == 3:
        return cclass_of(cp, cclass)
    if which == 4:
        return slot_set_of(ep, M_PIECES, E_PIECES, binom)   # E edges among the 8 non-M slots
    if which == 5:
        return h_index_of(cp, h_index)
    return edges4_of(ep, m_slots, e_slots, s_slots)


@kernel
def phase_coords(phase, cp, co, ep, eo, lr, cclass, h_index, m_slots, e_slots, s_slots,
                 binom):
    """The two parts (a, b) of phase `phase`'s coordinate (see PHASE_COORDS)."""
    if phase == 0:
        return flip_of(eo), 0
    return (coordinate(2 * phase - 1, cp, co, ep, eo, lr, cclass, h_index, m_slots,
                       e_slots, s_slots, binom),
            coordinate(2 * phase, cp, co, ep, eo, lr, cclass, h_index, m_slots, e_slots,
                       s_slots, binom))


COORD_NAMES = ("flip", "twist_lr", "mslice", "cclass", "eslice", "h_index", "edges4")
COORD_SIZES = (N_FLIP, N_TWIST, N_MSLICE, N_CCLASS, N_ESLICE, N_H, N_EDGES4)
COORD_PHASE = (0, 1, 1, 2, 2, 3, 3)
PHASE_COORDS = ((0, None), (1, 2), (3, 4), (5, 6))
"""Each phase's two coordinates (a, b) as COORD_NAMES numbers (phase 1 has one); the phase's
index is a * size_b + b."""


class Lookups(NamedTuple):
    """The two corner lookups phases 3 and 4 need (by Lehmer rank of the corner permutation)."""

    cclass: np.ndarray     # class of {h o p : h in H}, 0..419
    h_index: np.ndarray    # index of p in H, or -1


def coordinate_args(lookups: Lookups) -> tuple:
    """The arguments of `coordinate` after the cubies (lr ... binom), as arrays."""
    return (LR_STICKER, np.asarray(lookups.cclass, np.int64),
            np.asarray(lookups.h_index, np.int64), M_SLOTS, E_SLOTS, S_SLOTS, BINOM)


def phase_coordinates(phase: int, cp, co, ep, eo, lookups: Lookups) -> tuple[int, int]:
    """The two parts (a, b) of phase `phase`'s coordinate (index a * size_b + b), from cubies."""
    cubies = tuple(np.asarray(x, dtype=np.int64) for x in (cp, co, ep, eo))
    a, b = phase_coords(phase, *cubies, *coordinate_args(lookups))
    return int(a), int(b)


# ---- the half-turn group H on corners and the corner lookups ---------------------------------

def half_turn_corner_group() -> np.ndarray:
    """The 96 corner permutations of G3, identity first (breadth-first from it)."""
    mcp = face_turn_arrays()[0]
    gens = [mcp[m] for m in PHASE_MOVES[3]]
    seen = {tuple(range(8)): None}
    frontier = [np.arange(8)]
    while frontier:
        nxt = []
        for p in frontier:
            for g in gens:
                q = p[g]
                if tuple(q) not in seen:
                    seen[tuple(q)] = None
                    nxt.append(q)
        frontier = nxt
    return np.array(list(seen), dtype=np.int64)


@kernel
def _smallest_relabelling(group):
    """For each corner permutation p (by rank), the smallest rank of h o p over h in group."""
    out = np.empty(N_PERM8, np.int64)
    p = np.empty(8, np.int64)
    q = np.empty(8, np.int64)
    for r in range(N_PERM8):
        unrank_perm(r, p, 0, 8, 0)
        best = N_PERM8
        for g in range(group.shape[0]):
            for i in range(8):
                q[i] = group[g, p[i]]
            best = min(best, rank_perm(q, 0, 8))
        out[r] = best
    return out


def corner_lookups() -> np.ndarray:
    """(2, 8!) int16: row 0 the phase-3 class of each permutation (classes numbered in the order
    of their smallest member), row 1 its index in H (-1 if outside)."""
    group = half_turn_corner_group()
    _, cclass = np.unique(_smallest_relabelling(group), return_inverse=True)
    h_index = np.full(N_PERM8, -1, dtype=np.int64)
    h_index[[int(rank_perm(h, 0, 8)) for h in group]] = np.arange(len(group))
    if cclass.max() + 1 != N_CCLASS:
        raise AssertionError(f"{cclass.max() + 1} corner classes, not {N_CCLASS}")
    return np.stack([cclass, h_index]).astype(np.int16)


if __name__ == "__main__":
    lookups = Lookups(*corner_lookups().astype(np.int64))
    for k in range(4):
        print(f"phase {k + 1}: the solved cube's coordinate",
              phase_coordinates(k, range(8), [0] * 8, range(12), [0] * 12, lookups))
