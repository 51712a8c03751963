"""Thistlethwaite's search kernel: a branch and bound over phases 1-3 at once.

It runs on their exact distance tables, carrying the cube from one phase into the next (phase 4
is read off its table).
"""

from __future__ import annotations

import numpy as np

from cubelab.solvers.protocol import BEST, NODES
from cubelab.tables.cubies import allowed_after, apply_move
from cubelab.tables.jit import kernel
from cubelab.tables.thistlethwaite.coords import phase_coords

MAX_PLY = 64


@kernel
def search(cube0, mcp, mco, mep, meo, moves, move_a, move_b, dist, lr, cclass, h_index,
           m_slots, e_slots, s_slots, binom, slack, bound, best_moves, best_ends, max_nodes,
           counters, cancel):
    """Branch and bound over phases 1-3 (phase 4 read from its table). Returns the best total
    below `bound` (or `bound` if none); its moves go to best_moves and the plies where phases
    1, 2 and 3 end to best_ends. `cube0` is cp co ep eo as 40 int64."""
    phase = np.zeros(MAX_PLY + 1, np.int64)
    ca = np.zeros(MAX_PLY + 1, np.int64)
    cb = np.zeros(MAX_PLY + 1, np.int64)
    nxt = np.zeros(MAX_PLY + 1, np.int64)
    mv = np.zeros(MAX_PLY + 1, np.int64)
    plen = np.zeros(MAX_PLY + 1, np.int64)
    start = np.zeros(4, np.int64)      # ply at which each phase starts
    limit = np.zeros(4, np.int64)      # last ply each phase may reach
    snap = np.zeros((4, 40), np.int64)  # the cube at the start of each phase
    snap[0] = cube0
    size_b = np.zeros(4, np.int64)
    for k in range(4):
        size_b[k] = move_b[k].shape[0]
    cur = np.empty(40, np.int64)
    nxt_cube = np.empty(40, np.int64)
    best = bound
    nodes = 0

    # settle ply 0: it may already lie in G1, G2 or G3
    a, b = phase_coords(0, cube0[0:8], cube0[8:16], cube0[16:28], cube0[28:40], lr, cclass,
                        h_index, m_slots, e_slots, s_slots, binom)
    phase[0], ca[0], cb[0] = 0, a, b
    start[0] = 0
    limit[0] = dist[0][a * size_b[0] + b] + slack[0]
    p = 0
    settle = dist[0][a * size_b[0] + b] == 0
    while p >= 0:
        if settle:
            settle = False
            # phases complete at ply p: carry the cube into the next phase(s)
            while True:
                k = phase[p]
                cur[:] = snap[k]
                for q in range(start[k], p):
                    apply_move(cur[0:8], cur[8:16], cur[16:28], cur[28:40], mcp, mco, mep, meo,
                               mv[q], nxt_cube[0:8], nxt_cube[8:16], nxt_cube[16:28],
                               nxt_cube[28:40])
                    cur[:] = nxt_cube
                a, b = phase_coords(k + 1, cur[0:8], cur[8:16], cur[16:28], cur[28:40], lr,
                                    cclass, h_index, m_slots, e_slots, s_slots, binom)
                d = dist[k + 1][a * size_b[k + 1] + b]
                if k + 1 == 3:
                    total = plen[p] + d
                    if total < best:
                        best = total
                        best_moves[:p] = mv[:p]
                        best_ends[0] = start[1]
                        best_ends[1] = start[2]
                        best_ends[2] = p
                        counters[BEST] = best
                    nxt[p] = 99          # a leaf
                    break
                snap[k + 1] = cur
                phase[p], ca[p], cb[p] = k + 1, a, b
                start[k + 1] = p
                limit[k + 1] = p + d + slack[k + 1]
                nxt[p] = 0
                if plen[p] + d >= best:
                    nxt[p] = 99
                    break
                if d != 0:
                    break
        k = phase[p]
        pm = moves[k]
        if nxt[p] >= len(pm):
            p -= 1
            continue
        col = nxt[p]
        nxt[p] += 1
        m = pm[col]
        face = m // 3
        newlen = plen[p] + 1
        if p > 0:
            prev = mv[p - 1]
            pface = prev // 3
            if p > start[k]:
                # inside a phase: the canonical order
                if not allowed_after(face, pface):
                    continue
            elif pface == face:
                # across a phase boundary the two turns merge (or cancel)
                newlen = plen[p] if (prev % 3 + m % 3 + 2) % 4 != 0 else plen[p] - 1
        a = move_a[k][ca[p], col]
        b = move_b[k][cb[p], col]
        d = dist[k][a * size_b[k] + b]
        if p + 1 + d > limit[k] or newlen + d >= best or p + 1 >= MAX_PLY:
            continue
        nodes += 1
        if (nodes & 4095) == 0:
            counters[NODES] += 4096
            if cancel[0] or nodes >= max_nodes:
                break
        mv[p] = m
        p += 1
        phase[p], ca[p], cb[p], plen[p], nxt[p] = k, a, b, newlen, 0
        settle = d == 0
    counters[NODES] += nodes & 4095
    return best
