"""Where a two-phase solve starts, and the check of what it found, each in one kernel call.

A solve's fixed cost is what it pays before its first node and after its last: checking the
position, turning it onto the three axes (and its inverse likewise), finding each direction's
phase-1 coordinates and exact distance, and verifying the answer. Done with the model's
CubeState products these cost about a millisecond, many times an easy position's search; here
each is one call on the cubie arrays (a position as a 40-byte row: cp, co, ep, eo, as
tables/cubies.py lays it out).

- `reachable`: the position is an assembly the face turns reach (permutations, equal parities,
  twist and flip sums zero) with its centres home; the solver's fast check, the model's slower
  one saying why when it is not.
- `directions`: the distinct search directions S_k Q S_k^-1 (Q the position or its inverse,
  S_k the axis rotations), their phase-1 coordinates, and the three axes' coordinates of the
  position itself (what the optimality prover starts from); `phase1_distances` walks their
  distances together.
- `translate`: a solution found in a direction's frame as face turns on the position itself,
  and where its phase 1 ends.
- `sequence_solves`: whether face turns (indices into FACE_MOVES) take the position to solved.
"""

from __future__ import annotations

import numpy as np

from cubelab.tables.cubies import conjugate_into, invert
from cubelab.tables.jit import kernel
from cubelab.tables.kociemba.pruning import P1_MOVE_BYTES, move_change, move_word
from cubelab.tables.memory import prefetch
from cubelab.tables.ranks import N_FLIP, N_TWIST, flip_of, slice_sorted_of, twist_of

N_DIRECTIONS = 6
# columns of a direction's coordinates (search.root_coordinates' order)
R_FLIP, R_TWIST, R_SLICE, R_DIST = range(4)


@kernel
def _is_permutation(p, start, n):
    seen = 0
    for i in range(n):
        v = p[start + i]
        if v >= n or (seen >> v) & 1:
            return False
        seen |= 1 << v
    return True


@kernel
def _parity(p, start, n):
    """0 for an even permutation of p[start:start + n], 1 for an odd one (inversions)."""
    odd = 0
    for i in range(n):
        for j in range(i + 1, n):
            if p[start + i] > p[start + j]:
                odd ^= 1
    return odd


@kernel
def reachable(cp, co, ep, eo, cc):
    """Whether the cubie arrays are a position of the 3x3x3 reachable by face turns, held with
    its centres home (anything else takes the model's slower path, which says why)."""
    for i in range(6):
        if cc[i] != i:
            return False
    if not _is_permutation(cp, 0, 8) or not _is_permutation(ep, 0, 12):
        return False
    twist = 0
    for i in range(8):
        if co[i] > 2:
            return False
        twist += co[i]
    flip = 0
    for i in range(12):
        if eo[i] > 1:
            return False
        flip += eo[i]
    return twist % 3 == 0 and flip % 2 == 0 and _parity(cp, 0, 8) == _parity(ep, 0, 12)


@kernel
def _place(row, out, binom):
    """One direction's flip, twist and sorted slice into out (its distance comes later)."""
    out[R_FLIP] = flip_of(row[28:40])
    out[R_TWIST] = twist_of(row[8:16])
    out[R_SLICE] = slice_sorted_of(row[16:28], binom)


@kernel
def phase1_distances(coords, n, flip_move, twist_move, slice_move, fs_cls, twist_conj, p1m,
                     mconj):
    """Fill coords[:n, R_DIST], the exact phase-1 distances, as search.phase1_depth_words finds
    one, but all n walks a step at a time: each step of a walk waits on two probes that depend
    on each other (the flip-slice class, then the word of the entry it names), both misses in
    tables of 4 MB and 423 MB; taking the walks together issues every walk's loads before
    reading any, so their misses overlap instead of adding up. A damaged table (an entry with
    no move closer) leaves -1."""
    f = np.empty(n, np.int64)
    t = np.empty(n, np.int64)
    s = np.empty(n, np.int64)
    at = np.empty(n, np.int64)
    syms = np.empty(n, np.int64)
    for i in range(n):
        f[i] = coords[i, R_FLIP]
        t[i] = coords[i, R_TWIST]
        s[i] = coords[i, R_SLICE]
        coords[i, R_DIST] = 0
    while True:
        left = 0
        for i in range(n):
            at[i] = -1
            if coords[i, R_DIST] >= 0 and (f[i] != 0 or t[i] != 0 or s[i] >= 24):
                at[i] = (s[i] // 24) * N_FLIP + f[i]
                prefetch(fs_cls, at[i])
                left += 1
        if left == 0:
            return
        for i in range(n):
            if at[i] >= 0:
                v = fs_cls[at[i]]
                syms[i] = v & 15
                at[i] = (v >> 4) * N_TWIST + twist_conj[t[i], v & 15]
                prefetch(p1m, at[i] * P1_MOVE_BYTES)
        for i in range(n):
            if at[i] < 0:
                continue
            word = move_word(p1m, at[i])
            closer = -1
            for m in range(18):
                if move_change(word, mconj[syms[i], m]) < 0:
                    closer = m
                    break
            if closer < 0:
                coords[i, R_DIST] = -1      # the store checks the bytes; this is a last guard
                continue
            f[i] = flip_move[f[i], closer]
            t[i] = twist_move[t[i], closer]
            s[i] = slice_move[s[i], closer]
            coords[i, R_DIST] += 1


@kernel
def directions(row, n_dirs, axes, sym, coords, cps, eps, dirs, axis_coords, binom, flip_move,
               twist_move, slice_move, fs_cls, twist_conj, p1m, mconj):
    """The distinct directions among the first n_dirs of (axis 0, 1, 2 of the position, then of
    its inverse): their coordinates (coords[i]), corner and edge permutations (cps[i], eps[i])
    and which of the six each is (dirs[i]); returns how many. A symmetric position repeats
    directions; each is searched once. axis_coords[a]: the coordinates of the position on axis a
    (all three, whatever n_dirs). The distances of all of them are walked together
    (phase1_distances)."""
    inverse = np.empty(40, np.uint8)
    invert(row, inverse)
    seen = np.empty((N_DIRECTIONS, 40), np.uint8)
    one = np.empty(40, np.uint8)
    # the positions whose distance is walked: the three axes, then the inverse's directions
    walks = np.empty((N_DIRECTIONS, 4), np.int64)
    walk_of = np.empty(N_DIRECTIONS, np.int64)     # direction i -> its row in walks
    nw = 3
    n = 0
    for j in range(N_DIRECTIONS):
        if j >= n_dirs and j >= 3:
            break
        base = inverse if j >= 3 else row
        k = axes[j % 3]
        if k == 0:
            one[:] = base
        else:
            conjugate_into(base, sym, k, one)
        if j < 3:
            _place(one, walks[j], binom)
        if j >= n_dirs:
            continue
        repeated = False
        for i in range(n):
            same = True
            for b in range(40):
                if seen[i, b] != one[b]:
                    same = False
                    break
            if same:
                repeated = True
                break
        if repeated:
            continue
        seen[n, :] = one
        if j < 3:
            walk_of[n] = j
        else:
            _place(one, walks[nw], binom)
            walk_of[n] = nw
            nw += 1
        for i in range(8):
            cps[n, i] = one[i]
        for i in range(12):
            eps[n, i] = one[16 + i]
        dirs[n] = j
        n += 1
    phase1_distances(walks, nw, flip_move, twist_move, slice_move, fs_cls, twist_conj, p1m,
                     mconj)
    axis_coords[:3, :] = walks[:3]
    for i in range(n):
        coords[i, :] = walks[walk_of[i]]
    return n


@kernel
def translate(frame, n, unconjugate, inverse, phase2, out):
    """The n moves frame[:n], found in the frame of a direction (`unconjugate[m]`: the face turn
    m of that frame seen on the cube; `inverse`: the direction searched the position's inverse),
    as indices into FACE_MOVES that solve the position itself, into out[:n]. Returns the length
    of phase 1: phase 1 never ends with a phase-2 move (`phase2[m]` true), so phase 2 is the
    longest tail of phase-2 moves."""
    for i in range(n):
        m = unconjugate[frame[i]]
        if inverse:
            # the inverse's solution, undone: reversed, each turn turned back
            out[n - 1 - i] = (m // 3) * 3 + 2 - m % 3
        else:
            out[i] = m
    n1 = n
    while n1 > 0 and phase2[frame[n1 - 1]]:
        n1 -= 1
    return n1


@kernel
def sequence_solves(cp, co, ep, eo, moves, mcp, mco, mep, meo):
    """Whether the face turns `moves` (indices into FACE_MOVES) take the position (cubie arrays,
    centres home) to solved; mcp..meo are the face turns' arrays (tables.cubies)."""
    c = np.empty(8, np.int64)
    t = np.empty(8, np.int64)
    e = np.empty(12, np.int64)
    f = np.empty(12, np.int64)
    nc = np.empty(8, np.int64)
    nt = np.empty(8, np.int64)
    ne = np.empty(12, np.int64)
    nf = np.empty(12, np.int64)
    for i in range(8):
        c[i] = cp[i]
        t[i] = co[i]
    for i in range(12):
        e[i] = ep[i]
        f[i] = eo[i]
    for m in moves:
        for i in range(8):
            nc[i] = c[mcp[m, i]]
            nt[i] = (t[mcp[m, i]] + mco[m, i]) % 3
        for i in range(12):
            ne[i] = e[mep[m, i]]
            nf[i] = (f[mep[m, i]] + meo[m, i]) & 1
        c[:] = nc
        t[:] = nt
        e[:] = ne
        f[:] = nf
    for i in range(8):
        if c[i] != i or t[i] != 0:
            return False
    for i in range(12):
        if e[i] != i or f[i] != 0:
            return False
    return True
