"""The competition's heuristics: misplaced pieces, Manhattan distance, pattern databases.

A position is carried as piece codes (cubelab.tables.cfop.coords: a corner as slot * 3 + twist,
an edge as slot * 2 + flip, piece by piece) plus twist, flip and corner-permutation coordinates
for the pattern databases. Which are admissible (never more than the moves still needed)?

- `misplaced`: pieces not home or not oriented, divided by 8 and rounded up (one face turn moves
  8 pieces): admissible, and weak.
- `manhattan`: each piece's fewest face turns to its home, oriented (exact, by breadth-first
  search over its 24 slot-orientations); corners and edges summed apart, each divided by 4 (a
  turn moves 4 of each) and rounded up, the larger kept: admissible.
- `manhattan-raw`: the plain sum of those distances, as the Java project used it: NOT
  admissible (it overestimates up to eight-fold), so its solutions are never called optimal.
- `pdb`: the larger of the baselines' corner twist x edge flip and corner permutation pattern
  databases: admissible.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from cubelab.cube.state import CubeState
from cubelab.tables.cfop.coords import code_move_tables, corner_code, edge_code

from .about import HEURISTICS

ADMISSIBLE = {"misplaced": True, "manhattan": True, "manhattan-raw": False, "pdb": True}
KIND = {name: k for k, name in enumerate(HEURISTICS)}
"""The heuristic's number in the search kernels."""


def check_heuristic(name: str) -> str:
    if name not in HEURISTICS:
        raise ValueError(f"unknown heuristic {name!r} (choose {', '.join(HEURISTICS)})")
    return name


@lru_cache(maxsize=1)
def piece_distances() -> tuple[np.ndarray, np.ndarray]:
    """(corner (8, 24), edge (12, 24)) int64: fewest face turns from each code of a piece to
    its home code (breadth-first over the 24 codes; face turns are closed under inverse)."""
    corner_move, edge_move = code_move_tables()
    out = []
    for move, n, mult in ((corner_move, 8, 3), (edge_move, 12, 2)):
        dist = np.full((n, 24), -1, np.int64)
        for piece in range(n):
            frontier = [piece * mult]
            dist[piece, piece * mult] = 0
            d = 0
            while frontier:
                d += 1
                nxt = []
                for c in frontier:
                    for m in range(18):
                        c2 = move[c, m]
                        if dist[piece, c2] < 0:
                            dist[piece, c2] = d
                            nxt.append(c2)
                frontier = nxt
        dist.flags.writeable = False
        out.append(dist)
    return out[0], out[1]


def piece_codes(s: CubeState) -> tuple[np.ndarray, np.ndarray]:
    """Each corner's and each edge's code, piece by piece (int64 arrays of 8 and 12)."""
    return (np.array([corner_code(s.cp, s.co, i) for i in range(8)], np.int64),
            np.array([edge_code(s.ep, s.eo, i) for i in range(12)], np.int64))


HOME_CORNERS = np.arange(8, dtype=np.int64) * 3
HOME_EDGES = np.arange(12, dtype=np.int64) * 2
