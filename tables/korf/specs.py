"""The tables of Korf's optimal solver in the store, and a set of them loaded together.

The databases, registered with the table store: the corners, the two six-edge databases, the
exact-slice phase table, the layer coset table (and its small variant without the corner
layers) and the 7.5 GB H48 table; each can be built only a few moves deep for tests. Which of
them a search reads is the choice of a table set (solvers/korf/sets.py: korf1997, strong,
layers, layers-small, layers-h48, and strong-qtm of tables/korf/qtm.py); `TableSet` loads one
set's databases with the shared move and symmetry tables, refusing first a set the memory
cannot hold. The H48 table's builder is imported only when it is built.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .. import movetables, udsym
from ..spec import TableSpec, register
from ..store import check_memory, load_or_build
from .coords import N_CORNERS, N_EDGE6, PHASE_CLASSES, PHASE_ROW
from .layertable import LAYER_CLASSES, build_layers, n_bytes as layer_bytes, table_base
from .pdb import build_corners, build_edges

FORMAT = 1
"""Bump when a builder's output changes for the same parameters."""
PHASE_FORMAT = 2
"""The phase table's own format: 2 since it is indexed by the shared sorted-slice coordinate."""
SHARED_SPECS = (movetables.TWIST, movetables.FLIP, movetables.CORNER_PERM,
                movetables.SLICE_SORTED, udsym.TWIST_CONJ, udsym.CORNER_CLASS, udsym.CORNER_REP)
"""The shared move and symmetry tables both sets read besides their own."""

LAYER_FORMAT = 1
"""The layer table's own format."""

PHASE_BYTES = PHASE_CLASSES * 2048 * PHASE_ROW // 4


def _suffix(max_depth: int | None) -> str:
    return "" if max_depth is None else f"-d{max_depth}"


def _log_stats(ctx, stats) -> None:
    ctx.log(f"{ctx.spec.name}: {stats.max_depth + 1} depths, entries per depth {stats.counts}")


@lru_cache(maxsize=None)
def corner_spec(max_depth: int | None = None) -> TableSpec:
    """All 8 corners, 88,179,840 entries; max_depth truncates it (tests use small ones)."""
    def build(ctx):
        table, stats = build_corners(ctx, max_depth)
        _log_stats(ctx, stats)
        return table

    return register(TableSpec(
        name="korf.corners" + _suffix(max_depth), solver="korf",
        params={"format": FORMAT, "entries": N_CORNERS, "bits": 4, "max_depth": max_depth},
        build=build, expected_bytes=(N_CORNERS + 1) // 2,
        description="Korf: all 8 corners (permutation x twist), exact distance, 4 bits"))


@lru_cache(maxsize=None)
def edge_spec(first: int, max_depth: int | None = None) -> TableSpec:
    """Six edges first..first+5 (positions and flips), 42,577,920 entries."""
    if first not in (0, 6):
        raise ValueError("Korf's edge databases track edges 0-5 or 6-11")
    label = "a" if first == 0 else "b"

    def build(ctx):
        table, stats = build_edges(first, ctx, max_depth)
        _log_stats(ctx, stats)
        return table

    return register(TableSpec(
        name=f"korf.edges-{label}" + _suffix(max_depth), solver="korf",
        params={"format": FORMAT, "entries": N_EDGE6, "bits": 4, "first_edge": first,
                "max_depth": max_depth},
        build=build, expected_bytes=(N_EDGE6 + 1) // 2,
        description=f"Korf: six edges {first}-{first + 5} (positions x flips), exact, 4 bits"))


@lru_cache(maxsize=None)
def phase_spec(max_depth: int | None = None) -> TableSpec:
    """The exact-slice phase table (788 slice classes x 2,048 flips x 2,187 twists, mod 3)."""
    def build(ctx):
        from .slicephase import build_phase     # the builder loads only to build
        table, stats = build_phase(ctx, max_depth)
        _log_stats(ctx, stats)
        return table

    return register(TableSpec(
        name="korf.phase" + _suffix(max_depth), solver="korf",
        params={"format": PHASE_FORMAT, "row": PHASE_ROW, "symmetries": 16, "bits": 2, "mod": 3,
                "max_depth": max_depth},
        build=build, expected_bytes=PHASE_BYTES,
        description="Korf strong: flip x exact slice x twist, 16 symmetries, 3 axes, mod 3"))


LAYERS_SECONDS = 100.0
"""The full layer table's build on two cores: half the CPU of the build it replaced, which took
3 min 15 s on two quiet cores (measured side by side at load 3-5: 159 s CPU against 318 s; its
size at the usual rate would say 7.6 min)."""


@lru_cache(maxsize=None)
def layer_spec(max_depth: int | None = None, corners: bool = True) -> TableSpec:
    """The layer table (2,329 layer classes x 2,048 flips x 2,187 twists, 2 bits above a base,
    each line's minimum beside its entries); corners=False is the small variant without the
    corner layers (45 classes); max_depth builds it that deep only (tests). The full one is
    2.75 GB and builds in about 100 s on two quiet cores (one breadth-first level at a time).
    """
    def build(ctx):
        table, stats = build_layers(ctx, max_depth, corners)
        _log_stats(ctx, stats)
        return table

    classes = LAYER_CLASSES[corners]
    what = "corner layers x slice edges" if corners else "slice edges"
    return register(TableSpec(
        name=("korf.layers" if corners else "korf.layers-small") + _suffix(max_depth),
        solver="korf",
        params={"format": LAYER_FORMAT, "classes": classes, "symmetries": 16, "bits": 2,
                "base": table_base(max_depth), "line_entries": 254, "max_depth": max_depth},
        build=build, expected_bytes=layer_bytes(classes),
        expected_seconds=LAYERS_SECONDS if corners and max_depth is None else None,
        description=f"Korf layers: {what} x flip x twist, 16 symmetries, 3 axes, 2 bits over "
                    f"a base"))


H48_SECONDS = 380.0
"""The H48 build's time on two cores (measured: 6 min 17 s); its bytes fill about 3x faster
than the usual rate, which would announce 21 minutes."""
H48_BYTES = 3393 * 34650 * 64
"""3,393 corner classes x 34,650 slice memberships, a 64-byte row of 256 flip classes each
(h48table.TABLE_BYTES, which its builder checks against this)."""


@lru_cache(maxsize=None)
def h48_spec() -> TableSpec:
    """The H48 table (3,393 corner classes x 34,650 slice memberships x 256 flip classes, the
    distance mod 3 in 2 bits): 7.5 GB, built in about 6 minutes on two cores. Only built in
    full: its layout does not shrink, so a depth-limited build would cost as much memory."""
    def build(ctx):
        from .h48table import TABLE_BYTES, build as build_h48
        assert TABLE_BYTES == H48_BYTES, "the H48 table's size changed: update H48_BYTES"
        table, stats = build_h48(ctx)
        _log_stats(ctx, stats)
        return table

    return register(TableSpec(
        name="korf.h48", solver="korf",
        params={"format": FORMAT, "corner_classes": 3393, "memberships": 34650,
                "flip_classes": 256, "symmetries": 48, "bits": 2, "mod": 3},
        build=build, expected_bytes=H48_BYTES, expected_seconds=H48_SECONDS,
        description="Korf H48: corner tetrads x twist x edge slices x flip class, 48 "
                    "symmetries, mod 3"))


@dataclass(frozen=True)
class TableSet:
    """A named choice of databases for the search (solvers/korf/sets.py says which)."""

    name: str
    specs: tuple[TableSpec, ...]
    max_depth: int | None = None

    def load(self, progress=None, cancel=None, log=None) -> tuple[np.ndarray, ...]:
        """The set's own databases, in order (the shared tables are loaded too, first);
        TableError before anything is built or read if they cannot fit in memory."""
        self.check_memory()
        for s in SHARED_SPECS:
            load_or_build(s, progress=progress, cancel=cancel, log=log)
        return tuple(load_or_build(s, progress=progress, cancel=cancel, log=log)
                     for s in self.specs)

    def check_memory(self, listing: str = "'cubelab tables status'") -> None:
        """Refuse, in one line, a set the memory available now cannot hold (a search reads
        its tables at random, so they must all be resident); what this process holds already
        costs nothing more. `listing` names where the user finds the other sets."""
        check_memory(self.all_specs, f"the {self.name} tables",
                     f"choose a smaller set ({listing} lists them)")

    @property
    def all_specs(self) -> tuple[TableSpec, ...]:
        """Every table a search with this set needs."""
        return SHARED_SPECS + self.specs

    @property
    def expected_bytes(self) -> int:
        return sum(s.expected_bytes or 0 for s in self.all_specs)


# The full-size tables are what `cubelab tables status` lists (in the order of the sets that
# read them: strong, layers, korf1997, layers-small, layers-h48).
# (called as the sets call them: lru_cache keys a keyword apart from a positional argument,
# and a second spec object under a name would make the store drop what it holds)
phase_spec(None)
corner_spec(None)
layer_spec(None, corners=True)
edge_spec(0, None)
edge_spec(6, None)
layer_spec(None, corners=False)
h48_spec()
