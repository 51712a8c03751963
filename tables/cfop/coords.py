"""The coordinates of CFOP's first two steps: the cross, and one piece of an F2L pair.

- The *cross* coordinate says where the four D edges (DR DF DL DB, edges 4..7) are and how
  they are flipped: the rank of their ordered slots (a placement of 4 out of 12) times 16, plus
  their four flips as bits. 190,080 values; the solved cross is `CROSS_GOAL`.
- A *piece code* of one corner is slot * 3 + twist (24 values), of one edge slot * 2 + flip (24
  values): F2L pair k is corner 4 + k (DFR DLF DBL DRB) with edge 8 + k (FR FL BL BR).

Move tables act on either through the 18 face turns (cubelab.tables.cubies' numbering).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from cubelab.tables.jit import kernel

from ..cubies import face_turn_arrays
from ..ranks import rank_placement, unrank_placement

N_CROSS = 11880 * 16
N_CODE = 24
CROSS_EDGES = (4, 5, 6, 7)
PAIR_CORNERS = (4, 5, 6, 7)
PAIR_EDGES = (8, 9, 10, 11)
PAIR_NAMES = ("FR", "FL", "BL", "BR")
"""The F2L slots by the edge they hold, pair k = corner PAIR_CORNERS[k] + edge PAIR_EDGES[k]."""


def _destinations(perm: np.ndarray) -> np.ndarray:
    """dest[m, j]: the slot a piece in slot j goes to under face turn m (perm[m, new] = old)."""
    dest = np.empty_like(perm)
    for m in range(perm.shape[0]):
        dest[m, perm[m]] = np.arange(perm.shape[1])
    return dest


@kernel
def _cross_moves(edest, meo):
    table = np.empty((N_CROSS, 18), np.int32)
    pos = np.empty(4, np.int64)
    new = np.empty(4, np.int64)
    for v in range(N_CROSS):
        unrank_placement(v >> 4, 4, 12, pos)
        flips = v & 15
        for m in range(18):
            nf = 0
            for i in range(4):
                new[i] = edest[m, pos[i]]
                f = ((flips >> i) & 1) ^ meo[m, new[i]]
                nf |= f << i
            table[v, m] = rank_placement(new, 4, 12) * 16 + nf
    return table


def cross_move_table() -> np.ndarray:
    """(190080, 18) int32: the cross coordinate after each face turn."""
    _, _, ep, eo = face_turn_arrays()
    return _cross_moves(_destinations(np.asarray(ep)), np.asarray(eo))


@lru_cache(maxsize=None)
def code_move_tables() -> tuple[np.ndarray, np.ndarray]:
    """(corner, edge) piece-code move tables, each (24, 18) int64 (small enough to compute)."""
    cp, co, ep, eo = face_turn_arrays()
    cdest, edest = _destinations(np.asarray(cp)), _destinations(np.asarray(ep))
    corner = np.empty((N_CODE, 18), np.int64)
    edge = np.empty((N_CODE, 18), np.int64)
    for c in range(N_CODE):
        for m in range(18):
            slot = cdest[m, c // 3]
            corner[c, m] = slot * 3 + (c % 3 + co[m, slot]) % 3
            slot = edest[m, c // 2]
            edge[c, m] = slot * 2 + (c % 2 + eo[m, slot]) % 2
    for t in (corner, edge):
        t.flags.writeable = False
    return corner, edge


def cross_of(ep, eo) -> int:
    """The cross coordinate of a state's edges."""
    ep = np.asarray(ep)
    slots = np.array([int(np.nonzero(ep == e)[0][0]) for e in CROSS_EDGES], np.int64)
    flips = sum(int(eo[s]) << i for i, s in enumerate(slots))
    return int(rank_placement(slots, 4, 12)) * 16 + flips


def corner_code(cp, co, piece: int) -> int:
    slot = int(np.nonzero(np.asarray(cp) == piece)[0][0])
    return slot * 3 + int(co[slot])


def edge_code(ep, eo, piece: int) -> int:
    slot = int(np.nonzero(np.asarray(ep) == piece)[0][0])
    return slot * 2 + int(eo[slot])


CROSS_GOAL = int(rank_placement(np.array(CROSS_EDGES, np.int64), 4, 12)) * 16
"""The cross coordinate of the solved cube."""
