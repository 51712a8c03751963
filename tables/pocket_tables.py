"""The 2x2x2's complete distance tables (HTM and QTM) and its counts by distance and class.

A position held with DLB home is indexed by the rank of the other seven corners' permutation
(slots URF UFL ULB UBR DFR DLF DRB) times 3^6, plus the twists of the first six slots in base 3:
7! * 3^6 = 3,674,160 entries, one byte each. A turn of U, R or F acts on the two parts apart, so
each has a small move table and the distances are built by the shared breadth-first builder
(cubelab.tables.bfs.pair_distances).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from cubelab.cube.pocket import DLB, N_POSITIONS, SOLVER_MOVES, move_state, rotations
from cubelab.cube.metrics import Metric
from cubelab.tables.bfs import pair_distances
from cubelab.tables.cubies import conjugate_into, invert, multiply, symmetry_rows
from cubelab.tables.cubies import metric_moves as cube_metric_moves
from cubelab.tables.jit import kernel
from cubelab.tables.ranks import rank_perm, unrank_perm
from cubelab.tables.spec import TableSpec, register
from cubelab.tables.store import load_or_build

N_PERM = 5040
N_TWIST = 729


def metric_moves(metric: str) -> list:
    """The turns of U, R and F in a metric: 9 in HTM, the 6 quarter turns in QTM."""
    return [m for m in cube_metric_moves(metric) if m in SOLVER_MOVES]


# ---- coordinates --------------------------------------------------------------------------
# The seven moving corners' pieces are 0..5 and 7 (DLB = 6 stays home): they are ranked as they
# are, which is their rank as 0..6 (ranks depend only on the order of the values).

@kernel
def encode(cp, co, seven):
    """Table index of corners held with DLB home (cp values 0..7, DLB at slot 6); `seven` is
    scratch space for seven values."""
    for a in range(6):
        seven[a] = cp[a]
    seven[6] = cp[7]
    twist = 0
    for i in range(6):
        twist = twist * 3 + co[i]
    return rank_perm(seven, 0, 7) * N_TWIST + twist


@kernel
def decode(index, cp, co, seven):
    """The corners (DLB home) of a table index."""
    unrank_perm(index // N_TWIST, seven, 0, 7, 0)
    for a in range(6):
        cp[a] = seven[a] + (seven[a] == 6)
    cp[7] = seven[6] + (seven[6] == 6)
    cp[6] = 6
    twist = index % N_TWIST
    s = 0
    for i in range(5, -1, -1):
        co[i] = twist % 3
        s += twist % 3
        twist //= 3
    co[6] = 0
    co[7] = (3 - s % 3) % 3


def corner_index(cp, co) -> int:
    """Table index of corners held with DLB home, from Python."""
    return int(encode(np.asarray(cp, np.int64), np.asarray(co, np.int64), np.empty(7, np.int64)))


def index_of(state) -> int:
    """Table index of a PocketState's position (normalized first)."""
    n = state.normalized()
    return corner_index(n.cp, n.co)


# ---- the distance tables ------------------------------------------------------------------

@lru_cache(maxsize=None)
def move_rows(metric: str) -> np.ndarray:
    """(n_moves, 16): cp then co of each turn of the metric."""
    states = [move_state(m) for m in metric_moves(metric)]
    return np.stack([np.concatenate([s.cp, s.co]) for s in states]).astype(np.int64)


@kernel
def _part_move_tables(moves):
    """The move tables of the permutation rank and of the twist (each part moves alone)."""
    nm = moves.shape[0]
    perm = np.empty((N_PERM, nm), np.int64)
    twist = np.empty((N_TWIST, nm), np.int64)
    cp = np.empty(8, np.int64)
    co = np.empty(8, np.int64)
    ncp = np.empty(8, np.int64)
    nco = np.empty(8, np.int64)
    seven = np.empty(7, np.int64)
    for index in range(max(N_PERM, N_TWIST)):
        decode((index % N_PERM) * N_TWIST + index % N_TWIST, cp, co, seven)
        for m in range(nm):
            for i in range(8):
                j = moves[m, i]
                ncp[i] = cp[j]
                nco[i] = (co[j] + moves[m, 8 + i]) % 3
            moved = encode(ncp, nco, seven)
            if index < N_PERM:
                perm[index, m] = moved // N_TWIST
            if index < N_TWIST:
                twist[index, m] = moved % N_TWIST
    return perm, twist


def _build(metric: str):
    def build(ctx) -> np.ndarray:
        perm, twist = _part_move_tables(move_rows(metric))
        return pair_distances(perm, twist, [0], ctx)
    return build


SPECS = {
    metric: register(TableSpec(
        name=f"pocket.distance-{metric}", solver="pocket",
        params={"metric": metric, "entries": N_POSITIONS, "index": "perm7*729+twist6"},
        build=_build(metric),
        description=f"2x2x2 distance to solved of every position, {metric.upper()}",
        expected_bytes=N_POSITIONS))
    for metric in (Metric.HTM, Metric.QTM)
}


def distance_table(metric: str, *, progress=None, cancel=None, log=None) -> np.ndarray:
    """The complete distance table of a metric, loaded or built (under a second)."""
    if metric not in SPECS:
        raise ValueError(f"unknown metric {metric!r} (choose htm or qtm)")
    return load_or_build(SPECS[metric], progress=progress, cancel=cancel, log=log)


# ---- counts by distance and class ---------------------------------------------------------

@lru_cache(maxsize=1)
def holding_rows() -> np.ndarray:
    """(24, 40): row j*3+t is the rotation Q that brings DLB home from slot j with twist t
    (X * Q keeps DLB home when X holds DLB at j with twist t), as a 40-byte state row."""
    rows = np.zeros((24, 40), np.uint8)
    for r in rotations():
        # (X r).cp[DLB] = X.cp[r.cp[DLB]]: r fetches slot j = r.cp[DLB], and the twist it adds
        # there, r.co[DLB], must cancel X's twist t at j.
        j, t = int(r.cp[DLB]), (3 - int(r.co[DLB])) % 3
        rows[j * 3 + t, 0:8] = r.cp
        rows[j * 3 + t, 8:16] = r.co
    rows[:, 16:28] = np.arange(12)
    return rows


@kernel
def _image_index(row, sym, k, holding, out, held, cp, co, seven):
    """Table index of S_k row S_k^-1, re-held with DLB home."""
    conjugate_into(row, sym, k, out)
    j = 0
    while out[j] != 6:
        j += 1
    multiply(out, holding[j * 3 + out[8 + j]], held)
    for i in range(8):
        cp[i] = held[i]
        co[i] = held[8 + i]
    return encode(cp, co, seven)


@kernel
def count_classes(dist, sym, holding, classes48, classes96):
    """For each distance, the number of classes up to the 48 symmetries and up to symmetries
    and inversion. Each class is met once at its first member and all of its images marked
    (the 48 conjugates once for both counts)."""
    n = dist.shape[0]
    seen48 = np.zeros(n, np.uint8)
    seen96 = np.zeros(n, np.uint8)
    row = np.zeros(40, np.uint8)
    inv = np.zeros(40, np.uint8)
    out = np.zeros(40, np.uint8)
    held = np.zeros(40, np.uint8)
    cp = np.empty(8, np.int64)
    co = np.empty(8, np.int64)
    seven = np.empty(7, np.int64)
    for j in range(12):
        row[16 + j] = j
    for idx in range(n):
        if seen96[idx] and seen48[idx]:
            continue
        decode(idx, cp, co, seven)
        for i in range(8):
            row[i] = cp[i]
            row[8 + i] = co[i]
        invert(row, inv)
        d = dist[idx]
        new48 = not seen48[idx]
        new96 = not seen96[idx]
        classes48[d] += new48
        classes96[d] += new96
        for k in range(48):
            image = _image_index(row, sym, k, holding, out, held, cp, co, seven)
            seen48[image] |= new48
            seen96[image] |= new96
            if new96:
                seen96[_image_index(inv, sym, k, holding, out, held, cp, co, seven)] = 1


@lru_cache(maxsize=None)
def distribution(metric: str) -> tuple[dict, ...]:
    """One row per distance: positions, classes up to symmetry, up to symmetry and inversion."""
    dist = distance_table(metric)
    positions = np.bincount(dist)
    c48 = np.zeros(positions.shape[0], np.int64)
    c96 = np.zeros(positions.shape[0], np.int64)
    count_classes(dist, symmetry_rows(), holding_rows(), c48, c96)
    return tuple({"depth": d, "positions": int(positions[d]), "classes_sym": int(c48[d]),
                  "classes_sym_inv": int(c96[d])} for d in range(positions.shape[0]))


if __name__ == "__main__":
    for metric in SPECS:
        for row in distribution(metric):
            print(metric, row)
