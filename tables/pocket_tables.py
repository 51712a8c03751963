"""The 2x2x2's complete distance tables (HTM and QTM) and its counts by distance and class.

A position held with DLB home is indexed by the rank of the other seven corners' permutation
(slots URF UFL ULB UBR DFR DLF DRB) times 3^6, plus the twists of the first six slots in base 3:
7! * 3^6 = 3,674,160 entries, one byte each, filled by a breadth-first search over U, R, F.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from cubelab.cube.pocket import DLB, N_POSITIONS, SOLVER_MOVES, move_state, rotations
from cubelab.tables.cubies import conjugate_into, multiply, symmetry_rows
from cubelab.tables.spec import TableSpec, register
from cubelab.tables.store import load_or_build

from numba import njit

N_PERM = 5040
N_TWIST = 729
UNSEEN = 255
_SLOTS = np.array([0, 1, 2, 3, 4, 5, 7], np.int64)
"""The slots of the seven corners that move (DLB = 6 stays home)."""


def metric_moves(metric: str) -> list:
    """The turns of U, R and F in a metric: 9 in HTM, the 6 quarter turns in QTM."""
    if metric == "htm":
        return list(SOLVER_MOVES)
    if metric == "qtm":
        return [m for m in SOLVER_MOVES if m.amount != 2]
    raise ValueError(f"unknown metric {metric!r} (choose htm or qtm)")


# ---- coordinates --------------------------------------------------------------------------

@njit(cache=True, nogil=True)
def encode(cp, co):
    """Table index of corners held with DLB home (cp values 0..7, DLB at slot 6)."""
    rank = 0
    for a in range(7):
        i = (0, 1, 2, 3, 4, 5, 7)[a]
        smaller = 0
        for b in range(a + 1, 7):
            if cp[(0, 1, 2, 3, 4, 5, 7)[b]] < cp[i]:
                smaller += 1
        rank = rank * (7 - a) + smaller
    twist = 0
    for i in range(6):
        twist = twist * 3 + co[i]
    return rank * 729 + twist


@njit(cache=True, nogil=True)
def decode(index, cp, co):
    rank, twist = index // 729, index % 729
    digits = np.empty(7, np.int64)
    for base in range(1, 8):
        digits[7 - base] = rank % base
        rank //= base
    pool = np.array([0, 1, 2, 3, 4, 5, 7], np.int64)
    used = np.zeros(7, np.uint8)
    for a in range(7):
        d = digits[a]
        for v in range(7):
            if not used[v]:
                if d == 0:
                    cp[(0, 1, 2, 3, 4, 5, 7)[a]] = pool[v]
                    used[v] = 1
                    break
                d -= 1
    cp[6] = 6
    s = 0
    for i in range(5, -1, -1):
        co[i] = twist % 3
        s += twist % 3
        twist //= 3
    co[6] = 0
    co[7] = (3 - s % 3) % 3


def index_of(state) -> int:
    """Table index of a PocketState's position (normalized first)."""
    n = state.normalized()
    return int(encode(n.cp.astype(np.int64), n.co.astype(np.int64)))


# ---- the distance tables ------------------------------------------------------------------

@lru_cache(maxsize=None)
def move_rows(metric: str) -> np.ndarray:
    """(n_moves, 16): cp then co of each turn of the metric."""
    states = [move_state(m) for m in metric_moves(metric)]
    return np.stack([np.concatenate([s.cp, s.co]) for s in states]).astype(np.int64)


@njit(cache=True, nogil=True)
def neighbour(index, moves, m, cp, co, ncp, nco):
    decode(index, cp, co)
    for i in range(8):
        j = moves[m, i]
        ncp[i] = cp[j]
        nco[i] = (co[j] + moves[m, 8 + i]) % 3
    return encode(ncp, nco)


@njit(cache=True, nogil=True)
def build_distances(moves, dist, counters, cancel):
    """Breadth-first search from solved; dist must be filled with UNSEEN. Returns the number
    of levels, or -1 if cancelled."""
    cp = np.empty(8, np.int64)
    co = np.empty(8, np.int64)
    ncp = np.empty(8, np.int64)
    nco = np.empty(8, np.int64)
    dist[0] = 0
    filled = 1
    depth = 0
    while True:
        added = 0
        for idx in range(dist.shape[0]):
            if dist[idx] != depth:
                continue
            for m in range(moves.shape[0]):
                nxt = neighbour(idx, moves, m, cp, co, ncp, nco)
                if dist[nxt] == 255:
                    dist[nxt] = depth + 1
                    added += 1
        filled += added
        counters[0] = filled
        if cancel[0]:
            return -1
        if added == 0:
            return depth + 1
        depth += 1


def _build(metric: str):
    def build(ctx) -> np.ndarray:
        dist = np.full(N_POSITIONS, UNSEEN, np.uint8)
        ctx.counters[1] = N_POSITIONS
        if build_distances(move_rows(metric), dist, ctx.counters, ctx.cancel) < 0:
            ctx.check_cancel()
        return dist
    return build


SPECS = {
    metric: register(TableSpec(
        name=f"pocket.distance-{metric}", solver="pocket",
        params={"metric": metric, "entries": N_POSITIONS, "index": "perm7*729+twist6"},
        build=_build(metric),
        description=f"2x2x2 distance to solved of every position, {metric.upper()}",
        expected_bytes=N_POSITIONS))
    for metric in ("htm", "qtm")
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


@njit(cache=True, nogil=True)
def _image_index(row, sym, k, holding, out, held, cp, co):
    conjugate_into(row, sym, k, out)
    j = 0
    while out[j] != 6:
        j += 1
    multiply(out, holding[j * 3 + out[8 + j]], held)
    for i in range(8):
        cp[i] = held[i]
        co[i] = held[8 + i]
    return encode(cp, co)


@njit(cache=True, nogil=True)
def count_classes(dist, sym, holding, classes48, classes96):
    """For each distance, the number of classes up to the 48 symmetries and up to symmetries
    and inversion. Each class is met once at its first member and all of its images marked."""
    n = dist.shape[0]
    seen48 = np.zeros(n, np.uint8)
    seen96 = np.zeros(n, np.uint8)
    row = np.zeros(40, np.uint8)
    inv = np.zeros(40, np.uint8)
    out = np.zeros(40, np.uint8)
    held = np.zeros(40, np.uint8)
    cp = np.empty(8, np.int64)
    co = np.empty(8, np.int64)
    for j in range(12):
        row[16 + j] = j
    for idx in range(n):
        if seen96[idx] and seen48[idx]:
            continue
        decode(idx, cp, co)
        for i in range(8):
            row[i] = cp[i]
            row[8 + i] = co[i]
        for i in range(8):
            inv[row[i]] = i
            inv[8 + row[i]] = (3 - row[8 + i]) % 3
        for j in range(12):
            inv[16 + j] = j
        d = dist[idx]
        if not seen48[idx]:
            classes48[d] += 1
            for k in range(48):
                seen48[_image_index(row, sym, k, holding, out, held, cp, co)] = 1
        if not seen96[idx]:
            classes96[d] += 1
            for k in range(48):
                seen96[_image_index(row, sym, k, holding, out, held, cp, co)] = 1
                seen96[_image_index(inv, sym, k, holding, out, held, cp, co)] = 1


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
    for metric in ("htm", "qtm"):
        for row in distribution(metric):
            print(metric, row)
