"""What each move does to a state: face, wide and slice turns and rotations, derived geometrically."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .facelets import state_from_colours
from .geometry import layer_turn
from .alg import Move
from .notation import parse_moves
from .pieces import FACES
from .state import CubeState, as_lists, lists_product


def _state_from_sticker_map(target: np.ndarray) -> CubeState:
    colours = np.empty(54, dtype=np.int8)
    colours[target] = np.arange(54) // 9
    return state_from_colours(colours)


_SLICE_FACE = {"M": "L", "E": "D", "S": "F"}
_ROTATION_FACE = {"x": "R", "y": "U", "z": "F"}


@lru_cache(maxsize=None)
def family_state(family: str) -> CubeState:
    """The state of one clockwise quarter of a move family ('R', 'Rw', '2R', '2-3Rw', 'M', 'x')."""
    if family in _SLICE_FACE:
        layers, face = (0,), _SLICE_FACE[family]
    elif family in _ROTATION_FACE:
        layers, face = (1, 0, -1), _ROTATION_FACE[family]
    else:
        try:
            face, counted = Move(family).layers
        except (ValueError, TypeError):
            raise KeyError(f"unknown move family {family!r}") from None
        # layer k counted from the face sits at 2 - k along its axis (1 the face, -1 the far one)
        layers = tuple(2 - k for k in counted)
    return _state_from_sticker_map(layer_turn(face, layers))


@lru_cache(maxsize=None)
def _move_state(family: str, amount: int) -> CubeState:
    return family_state(family).power(amount)


def move_state(move: Move) -> CubeState:
    return _move_state(move.family, move.amount)


def apply_moves(state: CubeState, moves) -> CubeState:
    """The state after the moves (products on plain lists: numpy is slow on 8 entries)."""
    moves = list(moves)
    if len(moves) < 3:
        for m in moves:
            state = state * _move_state(m.family, m.amount)
        return state
    return CubeState(*apply_moves_lists(as_lists(state), moves))


def apply_moves_lists(lists: tuple, moves) -> tuple:
    """The moves applied to a state given as `state.as_lists`, as lists."""
    for m in moves:
        lists = lists_product(lists, _move_lists(m.family, m.amount))
    return lists


@lru_cache(maxsize=None)
def _move_lists(family: str, amount: int) -> tuple:
    return as_lists(_move_state(family, amount))


def alg_state(text: str) -> CubeState:
    """The state reached from solved by a move sequence in notation."""
    return apply_moves(CubeState.identity(), parse_moves(text))


FACE_MOVES = tuple(Move(f, a) for f in FACES for a in (1, 2, 3))
"""The 18 face turns of the half-turn metric, in the order U U2 U' R R2 R' ... B B2 B'."""


@lru_cache(maxsize=1)
def rotations() -> tuple[CubeState, ...]:
    """The 24 whole-cube rotations, identity first."""
    gens = [family_state("x"), family_state("y"), family_state("z")]
    found = {CubeState.identity(): None}
    frontier = [CubeState.identity()]
    while frontier:
        nxt = []
        for s in frontier:
            for g in gens:
                t = s * g
                if t not in found:
                    found[t] = None
                    nxt.append(t)
        frontier = nxt
    assert len(found) == 24
    return tuple(found)
