"""Layer turns caught part way, and the pictures of moves turning, for the 3-D view's animation.

A move turns some layers about a face's axis; `move_turn` says which (by the depth of their
cubies' centres along the axis) and how far, for either cube, and `move_frames` gives the
pictures of a few moves played one after another, each eased in and out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .geometry import FACE_AXIS
from .puzzles import puzzle_of

@dataclass(frozen=True)
class Turn:
    """Layers turning about a face's axis: the layers at `depths` (cubie centres along the
    axis, in sticker units: 1, 0, -1 on the 3x3x3; 0.5, -0.5 on the 2x2x2) turned by `angle`
    radians, clockwise seen from the face (a quarter turn is pi/2)."""

    face: str
    depths: tuple[float, ...]
    angle: float

    def part(self, fraction: float) -> "Turn":
        """The same turn caught at a fraction of the way."""
        return Turn(self.face, self.depths, self.angle * fraction)

    def matrix(self) -> np.ndarray:
        """The rotation in cube coordinates (Rodrigues' formula; clockwise is negative)."""
        a = FACE_AXIS[self.face].astype(float)
        t = -self.angle
        k = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
        return np.cos(t) * np.eye(3) + np.sin(t) * k + (1 - np.cos(t)) * np.outer(a, a)


_SLICE_FACE = {"M": "L", "E": "D", "S": "F"}
_ROTATION_FACE = {"x": "R", "y": "U", "z": "F"}


def move_turn(move, n: int = 3) -> Turn:
    """The layer turn a move makes on a cube with n stickers a side (n = 3 or 2)."""
    family = move.family
    if family in _SLICE_FACE:
        face, depths = _SLICE_FACE[family], (0.0,)
    elif family in _ROTATION_FACE:
        face = _ROTATION_FACE[family]
        depths = tuple((n - 1) / 2 - k for k in range(n))
    else:
        face, counted = move.layers
        # layer k counted from the face sits at (n + 1) / 2 - k along its axis; the 2x2x2's
        # second layer and beyond are its one far layer
        depths = tuple(sorted({max((n + 1) / 2 - k, -(n - 1) / 2) for k in counted}))
    amount = {1: 1, 2: 2, 3: -1}[move.amount]
    return Turn(face, depths, amount * math.pi / 2)


def move_frames(state, moves, steps: int = 4) -> list[tuple[list[int], Turn | None]]:
    """The pictures of moves played from `state` (either cube), as (sticker colours, layer
    turn caught part way): `steps` pictures a quarter turn (half as many again for a half
    turn), eased in and out, each move ending on the position it reaches (turn None)."""
    puzzle = puzzle_of(state)
    n = 3 if puzzle.name == "3x3" else 2
    out: list[tuple[list[int], Turn | None]] = []
    for move in moves:
        colours = puzzle.colours(state)
        turn = move_turn(move, n)
        count = steps if abs(turn.angle) < math.pi * 0.75 else steps + steps // 2
        for k in range(1, count):
            eased = (1 - math.cos(math.pi * k / count)) / 2
            out.append((colours, turn.part(eased)))
        state = puzzle.apply(state, [move])
        out.append((puzzle.colours(state), None))
    return out
