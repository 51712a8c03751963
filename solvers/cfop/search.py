"""CFOP's search kernel: iterative deepening over the cross and F2L piece codes.

One kernel serves the cross and every F2L pair: the cube is the cross coordinate plus the codes
of the four F2L corners and edges; `keep` (a bit per slot) says which pairs must stay solved,
`want` which pairs may be the one solved next (none: solve the cross). The bound is the largest
of the exact tables of the cross and of the kept slots' pieces, and of the smallest over the
wanted slots, so the first solution found is a shortest way to the cheapest next pair.
"""

from __future__ import annotations

import numpy as np

from cubelab.solvers.protocol import BOUND, NODES
from cubelab.tables.cubies import allowed_after
from cubelab.tables.jit import inline_kernel, kernel

MAX_DEPTH = 20


@inline_kernel
def _slot(k, base, cc, ec, cross_corner, cross_edge):
    """The exact distance to the cross with slot k's corner home, or with its edge home,
    whichever is larger: a bound on solving the cross and that pair."""
    a = cross_corner[k, base + cc[k]]
    b = cross_edge[k, base + ec[k]]
    return a if a > b else b


@inline_kernel
def _bound(x, cc, ec, keep, want, cross, cross_corner, cross_edge):
    """The admissible distance of one node, and the slot it solves (-1 if none)."""
    h = cross[x]
    base = x * 24
    best = 99
    slot = -1
    for k in range(4):
        if (keep >> k) & 1:
            h = max(h, _slot(k, base, cc, ec, cross_corner, cross_edge))
        elif (want >> k) & 1:
            d = _slot(k, base, cc, ec, cross_corner, cross_edge)
            if d < best:
                best = d
                slot = k
    if slot >= 0 and best > h:
        h = best
    return h, slot


@kernel
def search(x0, cc0, ec0, keep, want, max_depth, cross_move, corner_move, edge_move, cross,
           cross_corner, cross_edge, out, counters, cancel):
    """Shortest sequence (at most max_depth) reaching the goal; its moves go to out. Returns
    (length, slot solved) or (-1, -1) when none exists within max_depth or when cancelled."""
    xs = np.empty(MAX_DEPTH + 1, np.int64)
    cs = np.empty((MAX_DEPTH + 1, 4), np.int64)
    es = np.empty((MAX_DEPTH + 1, 4), np.int64)
    nxt = np.zeros(MAX_DEPTH + 1, np.int64)
    mv = np.zeros(MAX_DEPTH + 1, np.int64)
    xs[0] = x0
    cs[0] = cc0
    es[0] = ec0
    h0, slot0 = _bound(x0, cc0, ec0, keep, want, cross, cross_corner, cross_edge)
    if h0 == 0:
        return 0, slot0
    nodes = 0
    depth = h0
    if max_depth > MAX_DEPTH:
        max_depth = MAX_DEPTH
    while depth <= max_depth:
        counters[BOUND] = depth
        p = 0
        nxt[0] = 0
        while p >= 0:
            if nxt[p] >= 18:
                p -= 1
                continue
            m = nxt[p]
            nxt[p] += 1
            if p > 0 and not allowed_after(m // 3, mv[p - 1] // 3):
                continue
            x = cross_move[xs[p], m]
            for k in range(4):
                cs[p + 1, k] = corner_move[cs[p, k], m]
                es[p + 1, k] = edge_move[es[p, k], m]
            h, slot = _bound(x, cs[p + 1], es[p + 1], keep, want, cross, cross_corner,
                             cross_edge)
            nodes += 1
            if (nodes & 4095) == 0:
                counters[NODES] += 4096
                if cancel[0]:
                    counters[NODES] += nodes & 4095
                    return -1, -1
            if p + 1 + h > depth:
                continue
            mv[p] = m
            if h == 0:
                out[:p + 1] = mv[:p + 1]
                counters[NODES] += nodes & 4095
                return p + 1, slot
            xs[p + 1] = x
            p += 1
            nxt[p] = 0
        depth += 1
    counters[NODES] += nodes & 4095
    return -1, -1
