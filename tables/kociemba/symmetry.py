"""Kociemba's coordinates under the 16 UD symmetries: flip-slice classes, edge conjugation.

The classes of flip-slice (which slots hold the UD-slice edges, and the edge flips) and the
conjugation of the UD-edge permutation.

Corner permutation classes and twist conjugation are shared with Korf's solver
(cubelab.tables.udsym); a class table entry is class << 4 | k as there.
"""

from __future__ import annotations

import numpy as np

from cubelab.tables.jit import kernel

from ..ranks import N_FLIP, N_PERM8, rank_perm, unrank_perm
from ..udsym import (
    N_SYM, classes, conj_edges, flip_conjugation, slice_conjugation, ud_symmetry_arrays,
)

N_FLIPSLICE = 495 * N_FLIP
N_FLIPSLICE_CLASSES = 64430


@kernel
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


def edge8_conjugation() -> np.ndarray:
    """table[e, k] = UD-edge permutation rank of S_k * E * S_k^-1 (uint16, 40320 x 16)."""
    (_, _, sep, seo, _, _, iep, ieo), _ = ud_symmetry_arrays()
    return _edge8_conj(sep, seo, iep, ieo)


def flipslice_conjugation() -> np.ndarray:
    """table[c * 2048 + f, k] = flip-slice of S_k X S_k^-1 (uint32, 1,013,760 x 16), from the
    conjugations of slice slots and of flips (a flip conjugates to its edges-at-home image XOR a
    mask that depends on the slice slots)."""
    slice_conj, masks = slice_conjugation()
    comb_conj = slice_conj[::24].astype(np.uint32) // 24          # (495, 16)
    comb_mask = masks[::24].astype(np.uint32)                      # (495, 16)
    flip_conj = flip_conjugation().astype(np.uint32)               # (2048, 16)
    table = (comb_conj[:, None, :] * N_FLIP) + (flip_conj[None, :, :] ^ comb_mask[:, None, :])
    return table.reshape(N_FLIPSLICE, N_SYM)


def flipslice_classes():
    """(class table over slice * 2048 + flip, representatives, stabilizer masks)."""
    return classes(flipslice_conjugation())
