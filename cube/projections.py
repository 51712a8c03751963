"""The 3-D view's two parallel projections, and how each fits a box of pixels.

Both put every sticker corner on a pixel corner, so the lines between stickers repeat exactly:
the pixel artist's isometric view, whose receding edges step two pixels across for one down,
and, for small pictures, the cabinet view (the front face square, depth at half scale going up
and to the right), whose square front face stays clear on the smallest screens.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .holding import holding_frame

CELL_ASPECT = 2.0
"""A character cell's height over its width (about 2 on common terminal fonts): half blocks
make pixels about square."""

DEPTH_RATIO = 1.22
"""In the isometric view, an upright edge's length in pixels over a sticker's half-width
across: the proportions of a cube seen from 30 degrees above, turned 45 degrees."""


@dataclass(frozen=True)
class Projection:
    """Cube coordinates to pixels: the holding (`frame`, cube -> held coordinates: x right,
    y up, z towards the viewer's front face), then a parallel projection `screen` (2 x 3,
    held -> pixels, y down) and an `offset`. Two are made (`fit_projection`): the pixel
    artist's isometric view, whose receding edges step two pixels across for one down, and,
    for small pictures, the cabinet view (the front face square, depth at half scale going up
    and to the right). Either puts every sticker corner on a pixel corner, so the lines
    between stickers repeat exactly. Depth grows towards the viewer."""

    frame: np.ndarray
    screen: np.ndarray
    offset: tuple[float, float]
    sticker: int
    """Pixels a sticker across (what the lines between stickers are measured against)."""

    @cached_property
    def viewer(self) -> np.ndarray:
        """The held direction the picture is seen from (the screen matrix's null direction)."""
        d = -np.cross(self.screen[0], self.screen[1])
        return d / np.linalg.norm(d)

    @cached_property
    def _to_pixels(self) -> np.ndarray:
        """One 3 x 3 matrix: cube coordinates to (x, y, depth) before the offset."""
        return np.vstack([self.screen, self.viewer[None, :]]) @ self.frame

    def pixels(self, points: np.ndarray) -> np.ndarray:
        """(x, y, depth) in pixels of cube-coordinate points (y down)."""
        out = points @ self._to_pixels.T
        out[:, 0] += self.offset[0]
        out[:, 1] += self.offset[1]
        return out

    def facing(self, normal: np.ndarray) -> bool:
        """Whether a surface with this outward normal (cube coordinates) faces the viewer."""
        return float((self.frame @ normal) @ self.viewer) > 1e-9


def _isometric(n: int, px_w: int, px_h: int) -> tuple[np.ndarray, int, int, int] | None:
    """(screen, width, height, sticker) of the largest isometric view that fits: receding
    edges step a pixels across for a / 2 down (a even), upright ones b pixels a sticker; the
    outline is 2 n a wide and n (a + b) tall. None when not even a = 6 fits (smaller, its
stickers lose their shape to the steps of their edges)."""
    best = None
    for a in range(6, px_w // (2 * n) + 1, 2):
        room = px_h // n - a
        if room < round(0.9 * a):
            break                       # the upright edges would be squashed
        best = (a, min(room, round(DEPTH_RATIO * a)))
    if best is None:
        return None
    a, b = best
    return np.array([[a, 0.0, -a], [a / 2, -b, a / 2]]), 2 * n * a, n * (a + b), a


def _cabinet(n: int, px_w: int, px_h: int) -> tuple[np.ndarray, int, int, int]:
    """(screen, width, height, sticker) of the largest cabinet view that fits: the front face
    s pixels a sticker each way, depth d = s / 2 pixels a sticker up and to the right; the
    outline is n (s + d) each way."""
    best = (2, 1)
    for s in range(2, min(px_w, px_h) + 1):
        d = max(1, round(s / 2))
        if n * (s + d) > min(px_w, px_h):
            break
        best = (s, d)
    s, d = best
    return np.array([[s, 0.0, -d], [0.0, -s, d]]), n * (s + d), n * (s + d), s


PROJECTIONS = ("isometric", "cabinet")


def fit_projection(orientation: str, n: int, px_w: int, px_h: int,
                   kind: str | None = None) -> Projection:
    """The largest view of a cube with n stickers a side that fits px_w x px_h pixels: the
    isometric view when stickers get six pixels across in it, else the cabinet view (or the
    `kind` asked for)."""
    iso = _isometric(n, px_w, px_h) if kind != "cabinet" else None
    screen, width, height, sticker = iso or _cabinet(n, px_w, px_h)
    # the middle of the outline at the middle of the picture, its corner on a whole pixel
    # (which puts every sticker corner on one)
    ox = (px_w - width) // 2 + width / 2
    oy = (px_h - height) // 2 + height / 2
    return Projection(holding_frame(orientation), screen, (float(ox), float(oy)), sticker)


def fit_size(width: int, height: int, n: int = 3) -> tuple[int, int]:
    """The cells (columns, lines) the picture of a cube with n stickers a side takes when
    fitted into width x height: the box a widget needs to hold it."""
    projection = fit_projection("UFR", n, width, 2 * height)
    screen = projection.screen
    corners = np.array([[x, y, z] for x in (-n / 2, n / 2) for y in (-n / 2, n / 2)
                        for z in (-n / 2, n / 2)]) @ screen.T
    span = np.ptp(corners, axis=0)
    return int(np.ceil(span[0])), int(np.ceil(span[1] / 2))
