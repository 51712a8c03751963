"""CFOP's tables in the store, and `load_tables` that loads them for the search.

The cross move table, the exact distance of every cross (190,080 bytes), and for each F2L slot
the exact distance to "cross solved and this slot's corner home" and to "cross solved and this
slot's edge home" (4,561,920 bytes each, 36.5 MB for the eight): an F2L search takes the largest
of them over the slots it must keep and the one it solves, an admissible bound.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..bfs import pair_distances
from ..spec import TableSpec, register
from ..store import load_or_build
from .coords import (CROSS_GOAL, N_CODE, N_CROSS, PAIR_CORNERS, PAIR_EDGES, PAIR_NAMES,
                     code_move_tables, cross_move_table)

VERSION = 1


def _spec(name, build, description, nbytes, deps=()):
    return register(TableSpec(name=f"cfop.{name}", solver="cfop",
                              params={"version": VERSION, "bytes": nbytes}, build=build,
                              description=description, deps=tuple(d.name for d in deps),
                              expected_bytes=nbytes))


CROSS_MOVE = _spec("cross_move", lambda ctx: cross_move_table(),
                   "cross edges (slots, flips) x 18 moves", N_CROSS * 18 * 4)


def _build_cross(ctx) -> np.ndarray:
    move = ctx.load(CROSS_MOVE).astype(np.int64)
    return pair_distances(move, np.zeros((1, 18), np.int64), [CROSS_GOAL], ctx)


CROSS = _spec("cross", _build_cross, "exact distance of every cross", N_CROSS, (CROSS_MOVE,))


def _pair_builder(kind: str, k: int):
    def build(ctx) -> np.ndarray:
        move = ctx.load(CROSS_MOVE).astype(np.int64)
        corner, edge = code_move_tables()
        home = PAIR_CORNERS[k] * 3 if kind == "corner" else PAIR_EDGES[k] * 2
        return pair_distances(move, corner if kind == "corner" else edge,
                              [CROSS_GOAL * N_CODE + home], ctx)
    return build


CROSS_CORNER = tuple(
    _spec(f"cross_corner_{PAIR_NAMES[k].lower()}", _pair_builder("corner", k),
          f"exact distance to cross + the {PAIR_NAMES[k]} slot's corner", N_CROSS * N_CODE,
          (CROSS_MOVE,)) for k in range(4))
CROSS_EDGE = tuple(
    _spec(f"cross_edge_{PAIR_NAMES[k].lower()}", _pair_builder("edge", k),
          f"exact distance to cross + the {PAIR_NAMES[k]} slot's edge", N_CROSS * N_CODE,
          (CROSS_MOVE,)) for k in range(4))
SPECS = (CROSS_MOVE, CROSS) + CROSS_CORNER + CROSS_EDGE
"""Every table the CFOP solver needs."""


class CfopTables(NamedTuple):
    """What the search reads: move tables (int64) and distance tables (uint8)."""

    cross_move: np.ndarray      # (190080, 18)
    corner_move: np.ndarray     # (24, 18)
    edge_move: np.ndarray       # (24, 18)
    cross: np.ndarray           # (190080,)
    cross_corner: np.ndarray    # (4, 190080 * 24)
    cross_edge: np.ndarray      # (4, 190080 * 24)


def load_tables(progress=None, cancel=None, log=None) -> CfopTables:
    """Load (or build and save, a few seconds the first time) every CFOP table."""
    arrays = []
    for i, spec in enumerate(SPECS):
        arrays.append(load_or_build(spec, cancel=cancel, log=log))
        if progress is not None:
            progress(i + 1, len(SPECS))
    corner, edge = code_move_tables()
    return CfopTables(np.ascontiguousarray(arrays[0], np.int64), corner, edge,
                      np.ascontiguousarray(arrays[1]), np.stack(arrays[2:6]),
                      np.stack(arrays[6:10]))


if __name__ == "__main__":
    import time

    t = time.perf_counter()
    tabs = load_tables(log=print)
    print(f"loaded in {time.perf_counter() - t:.1f} s")
    print("cross distances:", np.bincount(tabs.cross[tabs.cross < 255]).tolist())
    for k in range(4):
        d = tabs.cross_corner[k]
        print(f"cross + {PAIR_NAMES[k]} corner:", np.bincount(d[d < 255]).tolist())
