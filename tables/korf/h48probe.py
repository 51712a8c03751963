"""What a search reads of the H48 table, apart from the table: an entry's index, a coordinate's
move, a neighbour's distance from its residue, and stand-ins for a search without the table.

Kept apart from h48coords (which computes the coordinate maps) and h48table (the builder), so a
search of the `layers` set, which compiles these probes into its kernel but never calls them,
does not import either.
"""

from __future__ import annotations

import numpy as np

from cubelab.tables.jit import inline_kernel

N_SYM = 48
N_MEMBER = 495 * 70
"""Which slice's piece each edge slot holds: E slots (495) * M slots among the rest (70)."""
UNKNOWN = 0
"""An entry not reached by the build (the others hold their distance mod 3, plus one)."""


@inline_kernel
def apply_affine(lut, a, b, f):
    """The affine map lut[a, b] applied to flip class f. The builder passes the maps with the
    operation first (one move's or one symmetry's maps are contiguous across memberships), the
    search with the membership first (one membership's maps for all moves share lines)."""
    return np.int64(lut[a, b, f & 15] ^ lut[a, b, 16 + (f >> 4)])


@inline_kernel
def entry_index(cr, m, f, cls, sym_of, mem_conj, flip_conj):
    """The entry of raw corner value cr, membership m and flip class f: the position seen from
    its corner class's representative."""
    k = sym_of[cr]
    return (np.int64(cls[cr]) * N_MEMBER + mem_conj[m, k]) * 256 + apply_affine(flip_conj, m, k, f)


@inline_kernel
def moved(cr, m, f, mv, cmove, mem_move, flip_move):
    """(raw corner value, membership, flip class) after face turn mv."""
    return np.int64(cmove[cr, mv]), np.int64(mem_move[m, mv]), apply_affine(flip_move, m, mv, f)


@inline_kernel
def neighbour_distance(h, v, unknown):
    """The distance of a neighbour whose entry reads v, of a position at distance h: exact
    where the table knows it (a move changes the distance by at most one, so the residue
    decides); `unknown` (the table's depth + 1, a lower bound) where it does not. From a parent
    at `unknown`, a child the table knows is one move closer, which the same rule gives."""
    if v == UNKNOWN:
        return unknown
    r = v - 1
    return h - 1 if r == (h + 2) % 3 else (h if r == h % 3 else h + 1)


def stand_ins() -> tuple:
    """Arrays of the same types as h48table.lookup_arrays' (so one compiled kernel serves both),
    for a search without the table; its bounds then read 0."""
    arrays = (np.zeros((1, 18), np.int32), np.zeros(1, np.int32), np.zeros(1, np.int8),
              np.zeros((1, 18), np.int32), np.zeros((1, 18, 32), np.uint8),
              np.zeros((1, N_SYM), np.int32), np.zeros((1, N_SYM, 32), np.uint8))
    for a in arrays:
        a.flags.writeable = False
    return arrays + (0, 0)
