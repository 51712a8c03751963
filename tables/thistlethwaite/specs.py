"""Thistlethwaite's tables in the store, and `load_tables` that loads them for the search.

The corner lookups, a move table per coordinate (walked along the orbit of the solved cube) and
an exact distance table per phase; `load_tables` loads them as the one `ThistlethwaiteTables` the
search reads.

Phase 1's coordinate is the edge flip, whose move table is the shared `moves.flip`. The others'
move tables are built by walking the orbit of the solved cube under the phase's moves (each
coordinate value keeps the first cubie state that reached it); the distance tables by the shared
breadth-first builder (cubelab.tables.bfs.pair_distances). Tables at version 2 rank the M- and
E-slice slots as cubelab.tables.ranks does (version 1 had a ranking of its own).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from cubelab.tables.jit import kernel

from .. import movetables as moves
from ..bfs import pair_distances
from ..cubies import apply_move, face_turn_arrays
from ..spec import TableSpec, register
from ..store import load_or_build
from .coords import (
    COORD_NAMES, COORD_PHASE, COORD_SIZES, PHASE_COORDS, PHASE_MOVES, PHASE_SIZES, SUBGROUPS,
    Lookups, coordinate, coordinate_args, corner_lookups, phase_coordinates,
)

RANKING_VERSION = {"mslice": 2, "eslice": 2}
"""Tables whose content changed with the shared slot ranking (others stay at version 1)."""


@kernel
def _orbit_move_table(which, size, moves, mcp, mco, mep, meo, lr, cclass, h_index,
                      m_slots, e_slots, s_slots, binom, counters, cancel):
    """table[v, k] = coordinate after moves[k] from any state with coordinate v, found by
    walking the orbit of the solved cube; -1 marks values never reached (a bug if any)."""
    nm = len(moves)
    table = np.full((size, nm), -1, np.int32)
    reps = np.empty((size, 40), np.int64)      # cp co ep eo of a state with each value
    have = np.zeros(size, np.bool_)
    queue = np.empty(size, np.int64)
    cp = np.arange(8)
    co = np.zeros(8, np.int64)
    ep = np.arange(12)
    eo = np.zeros(12, np.int64)
    start = coordinate(which, cp, co, ep, eo, lr, cclass, h_index, m_slots, e_slots,
                       s_slots, binom)
    reps[start, 0:8] = cp
    reps[start, 8:16] = co
    reps[start, 16:28] = ep
    reps[start, 28:40] = eo
    have[start] = True
    queue[0] = start
    head, tail = 0, 1
    ocp = np.empty(8, np.int64)
    oco = np.empty(8, np.int64)
    oep = np.empty(12, np.int64)
    oeo = np.empty(12, np.int64)
    while head < tail:
        if cancel[0]:
            break
        v = queue[head]
        head += 1
        for k in range(nm):
            apply_move(reps[v, 0:8], reps[v, 8:16], reps[v, 16:28], reps[v, 28:40],
                       mcp, mco, mep, meo, moves[k], ocp, oco, oep, oeo)
            w = coordinate(which, ocp, oco, oep, oeo, lr, cclass, h_index, m_slots,
                           e_slots, s_slots, binom)
            table[v, k] = w
            if not have[w]:
                have[w] = True
                reps[w, 0:8] = ocp
                reps[w, 8:16] = oco
                reps[w, 16:28] = oep
                reps[w, 28:40] = oeo
                queue[tail] = w
                tail += 1
        counters[0] = head
        counters[1] = size
    return table


def _lookups(load) -> Lookups:
    return Lookups(*load(LOOKUP_SPEC).astype(np.int64))


def _move_table_builder(which: int):
    def build(ctx) -> np.ndarray:
        table = _orbit_move_table(
            which, COORD_SIZES[which], PHASE_MOVES[COORD_PHASE[which]].astype(np.int64),
            *face_turn_arrays(), *coordinate_args(_lookups(ctx.load)), ctx.counters,
            ctx.cancel)
        ctx.check_cancel()
        if (table < 0).any():
            raise RuntimeError(f"{COORD_NAMES[which]}: the orbit misses some values")
        return table.astype(np.int16)
    return build


def _goal(phase: int, lookups: Lookups) -> int:
    a, b = phase_coordinates(phase, np.arange(8), np.zeros(8), np.arange(12), np.zeros(12),
                             lookups)
    b_coord = PHASE_COORDS[phase][1]
    return a * (1 if b_coord is None else COORD_SIZES[b_coord]) + b


def _phase_move_tables(load, phase: int) -> tuple[np.ndarray, np.ndarray]:
    """The phase's two move tables as int64 (size, moves) arrays; phase 1's second is a dummy."""
    a, b = PHASE_COORDS[phase]
    move_a = load(MOVE_SPECS[a]).astype(np.int64)
    move_b = (np.zeros((1, move_a.shape[1]), np.int64) if b is None
              else load(MOVE_SPECS[b]).astype(np.int64))
    return move_a, move_b


def _distance_builder(phase: int):
    def build(ctx) -> np.ndarray:
        move_a, move_b = _phase_move_tables(ctx.load, phase)
        dist = pair_distances(move_a, move_b, [_goal(phase, _lookups(ctx.load))], ctx)
        ctx.check_cancel()
        if (dist == 255).any():
            raise RuntimeError(f"phase {phase + 1}: some cosets were never reached")
        return dist
    return build


# ---- registration and loading ------------------------------------------------------------------

def _spec(name, build, description, nbytes, deps, version=1, **params):
    return register(TableSpec(
        name=f"thistlethwaite.{name}", solver="thistlethwaite",
        params={"version": version, **params}, build=build, description=description,
        deps=tuple(d.name for d in deps), expected_bytes=nbytes))


_MOVE_DESCRIPTIONS = {
    "twist_lr": "phase 2: corner twist (L/R axis) x 14 moves",
    "mslice": "phase 2: M-slice edge slots x 14 moves",
    "cclass": "phase 3: corner tetrad class x 10 moves",
    "eslice": "phase 3: E-slice edge slots x 10 moves",
    "h_index": "phase 4: corner permutation in the half-turn group x 6 moves",
    "edges4": "phase 4: edge orders in the slices x 6 moves",
}

LOOKUP_SPEC = _spec("corner_lookups", lambda ctx: corner_lookups(),
                    "corner permutation -> phase-3 class and phase-4 index", 2 * 40320 * 2, (),
                    size=40320)
MOVE_SPECS = (moves.FLIP,) + tuple(
    _spec(f"{name}_move", _move_table_builder(which), _MOVE_DESCRIPTIONS[name],
          COORD_SIZES[which] * len(PHASE_MOVES[COORD_PHASE[which]]) * 2, (LOOKUP_SPEC,),
          RANKING_VERSION.get(name, 1), size=COORD_SIZES[which])
    for which, name in enumerate(COORD_NAMES) if which > 0)
"""One move table per coordinate of COORD_NAMES (the first is the shared flip table)."""
DISTANCE_SPECS = tuple(
    _spec(f"phase{k + 1}", _distance_builder(k),
          f"phase {k + 1}: exact distance to {SUBGROUPS[k].split(' =')[0]} of each coset",
          PHASE_SIZES[k], (LOOKUP_SPEC,) + tuple(MOVE_SPECS[c] for c in PHASE_COORDS[k]
                                                 if c is not None),
          max(RANKING_VERSION.get(COORD_NAMES[c], 1) for c in PHASE_COORDS[k] if c is not None),
          size=PHASE_SIZES[k])
    for k in range(4))
SPECS = (LOOKUP_SPEC,) + MOVE_SPECS + DISTANCE_SPECS
"""Every table the solver needs."""


class ThistlethwaiteTables(NamedTuple):
    """Everything the search needs, as int64 move tables and uint8 distance tables."""

    lookups: Lookups
    move_a: tuple[np.ndarray, ...]     # per phase: (size_a, moves)
    move_b: tuple[np.ndarray, ...]     # per phase: (size_b, moves); phase 1's is a dummy
    dist: tuple[np.ndarray, ...]       # per phase: (size_a * size_b,)


def load_tables(progress=None, cancel=None, log=None) -> ThistlethwaiteTables:
    """Load (or build and save) every Thistlethwaite table; progress(done, total) per table."""
    arrays = {}

    def load(spec):
        if spec.name not in arrays:
            arrays[spec.name] = load_or_build(spec, cancel=cancel, log=log)
            if progress is not None:
                progress(len(arrays), len(SPECS))
        return arrays[spec.name]

    for spec in SPECS:
        load(spec)
    pairs = [_phase_move_tables(load, k) for k in range(4)]
    dist = tuple(np.ascontiguousarray(load(spec)) for spec in DISTANCE_SPECS)
    return ThistlethwaiteTables(_lookups(load), tuple(p[0] for p in pairs),
                                tuple(p[1] for p in pairs), dist)


if __name__ == "__main__":
    import time

    t = time.perf_counter()
    tabs = load_tables(log=print)
    print(f"loaded in {time.perf_counter() - t:.1f} s")
    for k, d in enumerate(tabs.dist):
        counts = np.bincount(d)
        print(f"phase {k + 1} -> {SUBGROUPS[k]}: {len(d):,} cosets, at most {len(counts) - 1} "
              f"moves, by distance {counts.tolist()}")
