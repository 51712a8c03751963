"""Exact distances to the goal over one component, or over a pair of components.

When every move costs the same and the moves are closed under inverse (HTM, STM, ETM with a
bare move set), a component's table is one breadth-first queue walk over its int32 move
columns, and a pair's the shared breadth-first driver (tables.bfs), forwards then backwards,
on two threads; otherwise (QTM, restricted powers such as R' alone) the levels below run.

Distances count in the metric's units (a half turn 2 in QTM, a slice 2 in HTM...), each element
costing its cheapest move; an element that is no move (an inverse the set lacks, or the
identity) has cost 0 and is not used. The table is filled cost level by cost level from the
solved entries: an entry at distance d sends, through each element's inverse column, its
predecessors to d + cost (Dijkstra with buckets; costs are small integers). One byte an entry,
255 = never reached (the component's arrangement cannot be brought to the goal at all).

A pair table can also be made only as deep as the searches of a short goal read it
(`shallow_pair_distances`, twsearch's idea of a table that is filled only as far as its
searches need, done our own way): a forward breadth-first walk from the solved entries, with
each level's frontier in a list, that stops before the first level whose frontier exceeds
a share of the table; every entry it did not reach holds the depth reached plus one. That is
a bound, not a distance, and an admissible one: an entry within the depth reached was reached.
Its cost is the walk of the near entries, not a sweep of the whole table per level.
"""

from __future__ import annotations

import numpy as np

import cubelab.tables  # noqa: F401  (numba cache location, before numba)
from cubelab.tables.jit import kernel

from ..bfs import pair_distances as bfs_pairs
from ..memory import prefetch
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


def uniform_moves(inv_cols, costs):
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


@kernel
def _walk_single(dist, queue, nseeds, table, cols, cancel):
    """Breadth-first over one component from the queue's first nseeds entries (at 0): each
    entry, taken in order, marks its unknown neighbours one further and queues them. Reads
    the component's int32 move columns as they are (no int64 copy of the table)."""
    head = 0
    tail = nseeds
    while head < tail:
        if (head & 65535) == 0 and cancel[0]:
            return -1
        y = queue[head]
        head += 1
        nd = dist[y] + 1
        for j in range(cols.shape[0]):
            x = table[y, cols[j] + KEY_COLUMNS]
            if dist[x] == UNREACHED:
                dist[x] = nd
                queue[tail] = x
                tail += 1
    return tail


def single_distances(table, inv_cols, costs, seeds, cancel=None, ctx=None) -> np.ndarray:
    """Exact distances over one component (seeds: coordinates at distance 0)."""
    uniform = uniform_moves(inv_cols, costs)
    if uniform is not None:
        # one queue, one pass: a component has at most a few hundred thousand entries, which
        # a queue walks in one sweep of its move columns (level sweeps of the whole table,
        # the shared driver's way, pay off for tables of millions)
        cols, unit = uniform
        n = table.shape[0]
        dist = np.full(n, UNREACHED, np.uint8)
        queue = np.empty(n, np.int64)
        start = np.unique(np.asarray(seeds, np.int64).reshape(-1))
        dist[start] = 0
        queue[:start.shape[0]] = start
        cancel = np.zeros(1, np.int32) if cancel is None else cancel
        if _walk_single(dist, queue, start.shape[0], table, np.asarray(cols, np.int64),
                        cancel) < 0:
            from ..spec import BuildCancelled
            raise BuildCancelled("distances")
        return _scaled(dist, unit)
    # a pair with a one-entry second component: every move keeps it at 0
    one = np.zeros((1, table.shape[1]), np.int32)
    seeds = [(int(x), 0) for x in np.asarray(seeds, np.int64).reshape(-1)]
    return pair_distances(table, one, inv_cols, inv_cols, costs, seeds, cancel, ctx)


def pair_distances(ta, tb, inv_a, inv_b, costs, seeds, cancel=None, ctx=None) -> np.ndarray:
    """Exact distances over the pair (a, b), entry a * len(tb) + b."""
    uniform = uniform_moves(inv_a, costs)
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


@kernel
def _expand(dist, frontier, nfront, d, ta, tb, cols, out, cancel):
    """Mark the unknown neighbours of the frontier's entries (all at depth d) with d + 1 and
    list them in `out`; returns how many (-1 when cancelled)."""
    nb = tb.shape[0]
    ncols = cols.shape[0]
    near = np.empty(ncols, np.int64)
    n = 0
    for i in range(nfront):
        if (i & 65535) == 0 and cancel[0]:
            return -1
        y = frontier[i]
        a = y // nb
        b = y - a * nb
        # every neighbour's entry first, all asked for at once: their cache misses overlap
        for j in range(ncols):
            c = cols[j] + KEY_COLUMNS
            near[j] = np.int64(ta[a, c]) * nb + tb[b, c]
            prefetch(dist, near[j])
        for j in range(ncols):
            x = near[j]
            if dist[x] == UNREACHED:
                dist[x] = d + 1
                out[n] = x
                n += 1
    return n


SHALLOW_SHARE = 16
"""A shallow pair table expands its levels while the frontier holds at most 1/SHALLOW_SHARE of
the table's entries (part of the table's parameters: a change needs a new value there)."""


def shallow_pair_distances(ta, tb, inv_a, costs, seeds, share: int = SHALLOW_SHARE,
                           cancel=None, ctx=None) -> np.ndarray:
    """Distances over the pair (a, b) up to a depth D, and D + 1 for every entry farther (see
    the module docstring); only for moves of one cost that the set holds with their inverses.
    The walk stops before the first level whose frontier is above len/share entries."""
    uniform = uniform_moves(inv_a, costs)
    if uniform is None:
        raise ValueError("a shallow pair table needs moves of one cost, closed under inverse")
    cols, unit = uniform
    cols = np.asarray(cols, np.int64)
    n = ta.shape[0] * tb.shape[0]
    dist = np.full(n, UNREACHED, np.uint8)
    seeds = np.asarray(seeds, np.int64).reshape(-1, 2)
    frontier = np.unique(seeds[:, 0] * tb.shape[0] + seeds[:, 1])
    dist[frontier] = 0
    cancel = np.zeros(1, np.int32) if cancel is None else cancel
    limit = max(1, n // share)
    d = 0
    while d < MAX_DISTANCE - 1 and 0 < frontier.shape[0] <= limit:
        out = np.empty(min(n, frontier.shape[0] * cols.shape[0]), np.int64)
        got = _expand(dist, frontier, frontier.shape[0], d, ta, tb, cols, out, cancel)
        if got < 0:
            from ..spec import BuildCancelled
            raise BuildCancelled("distances")
        if ctx is not None:
            ctx.progress(d + 1, d + 2)
        frontier = out[:got]
        d += 1
    if frontier.shape[0]:
        # entries at d were all marked; those beyond are at least d + 1 away
        dist[dist == UNREACHED] = d + 1
    return _scaled(dist, unit)
