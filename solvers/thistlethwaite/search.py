"""Thistlethwaite's search kernel: a branch and bound over phases 1-3 at once.

It runs on their exact distance tables, carrying the cube from one phase into the next (phase 4
is read off its table). Not an IDA*: one depth-first pass in which each phase may run up to
`slack` moves past its own optimum, the best total so far bounding the rest. Its stages: the
moves a ply may try (`_length_after`: the canonical order inside a phase, merged turns across
a boundary), and the end of a phase (`_phase_ends`: the cube carried into the next one).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from cubelab.solvers.protocol import BEST, NODES
from cubelab.tables.cubies import allowed_after, apply_move
from cubelab.tables.jit import inline_kernel, kernel
from cubelab.tables.thistlethwaite.coords import phase_coords

MAX_PLY = 64
LEAF = 99
"""nxt of a ply with nothing left to try (a leaf, or a phase end that cannot improve)."""


Path = namedtuple("Path", "phase ca cb nxt mv plen start limit snap cur nxt_cube size_b")
"""The search's path, by ply: the phase, its two coordinates, the next move to try, the move
made, the length so far (turns merged across phase boundaries); by phase: the ply it starts
at, the last ply it may reach, the cube where it starts; work rows for carrying a cube."""

Tables = namedtuple("Tables", "mcp mco mep meo moves move_a move_b dist lr cclass h_index "
                    "m_slots e_slots s_slots binom slack")
"""What the search reads (search's arguments say what each is)."""


@inline_kernel
def _new_path(cube0, move_b):
    z = np.zeros(MAX_PLY + 1, np.int64)
    path = Path(z.copy(), z.copy(), z.copy(), z.copy(), z.copy(), z.copy(),
                np.zeros(4, np.int64), np.zeros(4, np.int64), np.zeros((4, 40), np.int64),
                np.empty(40, np.int64), np.empty(40, np.int64), np.zeros(4, np.int64))
    path.snap[0] = cube0
    for k in range(4):
        path.size_b[k] = move_b[k].shape[0]
    return path


@inline_kernel
def _coords(t, k, c):
    """Phase k's two coordinates of the cube c (cp co ep eo as 40 int64)."""
    return phase_coords(k, c[0:8], c[8:16], c[16:28], c[28:40], t.lr, t.cclass, t.h_index,
                        t.m_slots, t.e_slots, t.s_slots, t.binom)


@inline_kernel
def _phase_ends(path, p, best, t, best_moves, best_ends, counters):
    """The phase at ply p is complete: carry the cube into the next phase(s) (one may be
    complete at once). After phase 3 the total is phase 4's distance read from its table: a
    better total becomes the best. Returns the best total."""
    while True:
        k = path.phase[p]
        cur, nxt_cube = path.cur, path.nxt_cube
        cur[:] = path.snap[k]
        for q in range(path.start[k], p):
            apply_move(cur[0:8], cur[8:16], cur[16:28], cur[28:40], t.mcp, t.mco, t.mep, t.meo,
                       path.mv[q], nxt_cube[0:8], nxt_cube[8:16], nxt_cube[16:28],
                       nxt_cube[28:40])
            cur[:] = nxt_cube
        a, b = _coords(t, k + 1, cur)
        d = t.dist[k + 1][a * path.size_b[k + 1] + b]
        if k + 1 == 3:
            total = path.plen[p] + d
            if total < best:
                best = total
                best_moves[:p] = path.mv[:p]
                best_ends[0] = path.start[1]
                best_ends[1] = path.start[2]
                best_ends[2] = p
                counters[BEST] = best
            path.nxt[p] = LEAF
            return best
        path.snap[k + 1] = cur
        path.phase[p], path.ca[p], path.cb[p] = k + 1, a, b
        path.start[k + 1] = p
        path.limit[k + 1] = p + d + t.slack[k + 1]
        path.nxt[p] = 0
        if path.plen[p] + d >= best:
            path.nxt[p] = LEAF
            return best
        if d != 0:
            return best


@inline_kernel
def _length_after(path, p, k, m):
    """(the length after move m at ply p of phase k, whether the move may be made): inside a
    phase the canonical order holds; across a phase boundary two turns of one face merge (or
    cancel)."""
    newlen = path.plen[p] + 1
    if p > 0:
        prev = path.mv[p - 1]
        face, pface = m // 3, prev // 3
        if p > path.start[k]:
            if not allowed_after(face, pface):
                return newlen, False
        elif pface == face:
            newlen = path.plen[p] if (prev % 3 + m % 3 + 2) % 4 != 0 else path.plen[p] - 1
    return newlen, True


@kernel
def search(cube0, mcp, mco, mep, meo, moves, move_a, move_b, dist, lr, cclass, h_index,
           m_slots, e_slots, s_slots, binom, slack, bound, best_moves, best_ends, max_nodes,
           counters, cancel):
    """Branch and bound over phases 1-3 (phase 4 read from its table). Returns the best total
    below `bound` (or `bound` if none); its moves go to best_moves and the plies where phases
    1, 2 and 3 end to best_ends. `cube0` is cp co ep eo as 40 int64."""
    t = Tables(mcp, mco, mep, meo, moves, move_a, move_b, dist, lr, cclass, h_index, m_slots,
               e_slots, s_slots, binom, slack)
    path = _new_path(cube0, move_b)
    best = bound
    nodes = 0
    # ply 0 may already lie in G1, G2 or G3
    a, b = _coords(t, 0, cube0)
    path.ca[0], path.cb[0] = a, b
    path.limit[0] = dist[0][a * path.size_b[0] + b] + slack[0]
    p = 0
    settle = dist[0][a * path.size_b[0] + b] == 0
    while p >= 0:
        if settle:
            settle = False
            best = _phase_ends(path, p, best, t, best_moves, best_ends, counters)
        k = path.phase[p]
        if path.nxt[p] >= len(moves[k]):
            p -= 1
            continue
        col = path.nxt[p]
        path.nxt[p] += 1
        m = moves[k][col]
        newlen, allowed = _length_after(path, p, k, m)
        if not allowed:
            continue
        a = move_a[k][path.ca[p], col]
        b = move_b[k][path.cb[p], col]
        d = dist[k][a * path.size_b[k] + b]
        if p + 1 + d > path.limit[k] or newlen + d >= best or p + 1 >= MAX_PLY:
            continue
        nodes += 1
        if (nodes & 4095) == 0:
            counters[NODES] += 4096
            if cancel[0] or nodes >= max_nodes:
                break
        path.mv[p] = m
        p += 1
        path.phase[p], path.ca[p], path.cb[p], path.plen[p], path.nxt[p] = k, a, b, newlen, 0
        settle = d == 0
    counters[NODES] += nodes & 4095
    return best
