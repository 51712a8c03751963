"""The prefixes of one side of a NISS search, a whole level at a time in numpy.

A side has a base X (the position for normal prefixes, its inverse for inverse ones). Level k
holds every canonical sequence C of k moves of the step's move set with X C not meeting the
goal (nor any shorter prefix of it), as arrays: the parent in level k-1, the last move, the
cubies of X C, and the goal coordinates of (X C)' (the start the kernel searches the other
side from). Everything is computed for the level at once: products with a move are index
gathers, the inverse an argsort, the goal's codes and their keys column operations, the
coordinates a binary search in each component's sorted keys. (One prefix at a time through
the model costs about 0.1 ms; a DR's level 5 has 200,000 of them.)
"""

from __future__ import annotations

import numpy as np

from cubelab.cube.alg import Move
from cubelab.cube.moves import move_state
from cubelab.cube.state import CubeState
from cubelab.tables.goals.components import KEY_BITS

_FACE_RANK = {f: i for i, f in enumerate("URFDLB")}
_FIXED: dict = {}
"""Per goal set-up (the engine's shared set-up key): the moves as arrays, the canonical-order
table, the goal's rotation as arrays and its targets."""
CHUNK = 20_000
"""Prefixes made per step between looks at the cancel flag."""


def follows(prev: Move | None, m: Move) -> bool:
    """Canonical order of face turns (the goal kernel's): never the same face twice in a row;
    of two opposite faces, the one ranked first in U R F D L B first."""
    if prev is None:
        return True
    if prev.family == m.family:
        return False
    return not (prev.axis == m.axis and _FACE_RANK[m.family] < _FACE_RANK[prev.family])


def _arrays(state: CubeState):
    return (state.cp.astype(np.int64), state.co.astype(np.int64),
            state.ep.astype(np.int64), state.eo.astype(np.int64))


class Level:
    """One level's prefixes (see the module docstring)."""

    def __init__(self, parent, move, cp, co, ep, eo, coords):
        self.parent, self.move = parent, move
        self.cp, self.co, self.ep, self.eo = cp, co, ep, eo
        self.coords = coords

    def __len__(self) -> int:
        return len(self.move)


class Side:
    """The prefixes of one side, made level by level on demand."""

    def __init__(self, base: CubeState, problem):
        self.problem = problem
        self.moves = list(problem.moves)
        key = getattr(problem, "_key", None)
        fixed = _FIXED.get(key) if key is not None else None
        if fixed is None:
            y = problem.turned.rotation
            fixed = ([_arrays(move_state(m)) for m in self.moves],
                     np.array([[follows(p, m) for m in self.moves]
                               for p in self.moves + [None]], bool),
                     None if y.is_identity() else (_arrays(y), _arrays(y.inverse())),
                     {self._row_key(r) for r in problem.target_coords.tolist()})
            if key is not None:
                _FIXED[key] = fixed
                while len(_FIXED) > 64:
                    _FIXED.pop(next(iter(_FIXED)))
        self.move_arrays, self.allowed, self.y, self.targets = fixed
        cp, co, ep, eo = (a[None, :] for a in _arrays(base))
        coords, valid = self.coords_of_inverse(cp, co, ep, eo)
        if not valid.all():
            raise ValueError("the base position cannot reach the goal with these moves")
        none = np.array([len(self.moves)], np.int64)
        self.levels = [Level(np.array([-1]), none, cp, co, ep, eo, coords)]

    @staticmethod
    def _row_key(row) -> tuple:
        return tuple(int(v) for v in row)

    # ---- coordinates ------------------------------------------------------------------------
    def coords_of_inverse(self, cp, co, ep, eo):
        """(coordinates (n, components), valid) of the inverses of a batch of positions."""
        cp, co = _inverse(cp, co, 3)
        ep, eo = _inverse(ep, eo, 2)
        if self.y is not None:
            (ycp, yco, yep, yeo), (icp, ico, iep, ieo) = self.y
            cp, co = _left(ycp, yco, cp, co, 3)
            ep, eo = _left(yep, yeo, ep, eo, 2)
            cp, co = _right(cp, co, icp, ico, 3)
            ep, eo = _right(ep, eo, iep, ieo, 2)
        where = {"c": (np.argsort(cp, axis=1), co, 3), "e": (np.argsort(ep, axis=1), eo, 2)}
        p = self.problem
        codes = np.empty((cp.shape[0], len(p.items)), np.int64)
        for i, it in enumerate(p.items):
            slot_of, ori, n = where[it.orbit]
            slot = slot_of[:, it.piece]
            if it.kind == "slot":
                codes[:, i] = slot
            else:
                codes[:, i] = slot * n + (it.sticker + np.take_along_axis(
                    ori, slot[:, None], axis=1)[:, 0]) % n
        out = np.zeros((cp.shape[0], len(p.plan.components)), np.int64)
        valid = np.ones(cp.shape[0], bool)
        for k, comp in enumerate(p.plan.components):
            sub = list(comp.items)
            block = codes[:, sub]
            start = 0
            while start < len(sub):        # each group's codes sorted (the canonical form)
                end = start
                while end < len(sub) and p.items[sub[end]].group == p.items[sub[start]].group:
                    end += 1
                block[:, start:end] = np.sort(block[:, start:end], axis=1)
                start = end
            keys = np.zeros(cp.shape[0], np.int64)
            for j in range(len(sub)):
                keys |= block[:, j] << np.int64(KEY_BITS * j)
            index = p.index[k]
            at = np.searchsorted(index.sorted, keys)
            inside = at < len(index.sorted)
            hit = np.zeros(cp.shape[0], bool)
            hit[inside] = index.sorted[at[inside]] == keys[inside]
            out[hit, k] = index.order[at[hit]]
            valid &= hit
        return out, valid

    # ---- levels -----------------------------------------------------------------------------
    def level(self, k: int, cancel) -> Level | None:
        """Level k (made from the ones before when needed); None when cancelled meanwhile."""
        while len(self.levels) <= k:
            made = self._next(self.levels[-1], cancel)
            if made is None:
                return None
            self.levels.append(made)
        return self.levels[k]

    def _next(self, last: Level, cancel) -> Level | None:
        parts = []
        for lo in range(0, max(len(last), 1), CHUNK):
            if cancel[0]:
                return None
            rows = np.arange(lo, min(lo + CHUNK, len(last)))
            for mi, (mcp, mco, mep, meo) in enumerate(self.move_arrays):
                pick = rows[self.allowed[last.move[rows], mi]]
                if not len(pick):
                    continue
                cp, co = _right(last.cp[pick], last.co[pick], mcp, mco, 3)
                ep, eo = _right(last.ep[pick], last.eo[pick], mep, meo, 2)
                coords, valid = self.coords_of_inverse(cp, co, ep, eo)
                keep = valid & np.array([self._row_key(r) not in self.targets
                                         for r in coords.tolist()], bool)
                if keep.any():
                    parts.append((pick[keep], np.full(int(keep.sum()), mi, np.int64),
                                  cp[keep], co[keep], ep[keep], eo[keep], coords[keep]))
        if not parts:
            empty = np.zeros(0, np.int64)
            return Level(empty, empty, *(np.zeros((0, n), np.int64) for n in (8, 8, 12, 12)),
                         np.zeros((0, len(self.problem.plan.components)), np.int64))
        return Level(*(np.concatenate([p[i] for p in parts]) for i in range(7)))

    def sequence(self, k: int, i: int) -> tuple[Move, ...]:
        """The moves of prefix i of level k."""
        out = []
        while k > 0:
            lvl = self.levels[k]
            out.append(self.moves[int(lvl.move[i])])
            i = int(lvl.parent[i])
            k -= 1
        return tuple(reversed(out))


def _inverse(perm, ori, mod):
    inv = np.argsort(perm, axis=1)
    return inv, np.take_along_axis((mod - ori) % mod, inv, axis=1)


def _right(perm, ori, mperm, mori, mod):
    """A batch of positions, then one fixed element."""
    return perm[:, mperm], (ori[:, mperm] + mori) % mod


def _left(yperm, yori, perm, ori, mod):
    """One fixed element, then a batch of positions."""
    return yperm[perm], (yori[perm] + ori) % mod
