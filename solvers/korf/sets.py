"""Korf's table sets as records: the tables each reads, how its search is prepared, where it splits.

A set is chosen by name (`--tables`, `:tables`, `KorfSolver(tables=...)`); after that the
solver asks the record, never the name: its databases built `max_depth` deep (`tables`), its
search made ready from the loaded arrays (`prepare`, a `Prepared`), the first bound the threads
share below the root (`split_from`) and the metric it counts in. A new set is one record here
(and its tables' specs in tables/korf). Light: the tables' and kernels' modules are imported
when a set is used, so listing the sets loads nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from cubelab.cube.metrics import Metric
from cubelab.solvers.description import TableSetChoice


@dataclass
class Prepared:
    """Tables and kernel arguments of one table set, ready to search."""

    set_name: str
    kernel: object
    args: tuple              # kernel arguments after (items, paths, i0, i1, g0, bound)
    root: object             # state -> node array
    child: object            # (node, move, out) -> None
    heuristic: object        # node -> int
    unknown_depth: int
    lanes: int = 1           # depth-first searches one kernel call interleaves
    order: tuple = ()        # the move order (lists, counts, rows) the kernel walks


@dataclass(frozen=True)
class KorfSet(TableSetChoice):
    """One table set of Korf's solver (see the module docstring)."""

    metric: Metric = Metric.HTM
    split_from: int = 13
    """Bounds below this are searched from the root on one thread (they take milliseconds)."""
    own: Callable[[int | None], tuple] = field(default=lambda max_depth: (), compare=False)
    """The set's own databases, built max_depth deep (None: in full)."""
    search: Callable[["KorfSet", tuple, int | None], Prepared] | None = field(
        default=None, compare=False)
    """Makes the search ready from the loaded arrays (the set's own, in order)."""
    full_only: bool = False
    """Its tables are only built in full (no depth-limited variant for tests)."""

    def tables(self, max_depth: int | None = None):
        """Its tables (the shared ones and its own) as a tables.korf.specs.TableSet."""
        if max_depth is not None and self.full_only:
            raise ValueError(f"the {self.name} set is only built in full (no max_depth)")
        from cubelab.tables.korf.specs import TableSet
        return TableSet(self.name, self.own(max_depth), max_depth)

    def specs(self) -> tuple:
        return self.tables().all_specs

    def prepare(self, arrays: tuple, max_depth: int | None) -> Prepared:
        return self.search(self, arrays, max_depth)


# ---- the sets' databases ----------------------------------------------------------------------

def _strong_tables(max_depth):
    from cubelab.tables.korf.specs import corner_spec, phase_spec
    return phase_spec(max_depth), corner_spec(max_depth)


def _layer_tables(corners: bool):
    def own(max_depth):
        from cubelab.tables.korf.specs import corner_spec, layer_spec
        return layer_spec(max_depth, corners=corners), corner_spec(max_depth)
    return own


def _korf1997_tables(max_depth):
    from cubelab.tables.korf.specs import corner_spec, edge_spec
    return corner_spec(max_depth), edge_spec(0, max_depth), edge_spec(6, max_depth)


def _h48_tables(max_depth):
    from cubelab.tables.korf.specs import corner_spec, h48_spec, layer_spec
    return layer_spec(None, corners=True), corner_spec(None), h48_spec()


def _strong_qtm_tables(max_depth):
    from cubelab.tables.korf.qtm import corner_qtm_spec, phase_qtm_spec
    return phase_qtm_spec(max_depth), corner_qtm_spec(max_depth)


# ---- the sets' searches -----------------------------------------------------------------------

def _prepare_strong(korf_set: KorfSet, arrays, max_depth) -> Prepared:
    """The strong set's search, in HTM, or in QTM over the quarter turns' tables (the same
    layouts: only the move order, the phase table's walk down and the corners' depth differ)."""
    from cubelab.cube.state import CubeState
    from cubelab.tables.korf.coords import (
        axis_move_maps, axis_phase_coords, corner_sym_tables, cperm_of, move_tables, sym_tables,
    )
    from cubelab.tables.korf.pdb import move_columns, reduce_corners
    from cubelab.tables.korf.qtm import QUARTER_TURNS, corner_depth
    from cubelab.tables.korf.slicephase import solved_coords
    from cubelab.tables.memory import resident
    from ..protocol import SolverError
    from . import strong as kst
    from .lanes import LANES, face_turn_order, mod3_decoder
    from .quarter import quarter_turn_order
    ptab, ctab = arrays
    ptab = resident(ptab)
    csym = reduce_corners(ctab)
    mt, st, cst = move_tables(), sym_tables(), corner_sym_tables()
    unknown = 99 if max_depth is None else max_depth + 1
    dec = mod3_decoder(unknown)
    axmove = axis_move_maps()
    solved_ss = solved_coords()[0]
    if korf_set.metric == Metric.QTM:
        order = quarter_turn_order()
        walk = move_columns(QUARTER_TURNS, mt.sslice, mt.flip, mt.twist)
        corner_unknown = corner_depth(max_depth) + 1
    else:
        order, walk, corner_unknown = face_turn_order(), (mt.sslice, mt.flip, mt.twist), unknown
    cp_info = cst.cp_info
    ss_info = kst.pack_ss_info(st.ss_cls, st.ss_sym, st.ss_fmask)
    args = (*order, mt.cperm, mt.twist, mt.sslice, mt.flip, axmove, csym, cp_info,
            corner_unknown, ptab, dec, ss_info, st.flip_conj, st.twist_conj)

    def root(state: CubeState) -> np.ndarray:
        node = np.empty(kst.S_LEN, np.int64)
        node[kst.S_CP] = cperm_of(state.cp)
        for a, (ss, f, t) in enumerate(axis_phase_coords(state)):
            d = kst.phase_distance(ptab, ss, f, t, unknown, st.ss_cls, st.ss_sym, st.ss_fmask,
                                   st.flip_conj, st.twist_conj, *walk, solved_ss)
            if d < 0:
                raise SolverError("the Korf phase table is inconsistent: rebuild it "
                                  "(cubelab tables clear)")
            node[kst.S_AXIS + 4 * a: kst.S_AXIS + 4 * a + 4] = (ss, f, t, d)
        return node

    def child(node, m, out):
        kst.strong_child(node, m, out, mt.cperm, mt.twist, mt.sslice, mt.flip, axmove, ptab, dec,
                         st.ss_cls, st.ss_sym, st.ss_fmask, st.flip_conj, st.twist_conj)

    return Prepared(korf_set.name, kst.strong_search, args, root, child,
                    lambda node: kst.start_h(node, csym, cp_info, st.twist_conj,
                                             corner_unknown),
                    max(unknown, corner_unknown), LANES, order)


def _prepare_layers(corners: bool):
    def prepare(korf_set: KorfSet, arrays, max_depth) -> Prepared:
        from .lanes import LANES, face_turn_order
        from .layersearch import prepare_layers
        kernel, args, root, child, bound, top = prepare_layers(arrays, max_depth,
                                                               corners=corners)
        return Prepared(korf_set.name, kernel, args, root, child, bound, top, LANES,
                        face_turn_order())
    return prepare


def _prepare_korf1997(korf_set: KorfSet, arrays, max_depth) -> Prepared:
    from cubelab.cube.state import CubeState
    from cubelab.tables.cubies import canonical_successors
    from cubelab.tables.korf.coords import cperm_of, edge_cubies, move_tables
    from cubelab.tables.memory import resident
    from cubelab.tables.ranks import twist_of
    from . import korf1997 as k97
    from .lanes import LANES, face_turn_order
    ctab, etab_a, etab_b = (resident(a) for a in arrays)
    mt = move_tables()
    unknown = 99 if max_depth is None else max_depth + 1
    lists, counts = canonical_successors()
    args = (lists, counts, mt.cperm, mt.twist, mt.edge_cubie, ctab, etab_a, etab_b, unknown)

    def root(state: CubeState) -> np.ndarray:
        node = np.empty(k97.K_LEN, np.int64)
        node[k97.K_CP] = cperm_of(state.cp)
        node[k97.K_TW] = twist_of(np.asarray(state.co, np.int64))
        node[k97.K_EDGE:] = edge_cubies(state)
        return node

    def child(node, m, out):
        k97.korf_child(node, m, out, mt.cperm, mt.twist, mt.edge_cubie)

    return Prepared(korf_set.name, k97.korf_search, args, root, child,
                    lambda node: k97.korf_h(node, ctab, etab_a, etab_b, unknown), unknown,
                    LANES, face_turn_order())


# ---- the sets ---------------------------------------------------------------------------------

STRONG = KorfSet(
    "strong", "the exact-slice phase table along three axes, with the corner database",
    split_from=13, own=_strong_tables, search=_prepare_strong)
LAYERS = KorfSet(
    "layers", "the layer coset table along three axes for the position and its inverse, with "
    "the corner database", default=True, split_from=14, own=_layer_tables(True),
    search=_prepare_layers(True))
"""The default, chosen by measurement: on the same 20 uniformly random states, `layers` took
0.25x the time of `strong` and 0.11x its nodes (bench/bench_korf.py --speed-sets strong,layers
--random 20)."""
KORF1997 = KorfSet(
    "korf1997", "Korf's own: the corner database and two six-edge databases", split_from=10,
    own=_korf1997_tables, search=_prepare_korf1997)
LAYERS_SMALL = KorfSet(
    "layers-small", "the layer table without its corner layers (100 MB), with the corner "
    "database", split_from=12, own=_layer_tables(False), search=_prepare_layers(False))
LAYERS_H48 = KorfSet(
    "layers-h48", "the layer set and the 7.5 GB H48 table, one probe that sees all 48 "
    "symmetries (11 GB of memory)", split_from=14, own=_h48_tables,
    search=_prepare_layers(True), full_only=True)
STRONG_QTM = KorfSet(
    "strong-qtm", "the strong set's two databases filled over the quarter turns",
    default=True, metric=Metric.QTM, split_from=15, own=_strong_qtm_tables,
    search=_prepare_strong)

SETS: dict[Metric, tuple[KorfSet, ...]] = {
    Metric.HTM: (STRONG, LAYERS, KORF1997, LAYERS_SMALL, LAYERS_H48),
    Metric.QTM: (STRONG_QTM,),
}
"""The sets of each metric, in the order listings show them."""


def korf_set(name: str | None = None, metric: Metric | str = Metric.HTM) -> KorfSet:
    """The set `name` (the metric's default for None); ValueError naming the metric's sets, or
    saying which metric a set of the other one counts in."""
    metric = Metric(metric)
    own = SETS.get(metric)
    if own is None:
        raise ValueError(f"unknown metric {metric.value!r} (choose "
                         f"{' or '.join(m.value for m in SETS)})")
    if name is None:
        return next(s for s in own if s.default)
    for s in own:
        if s.name == name:
            return s
    for other, sets in SETS.items():
        for s in sets:
            if s.name == name:
                raise ValueError(_wrong_metric(s, metric))
    raise ValueError(f"unknown Korf table set {name!r} (choose "
                     f"{', '.join(s.name for s in own)})")


def _wrong_metric(s: KorfSet, metric: Metric) -> str:
    if s.metric == Metric.QTM:
        return f"table set {s.name} counts quarter turns: use it with metric qtm"
    return (f"table set {s.name} counts half turns as one move: in {metric.title} use "
            f"{', '.join(t.name for t in SETS[metric])}")
