"""How the cube is held in a picture: the 24 holdings, their names, and turning the picture.

A holding is named by the faces on top, in front and on the right ("UFR" the usual one; "DLB"
shows the other three faces, from below the back-left corner); the right face follows from the
other two, so two letters name one too ("UF"). The picture turns by quarter turns about the
vertical axis (left, right) or the horizontal one (up, down), or over to the hidden side.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .geometry import FACE_AXIS
from .pieces import FACES

VIEW_ALIASES = {"front": "UFR", "3d": "UFR", "back": "DLB"}
"""Words for holdings: the usual view and the other side (the faces it hides)."""

def _axis_face(vector) -> str:
    for face in FACES:
        if np.array_equal(FACE_AXIS[face], vector):
            return face
    raise ValueError(f"no face points along {vector}")


@lru_cache(maxsize=1)
def orientations() -> tuple[str, ...]:
    """The 24 ways to hold the cube, as the faces on top, in front and on the right ("UFR"
    first): the right face follows from the other two (its axis is top x front)."""
    out = []
    for top in "UFRDLB":
        for front in "FRBLUD":
            a, b = FACE_AXIS[top], FACE_AXIS[front]
            if int(a @ b) == 0:
                out.append(top + front + _axis_face(np.cross(a, b)))
    out.sort(key=lambda o: (o != "UFR", o))
    return tuple(out)


def orientation_named(text: str) -> str:
    """An orientation from what users type: 'UFR', 'uf' (the right face follows), 'front' or
    '3d' (UFR), 'back' (DLB). ValueError saying what is wrong."""
    word = text.strip()
    if word.lower() in VIEW_ALIASES:
        return VIEW_ALIASES[word.lower()]
    faces = word.upper()
    for o in orientations():
        if faces in (o, o[:2]):
            return o
    raise ValueError(f"no way to hold the cube has {text!r} (give the top and front faces, "
                     "e.g. UF or DB, or front, back)")


def holding_frame(orientation: str) -> np.ndarray:
    """Rows: the directions of the right, top and front faces (cube coordinates -> held)."""
    top, front, right = orientation
    return np.array([FACE_AXIS[right], FACE_AXIS[top], FACE_AXIS[front]], dtype=float)


def _orientation_of(frame: np.ndarray) -> str:
    right, top, front = (np.rint(row).astype(int) for row in frame)
    return _axis_face(top) + _axis_face(front) + _axis_face(right)


_PICTURE_TURNS = {
    # quarter turns of the picture, in held coordinates (x right, y up, z towards the viewer)
    "right": np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0]]),    # the front goes to the right
    "left": np.array([[0, 0, -1], [0, 1, 0], [1, 0, 0]]),
    "up": np.array([[1, 0, 0], [0, 0, 1], [0, -1, 0]]),       # the front goes to the top
    "down": np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]]),
    "over": np.array([[0, 0, -1], [0, -1, 0], [-1, 0, 0]]),   # the hidden three come to view
}
"""How the picture turns: about the vertical axis (left, right), about the horizontal one
(up, down), and over to the other side (the half turn taking the UFR corner to DLB's place)."""


def turned(orientation: str, how: str) -> str:
    """The orientation after turning the picture (`how`: left, right, up, down or over)."""
    return _orientation_of(_PICTURE_TURNS[how] @ holding_frame(orientation))


def other_side(orientation: str) -> str:
    """The orientation that shows the three faces this one hides (UFR <-> DLB)."""
    return turned(orientation, "over")
