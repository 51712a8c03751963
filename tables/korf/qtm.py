"""The quarter-turn tables of Korf's solver: corners and the exact-slice phase table in QTM.

The same two databases as the `strong` set (tables/korf/specs.py), with the same layouts, filled
by breadth-first search over the 12 quarter turns instead of the 18 face turns: a half turn is
two moves here. Both stay exact (the corners, 4 bits) or decodable (the phase table, distance
mod 3: one quarter turn changes a distance by at most one, as one face turn does in HTM).

The corners reach 14 quarter turns at most (6,624 positions; the build finds every entry by
depth 14), which 4 bits hold; the build stops at CORNER_CAP all the same, so a deeper entry
could only read as unknown (CORNER_CAP + 1), still a lower bound, never as a wrong distance.
"""

from __future__ import annotations

from functools import lru_cache

from cubelab.cube.moves import FACE_MOVES

from ..spec import TableSpec, register
from .coords import N_CORNERS
from .pdb import build_corners
from .slicephase import ROW as PHASE_ROW, build_phase
from .specs import PHASE_BYTES, _log_stats, _suffix

QUARTER_TURNS = tuple(i for i, m in enumerate(FACE_MOVES) if m.amount != 2)
"""FACE_MOVES indices of the 12 quarter turns (U U' R R' ...): the moves the tables count."""
FORMAT = 1
"""Bump when a builder's output changes for the same parameters."""
CORNER_CAP = 14
"""The deepest corner distance 4 bits hold (15 means: beyond)."""


def corner_depth(max_depth: int | None) -> int:
    """How deep the QTM corner database is built for a set built `max_depth` deep."""
    return CORNER_CAP if max_depth is None else min(max_depth, CORNER_CAP)


def _over_quarter_turns(builder, max_depth: int | None):
    """A spec's build: `builder` (pdb.build_corners, slicephase.build_phase) walking the quarter
    turns only, its levels logged."""
    def build(ctx):
        table, stats = builder(ctx, max_depth, moves=QUARTER_TURNS)
        _log_stats(ctx, stats)
        return table
    return build


@lru_cache(maxsize=None)
def corner_qtm_spec(max_depth: int | None = None) -> TableSpec:
    """All 8 corners in quarter turns, 88,179,840 entries, exact up to corner_depth()."""
    depth = corner_depth(max_depth)
    return register(TableSpec(
        name="korf.corners-qtm" + _suffix(max_depth), solver="korf-qtm",
        params={"format": FORMAT, "entries": N_CORNERS, "bits": 4, "metric": "qtm",
                "max_depth": depth},
        build=_over_quarter_turns(build_corners, depth), expected_bytes=(N_CORNERS + 1) // 2,
        description=f"Korf QTM: all 8 corners, quarter turns, exact to {depth}, 4 bits"))


@lru_cache(maxsize=None)
def phase_qtm_spec(max_depth: int | None = None) -> TableSpec:
    """The exact-slice phase table in quarter turns (788 x 2,048 x 2,187 entries, mod 3)."""
    return register(TableSpec(
        name="korf.phase-qtm" + _suffix(max_depth), solver="korf-qtm",
        params={"format": FORMAT, "row": PHASE_ROW, "symmetries": 16, "bits": 2, "mod": 3,
                "metric": "qtm", "max_depth": max_depth},
        build=_over_quarter_turns(build_phase, max_depth), expected_bytes=PHASE_BYTES,
        description="Korf QTM: flip x exact slice x twist in quarter turns, 16 symmetries, mod 3"))


# The full-size tables are what `cubelab tables status` lists (those of the strong-qtm set).
phase_qtm_spec(None)
corner_qtm_spec(None)


if __name__ == "__main__":
    import sys
    import time
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else None
    t0 = time.perf_counter()
    _, stats = build_corners(None, depth, moves=QUARTER_TURNS)
    print(f"QTM corners: {time.perf_counter() - t0:.1f} s, entries per depth {stats.counts}")
