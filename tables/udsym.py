"""The 16 symmetries that keep the U-D axis as the table builders use them.

The 16 symmetries that keep the U-D axis, as the table builders use them: their cubie arrays,
conjugation of cubie arrays, the conjugation tables of twist and corner permutation, and the
classes of any coordinate under them (shared by Kociemba's and Korf's solvers).

"Conjugating P by k" is S_k * P * S_k^-1 with the symmetries of cubelab.cube.symmetry (the first
16 keep U-D; mirrors mark twists 3 + t). A class table entry is `class << 4 | k` where
conjugating by k takes the value to its class representative, the smallest value of the class;
`stab[c]` has bit k set when k fixes the representative of class c.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from cubelab.tables.jit import kernel

from .cubies import corner_product, edge_product
from .ranks import (
    BINOM, N_FLIP, N_PERM8, N_TWIST, flip_of, rank_perm, set_flip, set_slice_sorted, set_twist,
    slice_sorted_of, unrank_perm,
)
from .spec import TableSpec, register
from .store import load_or_build

N_SYM = 16
EMPTY32 = np.uint32(0xFFFFFFFF)
N_CORNER_CLASSES = 2768
"""Classes of the 8! corner permutations under the 16 UD symmetries."""


@lru_cache(maxsize=1)
def ud_symmetry_arrays():
    """The 16 UD symmetries and their inverses as int64 arrays (scp, sco, sep, seo, icp, ico,
    iep, ieo), each (16, n), plus inv[k] = index of S_k^-1."""
    from cubelab.cube.symmetry import (
        inverse_symmetry_arrays, symmetry_arrays, symmetry_inverse_index,
    )
    s, i = symmetry_arrays(), inverse_symmetry_arrays()
    out = tuple(np.ascontiguousarray(a[:N_SYM, :].astype(np.int64))
                for a in (s[0], s[1], s[2], s[3], i[0], i[1], i[2], i[3]))
    inv = np.asarray(symmetry_inverse_index()[:N_SYM], dtype=np.int64)
    if (inv >= N_SYM).any():
        raise AssertionError("the UD symmetries are not closed under inversion")
    for a in out + (inv,):
        a.flags.writeable = False
    return out, inv


@lru_cache(maxsize=1)
def axis_symmetries() -> tuple[int, int, int]:
    """Rotations (no mirror) that carry the U-D, R-L and F-B axes onto U-D, in that order (the
    first is the identity): a table built for the U-D axis sees the other axes through them, and
    a two-phase search runs in their frames."""
    from cubelab.cube.symmetry import is_mirrored, move_conjugation
    mc = move_conjugation()
    r_move, f_move = 3, 6   # FACE_MOVES index of R and F

    def onto_ud(k, move):
        return int(mc[k, move]) // 3 in (0, 3)

    rl = next(k for k in range(48) if not is_mirrored(k) and onto_ud(k, r_move))
    fb = next(k for k in range(48) if not is_mirrored(k) and onto_ud(k, f_move))
    return 0, rl, fb


@kernel
def conj_corners(cp, co, scp, sco, icp, ico, out_cp, out_co):
    """Corners of S * P * S^-1, given S (scp, sco) and S^-1 (icp, ico)."""
    tcp = np.empty(8, np.int64)
    tco = np.empty(8, np.int64)
    corner_product(scp, sco, cp, co, tcp, tco)
    corner_product(tcp, tco, icp, ico, out_cp, out_co)


@kernel
def conj_edges(ep, eo, sep, seo, iep, ieo, out_ep, out_eo):
    tep = np.empty(12, np.int64)
    teo = np.empty(12, np.int64)
    edge_product(sep, seo, ep, eo, tep, teo)
    edge_product(tep, teo, iep, ieo, out_ep, out_eo)


@kernel
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


@kernel
def _corner_perm_conj(scp, sco, icp, ico):
    table = np.empty((N_PERM8, N_SYM), np.uint16)
    cp = np.empty(8, np.int64)
    co = np.zeros(8, np.int64)
    ocp = np.empty(8, np.int64)
    oco = np.empty(8, np.int64)
    for r in range(N_PERM8):
        unrank_perm(r, cp, 0, 8, 0)
        for k in range(N_SYM):
            conj_corners(cp, co, scp[k], sco[k], icp[k], ico[k], ocp, oco)
            table[r, k] = rank_perm(ocp, 0, 8)
    return table


@kernel
def _flip_conj(sep, seo, iep, ieo):
    table = np.empty((N_FLIP, N_SYM), np.uint16)
    ep = np.arange(12)
    eo = np.empty(12, np.int64)
    oep = np.empty(12, np.int64)
    oeo = np.empty(12, np.int64)
    for f in range(N_FLIP):
        set_flip(f, eo)
        for k in range(N_SYM):
            conj_edges(ep, eo, sep[k], seo[k], iep[k], ieo[k], oep, oeo)
            table[f, k] = flip_of(oeo)
    return table


@kernel
def _slice_conj(sep, seo, iep, ieo, binom, conj, masks):
    ep = np.empty(12, np.int64)
    eo = np.zeros(12, np.int64)
    oep = np.empty(12, np.int64)
    oeo = np.empty(12, np.int64)
    for v in range(conj.shape[0]):
        set_slice_sorted(v, ep, binom)
        for k in range(N_SYM):
            conj_edges(ep, eo, sep[k], seo[k], iep[k], ieo[k], oep, oeo)
            conj[v, k] = slice_sorted_of(oep, binom)
            masks[v, k] = flip_of(oeo)


def flip_conjugation() -> np.ndarray:
    """table[f, k] = flip of S_k * F * S_k^-1 for the flips f of edges at home (uint16, 2048 x
    16). For any state X, the flip of S_k X S_k^-1 is this of X's flip XOR slice_conjugation's
    mask of X's sorted slice (flips add over GF(2); see slice_conjugation)."""
    (_, _, sep, seo, _, _, iep, ieo), _ = ud_symmetry_arrays()
    return _flip_conj(sep, seo, iep, ieo)


def slice_conjugation() -> tuple[np.ndarray, np.ndarray]:
    """(conj, mask), both uint16 (11880 x 16): conj[s, k] = sorted slice of S_k X S_k^-1 for a
    state X with sorted slice s, and mask[s, k] = the flips that conjugate gets when X has none.

    Every UD symmetry flips all four slice edges or none and no other edge (checked here), so
    the mask depends only on which slots hold the slice edges: flip-slice and Korf's phase
    coordinate are well defined under conjugation."""
    (_, _, sep, seo, _, _, iep, ieo), _ = ud_symmetry_arrays()
    for k in range(N_SYM):
        if seo[k, :8].any() or len(set(seo[k, 8:].tolist())) != 1:
            raise AssertionError(f"symmetry {k} flips edges in an unexpected pattern")
    n = 11880   # 12 * 11 * 10 * 9 sorted-slice values
    conj = np.empty((n, N_SYM), np.uint16)
    masks = np.empty((n, N_SYM), np.uint16)
    _slice_conj(sep, seo, iep, ieo, BINOM, conj, masks)
    return conj, masks


def twist_conjugation() -> np.ndarray:
    """table[t, k] = twist of S_k * T * S_k^-1 (uint16, 2187 x 16)."""
    (scp, sco, _, _, icp, ico, _, _), _ = ud_symmetry_arrays()
    return _twist_conj(scp, sco, icp, ico)


def corner_perm_conjugation() -> np.ndarray:
    """table[p, k] = corner permutation rank of S_k * P * S_k^-1 (uint16, 40320 x 16)."""
    (scp, sco, _, _, icp, ico, _, _), _ = ud_symmetry_arrays()
    return _corner_perm_conj(scp, sco, icp, ico)


@kernel
def _classes(conj, inv, cls, reps, stab):
    n = 0
    for raw in range(conj.shape[0]):
        if cls[raw] != EMPTY32:
            continue
        # raw is the smallest value of a class not seen yet: its representative
        reps[n] = raw
        cls[raw] = np.uint32(n << 4)
        for k in range(N_SYM):
            other = conj[raw, k]
            if other == raw:
                stab[n] |= np.uint16(1 << k)
            elif cls[other] == EMPTY32:
                cls[other] = np.uint32((n << 4) | inv[k])    # conj(other, inv k) = raw
        n += 1
    return n


def classes(conj: np.ndarray):
    """The classes of a coordinate under the UD symmetries, from its conjugation table
    conj[value, k]: (class table uint32 per value, representatives uint32, stabilizer masks
    uint16 per class)."""
    _, inv = ud_symmetry_arrays()
    size = conj.shape[0]
    cls = np.full(size, EMPTY32, np.uint32)
    reps = np.empty(size, np.uint32)
    stab = np.zeros(size, np.uint16)
    n = _classes(np.ascontiguousarray(conj), inv, cls, reps, stab)
    return cls, reps[:n].copy(), stab[:n].copy()


# ---- the shared tables ------------------------------------------------------------------------

VERSION = 1


def _build_corner_rep(ctx):
    _, reps, stab = classes(corner_perm_conjugation())
    return np.stack([reps, stab.astype(np.uint32)], axis=1)


def _spec(name, build, description, nbytes, **params):
    return register(TableSpec(name=f"udsym.{name}", solver="shared",
                              params={"version": VERSION, **params}, build=build,
                              description=description, expected_bytes=nbytes))


TWIST_CONJ = _spec("twist_conj", lambda ctx: twist_conjugation(), "twist x 16 UD symmetries",
                   N_TWIST * N_SYM * 2, size=N_TWIST)
CORNER_CLASS = _spec("corner_class", lambda ctx: classes(corner_perm_conjugation())[0],
                     "corner permutation -> UD symmetry class and symmetry", N_PERM8 * 4,
                     size=N_PERM8)
CORNER_REP = _spec("corner_rep", _build_corner_rep,
                   "corner permutation class -> representative and stabilizer",
                   N_CORNER_CLASSES * 8, classes=N_CORNER_CLASSES)
SPECS = (TWIST_CONJ, CORNER_CLASS, CORNER_REP)


def load(spec, progress=None, cancel=None, log=None) -> np.ndarray:
    """One of the shared tables, loaded or built."""
    return load_or_build(spec, progress=progress, cancel=cancel, log=log)


if __name__ == "__main__":
    cls, reps, stab = classes(corner_perm_conjugation())
    print(f"{len(reps)} corner permutation classes; twist conjugation of twist 1:",
          twist_conjugation()[1].tolist())
