"""The IDA* kernels of Korf's solver (numba, nogil): depth-first search below a list of start
nodes, pruning with the maximum of admissible pattern-database lookups.

Two kernels, one per table set, share the layout of a search: `items` are start nodes at depth
g0 (each with the moves that reach it), the search looks for a path of exactly `bound` moves,
every generated child counts as a node, `live[slot]` receives the node count every few thousand
nodes, and the kernel stops when `stop[0]` or `cancel[0]` is raised. A kernel that finds a
solution writes it to `sol` and raises `stop[0]` so the other thread stops too.

Move pruning: no face twice in a row, and of two opposite faces (which commute) only the order
U before D, R before L, F before B.

The strong set's kernel is in korf_strong; this module has what both share, the strong set's
exact root distances, and the korf1997 kernel.
"""

from __future__ import annotations

import numpy as np

import cubelab.tables  # noqa: F401  (numba cache location, before numba)
from numba import njit

from cubelab.tables.korf_coords import N_TWIST, rank_placement
from cubelab.tables.korf_phase import phase_entry
from cubelab.tables.packed import UNKNOWN2, UNKNOWN4, get2, get4

from .korf_prefetch import prefetch

MAX_DEPTH = 24
PUBLISH_EVERY = 4096
LANES = 8
"""Depth-first searches a kernel interleaves in one thread."""
IDLE, SELECT, PROBED = -1, 0, 1

# Node state of the strong kernel: corner permutation, then (sorted slice, flip, twist,
# distance) for each of the three axes.
S_CP = 0
S_AXIS = 1          # axis a occupies S_AXIS + 4a .. S_AXIS + 4a + 3
S_LEN = 13
# Node state of the korf1997 kernel: corner permutation, twist, then the 12 edge cubies
# (2 * position + flip of each edge).
K_CP, K_TW, K_EDGE = 0, 1, 2
K_LEN = 14


def allowed_moves() -> np.ndarray:
    """(7, 18): allowed[last face + 1, move] (row 0: no previous move)."""
    out = np.ones((7, 18), np.uint8)
    for last in range(6):
        for m in range(18):
            f = m // 3
            if f == last or f + 3 == last:
                out[last + 1, m] = 0
    return out


def move_lists() -> tuple[np.ndarray, np.ndarray]:
    """The allowed moves after each last face, as lists: (7, 18) moves and (7,) counts."""
    allowed = allowed_moves()
    lists = np.zeros((7, 18), np.int64)
    counts = np.zeros(7, np.int64)
    for row in range(7):
        ms = np.flatnonzero(allowed[row])
        lists[row, :len(ms)] = ms
        counts[row] = len(ms)
    return lists, counts


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


# ---- strong set ------------------------------------------------------------------------------

@njit(cache=True, nogil=True)
def phase_distance(ptab, ss, f, t, unknown_depth, ss_cls, ss_sym, ss_fmask, flip_conj,
                   twist_conj, sslice_move, flip_move, twist_move, solved_ss):
    """Exact distance of a phase coordinate from the mod-3 table, by walking down to depth 0:
    a neighbour whose entry is one less (mod 3) is one move closer."""
    v = get2(ptab, phase_entry(ss, f, t, ss_cls, ss_sym, ss_fmask, flip_conj, twist_conj))
    if v == UNKNOWN2:
        return unknown_depth
    d = 0
    while not (ss == solved_ss and f == 0 and t == 0):
        want = (v + 2) % 3
        for m in range(18):
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


@njit(cache=True, nogil=True)
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


# ---- korf1997 set -----------------------------------------------------------------------------

@njit(cache=True, nogil=True, inline="always")
def _edge6_index(e, first):
    pos = np.empty(6, np.int64)
    ori = 0
    for j in range(6):
        x = e[first + j]
        pos[j] = x >> 1
        ori = 2 * ori + (x & 1)
    return rank_placement(pos, 6, 12) * 64 + ori


@njit(cache=True, nogil=True)
def korf_child(state, m, out, cperm_move, twist_move, edge_cubie):
    out[K_CP] = cperm_move[state[K_CP], m]
    out[K_TW] = twist_move[state[K_TW], m]
    for j in range(12):
        out[K_EDGE + j] = edge_cubie[m, state[K_EDGE + j]]


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def korf_search(items, paths, i0, i1, g0, bound, move_lists, n_moves, cperm_move, twist_move,
                edge_cubie, ctab, etab_a, etab_b, unknown, live, slot, stop, cancel, sol):
    """The korf1997 search: the max of the corner and the two six-edge databases, in LANES
    interleaved depth-first searches (as korf_strong explains): a lane's select stage computes
    its children's three entries and prefetches them, its next stage probes and descends."""
    nl = LANES
    D = np.empty((nl, MAX_DEPTH + 1, 18, K_LEN), np.int64)
    dmove = np.empty((nl, MAX_DEPTH + 1, 18), np.int64)
    nk = np.zeros((nl, MAX_DEPTH + 1), np.int64)
    ki = np.zeros((nl, MAX_DEPTH + 1), np.int64)
    path = np.empty((nl, MAX_DEPTH + 1), np.int64)
    depth = np.full(nl, g0 - 1, np.int64)
    cur = np.zeros(nl, np.int64)
    stage = np.zeros(nl, np.int64)
    cnt = np.zeros(nl, np.int64)
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
                    g = depth[l]
                    if g < g0:
                        if next_item >= i1:
                            stage[l] = IDLE
                            active -= 1
                            break
                        it = next_item
                        next_item += 1
                        for k in range(K_LEN):
                            D[l, g0, 0, k] = items[it, k]
                        for k in range(g0):
                            path[l, k] = paths[it, k]
                        if g0 + korf_h(D[l, g0, 0], ctab, etab_a, etab_b, unknown) > bound:
                            continue
                        depth[l] = g0
                        nk[l, g0] = 1
                        ki[l, g0] = 0
                        continue
                    if ki[l, g] >= nk[l, g]:
                        depth[l] = g - 1
                        continue
                    j = ki[l, g]
                    ki[l, g] += 1
                    if g > g0:
                        path[l, g - 1] = dmove[l, g, j]
                    if g == bound:
                        for k in range(bound):
                            sol[k] = path[l, k]
                        stop[0] = 1
                        live[slot] += nodes - published
                        return 1, nodes
                    cur[l] = j
                    last = path[l, g - 1] // 3 + 1 if g > 0 else 0
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
                    keep = (hc < togo) & (ha < togo) & (hb < togo)
                    if w != i:
                        for k in range(K_LEN):
                            D[l, g + 1, w, k] = D[l, g + 1, i, k]
                        dmove[l, g + 1, w] = dmove[l, g + 1, i]
                    w += keep
                nk[l, g + 1] = w
                ki[l, g + 1] = 0
                depth[l] = g + 1
                stage[l] = SELECT
        if nodes - published >= PUBLISH_EVERY:
            live[slot] += nodes - published
            published = nodes
            if stop[0] or cancel[0]:
                return 0, nodes
    live[slot] += nodes - published
    return 0, nodes


# ---- start nodes ------------------------------------------------------------------------------

def expand_items(root: np.ndarray, depth: int, child) -> tuple[np.ndarray, np.ndarray]:
    """Every node `depth` moves below root under the move-pruning rules (no heuristic pruning):
    their states and the moves that reach them. child(state, m, out) fills out."""
    allowed = allowed_moves()
    states, paths = [root.copy()], [np.zeros(0, np.int8)]
    for _ in range(depth):
        nxt_states, nxt_paths = [], []
        for s, p in zip(states, paths):
            last = int(p[-1]) // 3 + 1 if len(p) else 0
            for m in range(18):
                if not allowed[last, m]:
                    continue
                out = np.empty_like(s)
                child(s, m, out)
                nxt_states.append(out)
                nxt_paths.append(np.append(p, np.int8(m)))
        states, paths = nxt_states, nxt_paths
    return np.array(states, dtype=np.int64), np.array(paths, dtype=np.int8).reshape(len(paths),
                                                                                   depth)

