"""The ball around the goal: exact distances of every position within a radius, hashed.

When a goal's components are too many for one exact table, the positions near the goal are
still few: a depth-first walk from each solved tuple over canonical sequences of the inverse
elements, up to `radius` (in the metric's units), writes into a table indexed by a hash of the
tuple of component coordinates the least distance met (stored + 1; 0 = nothing within the
radius hashes there). A probe returns that distance, or radius + 1 for an empty entry. Two
positions sharing an entry keep the smaller distance, so the bound never exceeds the truth:
admissible (twsearch's hashed prune table works the same way; this is our own kernel).
"""

from __future__ import annotations

import numpy as np

import cubelab.tables  # noqa: F401  (numba cache location, before numba)
from cubelab.tables.jit import inline_kernel, kernel

from .components import KEY_COLUMNS, mix64

MAX_COMPONENTS = 6
MAX_DEPTH = 64


@inline_kernel
def ball_slot(coords, ncomp, mask):
    """The table entry of a tuple of coordinates."""
    h = np.uint64(0x9E3779B97F4A7C15)
    for k in range(ncomp):
        h = mix64(h ^ np.uint64(coords[k] + 1))
    return h & mask


@kernel
def fill(ball, radius, seeds, tables, ncomp, fsm, inv_cols, costs, cancel, counters):
    """Write the ball from the seed tuples (rows of `seeds`); returns the nodes walked, or -1
    when cancelled. tables: a tuple of MAX_COMPONENTS component tables (the first ncomp used);
    inv_cols[k, j]: the column, in component k, of element j's inverse."""
    mask = np.uint64(ball.shape[0] - 1)
    ncols = costs.shape[0]
    coords = np.zeros((MAX_DEPTH + 1, MAX_COMPONENTS), np.int64)
    state = np.zeros(MAX_DEPTH + 1, np.int64)
    spent = np.zeros(MAX_DEPTH + 1, np.int64)
    nxt = np.zeros(MAX_DEPTH + 1, np.int64)
    nodes = 0
    for s in range(seeds.shape[0]):
        for k in range(ncomp):
            coords[0, k] = seeds[s, k]
        state[0] = 0
        spent[0] = 0
        nxt[0] = 0
        slot = ball_slot(coords[0], ncomp, mask)
        ball[slot] = 1
        p = 0
        while p >= 0:
            j = nxt[p]
            if j >= ncols:
                p -= 1
                continue
            nxt[p] = j + 1
            c = costs[j]
            if c == 0:
                continue
            ns = fsm[state[p], j]
            if ns < 0:
                continue
            total = spent[p] + c
            if total > radius:
                continue
            for k in range(ncomp):
                t = tables[k]
                coords[p + 1, k] = t[coords[p, k], KEY_COLUMNS + inv_cols[k, j]]
            nodes += 1
            if (nodes & 65535) == 0:
                counters[0] = nodes
                if cancel[0]:
                    return -1
            slot = ball_slot(coords[p + 1], ncomp, mask)
            v = total + 1
            if ball[slot] == 0 or ball[slot] > v:
                ball[slot] = v
            if total < radius and p + 1 < MAX_DEPTH:
                state[p + 1] = ns
                spent[p + 1] = total
                nxt[p + 1] = 0
                p += 1
    counters[0] = nodes
    return nodes


def sequence_counts(fsm: np.ndarray, costs, max_cost: int) -> list[int]:
    """How many canonical sequences (of the elements with cost > 0) cost exactly 0..max_cost:
    what a walk to that radius visits."""
    nstates = fsm.shape[0]
    by = [[0] * nstates for _ in range(max_cost + 1)]
    by[0][0] = 1
    for c in range(max_cost + 1):
        for s in range(nstates):
            n = by[c][s]
            if not n:
                continue
            for j, cost in enumerate(costs):
                if cost <= 0 or fsm[s, j] < 0 or c + cost > max_cost:
                    continue
                by[c + cost][int(fsm[s, j])] += n
    return [sum(row) for row in by]
