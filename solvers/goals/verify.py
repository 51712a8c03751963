"""Every solution checked on the position before it is shown, in compiled code.

The check does not trust the search: it takes the kernel's moves and replays them with the
model's own cubie states of those moves (cubelab.cube.moves, centres included), turns the
position back by the rotation its centres show, reads it through the goal's rotation and tests
the goal's conditions (cubelab.cube.goals: per piece, the accepted codes; joint conditions;
the rotations keeping the centres that count), trying each post-AUF turn where allowed. It
shares nothing with the search's coordinates and tables. Done in Python this was most of the
time of a short search with many solutions; here it is a few hundred nanoseconds each.
"""

from __future__ import annotations

import numpy as np

import cubelab.tables  # noqa: F401  (numba cache location, before numba)
from cubelab.tables.jit import inline_kernel, kernel

from cubelab.cube.alg import Move
from cubelab.cube.moves import move_state, rotations
from cubelab.cube.state import CubeState

ROW = 46
"""A state as one row: cp 0..7, co 8..15, ep 16..27, eo 28..39, cc 40..45."""


def row_of(state: CubeState) -> np.ndarray:
    return np.concatenate([state.cp, state.co, state.ep, state.eo, state.cc]).astype(np.int64)


@inline_kernel
def _product(a, b, out):
    for i in range(8):
        j = b[i]
        out[i] = a[j]
        out[8 + i] = (a[8 + j] + b[8 + i]) % 3
    for i in range(12):
        j = b[16 + i]
        out[16 + i] = a[16 + j]
        out[28 + i] = (a[28 + j] + b[28 + i]) & 1
    for i in range(6):
        out[40 + i] = a[40 + b[40 + i]]


@kernel
def _meets(s, kinds, stickers, accept, joint_pieces, joint_keys, where):
    """The goal's conditions on a state with its centres home (see goals.Goal.meets)."""
    for i in range(8):
        where[s[i]] = i
    for i in range(12):
        where[8 + s[16 + i]] = i
    for p in range(20):
        kind = kinds[p]
        if kind == 0:
            continue
        corner = p < 8
        slot = where[p]
        if kind == 2:
            code = slot
        elif corner:
            code = slot * 3 + (stickers[p] + s[8 + slot]) % 3
        else:
            code = slot * 2 + (stickers[p] + s[28 + slot]) % 2
        if (accept[p] >> code) & 1 == 0:
            return False
    if joint_keys.shape[0] > 0:
        key = np.int64(0)
        for k in range(joint_pieces.shape[0]):
            p = joint_pieces[k]
            slot = where[p]
            if p < 8:
                code = slot * 3 + s[8 + slot]
            else:
                code = slot * 2 + s[28 + slot]
            key = key * 32 + code
        i = np.searchsorted(joint_keys, key)
        if i >= joint_keys.shape[0] or joint_keys[i] != key:
            return False
    return True


@kernel
def _met(s, back, cc_index, y, yinv, zinv, kinds, stickers, accept, joint_pieces, joint_keys,
         work):
    """Whether the state (a row, centres anywhere) meets the turned goal."""
    code = 0
    for i in range(6):
        code = code * 6 + s[40 + i]
    r = cc_index[code]
    t, u, v, where = work[0], work[1], work[2], work[3]
    _product(s, back[r], t)
    _product(y, t, u)
    _product(u, yinv, t)
    if _meets(t, kinds, stickers, accept, joint_pieces, joint_keys, where):
        return True
    for z in range(zinv.shape[0]):
        _product(t, zinv[z], v)
        if _meets(v, kinds, stickers, accept, joint_pieces, joint_keys, where):
            return True
    return False


@kernel
def check_rows(lo, hi, out_moves, out_len, out_start, starts, move_rows, auf_rows, back,
               cc_index, y, yinv, zinv, kinds, stickers, accept, joint_pieces, joint_keys,
               result):
    """For rows lo..hi-1 of the kernel's output: result[i] = 0 when the moves meet the goal,
    k (1..3) when they do after the post-AUF turn auf_rows[k - 1], -1 when they do not."""
    s = np.empty(ROW, np.int64)
    tmp = np.empty(ROW, np.int64)
    work = np.empty((4, ROW), np.int64)
    for i in range(lo, hi):
        s[:] = starts[out_start[i]]
        for q in range(out_len[i]):
            _product(s, move_rows[out_moves[i, q]], tmp)
            s[:] = tmp
        if _met(s, back, cc_index, y, yinv, zinv, kinds, stickers, accept, joint_pieces,
                joint_keys, work):
            result[i - lo] = 0
            continue
        result[i - lo] = -1
        for k in range(auf_rows.shape[0]):
            _product(s, auf_rows[k], tmp)
            if _met(tmp, back, cc_index, y, yinv, zinv, kinds, stickers, accept,
                    joint_pieces, joint_keys, work):
                result[i - lo] = k + 1
                break


class Verifier:
    """The arrays `check_rows` reads, for one problem (its goal, moves and starts)."""

    def __init__(self, turned, moves, auf_moves):
        goal = turned.goal
        self.move_rows = np.stack([row_of(move_state(m)) for m in moves])
        self.auf_moves = list(auf_moves)
        self.auf_rows = (np.stack([row_of(move_state(m)) for m in auf_moves])
                         if auf_moves else np.zeros((0, ROW), np.int64))
        rots = rotations()
        self.back = np.stack([row_of(r.inverse()) for r in rots])
        self.cc_index = np.full(6 ** 6, 0, np.int64)
        for i, r in enumerate(rots):
            code = 0
            for c in r.cc:
                code = code * 6 + int(c)
            self.cc_index[code] = i
        self.y = row_of(turned.rotation)
        self.yinv = row_of(turned.rotation.inverse())
        zs = goal.rotations[1:]
        self.zinv = (np.stack([row_of(z.inverse()) for z in zs]) if zs
                     else np.zeros((0, ROW), np.int64))
        self.kinds = np.zeros(20, np.int64)
        self.stickers = np.zeros(20, np.int64)
        self.accept = np.zeros(20, np.int64)
        for orbit, base in (("c", 0), ("e", 8)):
            for p, cond in enumerate(goal.conditions(orbit)):
                if cond is None:
                    continue
                self.kinds[base + p] = 1 if cond.kind == "full" else 2
                self.stickers[base + p] = cond.sticker
                self.accept[base + p] = sum(1 << c for c in cond.accept)
        pieces, keys = [], np.zeros(0, np.int64)
        if goal.joints:
            (joint,) = goal.joints      # the catalog's goals have one at most
            base = 0 if joint.orbit == "c" else 8
            pieces = [base + p for p in joint.pieces]
            keys = np.array(sorted(_key(t) for t in joint.targets), np.int64)
        self.joint_pieces = np.array(pieces, np.int64)
        self.joint_keys = keys

    def check(self, buffer, lo: int, hi: int, start_states) -> list[tuple[bool, Move | None]]:
        """(met, post-AUF turn) of the kernel's rows lo..hi-1 from the start states."""
        result = np.zeros(max(hi - lo, 0), np.int64)
        if hi > lo:
            starts = np.stack([row_of(s) for s in start_states])
            check_rows(lo, hi, buffer.moves, buffer.length, buffer.start, starts,
                       self.move_rows, self.auf_rows, self.back, self.cc_index, self.y,
                       self.yinv, self.zinv, self.kinds, self.stickers, self.accept,
                       self.joint_pieces, self.joint_keys, result)
        return [(r >= 0, self.auf_moves[r - 1] if r > 0 else None) for r in result.tolist()]


def _key(codes) -> int:
    key = 0
    for c in codes:
        key = key * 32 + int(c)
    return key
