"""The goal search's kernel: one iteration of IDA* over canonical move sequences.

A node is the tuple of component coordinates (what the goal reads), the frame (which way the
centres are held) and the canonical-order state. A move m in frame f is element[f, m]: each
component's coordinate follows its move table column. The bound of a node is the largest of
the component tables, the pair tables and the ball (each in the metric's units, `hw` turning
it into the search's cost units, weights included); 255 in any table means the goal cannot be
reached from there. A node whose bound is 0 is tested against the solved tuples (sorted, a
binary search); a node meeting the goal is a solution and is not expanded further (no solution
passes through the goal before its end).

One call searches every start (pre-AUF variants) to `bound`, writes solutions costing more than
`floor` (cheaper ones were reported by earlier iterations) and returns the least cost above the
bound met, the next iteration's bound. It checks the cancel flag and adds to counters[NODES]
every 4096 nodes and keeps counters[SOLUTIONS] at the number written, so a caller polling from
another thread streams them while the kernel runs (nogil).
"""

from __future__ import annotations

import numpy as np

import cubelab.tables  # noqa: F401  (numba cache location, before numba)
from cubelab.tables.jit import inline_kernel, kernel

from cubelab.solvers.protocol import NODES, SOLUTIONS
from cubelab.tables.goals.ball import ball_slot
from cubelab.tables.goals.components import KEY_COLUMNS

MAX_DEPTH = 48
UNREACHABLE = 255
DONE, CANCELLED, FULL = 0, 1, 2
NO_BOUND = np.int64(1) << np.int64(60)


@inline_kernel
def _bound(c, ncomp, singles, pair_tabs, pair_a, pair_b, pair_nb, npairs, ball, radius):
    """The bound of a node in the metric's units (UNREACHABLE when some table says so)."""
    h = 0
    for k in range(ncomp):
        v = singles[k][c[k]]
        if v == UNREACHABLE:
            return UNREACHABLE
        if v > h:
            h = v
    for p in range(npairs):
        v = pair_tabs[p][c[pair_a[p]] * pair_nb[p] + c[pair_b[p]]]
        if v == UNREACHABLE:
            return UNREACHABLE
        if v > h:
            h = v
    if radius >= 0:
        mask = np.uint64(ball.shape[0] - 1)
        v = ball[ball_slot(c, ncomp, mask)]
        d = radius + 1 if v == 0 else v - 1
        if d > h:
            h = d
    return h


@kernel
def is_target(c, ncomp, targets):
    """Whether the coordinates are one of the solved tuples (rows sorted)."""
    lo, hi = 0, targets.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        cmp = 0
        for k in range(ncomp):
            if targets[mid, k] != c[k]:
                cmp = -1 if targets[mid, k] < c[k] else 1
                break
        if cmp == 0:
            return True
        if cmp < 0:
            lo = mid + 1
        else:
            hi = mid
    return False


@kernel
def search_bound(bound, floor, starts, start_frames, tables, ncomp, singles, pair_tabs,
                 pair_a, pair_b, npairs, ball, radius, element, next_frame, cost, fsm, hw,
                 targets, out_moves, out_len, out_start, out_frame, out_cost, n_out, counters,
                 cancel):
    """All solutions costing more than `floor` and at most `bound`, from every start.
    Returns (status, next bound): DONE, CANCELLED, or FULL when the output arrays filled."""
    nmoves = element.shape[1]
    cap = out_len.shape[0]
    pair_nb = np.zeros(max(npairs, 1), np.int64)
    for p in range(npairs):
        pair_nb[p] = tables[pair_b[p]].shape[0]
    coords = np.zeros((MAX_DEPTH + 1, ncomp), np.int64)
    frame = np.zeros(MAX_DEPTH + 1, np.int64)
    state = np.zeros(MAX_DEPTH + 1, np.int64)
    spent = np.zeros(MAX_DEPTH + 1, np.int64)
    nxt = np.zeros(MAX_DEPTH + 1, np.int64)
    chosen = np.zeros(MAX_DEPTH + 1, np.int64)
    next_bound = NO_BOUND
    nodes = 0
    for s in range(starts.shape[0]):
        for k in range(ncomp):
            coords[0, k] = starts[s, k]
        h = _bound(coords[0], ncomp, singles, pair_tabs, pair_a, pair_b, pair_nb, npairs,
                   ball, radius)
        f = hw[h]
        if f > bound:
            if f < next_bound:
                next_bound = f
            continue
        if h == 0 and is_target(coords[0], ncomp, targets):
            if 0 > floor:
                if n_out[0] >= cap:
                    return FULL, next_bound
                i = n_out[0]
                out_len[i] = 0
                out_start[i] = s
                out_frame[i] = start_frames[s]
                out_cost[i] = 0
                n_out[0] = i + 1
                counters[SOLUTIONS] = i + 1
            continue
        frame[0] = start_frames[s]
        state[0] = 0
        spent[0] = 0
        nxt[0] = 0
        p = 0
        while p >= 0:
            m = nxt[p]
            if m >= nmoves:
                p -= 1
                continue
            nxt[p] = m + 1
            ns = fsm[state[p], m]
            if ns < 0:
                continue
            g = spent[p] + cost[m]
            if g > bound:
                if g < next_bound:
                    next_bound = g
                continue
            e = element[frame[p], m]
            for k in range(ncomp):
                coords[p + 1, k] = tables[k][coords[p, k], KEY_COLUMNS + e]
            nodes += 1
            if (nodes & 4095) == 0:
                counters[NODES] += 4096
                if cancel[0]:
                    return CANCELLED, next_bound
            h = _bound(coords[p + 1], ncomp, singles, pair_tabs, pair_a, pair_b, pair_nb,
                       npairs, ball, radius)
            f = g + hw[h]
            if f > bound:
                if f < next_bound:
                    next_bound = f
                continue
            chosen[p] = m
            if h == 0 and is_target(coords[p + 1], ncomp, targets):
                if g > floor:
                    if n_out[0] >= cap:
                        counters[NODES] += nodes & 4095
                        return FULL, next_bound
                    i = n_out[0]
                    for q in range(p + 1):
                        out_moves[i, q] = chosen[q]
                    out_len[i] = p + 1
                    out_start[i] = s
                    out_frame[i] = next_frame[frame[p], m]
                    out_cost[i] = g
                    n_out[0] = i + 1
                    counters[SOLUTIONS] = i + 1
                continue
            if p + 1 >= MAX_DEPTH:
                continue
            frame[p + 1] = next_frame[frame[p], m]
            state[p + 1] = ns
            spent[p + 1] = g
            nxt[p + 1] = 0
            p += 1
    counters[NODES] += nodes & 4095
    return DONE, next_bound
