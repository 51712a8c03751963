"""What each move of a set does to the pieces a goal reads, and the canonical order of a set.

A goal reads the position turned back so its centres are home, then through the goal's own
rotation Y (`goals.TurnedGoal`). Moves that turn centres (wide, slice, rotations) change which
way the cube is held: the search therefore carries a *frame* X, the rotation the centres show,
and a move m held in frame X acts on what the goal reads as the centre-fixing element

    e(X, m) = (Y X) (m C_m^-1) (Y X)^-1,   and the frame becomes X C_m,

C_m being the rotation of m's centres (identity for a face turn). For face turns alone there is
one frame and e is m seen through Y. A move set thus becomes a list of distinct *elements*
(sorted, so that tables are shared by every goal and rotation that yields the same elements),
and tables `element[frame, move]`, `next_frame[frame, move]`.

The canonical order: a sequence is listed once among those that differ only by the order of
commuting moves. Move families that commute (R, L, M, r; any two half-turn slices) may follow
each other only in a fixed order; a finite-state machine tracks the families that could still
be swapped to the end (twsearch's canonical FSM, written here from that idea).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .alg import Move
from .moves import move_state, rotations
from .movesets import MoveSet
from .pieces import FACES
from .state import CubeState, rotation_with_centres

_ORDER = (list(FACES) + [f + "w" for f in FACES] + [f.lower() for f in FACES]
          + ["M", "E", "S"] + ["x", "y", "z"])


def family_rank(family: str) -> tuple:
    """The canonical order of families: faces U R F D L B, wide, slices, rotations, others."""
    return (_ORDER.index(family), "") if family in _ORDER else (len(_ORDER), family)


def centre_rotation(move: Move) -> CubeState:
    """C_m: the rotation m gives the centres (identity for a face turn)."""
    return _centre_rotation(move.family, move.amount)


@lru_cache(maxsize=None)
def _centre_rotation(family: str, amount: int) -> CubeState:
    return rotation_with_centres(move_state(Move(family, amount)).cc)


@dataclass(frozen=True)
class MoveActions:
    """A move set seen through a goal's rotation from a start frame."""

    moves: tuple[Move, ...]
    """The moves, in canonical family order then power."""
    frames: tuple[CubeState, ...]
    """The rotations the centres can show, the start frame first."""
    elements: tuple[CubeState, ...]
    """Distinct centre-fixing elements, sorted by their bytes (identity included if a move
    does nothing to the pieces, as a rotation does)."""
    element: np.ndarray
    """element[frame, move]: index into `elements`."""
    next_frame: np.ndarray
    """next_frame[frame, move]: the frame after the move."""
    fsm: np.ndarray
    """fsm[state, move]: the canonical-order state after the move, -1 where not allowed;
    state 0 is the start."""
    inverse: np.ndarray
    """inverse[e]: index of elements[e]^-1, -1 when the inverse is not among them."""

    def identity_elements(self) -> list[int]:
        return [i for i, e in enumerate(self.elements) if e.is_identity()]


def actions(moveset: MoveSet, goal_rotation: CubeState | None = None,
            start_frame: CubeState | None = None) -> MoveActions:
    """The elements, frames and canonical order of a move set for a goal rotation Y and the
    rotation X0 the start position's centres show."""
    y = goal_rotation if goal_rotation is not None else CubeState.identity()
    x0 = start_frame if start_frame is not None else CubeState.identity()
    moves = tuple(sorted(moveset.moves, key=lambda m: (family_rank(m.family), m.amount)))
    frames = [x0]
    index = {x0: 0}
    todo = [x0]
    while todo:
        x = todo.pop()
        for m in moves:
            nx = x * centre_rotation(m)
            if nx not in index:
                index[nx] = len(frames)
                frames.append(nx)
                todo.append(nx)
    raw = {}
    for fi, x in enumerate(frames):
        w = y * x
        winv = w.inverse()
        for mi, m in enumerate(moves):
            e = w * move_state(m) * centre_rotation(m).inverse() * winv
            raw[fi, mi] = e
    distinct = sorted(set(raw.values()), key=lambda s: s.key())
    position = {e: i for i, e in enumerate(distinct)}
    element = np.zeros((len(frames), len(moves)), np.int64)
    next_frame = np.zeros((len(frames), len(moves)), np.int64)
    for (fi, mi), e in raw.items():
        element[fi, mi] = position[e]
        next_frame[fi, mi] = index[frames[fi] * centre_rotation(moves[mi])]
    inverse = np.array([position.get(e.inverse(), -1) for e in distinct], np.int64)
    return MoveActions(moves, tuple(frames), tuple(distinct), element, next_frame,
                       canonical_fsm(moves), inverse)


def _commute(a, b) -> bool:
    return all(x * y == y * x for x in a for y in b)


def _fsm(classes: list, members: dict, closed: dict) -> np.ndarray:
    """fsm[state, item] for items of the given classes (classes in canonical order).

    A state is the set of classes that commute with every item after their last one (they
    could be moved to the end). An item of class c is refused when c is in the set and closed
    (the two would merge into one item of the set), or when a later class in the canonical
    order is in the set and commutes with c (the two should have come in the other order).
    The new set keeps the classes commuting with c, plus c."""
    distinct = list(dict.fromkeys(classes))
    rank = {c: i for i, c in enumerate(distinct)}
    commute = {(a, b): _commute(members[a], members[b]) for a in distinct for b in distinct}
    states = [frozenset()]
    index = {frozenset(): 0}
    table = []
    i = 0
    while i < len(states):
        s = states[i]
        row = []
        for c in classes:
            if (c in s and closed[c]) or any(rank[o] > rank[c] and commute[o, c]
                                              for o in s if o != c):
                row.append(-1)
                continue
            ns = frozenset([c] + [o for o in s if o != c and commute[o, c]])
            if ns not in index:
                index[ns] = len(states)
                states.append(ns)
            row.append(index[ns])
        table.append(row)
        i += 1
    return np.array(table, np.int64)


def canonical_fsm(moves: tuple[Move, ...]) -> np.ndarray:
    """fsm[state, move], the classes being the move families. A family allowing every power
    (or only the half turn) never follows itself; one allowing some quarter turns only may
    (R' R' is the only way to R2 in <R'>)."""
    classes = [m.family for m in moves]
    members = {f: [move_state(m) for m in moves if m.family == f] for f in classes}
    closed = {}
    for f in classes:
        powers = {m.amount for m in moves if m.family == f}
        closed[f] = powers in ({1, 2, 3}, {2})
    return _fsm(classes, members, closed)


def element_fsm(elements) -> np.ndarray:
    """fsm[state, element] for centre-fixing elements: the class of an element is the set of
    its powers among them (R, R2, R'), closed when every power but the identity is there. The
    identity (a rotation's element) is refused everywhere: it changes nothing."""
    present = set(elements)
    cyclic = {}
    for e in elements:
        if not e.is_identity():
            powers, p = [], e
            while not p.is_identity():
                powers.append(p)
                p = p * e
            cyclic[e] = powers
    classes, members, closed = [], {}, {}
    for e in elements:
        if e.is_identity():
            classes.append(None)
            continue
        # the largest cyclic group among the elements that holds e names its class (R2 is in
        # R's class: R R2 would merge)
        gen = max((f for f in cyclic if e in cyclic[f]),
                  key=lambda f: (len(cyclic[f]), sum(x in present for x in cyclic[f]),
                                 f.key()))
        cls = frozenset(x for x in cyclic[gen] if x in present)
        classes.append(cls)
        members[cls] = sorted(cls, key=lambda s: s.key())
        closed[cls] = all(x in present for x in cyclic[gen])
    real = [c for c in classes if c is not None]
    table = _fsm(real, members, closed) if real else np.zeros((1, 0), np.int64)
    out = np.full((table.shape[0], len(classes)), -1, np.int64)
    j = 0
    for i, c in enumerate(classes):
        if c is not None:
            out[:, i] = table[:, j]
            j += 1
    return out


def rotation_index(x: CubeState) -> int:
    """The index of a rotation among moves.rotations()."""
    return rotations().index(x)
