"""Packed storage for distance tables: 4 bits or 2 bits an entry, read and written by numba.

4 bits an entry (distances 0..14, 15 = unknown) or 2 bits an entry (distance mod 3, 3 =
unknown), in flat uint8 arrays, read and written by numba.
"""

from __future__ import annotations

import numpy as np

import cubelab.tables  # noqa: F401  (numba cache location, before numba)
from numba import njit

UNKNOWN4 = 15
UNKNOWN2 = 3


def new_packed4(n: int) -> np.ndarray:
    """n entries, all unknown."""
    return np.full((n + 1) // 2, 0xFF, dtype=np.uint8)


def new_packed2(n: int) -> np.ndarray:
    return np.full((n + 3) // 4, 0xFF, dtype=np.uint8)


@njit(cache=True, nogil=True, inline="always")
def get4(table, i):
    return (table[i >> 1] >> ((i & 1) << 2)) & 15


@njit(cache=True, nogil=True, inline="always")
def set4(table, i, value):
    shift = (i & 1) << 2
    table[i >> 1] = (table[i >> 1] & ~(15 << shift)) | (value << shift)


@njit(cache=True, nogil=True, inline="always")
def get2(table, i):
    return (table[i >> 2] >> ((i & 3) << 1)) & 3


@njit(cache=True, nogil=True, inline="always")
def set2(table, i, value):
    shift = (i & 3) << 1
    table[i >> 2] = (table[i >> 2] & ~(3 << shift)) | (value << shift)


@njit(cache=True, nogil=True, inline="always")
def settle2(table, todo, k, base, own, nb, conj, twist_move, m, want, value):
    """One backward step over a 2-bit table: each of the k twists t listed in todo whose
    neighbour entry nb + conj[twist_move[t, m]] reads `want` gets `value` at base + own[t] and
    leaves the list (the last one takes its place). Returns how many are left."""
    i = 0
    while i < k:
        t = todo[i]
        if get2(table, nb + conj[twist_move[t, m]]) == want:
            set2(table, base + own[t], value)
            k -= 1
            todo[i] = todo[k]
        else:
            i += 1
    return k


def unpack4(table: np.ndarray, n: int) -> np.ndarray:
    """All n entries as a uint8 array (for tests and small tables)."""
    out = np.empty(2 * len(table), dtype=np.uint8)
    out[0::2] = table & 15
    out[1::2] = table >> 4
    return out[:n]


def unpack2(table: np.ndarray, n: int) -> np.ndarray:
    out = np.empty(4 * len(table), dtype=np.uint8)
    for k in range(4):
        out[k::4] = (table >> (2 * k)) & 3
    return out[:n]
