"""Kociemba's two-phase tables: coordinate move tables, symmetry tables and pruning tables,
registered with the table store and loaded together as one `KociembaTables`."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

import cubelab.tables  # noqa: F401  (numba cache location, before numba)
from numba import njit

from . import kociemba_pruning as pruning
from . import kociemba_symmetry as symmetry
from .kociemba_coords import (
    N_FLIP, N_FLIPSLICE, N_PERM4, N_PERM8, N_SLICE_SORTED, N_TWIST, PHASE2_MOVES, binomials,
    edge_product, flip_of, rank_perm, set_flip, set_slice_sorted, set_twist, slice_sorted_of,
    unrank_perm,
)
from .spec import TableSpec, register
from .store import load_or_build

VERSION = 1
N_FLIPSLICE_CLASSES = 64430
N_CORNER_CLASSES = 2768


def move_cubies():
    """The 18 face turns (FACE_MOVES order) as int64 cubie arrays (cp, co, ep, eo)."""
    from cubelab.cube.moves import FACE_MOVES, move_state
    states = [move_state(m) for m in FACE_MOVES]
    return tuple(np.array([getattr(s, a) for s in states], dtype=np.int64)
                 for a in ("cp", "co", "ep", "eo"))


# ---- move tables ------------------------------------------------------------------------

@njit(cache=True, nogil=True)
def _twist_moves(mcp, mco):
    table = np.empty((N_TWIST, 18), np.uint16)
    co = np.zeros(8, np.int64)
    for t in range(N_TWIST):
        set_twist(t, co)
        for m in range(18):
            v = 0
            for i in range(7):
                v = 3 * v + (co[mcp[m, i]] + mco[m, i]) % 3
            table[t, m] = v
    return table


@njit(cache=True, nogil=True)
def _flip_moves(mep, meo):
    table = np.empty((N_FLIP, 18), np.uint16)
    eo = np.zeros(12, np.int64)
    ep = np.arange(12)
    oep = np.empty(12, np.int64)
    oeo = np.empty(12, np.int64)
    for f in range(N_FLIP):
        set_flip(f, eo)
        for m in range(18):
            edge_product(ep, eo, mep[m], meo[m], oep, oeo)
            table[f, m] = flip_of(oeo)
    return table


@njit(cache=True, nogil=True)
def _slice_moves(mep, meo, binom):
    table = np.empty((N_SLICE_SORTED, 18), np.uint16)
    ep = np.empty(12, np.int64)
    eo = np.zeros(12, np.int64)
    oep = np.empty(12, np.int64)
    oeo = np.empty(12, np.int64)
    for v in range(N_SLICE_SORTED):
        set_slice_sorted(v, ep, binom)
        for m in range(18):
            edge_product(ep, eo, mep[m], meo[m], oep, oeo)
            table[v, m] = slice_sorted_of(oep, binom)
    return table


@njit(cache=True, nogil=True)
def _corner_perm_moves(mcp):
    table = np.empty((N_PERM8, 18), np.uint16)
    cp = np.empty(8, np.int64)
    out = np.empty(8, np.int64)
    for r in range(N_PERM8):
        unrank_perm(r, cp, 0, 8, 0)
        for m in range(18):
            for i in range(8):
                out[i] = cp[mcp[m, i]]
            table[r, m] = rank_perm(out, 0, 8)
    return table


@njit(cache=True, nogil=True)
def _edge8_moves(mep, p2moves):
    table = np.empty((N_PERM8, 10), np.uint16)
    ep = np.empty(12, np.int64)
    out = np.empty(12, np.int64)
    for i in range(8, 12):
        ep[i] = i
    for r in range(N_PERM8):
        unrank_perm(r, ep, 0, 8, 0)
        for k in range(10):
            m = p2moves[k]
            for i in range(12):
                out[i] = ep[mep[m, i]]
            table[r, k] = rank_perm(out, 0, 8)
    return table


# ---- builders for the store ----------------------------------------------------------------

def _build_twist_move(ctx):
    cp, co, _, _ = move_cubies()
    return _twist_moves(cp, co)


def _build_flip_move(ctx):
    _, _, ep, eo = move_cubies()
    return _flip_moves(ep, eo)


def _build_slice_move(ctx):
    _, _, ep, eo = move_cubies()
    return _slice_moves(ep, eo, binomials())


def _build_corner_perm_move(ctx):
    return _corner_perm_moves(move_cubies()[0])


def _build_edge8_move(ctx):
    return _edge8_moves(move_cubies()[2], PHASE2_MOVES)


def _build_twist_conj(ctx):
    return symmetry.twist_conjugation()


def _build_edge8_conj(ctx):
    return symmetry.edge8_conjugation()


def _build_flipslice_class(ctx):
    return symmetry.flipslice_classes(binomials())[0]


def _build_flipslice_rep(ctx):
    _, reps, stab = symmetry.flipslice_classes(binomials())
    return np.stack([reps, stab.astype(np.uint32)], axis=1)


def _build_corner_class(ctx):
    return symmetry.corner_perm_classes()[0]


def _build_corner_rep(ctx):
    _, reps, stab = symmetry.corner_perm_classes()
    return np.stack([reps, stab.astype(np.uint32)], axis=1)


def _finish(ctx, table):
    ctx.check_cancel()
    return table


def _build_phase1(ctx):
    rep = ctx.load("kociemba.flipslice_rep")
    table = pruning.build_phase1(
        ctx.load("kociemba.flipslice_class"), np.ascontiguousarray(rep[:, 0]),
        np.ascontiguousarray(rep[:, 1]), ctx.load("kociemba.flip_move"),
        ctx.load("kociemba.slice_move"), ctx.load("kociemba.twist_move"),
        ctx.load("kociemba.twist_conj"), ctx.counters, ctx.cancel)
    return _finish(ctx, table)


def _build_phase2(ctx):
    rep = ctx.load("kociemba.corner_rep")
    table = pruning.build_phase2(
        ctx.load("kociemba.corner_class"), np.ascontiguousarray(rep[:, 0]),
        np.ascontiguousarray(rep[:, 1]), ctx.load("kociemba.corner_move"),
        ctx.load("kociemba.edge8_move"), ctx.load("kociemba.edge8_conj"), PHASE2_MOVES,
        ctx.counters, ctx.cancel)
    return _finish(ctx, table)


def _build_corner_slice(ctx):
    table = pruning.build_perm_slice(ctx.load("kociemba.corner_move"), PHASE2_MOVES,
                                     ctx.load("kociemba.slice_move"), PHASE2_MOVES,
                                     ctx.counters, ctx.cancel)
    return _finish(ctx, table)


def _build_edge_slice(ctx):
    table = pruning.build_perm_slice(ctx.load("kociemba.edge8_move"), np.arange(10),
                                     ctx.load("kociemba.slice_move"), PHASE2_MOVES,
                                     ctx.counters, ctx.cancel)
    return _finish(ctx, table)


def _build_twist_slice(ctx):
    table = pruning.build_coord_slice(ctx.load("kociemba.twist_move"),
                                      ctx.load("kociemba.slice_move"), ctx.counters, ctx.cancel)
    return _finish(ctx, table)


def _build_flip_slice(ctx):
    table = pruning.build_coord_slice(ctx.load("kociemba.flip_move"),
                                      ctx.load("kociemba.slice_move"), ctx.counters, ctx.cancel)
    return _finish(ctx, table)


def _spec(name, build, description, shape_bytes, deps=(), **params):
    return register(TableSpec(
        name=f"kociemba.{name}", solver="kociemba", params={"version": VERSION, **params},
        build=build, description=description, deps=tuple(f"kociemba.{d}" for d in deps),
        expected_bytes=shape_bytes))


SPECS = (
    _spec("twist_move", _build_twist_move, "corner twist x 18 moves", N_TWIST * 18 * 2,
          size=N_TWIST),
    _spec("flip_move", _build_flip_move, "edge flip x 18 moves", N_FLIP * 18 * 2, size=N_FLIP),
    _spec("slice_move", _build_slice_move, "UD-slice edges (slots and order) x 18 moves",
          N_SLICE_SORTED * 18 * 2, size=N_SLICE_SORTED),
    _spec("corner_move", _build_corner_perm_move, "corner permutation x 18 moves",
          N_PERM8 * 18 * 2, size=N_PERM8),
    _spec("edge8_move", _build_edge8_move, "UD-edge permutation x 10 phase-2 moves",
          N_PERM8 * 10 * 2, size=N_PERM8),
    _spec("twist_conj", _build_twist_conj, "twist x 16 UD symmetries", N_TWIST * 16 * 2,
          size=N_TWIST),
    _spec("edge8_conj", _build_edge8_conj, "UD-edge permutation x 16 UD symmetries",
          N_PERM8 * 16 * 2, size=N_PERM8),
    _spec("flipslice_class", _build_flipslice_class,
          "flip-slice -> symmetry class and symmetry", N_FLIPSLICE * 4, size=N_FLIPSLICE),
    _spec("flipslice_rep", _build_flipslice_rep,
          "flip-slice class -> representative and stabilizer", N_FLIPSLICE_CLASSES * 8,
          classes=N_FLIPSLICE_CLASSES),
    _spec("corner_class", _build_corner_class,
          "corner permutation -> symmetry class and symmetry", N_PERM8 * 4, size=N_PERM8),
    _spec("corner_rep", _build_corner_rep,
          "corner permutation class -> representative and stabilizer", N_CORNER_CLASSES * 8,
          classes=N_CORNER_CLASSES),
    _spec("phase1_prune", _build_phase1,
          "phase 1: flip-slice class x twist, distance mod 3 (2 bits)",
          (N_FLIPSLICE_CLASSES * N_TWIST + 3) // 4,
          ("flipslice_class", "flipslice_rep", "flip_move", "slice_move", "twist_move",
           "twist_conj"), entries=N_FLIPSLICE_CLASSES * N_TWIST),
    _spec("twist_slice_prune", _build_twist_slice,
          "phase 1: twist x UD-slice slots, distance", N_TWIST * 495, ("twist_move", "slice_move"),
          entries=N_TWIST * 495),
    _spec("flip_slice_prune", _build_flip_slice,
          "phase 1: flip x UD-slice slots, distance", N_FLIP * 495, ("flip_move", "slice_move"),
          entries=N_FLIP * 495),
    _spec("phase2_prune", _build_phase2,
          "phase 2: corner permutation class x UD-edge permutation, distance mod 3 (2 bits)",
          (N_CORNER_CLASSES * N_PERM8 + 3) // 4,
          ("corner_class", "corner_rep", "corner_move", "edge8_move", "edge8_conj"),
          entries=N_CORNER_CLASSES * N_PERM8),
    _spec("corner_slice_prune", _build_corner_slice,
          "phase 2: corner permutation x slice permutation, distance", N_PERM8 * N_PERM4,
          ("corner_move", "slice_move"), entries=N_PERM8 * N_PERM4),
    _spec("edge_slice_prune", _build_edge_slice,
          "phase 2: UD-edge permutation x slice permutation, distance", N_PERM8 * N_PERM4,
          ("edge8_move", "slice_move"), entries=N_PERM8 * N_PERM4),
)


class KociembaTables(NamedTuple):
    """Everything the two-phase search reads, as read-only arrays."""

    twist_move: np.ndarray
    flip_move: np.ndarray
    slice_move: np.ndarray
    corner_move: np.ndarray
    edge8_move: np.ndarray
    twist_conj: np.ndarray
    edge8_conj: np.ndarray
    flipslice_class: np.ndarray
    corner_class: np.ndarray
    phase1_prune: np.ndarray
    twist_slice_prune: np.ndarray
    flip_slice_prune: np.ndarray
    phase2_prune: np.ndarray
    corner_slice_prune: np.ndarray
    edge_slice_prune: np.ndarray


def load_tables(progress=None, cancel=None, log=None) -> KociembaTables:
    """Load (or build, the first time: about a minute) every table the search needs."""
    arrays = {}
    for field in KociembaTables._fields:
        arrays[field] = load_or_build(f"kociemba.{field}", progress=progress, cancel=cancel,
                                      log=log)
    return KociembaTables(**arrays)


def phase1_coordinates(state) -> dict[str, int]:
    """twist, flip, slice_sorted and flipslice (slice * 2048 + flip) of a state's cubies."""
    co = np.asarray(state.co, np.int64)
    eo = np.asarray(state.eo, np.int64)
    ep = np.asarray(state.ep, np.int64)
    ss = int(slice_sorted_of(ep, binomials()))
    flip = int(flip_of(eo))
    return {"twist": int(co[:7] @ 3 ** np.arange(6, -1, -1)), "flip": flip,
            "slice_sorted": ss, "flipslice": (ss // 24) * N_FLIP + flip}


def phase2_coordinates(state) -> dict[str, int]:
    """corner permutation, UD-edge permutation and slice permutation of a state in phase 2."""
    ep = np.asarray(state.ep, np.int64)
    return {"corner_perm": int(rank_perm(np.asarray(state.cp, np.int64), 0, 8)),
            "edge8": int(rank_perm(ep, 0, 8)),
            "slice_perm": int(slice_sorted_of(ep, binomials()))}
