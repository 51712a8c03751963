"""Coordinates of Korf's solver: ranks of corner and edge placements, their move tables, and the
UD-symmetry tables that reduce the exact-slice phase table by the 16 symmetries keeping U-D.

Coordinates (all computed from cubie states, products left to right so `state * move`):
- twist: corner twists of slots 0..6 in base 3 (2,187); flip: edge flips of slots 0..10 in
  base 2 (2,048); corner permutation: rank of cp (40,320).
- sorted slice: the ordered positions of the UD-slice edges FR FL BL BR (12*11*10*9 = 11,880).
- six edges: ordered positions of edges 0..5 (or 6..11) and their six flips (665,280 * 64).
A placement of k distinct positions out of n is ranked digit by digit: position i contributes
"how many unused positions lie below it" in base n - i.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

import cubelab.tables  # noqa: F401  (numba cache location, before numba)
from numba import njit

from cubelab.cube.moves import FACE_MOVES, move_state
# the orientation coordinates are the two-phase solver's: one definition of twist and flip
from cubelab.tables.kociemba_coords import flip_of, set_flip, set_twist, twist_of  # noqa: F401
from cubelab.cube.state import CubeState
from cubelab.cube.symmetry import (
    N_UD_SYMMETRIES, conjugate, conjugate_all, inverse_symmetry_arrays, is_mirrored,
    move_conjugation, symmetry_arrays,
)

N_MOVES = 18
N_TWIST = 3 ** 7
N_FLIP = 2 ** 11
N_CPERM = 40320
N_SSLICE = 12 * 11 * 10 * 9
N_PLACE6 = 12 * 11 * 10 * 9 * 8 * 7
N_EDGE6 = N_PLACE6 * 64
N_CORNERS = N_CPERM * N_TWIST
SLICE_EDGES = (8, 9, 10, 11)
EDGES_A = (0, 1, 2, 3, 4, 5)
EDGES_B = (6, 7, 8, 9, 10, 11)


# ---- ranking kernels ------------------------------------------------------------------------

@njit(cache=True, nogil=True, inline="always")
def popcount16(x):
    x = x - ((x >> 1) & 0x5555)
    x = (x & 0x3333) + ((x >> 2) & 0x3333)
    x = (x + (x >> 4)) & 0x0F0F
    return (x + (x >> 8)) & 0x1F


@njit(cache=True, nogil=True)
def rank_placement(pos, k, n):
    """Rank of the ordered distinct positions pos[0..k-1] in [0, n)."""
    r = 0
    used = 0
    for i in range(k):
        p = pos[i]
        r = r * (n - i) + p - popcount16(used & ((1 << p) - 1))
        used |= 1 << p
    return r


@njit(cache=True, nogil=True)
def unrank_placement(r, k, n, out):
    """Inverse of rank_placement: writes the k positions into out."""
    digits = np.empty(k, np.int64)
    for i in range(k - 1, -1, -1):
        base = n - i
        digits[i] = r % base
        r //= base
    used = 0
    for i in range(k):
        d = digits[i]
        p = 0
        while True:
            if not (used >> p) & 1:
                if d == 0:
                    break
                d -= 1
            p += 1
        out[i] = p
        used |= 1 << p


@njit(cache=True, nogil=True)
def cperm_of(cp):
    return rank_placement(cp, 8, 8)


@njit(cache=True, nogil=True)
def sslice_of(ep):
    pos = np.empty(4, np.int64)
    for i in range(12):
        if ep[i] >= 8:
            pos[ep[i] - 8] = i
    return rank_placement(pos, 4, 12)


@njit(cache=True, nogil=True)
def set_sslice(r, ep):
    """An edge permutation whose slice edges sit at the positions r encodes (others in order)."""
    pos = np.empty(4, np.int64)
    unrank_placement(r, 4, 12, pos)
    for i in range(12):
        ep[i] = -1
    for j in range(4):
        ep[pos[j]] = 8 + j
    e = 0
    for i in range(12):
        if ep[i] < 0:
            ep[i] = e
            e += 1


@njit(cache=True, nogil=True)
def edge6_of(ep, eo, first):
    """Index of the six edges first..first+5: their positions, then their flips."""
    pos = np.empty(6, np.int64)
    ori = 0
    for i in range(12):
        e = ep[i] - first
        if 0 <= e < 6:
            pos[e] = i
    for j in range(6):
        ori = 2 * ori + eo[pos[j]]
    return rank_placement(pos, 6, 12) * 64 + ori


# ---- move tables ----------------------------------------------------------------------------

@njit(cache=True, nogil=True)
def _twist_moves(mcp, mco):
    out = np.empty((N_TWIST, N_MOVES), np.uint16)
    co = np.empty(8, np.int64)
    nco = np.empty(8, np.int64)
    for t in range(N_TWIST):
        set_twist(t, co)
        for m in range(N_MOVES):
            for i in range(8):
                nco[i] = (co[mcp[m, i]] + mco[m, i]) % 3
            out[t, m] = twist_of(nco)
    return out


@njit(cache=True, nogil=True)
def _flip_moves(mep, meo):
    out = np.empty((N_FLIP, N_MOVES), np.uint16)
    eo = np.empty(12, np.int64)
    neo = np.empty(12, np.int64)
    for f in range(N_FLIP):
        set_flip(f, eo)
        for m in range(N_MOVES):
            for i in range(12):
                neo[i] = eo[mep[m, i]] ^ meo[m, i]
            out[f, m] = flip_of(neo)
    return out


@njit(cache=True, nogil=True)
def _cperm_moves(mcp):
    out = np.empty((N_CPERM, N_MOVES), np.uint16)
    cp = np.empty(8, np.int64)
    ncp = np.empty(8, np.int64)
    for r in range(N_CPERM):
        unrank_placement(r, 8, 8, cp)
        for m in range(N_MOVES):
            for i in range(8):
                ncp[i] = cp[mcp[m, i]]
            out[r, m] = cperm_of(ncp)
    return out


@njit(cache=True, nogil=True)
def _sslice_moves(mep):
    out = np.empty((N_SSLICE, N_MOVES), np.uint16)
    ep = np.empty(12, np.int64)
    nep = np.empty(12, np.int64)
    for r in range(N_SSLICE):
        set_sslice(r, ep)
        for m in range(N_MOVES):
            for i in range(12):
                nep[i] = ep[mep[m, i]]
            out[r, m] = sslice_of(nep)
    return out


def _inverse_positions(perm: np.ndarray) -> np.ndarray:
    inv = np.empty_like(perm)
    for m in range(perm.shape[0]):
        inv[m, perm[m]] = np.arange(perm.shape[1])
    return inv


@dataclass(frozen=True)
class MoveTables:
    """Move tables of the coordinates, each (n, 18) and indexed [coordinate, move]."""

    twist: np.ndarray
    flip: np.ndarray
    cperm: np.ndarray
    sslice: np.ndarray
    edge_cubie: np.ndarray
    """(18, 24): an edge at position q with flip o (value 2q + o) goes to this value."""


def move_arrays():
    """The 18 face turns as cubie arrays (cp, co, ep, eo), each (18, n) int64."""
    states = [move_state(m) for m in FACE_MOVES]
    return tuple(np.array([getattr(s, name) for s in states], dtype=np.int64)
                 for name in ("cp", "co", "ep", "eo"))


@lru_cache(maxsize=1)
def move_tables() -> MoveTables:
    mcp, mco, mep, meo = move_arrays()
    inv = _inverse_positions(mep)
    edge_cubie = np.empty((N_MOVES, 24), np.uint8)
    for m in range(N_MOVES):
        for q in range(12):
            i = inv[m, q]
            for o in (0, 1):
                edge_cubie[m, 2 * q + o] = 2 * i + (o ^ meo[m, i])
    tables = MoveTables(_twist_moves(mcp, mco), _flip_moves(mep, meo), _cperm_moves(mcp),
                        _sslice_moves(mep), edge_cubie)
    for a in (tables.twist, tables.flip, tables.cperm, tables.sslice, tables.edge_cubie):
        a.flags.writeable = False
    return tables


# ---- symmetry tables for the exact-slice phase coordinate -----------------------------------

@njit(cache=True, nogil=True)
def _sslice_conj(sep, siep):
    """ss of S X S^-1 for each sorted-slice value and UD symmetry: ep[i] = S[X[S^-1[i]]]."""
    nsym = sep.shape[0]
    out = np.empty((N_SSLICE, nsym), np.uint16)
    ep = np.empty(12, np.int64)
    nep = np.empty(12, np.int64)
    for r in range(N_SSLICE):
        set_sslice(r, ep)
        for k in range(nsym):
            for i in range(12):
                nep[i] = sep[k, ep[siep[k, i]]]
            out[r, k] = sslice_of(nep)
    return out


@njit(cache=True, nogil=True)
def _flip_masks(siep, seo_slice):
    """The flip bits S X S^-1 gets from S's own edge flips, beyond those it gets when X's edges
    are at home. S flips the slice edges or nothing (checked by the caller), so the extra bits
    sit where a slice edge lies outside the slice or a non-slice edge inside it."""
    nsym = siep.shape[0]
    out = np.empty((N_SSLICE, nsym), np.uint16)
    ep = np.empty(12, np.int64)
    bits = np.empty(12, np.int64)
    for r in range(N_SSLICE):
        set_sslice(r, ep)
        for k in range(nsym):
            for i in range(12):
                j = siep[k, i]
                bits[i] = seo_slice[k] & ((ep[j] >= 8) ^ (j >= 8))
            out[r, k] = flip_of(bits)
    return out


@dataclass(frozen=True)
class SymTables:
    """How the 16 UD symmetries act on the phase coordinates, and the slice classes.

    Conjugating X by symmetry k (S_k X S_k^-1) maps twist t to twist_conj[k, t], sorted slice s
    to sslice_conj[s, k] and flip f to flip_conj[k, f] ^ flip_mask[s, k]. Every sorted-slice
    value s has a class ss_cls[s] whose representative is conjugation by ss_sym[s] of it;
    ss_fmask[s] = flip_mask[s, ss_sym[s]]. stab[c, :n_stab[c]] are the symmetries that fix the
    representative of class c, and rep_fmask[c, k] its flip masks.
    """

    twist_conj: np.ndarray
    flip_conj: np.ndarray
    sslice_conj: np.ndarray
    flip_mask: np.ndarray
    ss_cls: np.ndarray
    ss_sym: np.ndarray
    ss_fmask: np.ndarray
    rep: np.ndarray
    stab: np.ndarray
    n_stab: np.ndarray
    rep_fmask: np.ndarray

    @property
    def n_classes(self) -> int:
        return len(self.rep)


def _ud_arrays():
    scp, sco, sep, seo, _ = (a[:N_UD_SYMMETRIES] for a in symmetry_arrays())
    _, _, siep, sieo, _ = (a[:N_UD_SYMMETRIES] for a in inverse_symmetry_arrays())
    return sco, sep.astype(np.int64), seo.astype(np.int64), siep.astype(np.int64), \
        sieo.astype(np.int64)


@lru_cache(maxsize=1)
def sym_tables() -> SymTables:
    sco, sep, seo, siep, sieo = _ud_arrays()
    slice_mask = np.zeros(12, bool)
    slice_mask[list(SLICE_EDGES)] = True
    seo_slice = np.zeros(N_UD_SYMMETRIES, np.int64)
    for k in range(N_UD_SYMMETRIES):
        # The flip tables below rely on each UD symmetry flipping all slice edges or none and
        # no other edge; the symmetry module's arrays are checked here, not assumed.
        if seo[k][~slice_mask].any() or len(set(seo[k][slice_mask].tolist())) != 1:
            raise AssertionError(f"symmetry {k} flips edges in an unexpected pattern")
        seo_slice[k] = seo[k][8]

    # twist: conjugate a representative of each twist (corners at home) with the model.
    twist_conj = np.empty((N_UD_SYMMETRIES, N_TWIST), np.uint16)
    co = np.empty(8, np.int64)
    for t in range(N_TWIST):
        set_twist(t, co)
        conj = conjugate_all(CubeState(range(8), co, range(12), [0] * 12),
                             slice(0, N_UD_SYMMETRIES))
        twist_conj[:, t] = [twist_of(c) for c in conj[1]]
    # flip with the edges at home: eo[i] = S.eo[j] ^ X.eo[j] ^ S^-1.eo[i], j = S^-1.ep[i].
    flip_conj = np.empty((N_UD_SYMMETRIES, N_FLIP), np.uint16)
    eo = np.empty(12, np.int64)
    for f in range(N_FLIP):
        set_flip(f, eo)
        for k in range(N_UD_SYMMETRIES):
            j = siep[k]
            flip_conj[k, f] = flip_of(seo[k][j] ^ eo[j] ^ sieo[k])
    sslice_conj = _sslice_conj(sep, siep)
    flip_mask = _flip_masks(siep, seo_slice)

    reps = sslice_conj.min(axis=1)
    ss_sym = sslice_conj.argmin(axis=1).astype(np.uint8)
    rep, ss_cls = np.unique(reps, return_inverse=True)
    ss_cls = ss_cls.astype(np.int32)
    ss_fmask = flip_mask[np.arange(N_SSLICE), ss_sym].astype(np.uint16)
    stab = np.zeros((len(rep), N_UD_SYMMETRIES), np.uint8)
    n_stab = np.zeros(len(rep), np.int32)
    for c, r in enumerate(rep):
        fixers = np.flatnonzero(sslice_conj[r] == r)
        stab[c, :len(fixers)] = fixers
        n_stab[c] = len(fixers)
    rep_fmask = flip_mask[rep].astype(np.uint16)
    tables = SymTables(twist_conj, flip_conj, sslice_conj, flip_mask, ss_cls, ss_sym, ss_fmask,
                       rep.astype(np.int32), stab, n_stab, rep_fmask)
    for a in vars(tables).values():
        a.flags.writeable = False
    return tables


@njit(cache=True, nogil=True)
def _cperm_conj(scp, sicp):
    """Corner permutation of S X S^-1 for each permutation and UD symmetry."""
    nsym = scp.shape[0]
    out = np.empty((N_CPERM, nsym), np.uint16)
    cp = np.empty(8, np.int64)
    ncp = np.empty(8, np.int64)
    for r in range(N_CPERM):
        unrank_placement(r, 8, 8, cp)
        for k in range(nsym):
            for i in range(8):
                ncp[i] = scp[k, cp[sicp[k, i]]]
            out[r, k] = cperm_of(ncp)
    return out


@dataclass(frozen=True)
class CornerSymTables:
    """Corner permutations in classes under the 16 UD symmetries: conjugating by cp_sym[p]
    takes permutation p to rep[cp_cls[p]] (and twist t to twist_conj[cp_sym[p], t]), so the
    corner database needs only the representatives' rows."""

    cperm_conj: np.ndarray
    cp_cls: np.ndarray
    cp_sym: np.ndarray
    rep: np.ndarray

    @property
    def n_classes(self) -> int:
        return len(self.rep)


@lru_cache(maxsize=1)
def corner_sym_tables() -> CornerSymTables:
    scp = symmetry_arrays()[0][:N_UD_SYMMETRIES].astype(np.int64)
    sicp = inverse_symmetry_arrays()[0][:N_UD_SYMMETRIES].astype(np.int64)
    conj = _cperm_conj(scp, sicp)
    reps = conj.min(axis=1)
    rep, cls = np.unique(reps, return_inverse=True)
    tables = CornerSymTables(conj, cls.astype(np.int32), conj.argmin(axis=1).astype(np.uint8),
                             rep.astype(np.int32))
    for a in vars(tables).values():
        a.flags.writeable = False
    return tables


@lru_cache(maxsize=1)
def axis_symmetries() -> tuple[int, int, int]:
    """Symmetries that carry the U-D, R-L and F-B axes onto U-D: the phase table is looked up
    for S X S^-1 with each, so one UD table gives three lower bounds."""
    mc = move_conjugation()
    r_move, f_move = 3, 6   # FACE_MOVES index of R and F

    def onto_ud(k, move):
        return int(mc[k, move]) // 3 in (0, 3)

    rl = next(k for k in range(48) if not is_mirrored(k) and onto_ud(k, r_move))
    fb = next(k for k in range(48) if not is_mirrored(k) and onto_ud(k, f_move))
    return 0, rl, fb


@lru_cache(maxsize=1)
def axis_move_maps() -> np.ndarray:
    """(3, 18): the move that S_a m S_a^-1 is, for each axis symmetry a."""
    mc = move_conjugation()
    out = np.array([mc[k] for k in axis_symmetries()], dtype=np.int64)
    out.flags.writeable = False
    return out


# ---- coordinates of a state -----------------------------------------------------------------

def _arr(x) -> np.ndarray:
    return np.asarray(x, dtype=np.int64)


def phase_coords(state: CubeState) -> tuple[int, int, int]:
    """(sorted slice, flip, twist) of a state."""
    return (int(sslice_of(_arr(state.ep))), int(flip_of(_arr(state.eo))),
            int(twist_of(_arr(state.co))))


def axis_phase_coords(state: CubeState) -> list[tuple[int, int, int]]:
    """phase_coords of S_a X S_a^-1 for the three axis symmetries."""
    return [phase_coords(state if k == 0 else conjugate(state, k)) for k in axis_symmetries()]


def corner_coord(state: CubeState) -> int:
    return int(cperm_of(_arr(state.cp))) * N_TWIST + int(twist_of(_arr(state.co)))


def edge6_coord(state: CubeState, first: int) -> int:
    return int(edge6_of(_arr(state.ep), _arr(state.eo), first))


def edge_cubies(state: CubeState) -> np.ndarray:
    """(12,): for each edge, 2 * its position + its flip (what the korf1997 search carries)."""
    out = np.empty(12, np.int64)
    for i in range(12):
        out[int(state.ep[i])] = 2 * i + int(state.eo[i])
    return out


if __name__ == "__main__":
    from cubelab.cube.moves import alg_state
    s = alg_state("R U R' U'")
    print("phase coords per axis:", axis_phase_coords(s))
    print("corner coordinate:", corner_coord(s), "edges:", edge6_coord(s, 0), edge6_coord(s, 6))
    print("slice classes:", sym_tables().n_classes)
