"""Kociemba's two-phase tables in the store, and `load_tables` for the search.

Kociemba's two-phase tables registered with the store, and `load_tables`, which loads them
(with the shared move and symmetry tables they build on) as the one `KociembaTables` the search
reads.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from cubelab.tables.jit import kernel

from .. import movetables as moves
from .. import udsym
from ..cubies import move_indices
from ..ranks import BINOM, N_FLIP, N_PERM4, N_PERM8, N_TWIST, flip_of, rank_perm, slice_sorted_of
from ..ranks import twist_of, unrank_perm
from ..spec import TableSpec, register
from ..store import load_or_build
from . import pruning, symmetry
from .symmetry import N_FLIPSLICE, N_FLIPSLICE_CLASSES

VERSION = 1
PHASE2_MOVES = move_indices("U U2 U' D D2 D' R2 L2 F2 B2")
"""Indices in FACE_MOVES of the moves that keep <U, D, R2, L2, F2, B2> (phase 2)."""
PHASE2_MOVES.flags.writeable = False


@kernel
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

def _build_edge8_move(ctx):
    from ..cubies import face_turn_arrays
    return _edge8_moves(face_turn_arrays()[2], PHASE2_MOVES)


def _build_flipslice_rep(ctx):
    _, reps, stab = symmetry.flipslice_classes()
    return np.stack([reps, stab.astype(np.uint32)], axis=1)


def _class_reps(ctx, name):
    """(representatives, stabilizer masks) of a `*_rep` table, as contiguous arrays."""
    rep = ctx.load(name)
    return np.ascontiguousarray(rep[:, 0]), np.ascontiguousarray(rep[:, 1])


def _build_phase1(ctx):
    reps, stab = _class_reps(ctx, "kociemba.flipslice_rep")
    return pruning.build_phase1(
        ctx, ctx.load("kociemba.flipslice_class"), reps, stab, ctx.load(moves.FLIP),
        ctx.load(moves.SLICE_SORTED), ctx.load(moves.TWIST), ctx.load(udsym.TWIST_CONJ))


def _build_phase1_moves(ctx):
    reps, _ = _class_reps(ctx, "kociemba.flipslice_rep")
    return pruning.build_phase1_moves(
        ctx, ctx.load("kociemba.phase1_prune"), ctx.load("kociemba.flipslice_class"), reps,
        ctx.load(moves.FLIP), ctx.load(moves.SLICE_SORTED), ctx.load(moves.TWIST),
        ctx.load(udsym.TWIST_CONJ))


def _build_phase2(ctx):
    reps, stab = _class_reps(ctx, udsym.CORNER_REP.name)
    return pruning.build_phase2(
        ctx, ctx.load(udsym.CORNER_CLASS), reps, stab, ctx.load(moves.CORNER_PERM),
        ctx.load("kociemba.edge8_move"), ctx.load("kociemba.edge8_conj"), PHASE2_MOVES)


def _build_phase2_exact(ctx):
    reps, _ = _class_reps(ctx, udsym.CORNER_REP.name)
    return pruning.build_phase2_exact(
        ctx, ctx.load("kociemba.phase2_prune"), ctx.load(udsym.CORNER_CLASS), reps,
        ctx.load(moves.CORNER_PERM), ctx.load("kociemba.edge8_move"),
        ctx.load("kociemba.edge8_conj"), PHASE2_MOVES)


def _build_corner_slice(ctx):
    return pruning.build_perm_slice(ctx, ctx.load(moves.CORNER_PERM)[:, PHASE2_MOVES],
                                    ctx.load(moves.SLICE_SORTED)[:, PHASE2_MOVES])


def _build_edge_slice(ctx):
    return pruning.build_perm_slice(ctx, ctx.load("kociemba.edge8_move"),
                                    ctx.load(moves.SLICE_SORTED)[:, PHASE2_MOVES])


def _build_twist_slice(ctx):
    return pruning.build_coord_slice(ctx, ctx.load(moves.TWIST), ctx.load(moves.SLICE_SORTED))


def _build_flip_slice(ctx):
    return pruning.build_coord_slice(ctx, ctx.load(moves.FLIP), ctx.load(moves.SLICE_SORTED))


def _spec(name, build, description, nbytes, deps=(), **params):
    return register(TableSpec(
        name=f"kociemba.{name}", solver="kociemba", params={"version": VERSION, **params},
        build=build, description=description,
        deps=tuple(d if isinstance(d, str) else d.name for d in deps), expected_bytes=nbytes))


EDGE8_MOVE = _spec("edge8_move", _build_edge8_move, "UD-edge permutation x 10 phase-2 moves",
                   N_PERM8 * 10 * 2, size=N_PERM8)
EDGE8_CONJ = _spec("edge8_conj", lambda ctx: symmetry.edge8_conjugation(),
                   "UD-edge permutation x 16 UD symmetries", N_PERM8 * 16 * 2, size=N_PERM8)
FLIPSLICE_CLASS = _spec("flipslice_class", lambda ctx: symmetry.flipslice_classes()[0],
                        "flip-slice -> symmetry class and symmetry", N_FLIPSLICE * 4,
                        size=N_FLIPSLICE)
FLIPSLICE_REP = _spec("flipslice_rep", _build_flipslice_rep,
                      "flip-slice class -> representative and stabilizer",
                      N_FLIPSLICE_CLASSES * 8, classes=N_FLIPSLICE_CLASSES)
PHASE1_PRUNE = _spec(
    "phase1_prune", _build_phase1, "phase 1: flip-slice class x twist, distance mod 3 (2 bits)",
    (N_FLIPSLICE_CLASSES * N_TWIST + 3) // 4,
    (FLIPSLICE_CLASS, FLIPSLICE_REP, moves.FLIP, moves.SLICE_SORTED, moves.TWIST,
     udsym.TWIST_CONJ), entries=N_FLIPSLICE_CLASSES * N_TWIST)
PHASE1_MOVES = _spec(
    "phase1_moves", _build_phase1_moves,
    "phase 1: flip-slice class x twist, which moves bring the distance closer or further "
    "(3 bytes)", N_FLIPSLICE_CLASSES * N_TWIST * pruning.P1_MOVE_BYTES,
    (PHASE1_PRUNE, FLIPSLICE_CLASS, FLIPSLICE_REP, moves.FLIP, moves.SLICE_SORTED, moves.TWIST,
     udsym.TWIST_CONJ), entries=N_FLIPSLICE_CLASSES * N_TWIST, encoding=1)
TWIST_SLICE_PRUNE = _spec(
    "twist_slice_prune", _build_twist_slice, "phase 1: twist x UD-slice slots, distance",
    N_TWIST * 495, (moves.TWIST, moves.SLICE_SORTED), entries=N_TWIST * 495)
FLIP_SLICE_PRUNE = _spec(
    "flip_slice_prune", _build_flip_slice, "phase 1: flip x UD-slice slots, distance",
    N_FLIP * 495, (moves.FLIP, moves.SLICE_SORTED), entries=N_FLIP * 495)
PHASE2_PRUNE = _spec(
    "phase2_prune", _build_phase2,
    "phase 2: corner permutation class x UD-edge permutation, distance mod 3 (2 bits)",
    (udsym.N_CORNER_CLASSES * N_PERM8 + 3) // 4,
    (udsym.CORNER_CLASS, udsym.CORNER_REP, moves.CORNER_PERM, EDGE8_MOVE, EDGE8_CONJ),
    entries=udsym.N_CORNER_CLASSES * N_PERM8)
PHASE2_EXACT = _spec(
    "phase2_exact", _build_phase2_exact,
    "phase 2: corner permutation class x UD-edge permutation, exact distance (4 bits, 15: 15+)",
    (udsym.N_CORNER_CLASSES * N_PERM8 + 1) // 2,
    (PHASE2_PRUNE, udsym.CORNER_CLASS, udsym.CORNER_REP, moves.CORNER_PERM, EDGE8_MOVE,
     EDGE8_CONJ), entries=udsym.N_CORNER_CLASSES * N_PERM8, saturate=pruning.P2_EXACT_MAX)
CORNER_SLICE_PRUNE = _spec(
    "corner_slice_prune", _build_corner_slice,
    "phase 2: corner permutation x slice permutation, distance", N_PERM8 * N_PERM4,
    (moves.CORNER_PERM, moves.SLICE_SORTED), entries=N_PERM8 * N_PERM4)
EDGE_SLICE_PRUNE = _spec(
    "edge_slice_prune", _build_edge_slice,
    "phase 2: UD-edge permutation x slice permutation, distance", N_PERM8 * N_PERM4,
    (EDGE8_MOVE, moves.SLICE_SORTED), entries=N_PERM8 * N_PERM4)


class KociembaTables(NamedTuple):
    """Everything the two-phase search reads, as read-only arrays (in the kernel's order)."""

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
    phase1_moves: np.ndarray
    phase2_exact: np.ndarray


TABLE_SPECS = (moves.TWIST, moves.FLIP, moves.SLICE_SORTED, moves.CORNER_PERM, EDGE8_MOVE,
               udsym.TWIST_CONJ, EDGE8_CONJ, FLIPSLICE_CLASS, udsym.CORNER_CLASS, PHASE1_PRUNE,
               TWIST_SLICE_PRUNE, FLIP_SLICE_PRUNE, PHASE2_PRUNE, CORNER_SLICE_PRUNE,
               EDGE_SLICE_PRUNE, PHASE1_MOVES,
               PHASE2_EXACT)
"""The specs of KociembaTables' fields, in order."""
SPECS = TABLE_SPECS + (FLIPSLICE_REP, udsym.CORNER_REP)
"""Every table the solver needs (what `prepare` may build)."""


def load_tables(progress=None, cancel=None, log=None) -> KociembaTables:
    """Load (or build, the first time: about a minute) every table the search needs."""
    return KociembaTables(*(load_or_build(s, progress=progress, cancel=cancel, log=log)
                            for s in TABLE_SPECS))


def phase1_coordinates(state) -> dict[str, int]:
    """twist, flip, slice_sorted and flipslice (slice * 2048 + flip) of a state's cubies."""
    co, eo, ep = (np.asarray(a, np.int64) for a in (state.co, state.eo, state.ep))
    ss = int(slice_sorted_of(ep, BINOM))
    flip = int(flip_of(eo))
    return {"twist": int(twist_of(co)), "flip": flip, "slice_sorted": ss,
            "flipslice": (ss // 24) * N_FLIP + flip}


def phase2_coordinates(state) -> dict[str, int]:
    """corner permutation, UD-edge permutation and slice permutation of a state in phase 2."""
    ep = np.asarray(state.ep, np.int64)
    return {"corner_perm": int(rank_perm(np.asarray(state.cp, np.int64), 0, 8)),
            "edge8": int(rank_perm(ep, 0, 8)),
            "slice_perm": int(slice_sorted_of(ep, BINOM))}
