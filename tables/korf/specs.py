"""The tables of Korf's optimal solver in the store, and the table sets built from them.

The tables of Korf's optimal solver, registered with the table store, and the sets built
from them: `korf1997` (Korf's own corner and two six-edge databases), `strong` (the
exact-slice phase table looked up along three axes, with the corner database) and `layers`
(the layer coset table, looked up along three axes for the position and its inverse, with the
corner database; `layers-small` is its 100 MB variant without the corner layers;
`layers-h48` adds the 7.5 GB H48 table, one probe that sees all 48 symmetries, for machines with
the memory).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .. import movetables, udsym
from ..spec import TableError, TableSpec, register
from ..memory import available_bytes
from ..store import is_loaded, load_or_build
from .coords import N_CORNERS, N_EDGE6
from .h48table import TABLE_BYTES as H48_BYTES, build as build_h48
from .layertable import LAYER_CLASSES, build_layers, n_bytes as layer_bytes, table_base
from .pdb import build_corners, build_edges
from .slicephase import PHASE_CLASSES, ROW as PHASE_ROW, build_phase

FORMAT = 1
"""Bump when a builder's output changes for the same parameters."""
PHASE_FORMAT = 2
"""The phase table's own format: 2 since it is indexed by the shared sorted-slice coordinate."""
SHARED_SPECS = (movetables.TWIST, movetables.FLIP, movetables.CORNER_PERM,
                movetables.SLICE_SORTED, udsym.TWIST_CONJ, udsym.CORNER_CLASS, udsym.CORNER_REP)
"""The shared move and symmetry tables both sets read besides their own."""

KORF1997 = "korf1997"
STRONG = "strong"
LAYERS = "layers"
LAYERS_SMALL = "layers-small"
LAYERS_H48 = "layers-h48"
DEFAULT_SET = LAYERS
"""Chosen by measurement: on the same 20 uniformly random states, `layers` took 0.25x the time
of `strong` and 0.11x its nodes (bench/bench_korf.py --speed-sets strong,layers --random 20)."""
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
        table, stats = build_phase(ctx, max_depth)
        _log_stats(ctx, stats)
        return table

    return register(TableSpec(
        name="korf.phase" + _suffix(max_depth), solver="korf",
        params={"format": PHASE_FORMAT, "row": PHASE_ROW, "symmetries": 16, "bits": 2, "mod": 3,
                "max_depth": max_depth},
        build=build, expected_bytes=PHASE_BYTES,
        description="Korf strong: flip x exact slice x twist, 16 symmetries, 3 axes, mod 3"))


LAYERS_SECONDS = 195.0
"""The full layer table's build on two cores (measured: 3 min 16 s; its size at the usual rate
would say 7.6 min)."""


@lru_cache(maxsize=None)
def layer_spec(max_depth: int | None = None, corners: bool = True) -> TableSpec:
    """The layer table (2,329 layer classes x 2,048 flips x 2,187 twists, 2 bits above a base,
    each line's minimum beside its entries); corners=False is the small variant without the
    corner layers (45 classes); max_depth builds it that deep only (tests). The full one is
    2.75 GB and builds in about 3 minutes on two cores (one breadth-first level at a time).
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


@lru_cache(maxsize=None)
def h48_spec() -> TableSpec:
    """The H48 table (3,393 corner classes x 34,650 slice memberships x 256 flip classes, the
    distance mod 3 in 2 bits): 7.5 GB, built in about 6 minutes on two cores. Only built in
    full: its layout does not shrink, so a depth-limited build would cost as much memory."""
    def build(ctx):
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
    """A named choice of databases for the search."""

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
        need = sum(s.expected_bytes or 0 for s in self.all_specs if not is_loaded(s))
        have = available_bytes()
        if have is not None and need > have:
            raise TableError(
                f"the {self.name} tables need {need / 1e9:.1f} GB of memory and "
                f"{have / 1e9:.1f} GB is available: choose a smaller set ({listing} lists "
                f"them)")

    @property
    def all_specs(self) -> tuple[TableSpec, ...]:
        """Every table a search with this set needs."""
        return SHARED_SPECS + self.specs

    @property
    def expected_bytes(self) -> int:
        return sum(s.expected_bytes or 0 for s in self.all_specs)


def table_set(name: str = DEFAULT_SET, max_depth: int | None = None) -> TableSet:
    """`korf1997` = (corners, edges 0-5, edges 6-11); `strong` = (phase, corners);
    `layers` = (layer table, corners); `layers-small` = (small layer table, corners);
    `layers-h48` = (layer table, corners, H48 table).
    max_depth builds every table only that deep (a weaker but still admissible heuristic); the
    H48 table has no such variant."""
    if name == KORF1997:
        specs = (corner_spec(max_depth), edge_spec(0, max_depth), edge_spec(6, max_depth))
    elif name == STRONG:
        specs = (phase_spec(max_depth), corner_spec(max_depth))
    elif name == LAYERS:
        specs = (layer_spec(max_depth, corners=True), corner_spec(max_depth))
    elif name == LAYERS_SMALL:
        specs = (layer_spec(max_depth, corners=False), corner_spec(max_depth))
    elif name == LAYERS_H48:
        if max_depth is not None:
            raise ValueError(f"the {LAYERS_H48} set is only built in full (no max_depth)")
        specs = (layer_spec(None, corners=True), corner_spec(None), h48_spec())
    else:
        raise ValueError(f"unknown Korf table set {name!r} (choose "
                         f"{', '.join(TABLE_SET_NAMES)})")
    return TableSet(name, specs, max_depth)


TABLE_SET_NAMES = (STRONG, LAYERS, KORF1997, LAYERS_SMALL, LAYERS_H48)

# The full-size tables are what `cubelab tables status` lists.
for _name in TABLE_SET_NAMES:
    table_set(_name)
