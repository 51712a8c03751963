"""The IDA* kernel of the strong table set (corners, then the exact-slice phase table).

Corners, then the exact-slice phase table along the three axes, searched in interleaved
depth-first lanes (lanes.py says why and how).

Stages of a node expansion: (select) pick the next node depth first and compute its children's
corner and U-D entries; (probed) keep the children both allow, compute their R-L and F-B
entries; (sides) keep the children those allow, and descend.

Per node: the corner database (on the UD-symmetry representative, 3 MB, cache resident), then
the U-D phase distance, then R-L and F-B. Phase distances are stored mod 3 and decoded from the
parent's exact distance. If the three are equal and nonzero the position needs one more move: a
single face turn lies in its own axis' subgroup, so the three cannot all be 1 one move before the
end, and along an optimal path all three fall by one at every move.
"""

from __future__ import annotations

import numpy as np

from cubelab.tables.jit import inline_kernel, kernel
from cubelab.tables.korf.slicephase import ROW, phase_entry
from cubelab.tables.memory import prefetch
from cubelab.tables.packed import UNKNOWN2, UNKNOWN4, get2, get4
from cubelab.tables.ranks import N_TWIST

from .lanes import (
    IDLE, LANES, MAX_DEPTH, NEED_START, PUBLISH_EVERY, SELECT, advance, axis_step, begin,
    descend, load_start, new_lanes, solved, successor_row,
)

PROBED, SIDES = 1, 2
# Node row: corner permutation, then (sorted slice, flip, twist, distance) for each of the
# three axes.
S_CP = 0
S_AXIS = 1          # axis a occupies S_AXIS + 4a .. S_AXIS + 4a + 3
S_LEN = 13


def pack_ss_info(ss_cls, ss_sym, ss_fmask) -> np.ndarray:
    """One int32 per sorted-slice value: class << 15 | symmetry << 11 | flip mask."""
    info = (ss_cls.astype(np.int64) << 15) | (ss_sym.astype(np.int64) << 11) | ss_fmask
    return info.astype(np.int32)


@kernel
def phase_distance(ptab, ss, f, t, unknown_depth, ss_cls, ss_sym, ss_fmask, flip_conj,
                   twist_conj, sslice_move, flip_move, twist_move, solved_ss):
    """Exact distance of a phase coordinate from the mod-3 table, by walking down to depth 0:
    a neighbour whose entry is one less (mod 3) is one move closer. The move tables hold the
    columns of the moves the table was built with (a half turn is no neighbour in QTM)."""
    v = get2(ptab, phase_entry(ss, f, t, ss_cls, ss_sym, ss_fmask, flip_conj, twist_conj))
    if v == UNKNOWN2:
        return unknown_depth
    d = 0
    while not (ss == solved_ss and f == 0 and t == 0):
        want = (v + 2) % 3
        for m in range(sslice_move.shape[1]):
            ss1 = sslice_move[ss, m]
            f1 = flip_move[f, m]
            t1 = twist_move[t, m]
            if get2(ptab, phase_entry(ss1, f1, t1, ss_cls, ss_sym, ss_fmask, flip_conj,
                                      twist_conj)) == want:
                ss, f, t, v = ss1, f1, t1, want
                break
        d += 1
        if d > MAX_DEPTH:
            return -1   # the table is damaged: the caller refuses to search with it
    return d


@kernel
def strong_child(state, m, out, cperm_move, twist_move, sslice_move, flip_move, axmove, ptab,
                 dec, ss_cls, ss_sym, ss_fmask, flip_conj, twist_conj):
    """The child after move m, every coordinate and distance computed (no pruning)."""
    out[S_CP] = cperm_move[state[S_CP], m]
    for a in range(3):
        b = S_AXIS + 4 * a
        ma = axmove[a, m]
        out[b] = sslice_move[state[b], ma]
        out[b + 1] = flip_move[state[b + 1], ma]
        out[b + 2] = twist_move[state[b + 2], ma]
        j = phase_entry(out[b], out[b + 1], out[b + 2], ss_cls, ss_sym, ss_fmask, flip_conj,
                        twist_conj)
        out[b + 3] = dec[state[b + 3], get2(ptab, j)]


@inline_kernel
def _phase_index(ss, f, t, ss_info, flip_conj, twist_conj):
    info = ss_info[ss]
    k = (info >> 11) & 15
    row = (np.int64(info >> 15) << 11) | (flip_conj[k, f] ^ (info & 2047))
    return row * ROW + twist_conj[k, t]


@kernel
def start_h(state, csym, cp_info, twist_conj, corner_unknown):
    """The heuristic of a node whose phase distances are known."""
    info = cp_info[state[S_CP]]
    h = get4(csym, np.int64(info >> 4) * N_TWIST + twist_conj[info & 15, state[S_AXIS + 2]])
    if h == UNKNOWN4:
        h = corner_unknown
    d0, d1, d2 = state[S_AXIS + 3], state[S_AXIS + 7], state[S_AXIS + 11]
    h = max(h, d0, d1, d2)
    if d0 != 0 and d0 == d1 and d1 == d2 and d0 + 1 > h:
        h = d0 + 1
    return h


@kernel
def strong_search(items, paths, i0, i1, g0, bound, move_lists, n_moves, rows, cperm_move,
                  twist_move, sslice_move, flip_move, axmove, csym, cp_info, corner_unknown, ptab,
                  dec, ss_info, flip_conj, twist_conj, live, slot, stop, cancel, sol, costs):
    """Search below items[i0:i1] (nodes at depth g0) for a solution of exactly `bound` moves of
    the move order (move_lists, n_moves, rows: lanes.face_turn_order, or the quarter turns').
    Returns (found, nodes)."""
    nl = LANES
    D, dmove, kidx, nk, ki, path, depth, cur, stage, cnt, owner = new_lanes(S_LEN, g0, items)
    sc = np.empty((nl, 8, 18), np.int64)
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
                        load_start(l, next_item, items, paths, D, path, g0, S_LEN, owner)
                        next_item += 1
                        if g0 + start_h(D[l, g0, 0], csym, cp_info, twist_conj,
                                        corner_unknown) <= bound:
                            begin(l, g0, depth, nk, ki, kidx)
                        continue
                    if g == bound:
                        # within the bound at depth `bound`: every lower bound is 0, so the
                        # corners and the three exact slices (all edges) are solved
                        solved(l, bound, path, sol, stop)
                        live[slot] += nodes - published
                        return 1, nodes
                    cur[l] = j
                    last = successor_row(l, g, path, rows)
                    nm = n_moves[last]
                    pcp = D[l, g, j, S_CP]
                    ptw = D[l, g, j, S_AXIS + 2]
                    pss = D[l, g, j, S_AXIS]
                    pf = D[l, g, j, S_AXIS + 1]
                    for i in range(nm):
                        m = move_lists[last, i]
                        cp1 = cperm_move[pcp, m]
                        t0 = twist_move[ptw, m]
                        info = cp_info[cp1]
                        e = np.int64(info >> 4) * N_TWIST + twist_conj[info & 15, t0]
                        prefetch(csym, e >> 1)
                        ss0 = sslice_move[pss, m]
                        f0 = flip_move[pf, m]
                        D[l, g + 1, i, S_CP] = cp1
                        D[l, g + 1, i, S_AXIS] = ss0
                        D[l, g + 1, i, S_AXIS + 1] = f0
                        D[l, g + 1, i, S_AXIS + 2] = t0
                        dmove[l, g + 1, i] = m
                        e2 = _phase_index(ss0, f0, t0, ss_info, flip_conj, twist_conj)
                        prefetch(ptab, e2 >> 2)
                        sc[l, 3, i] = e
                        sc[l, 4, i] = e2
                    cnt[l] = nm
                    nodes += nm
                    costs[owner[l]] += nm
                    stage[l] = PROBED
                    break
            elif st == PROBED:
                # the corner and U-D entries read; the survivors' R-L and F-B entries fetched
                g = depth[l]
                j = cur[l]
                togo = bound - g
                pd = D[l, g, j, S_AXIS + 3]
                r = 0
                for i in range(cnt[l]):
                    hc = get4(csym, sc[l, 3, i])
                    hc = corner_unknown if hc == UNKNOWN4 else hc
                    d0 = dec[pd, get2(ptab, sc[l, 4, i])]
                    sc[l, 7, r] = i
                    sc[l, 5, r] = d0
                    r += (d0 < togo) & (hc < togo)
                for ii in range(r):
                    i = sc[l, 7, ii]
                    D[l, g + 1, i, S_AXIS + 3] = sc[l, 5, ii]
                    m = dmove[l, g + 1, i]
                    for a in range(1, 3):
                        x, y, z = axis_step(D, l, g, j, i, S_AXIS + 4 * a, axmove[a, m],
                                            sslice_move, flip_move, twist_move)
                        e = _phase_index(x, y, z, ss_info, flip_conj, twist_conj)
                        sc[l, 4 + a, ii] = e
                        prefetch(ptab, e >> 2)
                cnt[l] = r
                stage[l] = SIDES if r > 0 else SELECT
            else:
                # SIDES: R-L and F-B read (and three equal distances need a move more); descend
                g = depth[l]
                j = cur[l]
                togo = bound - g
                p1 = D[l, g, j, S_AXIS + 7]
                p2 = D[l, g, j, S_AXIS + 11]
                w = 0
                for ii in range(cnt[l]):
                    i = sc[l, 7, ii]
                    d0 = D[l, g + 1, i, S_AXIS + 3]
                    d1 = dec[p1, get2(ptab, sc[l, 5, ii])]
                    d2 = dec[p2, get2(ptab, sc[l, 6, ii])]
                    keep = (d1 < togo) & (d2 < togo) & ~((d0 != 0) & (d0 == d1) & (d1 == d2)
                                                        & (d0 + 1 >= togo))
                    D[l, g + 1, i, S_AXIS + 7] = d1
                    D[l, g + 1, i, S_AXIS + 11] = d2
                    kidx[l, g + 1, w] = i
                    w += keep
                descend(l, g, w, depth, nk, ki)
                stage[l] = SELECT
        if nodes - published >= PUBLISH_EVERY:
            live[slot] += nodes - published
            published = nodes
            if stop[0] or cancel[0]:
                return 0, nodes
    live[slot] += nodes - published
    return 0, nodes
