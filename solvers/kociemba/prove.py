"""The optimality prover beside the two-phase search: plain IDA* bounded by phase 1 on three axes.

The two-phase search proves a solution optimal only by exhausting every shorter phase-1 path in
one direction, which takes seconds even for a 12-move position. A position's phase-1 distance
in the frame of each of its three axes is a lower bound on its distance (conjugating by a
symmetry keeps every distance), and the largest of the three prunes an ordinary IDA* over face
turns well enough to settle short positions in milliseconds: an iteration that finds nothing
raises the lower bound by one, and the first iteration that finds a solution finds an optimal
one. No table of its own: it reads the two-phase tables it is given.
"""

from __future__ import annotations

import numpy as np

from cubelab.tables.cubies import allowed_after
from cubelab.tables.jit import kernel

from .search import EXHAUSTED, FLUSH, FOUND, STOPPED, _p1_value, _step_dist

MOOT = 3
"""prove_depth's answer when a solution of at most `depth` moves is already known."""

N_AXES = 3
# columns of the per-axis coordinates at each level
A_FLIP, A_TWIST, A_SLICE, A_DIST = range(4)


@kernel
def _solves(path, depth, root_cp, root_ep, mcp, mep):
    """Whether the first `depth` moves of path bring the root cubies home (orientations are
    home already: every axis's phase-1 distance is 0 at a leaf that gets here)."""
    cp = root_cp.copy()
    ep = root_ep.copy()
    for k in range(depth):
        m = path[k]
        ncp = cp.copy()
        nep = ep.copy()
        for i in range(8):
            ncp[i] = cp[mcp[m, i]]
        for i in range(12):
            nep[i] = ep[mep[m, i]]
        cp = ncp
        ep = nep
    for i in range(8):
        if cp[i] != i:
            return False
    for i in range(12):
        if ep[i] != i:
            return False
    return True


@kernel
def prove_depth(depth, roots, frame_moves, root_cp, root_ep, path, work, counters, cancel,
                stop, shared, twist_move, flip_move, slice_move, twist_conj, fs_cls, p1, ts, fsl,
                mcp, mep):
    """One IDA* iteration: FOUND with a solution of exactly `depth` moves in path, EXHAUSTED
    when there is none, STOPPED by a flag, MOOT when `shared[0]` (the longest solution still
    worth finding) drops below depth.

    roots[a] = (flip, twist, sorted slice, phase-1 distance) of the position in the frame of
    axis a; frame_moves[a, m] is face turn m seen in that frame."""
    nxt = np.zeros(depth + 1, np.int64)
    st = np.zeros((depth + 1, N_AXES, 4), np.int64)
    for a in range(N_AXES):
        for c in range(4):
            st[0, a, c] = roots[a, c]
    lvl = 0
    while lvl >= 0:
        m = nxt[lvl]
        if m == 18:
            lvl -= 1
            continue
        nxt[lvl] = m + 1
        prev = path[lvl - 1] // 3 if lvl > 0 else -1
        if not allowed_after(m // 3, prev):
            continue
        work[0] += 1
        if work[0] >= FLUSH:
            counters[0] += work[0]
            work[1] += work[0]
            work[0] = 0
            if cancel[0] != 0 or stop[0] != 0:
                return STOPPED
            if shared[0] < depth:
                return MOOT
        togo = depth - lvl - 1
        ok = True
        for a in range(N_AXES):
            fm = frame_moves[a, m]
            f2 = flip_move[st[lvl, a, A_FLIP], fm]
            t2 = twist_move[st[lvl, a, A_TWIST], fm]
            s2 = slice_move[st[lvl, a, A_SLICE], fm]
            comb = s2 // 24
            # the two small tables stay in cache and turn most children away first
            if ts[t2 * 495 + comb] > togo or fsl[f2 * 495 + comb] > togo:
                ok = False
                break
            d = _step_dist(st[lvl, a, A_DIST], _p1_value(f2, t2, s2, fs_cls, twist_conj, p1))
            if d > togo:
                ok = False
                break
            st[lvl + 1, a, A_FLIP] = f2
            st[lvl + 1, a, A_TWIST] = t2
            st[lvl + 1, a, A_SLICE] = s2
            st[lvl + 1, a, A_DIST] = d
        if not ok:
            continue
        path[lvl] = m
        if togo == 0:
            if _solves(path, depth, root_cp, root_ep, mcp, mep):
                return FOUND
            continue
        lvl += 1
        nxt[lvl] = 0
    return EXHAUSTED


def new_work() -> np.ndarray:
    """Nodes not yet published, nodes published."""
    return np.zeros(2, np.int64)
