"""Exact distances to the goal over one component, or over a pair of components.

When every move costs the same and the moves are closed under inverse (HTM, STM, ETM with a
bare move set), the shared breadth-first driver (tables.bfs) fills the table, forwards then
backwards, on two threads; otherwise (QTM, restricted powers such as R' alone) the levels
below run.

Distances count in the metric's units (a half turn 2 in QTM, a slice 2 in HTM...), each element
costing its cheapest move; an element that is no move (an inverse the set lacks, or the
identity) has cost 0 and is not used. The table is filled cost level by cost level from the
solved entries: an entry at distance d sends, through each element's inverse column, its
predecessors to d + cost (Dijkstra with buckets; costs are small integers). One byte an entry,
255 = never reached (the component's arrangement cannot be brought to the goal at all).
"""

from __future__ import annotations

import numpy as np

import cubelab.tables  # noqa: F401  (numba cache location, before numba)
from cubelab.tables.jit import kernel

from ..bfs import pair_distances as bfs_pairs
from .components import KEY_COLUMNS

UNREACHED = 255
MAX_DISTANCE = 254


@kernel
def _pair_level(dist, d, ta, tb, inv_a, inv_b, costs, cancel):
    """Entries at distance d send their predecessors to d + cost; returns (entries improved,
    whether any entry was at d)."""
    nb = tb.shape[0]
    n = dist.shape[0]
    ncols = costs.shape[0]
    changed = 0
    seen = False
    for y in range(n):
        if (y & 65535) == 0 and cancel[0]:
            return -1, seen
        if dist[y] != d:
            continue
        seen = True
        a = y // nb
        b = y - a * nb
        for j in range(ncols):
            c = costs[j]
            if c == 0:
                continue
            nd = d + c
            if nd > 254:
                continue
            x = np.int64(ta[a, KEY_COLUMNS + inv_a[j]]) * nb + tb[b, KEY_COLUMNS + inv_b[j]]
            if dist[x] > nd:
                dist[x] = nd
                changed += 1
    return changed, seen


def _scaled(dist: np.ndarray, unit: int) -> np.ndarray:
    """Distances in moves as distances in the metric's units (each move costing `unit`)."""
    if unit == 1:
        return dist
    out = dist.astype(np.int64) * unit
    out[dist == UNREACHED] = UNREACHED
    return np.minimum(out, UNREACHED).astype(np.uint8)


def _levels(step, dist, cancel, ctx) -> None:
    max_cost_seen = 0
    d = 0
    while d <= MAX_DISTANCE:
        changed, seen = step(d)
        if changed < 0:
            from ..spec import BuildCancelled
            raise BuildCancelled("distances")
        if ctx is not None:
            ctx.progress(d, d + 1)
        if seen or changed:
            max_cost_seen = d
        # stop once no entry lies at or beyond this level (costs are at most a few units)
        if d - max_cost_seen > 8:
            break
        d += 1


def _uniform(inv_cols, costs):
    """The columns of the moves when every move costs the same and their inverses are moves
    too (then the shared breadth-first driver, bfs.pair_distances, does the work: two
    threads, backward levels), else None."""
    cols = [j for j, c in enumerate(costs) if c > 0]
    if not cols or len({costs[j] for j in cols}) != 1:
        return None
    if any(costs[inv_cols[j]] == 0 for j in cols):
        return None
    return cols, int(costs[cols[0]])


def _moves(table, cols) -> np.ndarray:
    return np.ascontiguousarray(table[:, [KEY_COLUMNS + j for j in cols]], np.int64)


def single_distances(table, inv_cols, costs, seeds, cancel=None, ctx=None) -> np.ndarray:
    """Exact distances over one component (seeds: coordinates at distance 0)."""
    uniform = _uniform(inv_cols, costs)
    if uniform is not None:
        cols, unit = uniform
        dist = bfs_pairs(_moves(table, cols), np.zeros((1, len(cols)), np.int64),
                         np.asarray(seeds, np.int64), ctx)
        return _scaled(dist, unit)
    # a pair with a one-entry second component: every move keeps it at 0
    one = np.zeros((1, table.shape[1]), np.int32)
    seeds = [(int(x), 0) for x in np.asarray(seeds, np.int64).reshape(-1)]
    return pair_distances(table, one, inv_cols, inv_cols, costs, seeds, cancel, ctx)


def pair_distances(ta, tb, inv_a, inv_b, costs, seeds, cancel=None, ctx=None) -> np.ndarray:
    """Exact distances over the pair (a, b), entry a * len(tb) + b."""
    uniform = _uniform(inv_a, costs)
    if uniform is not None:
        cols, unit = uniform
        seeds = np.asarray(seeds, np.int64).reshape(-1, 2)
        dist = bfs_pairs(_moves(ta, cols), _moves(tb, cols),
                         seeds[:, 0] * tb.shape[0] + seeds[:, 1], ctx)
        return _scaled(dist, unit)
    n = ta.shape[0] * tb.shape[0]
    dist = np.full(n, UNREACHED, np.uint8)
    seeds = np.asarray(seeds, np.int64).reshape(-1, 2)
    dist[seeds[:, 0] * tb.shape[0] + seeds[:, 1]] = 0
    cancel = np.zeros(1, np.int32) if cancel is None else cancel
    inv_a = np.asarray(inv_a, np.int64)
    inv_b = np.asarray(inv_b, np.int64)
    costs = np.asarray(costs, np.int64)
    _levels(lambda d: _pair_level(dist, d, ta, tb, inv_a, inv_b, costs, cancel), dist, cancel,
            ctx)
    return dist
