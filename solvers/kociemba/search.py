"""The two-phase search kernel: resumable IDA* over phase 1, each leaf finished by phase 2.

IDA* over phase-1 paths in several directions, each phase-1 solution finished by an IDA* phase
2, written as a resumable loop.

`search` runs until it finds a solution shorter than the current limit (returns FOUND with the
moves in `out`), until every phase-1 length up to the limit is exhausted (EXHAUSTED: the best
solution found is optimal), or until a flag is raised (STOPPED). All its state lives in the
arrays it is given, so calling it again resumes where it stopped, and several threads can run
it at once on disjoint directions, reading one shared limit.

Phase 1 walks exact distances: a node reads its one entry of the move-word table (which face
turns bring it one closer or one further), so it knows every child's exact distance before
computing any child's coordinates, and lists only the children within the bound (near the
bound, only those that get closer). The three deepest levels, most of the nodes, read no
entry: a small table of the moves that bring each coordinate to the subgroup (subgroup_moves)
says which children reach it, or can reach it in one move, or may in two. Phase 2 starts only after the small
corner-slice and edge-slice tables and one probe of the 4-bit exact phase-2 table accept the
leaf, and its IDA* reads exact distances from that table too. The mod-3 tables (phase1_depth,
phase2_depth) are what those two tables are made from; the tests check them against each
other.
"""

from __future__ import annotations

import numpy as np

from cubelab.tables.cubies import allowed_after
from cubelab.tables.jit import inline_kernel, kernel
from cubelab.tables.kociemba.pruning import P1_MOVE_BYTES, move_change, move_word
from cubelab.tables.memory import prefetch
from cubelab.tables.packed import get2, get4
from cubelab.tables.ranks import N_FLIP, N_PERM8, N_TWIST, flip_of, rank_perm, slice_sorted_of, \
    twist_of

EXHAUSTED, FOUND, STOPPED = 0, 1, 2
MAX_DEPTH = 32          # phase-1 and phase-2 stacks; no solution is searched beyond 31 moves
FLUSH = 4096            # nodes between counter updates and flag checks
CAP_FROM = 20           # the phase-2 cap applies once solutions must be this short

# slots of the int64 state array `st`
(S_DIR, S_N1, S_LVL, S_LIMIT, S_INIT, S_VALID, S_NDIR, S_OUTLEN, S_OUTDIR, S_CAP,
 S_CAPPED, S_SKIP) = range(12)
N_STATE = 12
# columns of the phase-1 level array `lv` (L_NEXT: the next of the level's children to try,
# L_COUNT: how many it has, -1 before they are listed)
L_NEXT, L_MOVE, L_FLIP, L_TWIST, L_SLICE, L_DIST, L_COUNT, L_PROBE, L_SYM = range(9)
# columns of a phase-1 level's children, listed in `kids` (the move, its coordinates, its exact
# distance, the index of its entry in the move-word table and the symmetry into that entry's frame)
K_MOVE, K_FLIP, K_TWIST, K_SLICE, K_PROBE, K_SYM, K_DIST = range(7)
# columns of the phase-2 level array
P_NEXT, P_MOVE, P_CP, P_E8, P_SP = range(5)
# slots of the host counters array written here (cubelab.solvers.protocol)
C_NODES, C_BOUND, C_PHASE = 0, 1, 3


@inline_kernel
def _step_dist(d, val):
    """Exact distance of a neighbour from the parent's exact distance and its value mod 3."""
    diff = (val - d % 3 + 3) % 3
    if diff == 0:
        return d
    if diff == 1:
        return d + 1
    return d - 1


@inline_kernel
def _p1_value(flip, twist, ss, fs_cls, twist_conj, p1):
    v = fs_cls[(ss // 24) * N_FLIP + flip]
    return get2(p1, (v >> 4) * N_TWIST + twist_conj[twist, v & 15])


@inline_kernel
def _p2_value(cp, e8, cp_cls, edge8_conj, p2):
    v = cp_cls[cp]
    return get2(p2, (v >> 4) * N_PERM8 + edge8_conj[e8, v & 15])


@kernel
def phase1_depth(flip, twist, ss, flip_move, twist_move, slice_move, fs_cls, twist_conj, p1):
    """Exact phase-1 distance: walk down the mod-3 values to the subgroup."""
    d = 0
    while flip != 0 or twist != 0 or ss >= 24:
        target = (_p1_value(flip, twist, ss, fs_cls, twist_conj, p1) + 2) % 3
        for m in range(18):
            f2 = flip_move[flip, m]
            t2 = twist_move[twist, m]
            s2 = slice_move[ss, m]
            if _p1_value(f2, t2, s2, fs_cls, twist_conj, p1) == target:
                flip, twist, ss = f2, t2, s2
                break
        d += 1
    return d


@kernel
def _entry(f, t, s, fs_cls, twist_conj):
    """(index of the phase-1 entry, symmetry into the entry's frame) of a phase-1 position."""
    v = fs_cls[(s // 24) * N_FLIP + f]
    sym = v & 15
    return (v >> 4) * N_TWIST + twist_conj[t, sym], sym


@kernel
def phase1_depth_words(flip, twist, ss, flip_move, twist_move, slice_move, fs_cls, twist_conj,
                       p1m, mconj):
    """Exact phase-1 distance from the move-word table: each step reads one entry and takes a
    move it marks closer (phase1_depth's walk probes up to 18 neighbours a step instead)."""
    d = 0
    while flip != 0 or twist != 0 or ss >= 24:
        j, sym = _entry(flip, twist, ss, fs_cls, twist_conj)
        word = move_word(p1m, j)
        for m in range(18):
            if move_change(word, mconj[sym, m]) < 0:
                flip = flip_move[flip, m]
                twist = twist_move[twist, m]
                ss = slice_move[ss, m]
                break
        else:
            return -1       # no move closer: a damaged table (the store checks its bytes)
        d += 1
    return d


@inline_kernel
def _p2_exact(cp, e8, cp_cls, edge8_conj, p2x):
    """Phase-2 distance of (corner permutation, UD-edge permutation): exact up to 14, 15 for
    15 or more (a lower bound)."""
    v = cp_cls[cp]
    return get4(p2x, (v >> 4) * N_PERM8 + edge8_conj[e8, v & 15])


@kernel
def phase2_depth(cp, e8, corner_move, edge8_move, cp_cls, edge8_conj, p2, p2moves):
    """Exact distance of (corner permutation, UD-edge permutation) inside phase 2: walk down
    the mod-3 values, each step loading its ten neighbours' entries together (prefetched, so
    their cache misses overlap) before looking for the one a move closer."""
    d = 0
    cs = np.empty(10, np.int64)
    es = np.empty(10, np.int64)
    idx = np.empty(10, np.int64)
    while cp != 0 or e8 != 0:
        for k in range(10):
            c2 = corner_move[cp, p2moves[k]]
            e2 = edge8_move[e8, k]
            v = cp_cls[c2]
            j = (v >> 4) * N_PERM8 + edge8_conj[e2, v & 15]
            cs[k] = c2
            es[k] = e2
            idx[k] = j
            prefetch(p2, j >> 2)
        target = (_p2_value(cp, e8, cp_cls, edge8_conj, p2) + 2) % 3
        for k in range(10):
            if get2(p2, idx[k]) == target:
                cp, e8 = cs[k], es[k]
                break
        d += 1
    return d


@kernel
def _tick(work, counters, cancel, stop, phase, bound):
    """Count a node; every FLUSH nodes publish the count and report whether to stop."""
    work[0] += 1
    if work[0] < FLUSH:
        return False
    counters[C_NODES] += work[0]    # shared with other threads: a live, rough figure
    counters[C_PHASE] = phase
    counters[C_BOUND] = bound
    work[4] += work[0]              # this search's own exact count
    work[0] = 0
    return cancel[0] != 0 or stop[0] != 0


@kernel
def phase2_search(cp0, e80, sp0, budget, prev_face, stack, out, out_off, work, counters,
                  cancel, stop, bound, corner_move, edge8_move, slice_move, cp_cls, edge8_conj,
                  p2, cs, es, p2moves, p2x):
    """Shortest phase-2 finish within budget: its length (moves in out[out_off:]), -1 if there
    is none, -2 if stopped."""
    h = max(cs[cp0 * 24 + sp0], es[e80 * 24 + sp0])
    if h > budget:
        return -1
    h = max(h, _p2_exact(cp0, e80, cp_cls, edge8_conj, p2x))
    if h > budget:
        return -1
    if h == 0:
        return 0
    work[2] += 1
    for length in range(h, budget + 1):
        stack[0, P_NEXT] = 0
        stack[0, P_CP] = cp0
        stack[0, P_E8] = e80
        stack[0, P_SP] = sp0
        lvl = 0
        while lvl >= 0:
            k = stack[lvl, P_NEXT]
            if k == 10:
                lvl -= 1
                continue
            stack[lvl, P_NEXT] = k + 1
            m = p2moves[k]
            prev = prev_face if lvl == 0 else p2moves[stack[lvl - 1, P_MOVE]] // 3
            if not allowed_after(m // 3, prev):
                continue
            work[3] += 1
            if _tick(work, counters, cancel, stop, 2, bound):
                return -2
            togo = length - lvl - 1
            cp = corner_move[stack[lvl, P_CP], m]
            sp = slice_move[stack[lvl, P_SP], m]
            if cs[cp * 24 + sp] > togo:
                continue
            e8 = edge8_move[stack[lvl, P_E8], k]
            if es[e8 * 24 + sp] > togo:
                continue
            if _p2_exact(cp, e8, cp_cls, edge8_conj, p2x) > togo:
                continue
            stack[lvl, P_MOVE] = k
            if togo == 0:
                for i in range(length):
                    out[out_off + i] = p2moves[stack[i, P_MOVE]]
                return length
            lvl += 1
            stack[lvl, P_NEXT] = 0
            stack[lvl, P_CP] = cp
            stack[lvl, P_E8] = e8
            stack[lvl, P_SP] = sp
    return -1


@kernel
def _leaf(n1, sp, st, shared, lv, cps, eps, stack, out, work, counters, cancel, stop, mcp,
          mep, corner_move, edge8_move, slice_move, cp_cls, edge8_conj, p2, cs, es, p2moves,
          p2x):
    """Finish the phase-1 path lv[:n1] with phase 2 if the total beats the limit."""
    if shared[0] < st[S_LIMIT]:
        st[S_LIMIT] = shared[0]     # another thread found a shorter solution
    budget = st[S_LIMIT] - n1
    if budget < 0:
        return EXHAUSTED
    if budget > st[S_CAP] and st[S_LIMIT] <= CAP_FROM:
        # long phase-2 searches cost much and rarely win: a longer phase 1 usually does better
        # (not before a first good solution: then any solution is worth having quickly)
        budget = st[S_CAP]
        st[S_CAPPED] = 1
    # bring the cached cubies up to the leaf (levels below S_VALID are still right)
    for k in range(st[S_VALID], n1):
        m = lv[k, L_MOVE]
        for i in range(8):
            cps[k + 1, i] = cps[k, mcp[m, i]]
        for i in range(12):
            eps[k + 1, i] = eps[k, mep[m, i]]
    st[S_VALID] = n1
    work[1] += 1
    cp = rank_perm(cps[n1], 0, 8)
    if cs[cp * 24 + sp] > budget:
        return EXHAUSTED
    e8 = rank_perm(eps[n1], 0, 8)
    prev = lv[n1 - 1, L_MOVE] // 3 if n1 > 0 else -1
    length = phase2_search(cp, e8, sp, budget, prev, stack, out, n1, work, counters, cancel,
                           stop, n1, corner_move, edge8_move, slice_move, cp_cls, edge8_conj,
                           p2, cs, es, p2moves, p2x)
    if length == -2:
        return STOPPED
    if length < 0:
        return EXHAUSTED
    for i in range(n1):
        out[i] = lv[i, L_MOVE]
    st[S_OUTLEN] = n1 + length
    st[S_OUTDIR] = st[S_DIR]
    st[S_LIMIT] = n1 + length - 1
    return FOUND


@kernel
def _next_direction(st):
    st[S_INIT] = 0
    st[S_DIR] += 1
    if st[S_DIR] >= st[S_NDIR]:
        st[S_DIR] = 0
        st[S_N1] += 1


# where the near table's parts start (subgroup_moves)
NEAR_TWIST = N_FLIP
NEAR_SLICE = NEAR_TWIST + N_TWIST
NEXT_FLIP = NEAR_SLICE + 11880
NEXT_TWIST = NEXT_FLIP + N_FLIP
# ALLOWED[prev + 1]: the face turns that may follow a turn of face prev (-1: none), as a mask
# (py_func: the rule itself, as Python, so that importing this module compiles nothing)
ALLOWED = np.array([sum(1 << m for m in range(18) if allowed_after.py_func(m // 3, prev))
                    for prev in range(-1, 6)], np.int64)
ALLOWED_COUNT = np.array([bin(int(a)).count("1") for a in ALLOWED], np.int64)


def subgroup_moves(flip_move, twist_move, slice_move, phase2_moves) -> np.ndarray:
    """The near table. First, for each flip, twist and sorted-slice coordinate (from offsets 0,
    NEAR_TWIST and NEAR_SLICE), the bit mask of the face turns outside the phase-2 set that
    bring that coordinate to its subgroup value (flip 0, twist 0, the slice edges in the
    slice): a position reaches the subgroup in one move exactly where its three masks share a
    bit, and only by a move outside the phase-2 set (those keep it where it is). Then, for each
    flip and twist (from NEXT_FLIP and NEXT_TWIST), the mask of the face turns after which that
    coordinate's own mask is not empty: a move can lead one move from the subgroup only if it
    is in both, which most nodes of the level before the last show at once, with no move."""
    outside = np.ones(18, bool)
    outside[np.asarray(phase2_moves)] = False
    bits = np.where(outside, np.uint32(1) << np.arange(18, dtype=np.uint32), np.uint32(0))
    near_flip, near_twist = (((m == 0) * bits).sum(axis=1) for m in (flip_move, twist_move))
    near_slice = ((slice_move < 24) * bits).sum(axis=1)
    every = np.uint32(1) << np.arange(18, dtype=np.uint32)
    next_flip, next_twist = (((near[m] != 0) * every).sum(axis=1)
                             for near, m in ((near_flip, flip_move), (near_twist, twist_move)))
    out = np.concatenate([near_flip, near_twist, near_slice, next_flip, next_twist])
    out = out.astype(np.uint32)
    out.flags.writeable = False
    return out


@inline_kernel
def _near(near, f, t, s):
    """The moves that take (f, t, s) to the subgroup (a bit each; see subgroup_moves)."""
    return near[f] & near[NEAR_TWIST + t] & near[NEAR_SLICE + s]


@inline_kernel
def _put_kid(kids, lvl, n, m, f, t, s, d):
    """Child n of level lvl: move m, its coordinates and distance, and no entry read (the
    levels listed from the near table)."""
    kids[lvl, n, K_MOVE] = m
    kids[lvl, n, K_FLIP] = f
    kids[lvl, n, K_TWIST] = t
    kids[lvl, n, K_SLICE] = s
    kids[lvl, n, K_DIST] = d
    kids[lvl, n, K_PROBE] = -1


@inline_kernel
def _listed(lvl, prev, n, lv, work):
    """Close a level listed from the near table: n children of the moves its canonical order
    allows after a turn of face prev; every move not listed counts as a node at once."""
    work[0] += ALLOWED_COUNT[prev + 1] - n
    lv[lvl, L_COUNT] = n


@kernel
def _list_last(lvl, prev, f, t, s, lv, kids, work, slice_move, near):
    """_list_children for the last phase-1 level: the children that reach the subgroup, read
    from the near table (small, in the caches) where the node's move word would cost a probe
    of the 423 MB table. A phase-1 path never ends with a phase-2 move (the path was in the
    subgroup a move earlier, and that shorter path was tried already): the table has none."""
    n = 0
    moves = _near(near, f, t, s) & ALLOWED[prev + 1]
    for m in range(18):
        if (moves >> m) & 1 == 0:
            continue
        _put_kid(kids, lvl, n, m, 0, 0, slice_move[s, m], 0)
        n += 1
    _listed(lvl, prev, n, lv, work)


@kernel
def _list_near(lvl, prev, f, t, s, lv, kids, work, twist_move, flip_move, slice_move, near):
    """_list_children for the level before the last: the children one move from the subgroup
    (those the near table gives a move for; a child in the subgroup has none outside the
    phase-2 set, so it cannot end the path). No move word is read here either, so the two
    deepest levels, most of the search's nodes, probe no big table; and the moves that cannot
    bring the flip or the twist one move from the subgroup are ruled out together, by two
    lookups for the node (most nodes of this level end there)."""
    n = 0
    moves = near[NEXT_FLIP + f] & near[NEXT_TWIST + t] & ALLOWED[prev + 1]
    for m in range(18):
        if (moves >> m) & 1 == 0:
            continue
        f2 = flip_move[f, m]
        t2 = twist_move[t, m]
        s2 = slice_move[s, m]
        if _near(near, f2, t2, s2) == 0:
            continue
        _put_kid(kids, lvl, n, m, f2, t2, s2, 1)
        n += 1
    _listed(lvl, prev, n, lv, work)


@kernel
def _list_two(lvl, prev, f, t, s, st, lv, kids, work, twist_move, flip_move, slice_move, near):
    """_list_children two levels before the last, without the node's move word: the children
    after which some move brings the flip and the twist each one move from the subgroup (what
    _list_near asks first), a superset of those two moves from it (the level below keeps only
    the exact ones). Rokicki's skip is exact here too: a child in the subgroup or one move
    from it is told by the near table."""
    skip = st[S_SKIP] != 0
    n = 0
    moves = ALLOWED[prev + 1]
    for m in range(18):
        if (moves >> m) & 1 == 0:
            continue
        f2 = flip_move[f, m]
        t2 = twist_move[t, m]
        if near[NEXT_FLIP + f2] & near[NEXT_TWIST + t2] & ALLOWED[m // 3 + 1] == 0:
            continue
        s2 = slice_move[s, m]
        if skip and ((f2 == 0 and t2 == 0 and s2 < 24) or _near(near, f2, t2, s2) != 0):
            st[S_CAPPED] = 1    # as _list_children's skip
            continue
        _put_kid(kids, lvl, n, m, f2, t2, s2, 2)  # at most 2, or the level below lists none
        n += 1
    _listed(lvl, prev, n, lv, work)


@kernel
def _list_children(lvl, togo, st, lv, kids, work, twist_move, flip_move, slice_move,
                   twist_conj, fs_cls, p1m, mconj, near):
    """List into kids[lvl] the children of level lvl within the bound, with their exact
    distances, all read from the node's one entry of the move-word table: a move is turned
    away before its coordinates are computed. Then start loading the listed children's own
    entries (each two dependent probes, its flip-slice class then its word, issued for all
    children together so that the cache misses of a level overlap). The moves tried count as
    nodes."""
    prev = lv[lvl - 1, L_MOVE] // 3 if lvl > 0 else -1
    f = lv[lvl, L_FLIP]
    t = lv[lvl, L_TWIST]
    s = lv[lvl, L_SLICE]
    if togo == 0:
        _list_last(lvl, prev, f, t, s, lv, kids, work, slice_move, near)
        return
    if togo == 1:
        _list_near(lvl, prev, f, t, s, lv, kids, work, twist_move, flip_move, slice_move, near)
        return
    if togo == 2:
        _list_two(lvl, prev, f, t, s, st, lv, kids, work, twist_move, flip_move, slice_move,
                  near)
        return
    d = lv[lvl, L_DIST]
    if lv[lvl, L_PROBE] < 0:
        j, sym = _entry(f, t, s, fs_cls, twist_conj)
        lv[lvl, L_PROBE] = j
        lv[lvl, L_SYM] = sym
    word = move_word(p1m, lv[lvl, L_PROBE])
    sym = lv[lvl, L_SYM]
    skip = st[S_SKIP] != 0
    n = 0
    tried = 0
    for m in range(18):
        if not allowed_after(m // 3, prev):
            continue
        tried += 1
        d2 = d + move_change(word, mconj[sym, m])
        if d2 > togo:
            continue
        if skip and d2 < togo and d2 + togo < 5:
            # a few moves left and slack: the path would reach the subgroup early and leave
            # it again; such phase-1 paths rarely lead anywhere new (Rokicki). Skipped while
            # seeking a short solution fast; S_CAPPED has a proof search again without the skip
            st[S_CAPPED] = 1
            continue
        s2 = slice_move[s, m]
        f2 = flip_move[f, m]
        kids[lvl, n, K_MOVE] = m
        kids[lvl, n, K_FLIP] = f2
        kids[lvl, n, K_TWIST] = twist_move[t, m]
        kids[lvl, n, K_SLICE] = s2
        kids[lvl, n, K_DIST] = d2
        if togo > 3:
            kids[lvl, n, K_PROBE] = (s2 // 24) * N_FLIP + f2
            prefetch(fs_cls, (s2 // 24) * N_FLIP + f2)
        else:
            kids[lvl, n, K_PROBE] = -1      # the three last levels read no entry (_list_two)
        n += 1
    if togo > 3:
        for i in range(n):
            v = fs_cls[kids[lvl, i, K_PROBE]]
            sym2 = v & 15
            j = (v >> 4) * N_TWIST + twist_conj[kids[lvl, i, K_TWIST], sym2]
            kids[lvl, i, K_PROBE] = j
            kids[lvl, i, K_SYM] = sym2
            prefetch(p1m, j * P1_MOVE_BYTES)
    # every move tried is a node; the children are counted (and the flags heard) one by one as
    # they are tried, the ones turned away here at once
    work[0] += tried - n
    lv[lvl, L_COUNT] = n


@kernel
def search(st, shared, lv, kids, cps, eps, stack, out, work, roots, root_cp, root_ep, counters,
           cancel, stop, twist_move, flip_move, slice_move, corner_move, edge8_move, twist_conj,
           edge8_conj, fs_cls, cp_cls, p2, cs, es, mcp, mep, p2moves, p1m, mconj, p2x, near):
    """Run until the next improvement (FOUND), exhaustion (EXHAUSTED) or a flag (STOPPED).
    p1m is the move-word table, mconj[k, m] face turn m seen in the frame of UD symmetry k,
    p2x the phase-2 table of exact distances (4 bits), near the moves into the subgroup
    (subgroup_moves)."""
    while True:
        if cancel[0] != 0 or stop[0] != 0:
            return STOPPED
        if shared[0] < st[S_LIMIT]:
            st[S_LIMIT] = shared[0]
        n1 = st[S_N1]
        if n1 > st[S_LIMIT] or n1 >= MAX_DEPTH:
            return EXHAUSTED
        d = st[S_DIR]
        if st[S_INIT] == 0:
            st[S_INIT] = 1
            if roots[d, 3] > n1:
                _next_direction(st)
                continue
            lv[0, L_NEXT] = 0
            lv[0, L_COUNT] = -1
            lv[0, L_FLIP] = roots[d, 0]
            lv[0, L_TWIST] = roots[d, 1]
            lv[0, L_SLICE] = roots[d, 2]
            lv[0, L_DIST] = roots[d, 3]
            lv[0, L_PROBE] = -1
            cps[0, :] = root_cp[d]
            eps[0, :] = root_ep[d]
            st[S_VALID] = 0
            st[S_LVL] = 0
            if n1 == 0:
                r = _leaf(0, roots[d, 2], st, shared, lv, cps, eps, stack, out, work, counters,
                          cancel, stop, mcp, mep, corner_move, edge8_move, slice_move, cp_cls,
                          edge8_conj, p2, cs, es, p2moves, p2x)
                if r == STOPPED:
                    st[S_INIT] = 0      # a resumed search redoes this leaf
                    return r
                _next_direction(st)
                if r == FOUND:
                    return r
                continue
        lvl = st[S_LVL]
        while lvl >= 0:
            togo = n1 - lvl - 1
            if lv[lvl, L_COUNT] < 0:
                _list_children(lvl, togo, st, lv, kids, work, twist_move, flip_move, slice_move,
                               twist_conj, fs_cls, p1m, mconj, near)
            i = lv[lvl, L_NEXT]
            if i >= lv[lvl, L_COUNT]:
                lvl -= 1
                continue
            lv[lvl, L_NEXT] = i + 1
            if _tick(work, counters, cancel, stop, 1, n1):
                lv[lvl, L_NEXT] = i     # a resumed search tries this child again
                st[S_LVL] = lvl
                return STOPPED
            m = kids[lvl, i, K_MOVE]
            f2 = kids[lvl, i, K_FLIP]
            t2 = kids[lvl, i, K_TWIST]
            s2 = kids[lvl, i, K_SLICE]
            dist = kids[lvl, i, K_DIST]
            lv[lvl, L_MOVE] = m
            if st[S_VALID] > lvl:
                st[S_VALID] = lvl
            if togo == 0:
                r = _leaf(n1, s2, st, shared, lv, cps, eps, stack, out, work, counters, cancel,
                          stop, mcp, mep, corner_move, edge8_move, slice_move, cp_cls, edge8_conj,
                          p2, cs, es, p2moves, p2x)
                if r == STOPPED:
                    lv[lvl, L_NEXT] = i     # the interrupted phase 2 is redone on resume
                if r != EXHAUSTED:
                    st[S_LVL] = lvl
                    return r
                continue
            lvl += 1
            lv[lvl, L_NEXT] = 0
            lv[lvl, L_COUNT] = -1
            lv[lvl, L_FLIP] = f2
            lv[lvl, L_TWIST] = t2
            lv[lvl, L_SLICE] = s2
            lv[lvl, L_DIST] = dist
            lv[lvl, L_PROBE] = kids[lvl - 1, i, K_PROBE]
            lv[lvl, L_SYM] = kids[lvl - 1, i, K_SYM]
        _next_direction(st)


@kernel
def root_coordinates(cp, co, ep, eo, binom, flip_move, twist_move, slice_move, fs_cls,
                     twist_conj, p1m, mconj):
    """(flip, twist, sorted slice, phase-1 distance) of one direction's cubies."""
    flip = flip_of(eo)
    twist = twist_of(co)
    ss = slice_sorted_of(ep, binom)
    d = phase1_depth_words(flip, twist, ss, flip_move, twist_move, slice_move, fs_cls,
                           twist_conj, p1m, mconj)
    return flip, twist, ss, d


def new_work_arrays():
    """The per-search arrays `search` keeps its state in."""
    return {
        "st": np.zeros(N_STATE, np.int64),
        "lv": np.zeros((MAX_DEPTH + 1, 9), np.int64),
        "kids": np.zeros((MAX_DEPTH + 1, 18, 7), np.int64),
        "cps": np.zeros((MAX_DEPTH + 1, 8), np.int64),
        "eps": np.zeros((MAX_DEPTH + 1, 12), np.int64),
        "stack": np.zeros((MAX_DEPTH + 1, 5), np.int64),
        "out": np.zeros(2 * MAX_DEPTH + 2, np.int64),
        # nodes not yet published, leaves, phase-2 searches, phase-2 nodes, nodes published
        "work": np.zeros(5, np.int64),
    }
