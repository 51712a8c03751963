"""The scalar IDA* loop: one depth-first path of face turns, deepened bound by bound.

CFOP's search kernel and the informed players' IDA* run it; each kernel supplies `child`, what
a face turn makes of a node (its node rows live in the kernel's `ctx`), and gets the search
around it written once: the canonical move order (no face twice in a row, opposite faces in one
order), the node count published to `counters[NODES]` every PUBLISH nodes, the cancel flag and
the node budget checked there, `counters[BOUND]` set to the bound being searched. The driver
and `child` are inlined into the kernel, which numba compiles (and caches) as one function: as
fast as the loop written out in each kernel (bench_cfop.py measured them side by side).
"""

from __future__ import annotations

import numpy as np

from cubelab.tables.cubies import allowed_after
from cubelab.tables.jit import inline_kernel

from .protocol import BOUND, NODES

NOT_FOUND, CANCELLED, OUT_OF_NODES = -1, -2, -3
"""What `deepen` returns instead of a length: no solution within the bounds, the cancel flag
was raised, the node budget was spent."""
PUBLISH = 4096
"""Nodes between two publications of the count (and checks of the flag and the budget)."""


@inline_kernel
def deepen(child, ctx, bound, max_bound, max_depth, max_nodes, out, counters, cancel):
    """IDA* below the root, row 0 of the kernel's node rows: every bound from `bound` to
    `max_bound`, nodes no deeper than `max_depth`. child(ctx, p, m) fills row p + 1 with the
    node face turn m makes of row p's, and returns (its lower bound, whether it is a goal).
    Returns the length of the first solution found (its moves in out), or NOT_FOUND,
    CANCELLED, OUT_OF_NODES."""
    nxt = np.zeros(max_depth + 1, np.int64)     # the next move to try at each depth
    mv = np.zeros(max_depth + 1, np.int64)      # the path
    nodes = 0
    while bound <= max_bound:
        counters[BOUND] = bound
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
            h, goal = child(ctx, p, m)
            nodes += 1
            if (nodes & (PUBLISH - 1)) == 0:
                counters[NODES] += PUBLISH
                if cancel[0]:
                    return CANCELLED
                if nodes >= max_nodes:
                    return OUT_OF_NODES
            mv[p] = m
            if goal:
                out[:p + 1] = mv[:p + 1]
                counters[NODES] += nodes & (PUBLISH - 1)
                return p + 1
            if p + 1 + h > bound or p + 1 >= max_depth:
                continue
            p += 1
            nxt[p] = 0
        bound += 1
    counters[NODES] += nodes & (PUBLISH - 1)
    return NOT_FOUND
