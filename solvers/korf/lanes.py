"""The multi-lane depth-first search machinery the optimal solver's kernels are built on.

The multi-lane depth-first search machinery both Korf kernels (and any IDA* kernel on big
tables) are built on: lanes of interleaved depth-first searches below a list of start nodes.

A probe of a table of hundreds of megabytes misses every cache, and a good heuristic prunes so
well that a node rarely has more than one or two surviving children: one depth-first search
would wait on memory at every node. So each thread runs LANES independent depth-first searches
(each on its own start nodes) in turn, one stage of one node expansion at a time: a stage
computes the table entries its children need and prefetches them, and the lane's next stage (a
round later, after the other lanes had their turn) finds them in the cache.

A kernel keeps, per lane l and depth g, the children generated at g (`D[l, g, i]`, set-specific
node rows, and the move `dmove[l, g, i]` that made them) and the list of those still to search
(`kidx[l, g, :nk[l, g]]`, next one at `ki[l, g]`). `advance` picks a lane's next node depth
first; the kernel loads a start node when it says so (`begin` then starts the lane on it),
stops at depth `bound` (a solution: every lower bound is 0 there), or expands the node.

Layout of a search (what the solver hands every kernel): `items` are start nodes at depth g0
(each with the g0 moves that reach it), the search looks for a path of exactly `bound` moves,
every generated child counts as a node, `live[slot]` receives the node count every few thousand
nodes, `costs[i]` the nodes generated below start node i (the order of the next bound's
start nodes: solver.py), and the kernel stops when `stop[0]` or `cancel[0]` is raised. A kernel
that finds a solution writes it to `sol` and raises `stop[0]` so the other threads stop too.
"""

from __future__ import annotations

import numpy as np

from cubelab.tables.cubies import canonical_successors
from cubelab.tables.jit import inline_kernel, kernel

MAX_DEPTH = 26
"""The deepest bound a kernel searches: God's number in the quarter-turn metric (20 in HTM)."""
PUBLISH_EVERY = 4096
LANES = 8
"""Depth-first searches interleaved in one thread."""
NO_MOVE = 18
"""Stands for "no move" in a move order's rows table (before the first move)."""
IDLE, SELECT = -1, 0
"""Stages every kernel has: a lane with no more work, and a lane choosing its next node (the
kernels number their probing stages from 1)."""
NEED_START = -1
"""What `advance` returns for g when the lane has finished its start node."""


@kernel
def new_lanes(node_len, g0, like):
    """The per-lane arrays of a kernel (D, dmove, kidx, nk, ki, path, depth, cur, stage, cnt,
    owner: the start node each lane is below); the node rows D take like's dtype (a kernel whose
    node values fit 32 bits halves what its lanes keep in the caches)."""
    nl = LANES
    return (np.empty((nl, MAX_DEPTH + 1, 18, node_len), like.dtype),
            np.empty((nl, MAX_DEPTH + 1, 18), np.int64),
            np.zeros((nl, MAX_DEPTH + 1, 18), np.int64),
            np.zeros((nl, MAX_DEPTH + 1), np.int64),
            np.zeros((nl, MAX_DEPTH + 1), np.int64),
            np.empty((nl, MAX_DEPTH + 1), np.int64),
            np.full(nl, g0 - 1, np.int64),
            np.zeros(nl, np.int64),
            np.zeros(nl, np.int64),
            np.zeros(nl, np.int64),
            np.zeros(nl, np.int64))


@inline_kernel
def advance(l, g0, depth, nk, ki, kidx, path, dmove):
    """The next node of lane l, depth first: (g, j) = node j of D[l, g] with path[l, :g] the
    moves that reach it, or (NEED_START, 0) when the lane's start node is searched out."""
    g = depth[l]
    while g >= g0 and ki[l, g] >= nk[l, g]:
        g -= 1
    depth[l] = g
    if g < g0:
        return NEED_START, 0
    j = kidx[l, g, ki[l, g]]
    ki[l, g] += 1
    if g > g0:
        path[l, g - 1] = dmove[l, g, j]
    return g, j


@inline_kernel
def load_start(l, it, items, paths, D, path, g0, node_len, owner):
    """Copy start node `it` (and the moves reaching it) into lane l; the kernel then checks its
    heuristic and calls `begin` if the node can reach the bound."""
    owner[l] = it
    for k in range(node_len):
        D[l, g0, 0, k] = items[it, k]
    for k in range(g0):
        path[l, k] = paths[it, k]


@inline_kernel
def begin(l, g0, depth, nk, ki, kidx):
    """Start lane l on the start node just loaded."""
    depth[l] = g0
    nk[l, g0] = 1
    ki[l, g0] = 0
    kidx[l, g0, 0] = 0


@inline_kernel
def descend(l, g, kept, depth, nk, ki):
    """The children kept (kidx[l, g + 1, :kept]) are searched next."""
    nk[l, g + 1] = kept
    ki[l, g + 1] = 0
    depth[l] = g + 1


@inline_kernel
def axis_step(D, l, g, j, i, b, ma, coord_move, flip_move, twist_move):
    """Child i at depth g + 1 of node j (lane l) gets the (coordinate, flip, twist) that move
    ma makes of its parent's at row offset b (one axis seen through its symmetry); returns
    them."""
    x = coord_move[D[l, g, j, b], ma]
    y = flip_move[D[l, g, j, b + 1], ma]
    z = twist_move[D[l, g, j, b + 2], ma]
    D[l, g + 1, i, b] = x
    D[l, g + 1, i, b + 1] = y
    D[l, g + 1, i, b + 2] = z
    return x, y, z


@inline_kernel
def solved(l, bound, path, sol, stop):
    """Lane l stands at depth `bound` within every lower bound: hand the path out, stop all."""
    for k in range(bound):
        sol[k] = path[l, k]
    stop[0] = 1


@inline_kernel
def successor_row(l, g, path, rows):
    """Row of a move order's successor lists for the node at depth g of lane l: rows[the move
    two back, the last move] (NO_MOVE where there is none; see face_turn_order)."""
    a = path[l, g - 2] if g > 1 else NO_MOVE
    b = path[l, g - 1] if g > 0 else NO_MOVE
    return rows[a, b]


@inline_kernel
def last_face(l, g, path):
    """Row of the canonical successor lists for the node at depth g of lane l."""
    return path[l, g - 1] // 3 + 1 if g > 0 else 0


def mod3_decoder(unknown_depth: int) -> np.ndarray:
    """dec[p, v]: the exact distance of a child whose parent is at p and whose entry is v (the
    distance mod 3, or 3 = unknown, decoded as unknown_depth: the table's depth + 1)."""
    dec = np.zeros((MAX_DEPTH + 2, 4), np.int8)
    for p in range(MAX_DEPTH + 2):
        for v in range(3):
            # (p = 0, v = 2 cannot happen in a consistent table: 0 is the safe answer)
            dec[p, v] = next((c for c in (p - 1, p, p + 1) if c >= 0 and c % 3 == v), 0)
        dec[p, 3] = unknown_depth
    return dec


def face_turn_order() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The canonical order of the 18 face turns as a kernel reads it: (lists, counts, rows),
    the moves allowed next being lists[r, :counts[r]] with r = rows[move two back, last move]
    (cubelab.tables.cubies.canonical_successors; only the last face matters here)."""
    lists, counts = canonical_successors()
    rows = np.zeros((NO_MOVE + 1, NO_MOVE + 1), np.int64)
    rows[:, :NO_MOVE] = np.arange(NO_MOVE) // 3 + 1
    return lists, counts, rows


def expand_items(root: np.ndarray, depth: int, child, order=None
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Every node `depth` moves below root in a move order (lists, counts, rows; by default
    face_turn_order()), without heuristic pruning: their states and the moves that reach them.
    child(state, m, out) fills out."""
    lists, counts, rows = face_turn_order() if order is None else order
    states, paths = [root.copy()], [np.zeros(0, np.int8)]
    for _ in range(depth):
        nxt_states, nxt_paths = [], []
        for s, p in zip(states, paths):
            row = rows[int(p[-2]) if len(p) > 1 else NO_MOVE, int(p[-1]) if len(p) else NO_MOVE]
            for m in lists[row, :counts[row]]:
                out = np.empty_like(s)
                child(s, int(m), out)
                nxt_states.append(out)
                nxt_paths.append(np.append(p, np.int8(m)))
        states, paths = nxt_states, nxt_paths
    return np.array(states, dtype=np.int64), np.array(paths, dtype=np.int8).reshape(len(paths),
                                                                                   depth)
