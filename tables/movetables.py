"""Move tables of the standard coordinates over the 18 face turns, shared by the solvers.

Move tables of the standard coordinates over the 18 face turns, shared by every solver that
uses them: table[value, m] = the coordinate after face turn m from any state with that value.

Coordinates (cubelab.tables.ranks): twist 2,187, flip 2,048, sorted UD slice 11,880 (which slots
hold FR FL BL BR, and their order) and corner permutation 40,320. Registered with the store as
`moves.*`, so they are built once and memory mapped afterwards.
"""

from __future__ import annotations

import numpy as np

from cubelab.tables.jit import kernel

from .cubies import edge_product, face_turn_arrays
from .ranks import (
    BINOM, N_FLIP, N_PERM8, N_TWIST, flip_of, rank_perm, set_flip, set_slice_sorted, set_twist,
    slice_sorted_of, unrank_perm,
)
from .spec import TableSpec, register

N_SLICE_SORTED = 11880


@kernel
def _twist_moves(mcp, mco):
    table = np.empty((N_TWIST, 18), np.uint16)
    co = np.zeros(8, np.int64)
    for t in range(N_TWIST):
        set_twist(t, co)
        for m in range(18):
            v = 0
            for i in range(7):
                v = 3 * v + (co[mcp[m, i]] + mco[m, i]) % 3
            table[t, m] = v
    return table


@kernel
def _flip_moves(mep, meo):
    table = np.empty((N_FLIP, 18), np.uint16)
    eo = np.zeros(12, np.int64)
    ep = np.arange(12)
    oep = np.empty(12, np.int64)
    oeo = np.empty(12, np.int64)
    for f in range(N_FLIP):
        set_flip(f, eo)
        for m in range(18):
            edge_product(ep, eo, mep[m], meo[m], oep, oeo)
            table[f, m] = flip_of(oeo)
    return table


@kernel
def _slice_moves(mep, meo, binom):
    table = np.empty((N_SLICE_SORTED, 18), np.uint16)
    ep = np.empty(12, np.int64)
    eo = np.zeros(12, np.int64)
    oep = np.empty(12, np.int64)
    oeo = np.empty(12, np.int64)
    for v in range(N_SLICE_SORTED):
        set_slice_sorted(v, ep, binom)
        for m in range(18):
            edge_product(ep, eo, mep[m], meo[m], oep, oeo)
            table[v, m] = slice_sorted_of(oep, binom)
    return table


@kernel
def _corner_perm_moves(mcp):
    table = np.empty((N_PERM8, 18), np.uint16)
    cp = np.empty(8, np.int64)
    out = np.empty(8, np.int64)
    for r in range(N_PERM8):
        unrank_perm(r, cp, 0, 8, 0)
        for m in range(18):
            for i in range(8):
                out[i] = cp[mcp[m, i]]
            table[r, m] = rank_perm(out, 0, 8)
    return table


def _build_twist(ctx):
    cp, co, _, _ = face_turn_arrays()
    return _twist_moves(cp, co)


def _build_flip(ctx):
    _, _, ep, eo = face_turn_arrays()
    return _flip_moves(ep, eo)


def _build_slice(ctx):
    _, _, ep, eo = face_turn_arrays()
    return _slice_moves(ep, eo, BINOM)


def _build_corner_perm(ctx):
    return _corner_perm_moves(face_turn_arrays()[0])


VERSION = 1


def _spec(name, build, description, size):
    return register(TableSpec(name=f"moves.{name}", solver="shared",
                              params={"version": VERSION, "size": size}, build=build,
                              description=description, expected_bytes=size * 18 * 2))


TWIST = _spec("twist", _build_twist, "corner twist x 18 moves", N_TWIST)
FLIP = _spec("flip", _build_flip, "edge flip x 18 moves", N_FLIP)
SLICE_SORTED = _spec("slice_sorted", _build_slice, "UD-slice edges (slots and order) x 18 moves",
                     N_SLICE_SORTED)
CORNER_PERM = _spec("corner_perm", _build_corner_perm, "corner permutation x 18 moves", N_PERM8)
SPECS = (TWIST, FLIP, SLICE_SORTED, CORNER_PERM)
