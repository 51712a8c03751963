"""The IDA* kernel of the korf1997 table set (corners and two six-edge databases).

The maximum of Korf's corner database and his two six-edge databases, searched in interleaved
depth-first lanes (lanes.py says why and how): a lane's select stage computes its children's
three entries and prefetches them, its next stage probes them and descends.
"""

from __future__ import annotations

import numpy as np

from cubelab.tables.jit import inline_kernel, kernel
from cubelab.tables.memory import prefetch
from cubelab.tables.packed import UNKNOWN4, get4
from cubelab.tables.ranks import N_TWIST, rank_placement

from .lanes import (
    IDLE, LANES, NEED_START, PUBLISH_EVERY, SELECT, advance, begin, descend, last_face,
    load_start, new_lanes, solved,
)

PROBED = 1
# Node row: corner permutation, twist, then the 12 edge cubies (2 * position + flip of each).
K_CP, K_TW, K_EDGE = 0, 1, 2
K_LEN = 14


@inline_kernel
def _edge6_index(e, first):
    pos = np.empty(6, np.int64)
    ori = 0
    for j in range(6):
        x = e[first + j]
        pos[j] = x >> 1
        ori = 2 * ori + (x & 1)
    return rank_placement(pos, 6, 12) * 64 + ori


@kernel
def korf_child(state, m, out, cperm_move, twist_move, edge_cubie):
    out[K_CP] = cperm_move[state[K_CP], m]
    out[K_TW] = twist_move[state[K_TW], m]
    for j in range(12):
        out[K_EDGE + j] = edge_cubie[m, state[K_EDGE + j]]


@kernel
def korf_h(state, ctab, etab_a, etab_b, unknown):
    hc = get4(ctab, np.int64(state[K_CP]) * N_TWIST + state[K_TW])
    ha = get4(etab_a, _edge6_index(state[K_EDGE:], 0))
    hb = get4(etab_b, _edge6_index(state[K_EDGE:], 6))
    h = 0
    for x in (hc, ha, hb):
        v = unknown if x == UNKNOWN4 else x
        if v > h:
            h = v
    return h


@kernel
def korf_search(items, paths, i0, i1, g0, bound, move_lists, n_moves, cperm_move, twist_move,
                edge_cubie, ctab, etab_a, etab_b, unknown, live, slot, stop, cancel, sol, costs):
    """The korf1997 search: the max of the corner and the two six-edge databases, in LANES
    interleaved depth-first searches (as lanes.py explains): a lane's select stage computes
    its children's three entries and prefetches them, its next stage probes and descends."""
    nl = LANES
    D, dmove, kidx, nk, ki, path, depth, cur, stage, cnt, owner = new_lanes(K_LEN, g0, items)
    sc = np.empty((nl, 3, 18), np.int64)
    pos = np.empty(6, np.int64)
    next_item = i0
    active = nl
    nodes = 0
    published = 0
    while active > 0:
        for l in range(nl):
            st = stage[l]
            if st == IDLE:
                continue
            if st == SELECT:
                while True:
                    g, j = advance(l, g0, depth, nk, ki, kidx, path, dmove)
                    if g == NEED_START:
                        if next_item >= i1:
                            stage[l] = IDLE
                            active -= 1
                            break
                        load_start(l, next_item, items, paths, D, path, g0, K_LEN, owner)
                        next_item += 1
                        if g0 + korf_h(D[l, g0, 0], ctab, etab_a, etab_b, unknown) <= bound:
                            begin(l, g0, depth, nk, ki, kidx)
                        continue
                    if g == bound:
                        solved(l, bound, path, sol, stop)
                        live[slot] += nodes - published
                        return 1, nodes
                    cur[l] = j
                    last = last_face(l, g, path)
                    nm = n_moves[last]
                    pcp = D[l, g, j, K_CP]
                    ptw = D[l, g, j, K_TW]
                    for i in range(nm):
                        m = move_lists[last, i]
                        cp1 = cperm_move[pcp, m]
                        t1 = twist_move[ptw, m]
                        D[l, g + 1, i, K_CP] = cp1
                        D[l, g + 1, i, K_TW] = t1
                        dmove[l, g + 1, i] = m
                        e = np.int64(cp1) * N_TWIST + t1
                        sc[l, 0, i] = e
                        prefetch(ctab, e >> 1)
                        for half in range(2):
                            ori = 0
                            for q in range(6):
                                x = edge_cubie[m, D[l, g, j, K_EDGE + 6 * half + q]]
                                D[l, g + 1, i, K_EDGE + 6 * half + q] = x
                                pos[q] = x >> 1
                                ori = 2 * ori + (x & 1)
                            e = rank_placement(pos, 6, 12) * 64 + ori
                            sc[l, 1 + half, i] = e
                            if half == 0:
                                prefetch(etab_a, e >> 1)
                            else:
                                prefetch(etab_b, e >> 1)
                    cnt[l] = nm
                    nodes += nm
                    costs[owner[l]] += nm
                    stage[l] = PROBED
                    break
            else:
                g = depth[l]
                togo = bound - g
                w = 0
                for i in range(cnt[l]):
                    hc = get4(ctab, sc[l, 0, i])
                    ha = get4(etab_a, sc[l, 1, i])
                    hb = get4(etab_b, sc[l, 2, i])
                    hc = unknown if hc == UNKNOWN4 else hc
                    ha = unknown if ha == UNKNOWN4 else ha
                    hb = unknown if hb == UNKNOWN4 else hb
                    kidx[l, g + 1, w] = i
                    w += (hc < togo) & (ha < togo) & (hb < togo)
                descend(l, g, w, depth, nk, ki)
                stage[l] = SELECT
        if nodes - published >= PUBLISH_EVERY:
            live[slot] += nodes - published
            published = nodes
            if stop[0] or cancel[0]:
                return 0, nodes
    live[slot] += nodes - published
    return 0, nodes
