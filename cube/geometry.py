"""Stickers as points in space, so every layer turn, rotation and reflection is derived, not typed.

Axes: x towards R, y towards U, z towards F. A sticker is (cubie position, outward normal), both
integer vectors; a turn is a rotation matrix applied to the stickers of some layers.
"""

from __future__ import annotations

import numpy as np

from .pieces import FACES

# (normal, right, down) of each face as the facelet diagram draws it (rows top to bottom).
_FRAMES = {
    "U": ((0, 1, 0), (1, 0, 0), (0, 0, 1)),
    "R": ((1, 0, 0), (0, 0, -1), (0, -1, 0)),
    "F": ((0, 0, 1), (1, 0, 0), (0, -1, 0)),
    "D": ((0, -1, 0), (1, 0, 0), (0, 0, -1)),
    "L": ((-1, 0, 0), (0, 0, 1), (0, -1, 0)),
    "B": ((0, 0, -1), (-1, 0, 0), (0, -1, 0)),
}

FACE_AXIS = {f: np.array(_FRAMES[f][0]) for f in FACES}


def _sticker_table() -> tuple[np.ndarray, np.ndarray]:
    pos = np.zeros((54, 3), dtype=np.int64)
    nrm = np.zeros((54, 3), dtype=np.int64)
    for fi, f in enumerate(FACES):
        n, right, down = (np.array(v) for v in _FRAMES[f])
        for k in range(9):
            r, c = divmod(k, 3)
            pos[9 * fi + k] = n + (c - 1) * right + (r - 1) * down
            nrm[9 * fi + k] = n
    return pos, nrm


STICKER_POS, STICKER_NORMAL = _sticker_table()

_DIGITS = 3 ** np.arange(6)
"""A sticker's (position, normal), six coordinates in -1..1, as one base-3 number."""


def _keys(pos: np.ndarray, nrm: np.ndarray) -> np.ndarray:
    return (np.concatenate([pos, nrm], axis=1) + 1) @ _DIGITS


_STICKER_AT = np.full(3 ** 6, -1, dtype=np.int64)
_STICKER_AT[_keys(STICKER_POS, STICKER_NORMAL)] = np.arange(54)
"""Sticker index by the number `_keys` gives its (position, normal); -1 where none is."""


def quarter_rotation(axis: np.ndarray) -> np.ndarray:
    """Matrix of a clockwise quarter turn seen from the tip of a unit axis vector."""
    a = np.asarray(axis)
    cross = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return -cross + np.outer(a, a)


def sticker_map(matrix: np.ndarray, layers=None, axis=None) -> np.ndarray:
    """Where each sticker goes under `matrix` applied to the stickers whose position along
    `axis` lies in `layers` (all stickers when layers is None): target[i] = new index of i."""
    # all 54 at once (a loop over the stickers was ~0.3 ms a map, 9 maps before the first
    # facts of `cubelab facts`)
    m = np.rint(np.asarray(matrix)).astype(np.int64)
    target = _STICKER_AT[_keys(STICKER_POS @ m.T, STICKER_NORMAL @ m.T)]
    if layers is not None:
        moved = np.isin(STICKER_POS @ np.asarray(axis), list(layers))
        target = np.where(moved, target, np.arange(54))
    if (target < 0).any():
        raise KeyError("the matrix takes a sticker off the cube")
    return target


def layer_turn(face: str, layers: tuple[int, ...]) -> np.ndarray:
    """Sticker map of a clockwise quarter turn, seen from `face`, of the given layers, where
    layer 1 is the face itself, 0 the middle and -1 the opposite face."""
    axis = FACE_AXIS[face]
    return sticker_map(quarter_rotation(axis), set(layers), axis)


def reflection_x() -> np.ndarray:
    """Sticker map of the mirror image in the plane between L and R."""
    return sticker_map(np.diag([-1, 1, 1]))
