"""The 48 symmetries of the cube (24 rotations, each with or without a mirror) as cubie elements.

This is the one implementation of symmetry in cubelab: the model's morph uses it, and the table
engine builds its symmetry-reduced coordinates from the same arrays. Corner twists of a mirrored
element are stored as 3 + t (Kociemba's trick): a reflection reverses a corner's clockwise order,
so a mirrored slot maps a sticker at offset k to offset t - k, and twists compose as
t_b - t_a when the second factor is mirrored, t_a + t_b otherwise.

Symmetry k acts on a state P by conjugation: S_k * P * S_k^-1 (products read left to right). The
first 16 symmetries keep the U-D axis (the symmetries of the two-phase subgroup); index 0 is the
identity.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .moves import FACE_MOVES, move_state, rotations
from .pieces import D, U
from .state import CubeState

# Left-right mirror: URF<->UFL, ULB<->UBR, ..., every corner mirrored (3), edges unflipped.
_MIRROR_CP = np.array([1, 0, 3, 2, 5, 4, 7, 6])
_MIRROR_EP = np.array([2, 1, 0, 3, 6, 5, 4, 7, 9, 8, 11, 10])
_MIRROR_CC = np.array([0, 4, 2, 3, 1, 5])


def _mul(a, b):
    """Product (a then b) of elements given as (cp, co, ep, eo, cc) arrays, mirrors allowed.
    Works on batches: leading axes of a and b broadcast against each other."""
    acp, aco, aep, aeo, acc = a
    bcp, bco, bep, beo, bcc = b
    shape = np.broadcast_shapes(acp.shape[:-1], bcp.shape[:-1])
    acp, aco, aep, aeo, acc = (np.broadcast_to(x, shape + x.shape[-1:]) for x in a)
    bcp, bco, bep, beo, bcc = (np.broadcast_to(x, shape + x.shape[-1:]) for x in b)
    cp = np.take_along_axis(acp, bcp, -1)
    ta = np.take_along_axis(aco, bcp, -1).astype(np.int16)  # signed: twists get subtracted
    ma, va = ta >= 3, ta % 3
    tb = bco.astype(np.int16)
    mb, vb = tb >= 3, tb % 3
    val = np.where(mb, vb - va, va + vb) % 3
    co = (val + 3 * (ma ^ mb)).astype(np.uint8)
    ep = np.take_along_axis(aep, bep, -1)
    eo = (np.take_along_axis(aeo, bep, -1) + beo) & 1
    cc = np.take_along_axis(acc, bcc, -1)
    return cp.astype(np.uint8), co, ep.astype(np.uint8), eo.astype(np.uint8), cc.astype(np.uint8)


def _inv(a):
    cp, co, ep, eo, cc = a
    icp = np.argsort(cp, axis=-1).astype(np.uint8)
    tw = np.take_along_axis(co, icp.astype(np.intp), -1)
    ico = np.where(tw >= 3, tw, (3 - tw) % 3).astype(np.uint8)
    iep = np.argsort(ep, axis=-1).astype(np.uint8)
    ieo = np.take_along_axis(eo, iep.astype(np.intp), -1)
    icc = np.argsort(cc, axis=-1).astype(np.uint8)
    return icp, ico, iep, ieo, icc


def _arrays(state: CubeState):
    return tuple(np.asarray(x, dtype=np.intp) if i in (0, 2, 4) else np.asarray(x, np.uint8)
                 for i, x in enumerate((state.cp, state.co, state.ep, state.eo, state.cc)))


def _as_index(t):
    cp, co, ep, eo, cc = t
    return cp.astype(np.intp), co, ep.astype(np.intp), eo, cc.astype(np.intp)


@lru_cache(maxsize=1)
def _tables():
    mirror = (_MIRROR_CP, np.full(8, 3, np.uint8), _MIRROR_EP, np.zeros(12, np.uint8), _MIRROR_CC)
    elems = []
    for r in rotations():
        ra = _arrays(r)
        for m in (0, 1):
            e = ra if not m else _as_index(_mul(ra, _as_index(tuple(np.asarray(x) for x in mirror))))
            keeps_ud = int(e[4][U]) in (U, D)
            elems.append((not keeps_ud, m, e))
    # identity first, then the UD-preserving ones, then the rest (a stable sort keeps this)
    elems.sort(key=lambda t: t[0])
    sym = [e for _, _, e in elems]
    stacked = tuple(np.stack([np.asarray(s[i]) for s in sym]) for i in range(5))
    cp, co, ep, eo, cc = stacked
    cp, ep, cc = cp.astype(np.uint8), ep.astype(np.uint8), cc.astype(np.uint8)
    co, eo = co.astype(np.uint8), eo.astype(np.uint8)
    inv = _inv((cp, co, ep, eo, cc))
    for a in (cp, co, ep, eo, cc, *inv):
        a.flags.writeable = False
    return (cp, co, ep, eo, cc), inv


def symmetry_arrays():
    """(cp, co, ep, eo, cc), each of shape (48, n), twist values 3..5 marking mirrored corners."""
    return _tables()[0]


def inverse_symmetry_arrays():
    return _tables()[1]


N_SYMMETRIES = 48
N_UD_SYMMETRIES = 16


def is_mirrored(k: int) -> bool:
    return bool(symmetry_arrays()[1][k, 0] >= 3)


def _idx(t):
    return tuple(x.astype(np.intp) if i in (0, 2, 4) else x for i, x in enumerate(t))


def conjugate_all(state: CubeState, which=slice(None)):
    """S_k * state * S_k^-1 for every symmetry k (or those selected): cubie arrays (n, 8/12/6)."""
    s = tuple(x[which] for x in symmetry_arrays())
    si = tuple(x[which] for x in inverse_symmetry_arrays())
    p = _arrays(state)
    return _mul(_idx(_mul(_idx(s), p)), _idx(si))


def conjugate(state: CubeState, k: int) -> CubeState:
    """S_k * state * S_k^-1 as a state."""
    cp, co, ep, eo, cc = conjugate_all(state, slice(k, k + 1))
    return CubeState(cp[0], co[0], ep[0], eo[0], cc[0])


def _rows(arrs) -> np.ndarray:
    return np.concatenate(arrs, axis=-1).astype(np.uint8)


def _class_rows(state: CubeState) -> set[bytes]:
    """The distinct rows (cp co ep eo cc, one byte each) of S P S^-1 and S P^-1 S^-1 over the 48
    symmetries. A set of bytes, not np.unique(axis=0): that sorts structured views and, on its
    first call, imports numpy.ma (10-40 ms of `cubelab facts`)."""
    rows = np.concatenate([_rows(conjugate_all(state)), _rows(conjugate_all(state.inverse()))])
    return {r.tobytes() for r in rows}


def morph_class(state: CubeState) -> list[CubeState]:
    """The distinct states S P S^-1 and S P^-1 S^-1 over the 48 symmetries (P's isomorphism
    class), in the order of their rows (bytes compare as the rows do)."""
    out = []
    for row in sorted(_class_rows(state)):
        r = np.frombuffer(row, dtype=np.uint8)
        out.append(CubeState(r[0:8], r[8:16], r[16:28], r[28:40], r[40:46]))
    return out


def morph(state: CubeState) -> int:
    """The size of the isomorphism class: at most 96."""
    return len(_class_rows(state))


@lru_cache(maxsize=1)
def move_conjugation() -> np.ndarray:
    """table[k, m] = index in FACE_MOVES of S_k * FACE_MOVES[m] * S_k^-1 (shape (48, 18))."""
    # one conjugate_all per move (all 48 frames at once): 864 single conjugations cost
    # a quarter of a second of every two-phase start
    index = {_rows(_arrays(move_state(m))).tobytes(): i for i, m in enumerate(FACE_MOVES)}
    table = np.zeros((48, 18), dtype=np.uint8)
    for i, m in enumerate(FACE_MOVES):
        for k, row in enumerate(_rows(conjugate_all(move_state(m)))):
            table[k, i] = index[row.tobytes()]
    table.flags.writeable = False
    return table


@lru_cache(maxsize=1)
def symmetry_inverse_index() -> np.ndarray:
    """inv[k] = the symmetry index of S_k^-1."""
    s = _rows(symmetry_arrays())
    si = _rows(inverse_symmetry_arrays())
    lookup = {r.tobytes(): k for k, r in enumerate(s)}
    return np.array([lookup[r.tobytes()] for r in si], dtype=np.uint8)
