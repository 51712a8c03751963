"""The cube in three dimensions as a Rich renderable: a small renderer of the cube held any way.

The cube is drawn as a solid: black plastic with a sticker on each facelet, so a dark line runs
between stickers and a cuber counts them as on the real cube. Seen in parallel projection from
above the front-right corner (projections.py: isometric, or cabinet in small pictures), the
three faces in view (top, front, right) keep their proportions at every size. The cube may be
held any of 24 ways (holding.py: "UFR" the usual one, "DLB" the other three faces), and a
layer turn caught part way (layer_turns.py) shows a move in a few frames; a z-buffer keeps the
nearest surface in each pixel, so a turning layer hides and shows what it should.

Pixels: each character cell holds two, one above the other (the upper-half block in the upper
pixel's colour on the lower one's), about square on terminals whose cells are twice as tall
as wide. (Braille was tried for its finer 2 x 4 grid: its dots never fill a cell, so colour
reads as stipple and the picture is less sharp than with half blocks at every size.) The lines
between stickers are a pixel wide in small pictures, cut in proportion in large ones.
The colours are the colour scheme's (cube/colour_scheme.py); the face letters stand on the
stickers where colour cannot tell the faces apart or on request, and a terminal without colour
gets the letters alone. Either cube: 54 stickers (3x3x3) or 24 (2x2x2).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from rich.color import Color
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style

from .colour_scheme import WESTERN, ColourScheme, UNPAINTED
from .geometry import FACE_AXIS
from .holding import orientation_named
from .layer_turns import Turn
from .pieces import FACES
from .projections import PROJECTIONS, fit_projection
from .puzzles import CUBE3, puzzle_of

FINE = 10
"""From this many pixels a sticker across, the lines between stickers are cut in proportion
(a sixteenth of a sticker each side); below it they are drawn one pixel wide."""
BODY = 16
"""The xterm-256 colour of the plastic between stickers (black)."""
_BACKGROUND, _BODY = -2, -1
"""Raster values that are no sticker: outside the cube, and the plastic."""

_FRAMES = {
    "U": ((1, 0, 0), (0, 0, 1)), "R": ((0, 0, -1), (0, -1, 0)), "F": ((1, 0, 0), (0, -1, 0)),
    "D": ((1, 0, 0), (0, 0, -1)), "L": ((0, 0, 1), (0, -1, 0)), "B": ((-1, 0, 0), (0, -1, 0)),
}
"""Each face's (right, down) directions as the facelet diagram reads its stickers (row by row,
as the net draws them); its normal is geometry.FACE_AXIS."""


@lru_cache(maxsize=2)
def _stickers(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(centres, normals, rights, downs) of the 6 n^2 stickers in facelet order, the cube
    spanning -n/2..n/2 in sticker units."""
    centres, normals, rights, downs = [], [], [], []
    for face in FACES:
        normal = FACE_AXIS[face].astype(float)
        right, down = (np.array(v, dtype=float) for v in _FRAMES[face])
        for r in range(n):
            for c in range(n):
                centres.append(normal * n / 2 + (c - (n - 1) / 2) * right
                               + (r - (n - 1) / 2) * down)
                normals.append(normal)
                rights.append(right)
                downs.append(down)
    return tuple(np.array(a) for a in (centres, normals, rights, downs))


def _box_faces(low: np.ndarray, high: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """The six faces of an axis-aligned box as (outward normal, 4 corners in order)."""
    faces = []
    for axis in range(3):
        for sign, bound in ((-1, low), (1, high)):
            u, v = [a for a in range(3) if a != axis]
            corners = []
            for du, dv in ((0, 0), (1, 0), (1, 1), (0, 1)):
                p = np.empty(3)
                p[axis] = bound[axis]
                p[u] = (low, high)[du][u]
                p[v] = (low, high)[dv][v]
                corners.append(p)
            normal = np.zeros(3)
            normal[axis] = sign
            faces.append((normal, np.array(corners)))
    return faces


def _shrunk(points: np.ndarray, by: float) -> np.ndarray:
    """A convex polygon's 2-D corners moved in so each edge lies `by` pixels further in (the
    line between stickers is as wide in every direction)."""
    p = points[:, :2]
    k = len(p)
    area = sum(p[i - 1, 0] * p[i, 1] - p[i, 0] * p[i - 1, 1] for i in range(k))
    sign = 1.0 if area > 0 else -1.0
    lines = []
    for i in range(k):
        a, b = p[i], p[(i + 1) % k]
        d = b - a
        length = np.hypot(*d)
        if length < 1e-9:
            return p[:0]
        inward = sign * np.array([-d[1], d[0]]) / length
        lines.append((a + inward * by, d))
    out = []
    for i in range(k):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        det = d1[0] * d2[1] - d1[1] * d2[0]
        if abs(det) < 1e-12:
            return p[:0]
        t = ((p2[0] - p1[0]) * d2[1] - (p2[1] - p1[1]) * d2[0]) / det
        out.append(p1 + t * d1)
    shrunk = np.array(out)
    # a polygon smaller than its border turns inside out: nothing is left of it
    area2 = sum(shrunk[i - 1, 0] * shrunk[i, 1] - shrunk[i, 0] * shrunk[i - 1, 1]
                for i in range(k))
    return shrunk if area2 * area > 0 else p[:0]


def _cell_style(top: int, bottom: int) -> tuple[str, Style | None]:
    """The character and style of a cell whose upper and lower pixels have these xterm
    colours (-1: the terminal's background)."""
    upper = Color.from_ansi(top) if top >= 0 else None
    lower = Color.from_ansi(bottom) if bottom >= 0 else None
    if top == bottom:
        return " ", Style(bgcolor=lower) if lower else None
    if upper is None:
        return "▄", Style(color=lower)
    return "▀", Style(color=upper, bgcolor=lower)


def _draw_lines(values: np.ndarray) -> None:
    """Lines a pixel wide where two stickers meet, in any direction: each sticker gives up
    its pixels whose right or lower neighbour lies across an edge (so every sticker loses
    the same and the lines stay one pixel wide), and an outline where the cube meets the
    background."""
    line = np.zeros(values.shape, bool)
    line[:, :-1] |= values[:, :-1] != values[:, 1:]
    line[:-1, :] |= values[:-1, :] != values[1:, :]
    outside = values == _BACKGROUND
    line[:, 1:] |= outside[:, :-1]
    line[1:, :] |= outside[:-1, :]
    values[line & (values >= 0)] = _BODY


class IsoView:
    """Renderable 3-D view of a state of either cube, or of painted colours (face ids, -1 for
    a sticker not painted), held in `orientation` ('UFR', or 'front'/'back'), fitted into
    `width` x `height` cells. `turn`: a layer turn caught part way (Turn, for animation);
    `projection`: 'isometric' or 'cabinet' (None: the one that suits the size); `letters`:
    None = automatic (on 16 colours or none), True, False. `view` is the older name for
    `orientation`."""

    def __init__(self, state=None, *, colours=None, orientation: str | None = None,
                 view: str | None = None, scheme: ColourScheme = WESTERN,
                 letters: bool | None = None, width: int = 35, height: int = 9,
                 turn: Turn | None = None, projection: str | None = None):
        if colours is None:
            state = CUBE3.identity() if state is None else state
            colours = puzzle_of(state).colours(state)
        self.colours = [int(c) for c in colours]
        self.n = 3 if len(self.colours) == 54 else 2
        self.orientation = orientation_named(orientation or view or "UFR")
        self.scheme = scheme
        self.letters = letters
        self.width, self.height = max(4, int(width)), max(2, int(height))
        self.turn = turn
        if projection not in (None, *PROJECTIONS):
            raise ValueError(f"projection must be one of {', '.join(PROJECTIONS)}")
        self._raster: np.ndarray | None = None
        self._kind = projection
        self.projection = fit_projection(self.orientation, self.n, self.width,
                                         self.height * 2, projection)

    @property
    def view(self) -> str:
        return self.orientation

    # ---- geometry ----------------------------------------------------------------------
    def _moving(self) -> np.ndarray:
        """Which stickers ride on the turning layers."""
        centres, normals, _, _ = _stickers(self.n)
        if self.turn is None:
            return np.zeros(len(centres), bool)
        axis = FACE_AXIS[self.turn.face].astype(float)
        along = np.round(((centres - normals / 2) @ axis) * 2) / 2
        return np.isin(along, self.turn.depths)

    def _polygons(self) -> list[tuple[np.ndarray, np.ndarray, int]]:
        """(outward normal, corners, raster value) of every polygon to draw, in cube
        coordinates after the turn: the plastic (the cube, or its slabs while a layer turns)
        and each sticker (its whole square: the line between stickers is cut in pixels)."""
        n = self.n
        half = n / 2
        centres, normals, rights, downs = _stickers(n)
        moving = self._moving()
        rotation = np.eye(3) if self.turn is None else self.turn.matrix()
        out = []
        if self.turn is None:
            out += [(normal, corners, _BODY) for normal, corners in
                    _box_faces(np.full(3, -half), np.full(3, half))]
        else:
            axis = FACE_AXIS[self.turn.face].astype(float)
            k = int(np.argmax(np.abs(axis)))
            for d in np.arange(-(n - 1) / 2, n / 2):
                low, high = np.full(3, -half), np.full(3, half)
                # the slab of cubies whose centres sit at depth d along the axis
                low[k], high[k] = sorted((d * axis[k] - 0.5, d * axis[k] + 0.5))
                turning = any(abs(d - t) < 1e-6 for t in self.turn.depths)
                for normal, corners in _box_faces(low, high):
                    if turning:
                        normal, corners = rotation @ normal, corners @ rotation.T
                    out.append((normal, corners, _BODY))
        for i in range(6 * n * n):
            c = centres[i] + normals[i] * 1e-3
            r, d = rights[i] / 2, downs[i] / 2
            corners = np.array([c - r - d, c + r - d, c + r + d, c - r + d])
            normal = normals[i]
            if moving[i]:
                normal, corners = rotation @ normal, corners @ rotation.T
            out.append((normal, corners, i))
        return out

    def _inset(self) -> float:
        """How far (pixels) each sticker's edge moves in, for a line between stickers in
        proportion on a large picture (a small one draws its lines a pixel wide instead)."""
        return self.projection.sticker / 16 if self.projection.sticker >= FINE else 0.0

    def raster(self) -> np.ndarray:
        """The picture's pixels (rows of columns): a facelet index, or -1 for the plastic,
        -2 outside the cube. It depends on the geometry alone (the colours are looked up as
        the picture is drawn), so pictures of one size and holding share it."""
        if self._raster is None:
            self._raster = _cached_raster(self.n, self.orientation, self.width, self.height,
                                          self.turn, self._kind)
        return self._raster

    def _draw(self) -> np.ndarray:
        """Compute the raster: a z-buffer keeps the nearest surface in each pixel."""
        projection = self.projection
        h, w = self.height * 2, self.width
        values = np.full((h, w), _BACKGROUND, np.int16)
        depth = np.full((h, w), -np.inf)
        inset = self._inset()
        for normal, corners, value in self._polygons():
            if not projection.facing(normal):
                continue                                 # facing away from the viewer
            self._fill(projection.pixels(corners), value, values, depth,
                       inset if value >= 0 else 0.0)
        if not inset:
            _draw_lines(values)
        values.flags.writeable = False
        return values

    @staticmethod
    def _fill(points: np.ndarray, value: int, values: np.ndarray, depth: np.ndarray,
              inset: float = 0.0) -> None:
        """Draw one convex polygon (pixel corners with depth), moved in by `inset` pixels,
        where it is nearer than what is there; pixels are sampled at their centres."""
        # the plane's depth at each pixel, from three corners (before the inset)
        (ax, ay, az), (bx, by, bz), (cx, cy, cz) = points[0], points[1], points[2]
        det = (bx - ax) * (cy - ay) - (cx - ax) * (by - ay)
        if abs(det) < 1e-9:
            return                                      # seen edge-on
        gx = ((bz - az) * (cy - ay) - (cz - az) * (by - ay)) / det
        gy = ((cz - az) * (bx - ax) - (bz - az) * (cx - ax)) / det
        p = _shrunk(points, inset) if inset else points[:, :2]
        if not len(p):
            return
        h, w = values.shape
        x0, x1 = max(0, int(np.floor(p[:, 0].min()))), min(w, int(np.ceil(p[:, 0].max())))
        y0, y1 = max(0, int(np.floor(p[:, 1].min()))), min(h, int(np.ceil(p[:, 1].max())))
        if x0 >= x1 or y0 >= y1:
            return
        xs = (np.arange(x0, x1) + 0.5)[None, :]            # pixel centres, broadcast
        ys = (np.arange(y0, y1) + 0.5)[:, None]
        area = sum(p[i - 1, 0] * p[i, 1] - p[i, 0] * p[i - 1, 1] for i in range(len(p)))
        sign = 1 if area > 0 else -1
        inside = np.ones((y1 - y0, x1 - x0), bool)
        for i in range(len(p)):
            (px, py), (qx, qy) = p[i - 1], p[i]
            inside &= sign * ((qx - px) * (ys - py) - (qy - py) * (xs - px)) >= 0
        z = az + gx * (xs - ax) + gy * (ys - ay)
        region = depth[y0:y1, x0:x1]
        nearer = inside & (z > region)
        region[nearer] = z[nearer]
        values[y0:y1, x0:x1][nearer] = value

    # ---- what users and tests read -------------------------------------------------------
    def _cells(self) -> np.ndarray:
        """The raster by cell: (lines, columns, 2), the upper pixel then the lower."""
        return self.raster().reshape(self.height, 2, self.width).transpose(0, 2, 1)

    def grid(self) -> list[list[int | None]]:
        """Each cell's facelet index (its upper pixel's sticker, else its lower one's; None
        where no sticker shows), line by line: what a click on a cell hits."""
        cells = self._cells()
        chosen = np.where(cells[:, :, 0] >= 0, cells[:, :, 0], cells[:, :, 1])
        return [[int(v) if v >= 0 else None for v in line] for line in chosen]

    def sticker_centres(self) -> dict[int, tuple[int, int]]:
        """For each sticker in view: the (column, line) of the cell where it shows nearest
        its centre (where its letter goes, and where a click surely hits it)."""
        centres = _stickers(self.n)[0].copy()
        moving = self._moving()
        if self.turn is not None:
            centres[moving] = centres[moving] @ self.turn.matrix().T
        raster = self.raster()
        out = {}
        for i, (x, y, _) in enumerate(self.projection.pixels(centres)):
            rows, cols = np.nonzero(raster == i)
            if rows.size:
                k = int(np.argmin((cols + 0.5 - x) ** 2 + (rows + 0.5 - y) ** 2))
                out[i] = (int(cols[k]), int(rows[k]) // 2)
        return out

    def faces_in_view(self) -> str:
        """The faces whose stickers the picture shows, in URFDLB order."""
        per_face = self.n * self.n
        seen = {int(v) // per_face for v in np.unique(self.raster()) if v >= 0}
        return "".join(FACES[f] for f in sorted(seen))

    def _use_letters(self, console: Console) -> bool:
        if self.letters is not None:
            return self.letters
        return console.no_color or console.color_system in (None, "standard")

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(self.width, self.width)

    def _xterm(self) -> np.ndarray:
        """Each raster value's xterm colour (-1: the terminal's background), indexed by the
        value + 2 (values start at -2)."""
        faces = [UNPAINTED if f < 0 else self.scheme.colour(f).xterm for f in self.colours]
        return np.array([-1, BODY, *faces], dtype=np.int16)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if console.no_color or console.color_system is None:
            for line in self.plain_text(pad=True).splitlines():
                yield Segment(line)
                yield Segment.line()
            return
        labels = self._labels() if self._use_letters(console) else {}
        cells = self._xterm()[self._cells() + 2]           # (lines, columns, upper/lower)
        styles: dict[tuple[int, int], tuple[str, Style | None]] = {}
        for y, line in enumerate(cells):
            # runs of cells alike make one segment each (a letter is a run of its own)
            keys = line[:, 0].astype(np.int32) * 1024 + line[:, 1]
            cuts = np.flatnonzero(keys[1:] != keys[:-1]) + 1
            marks = sorted({x for x, yy in labels if yy == y} | {x + 1 for x, yy in labels
                                                                 if yy == y})
            bounds = sorted(set(cuts.tolist()) | set(marks) | {0, self.width})
            for a, b in zip(bounds, bounds[1:]):
                if b <= a or a >= self.width:
                    continue
                if (a, y) in labels:
                    face = labels[a, y]
                    yield Segment(FACES[face], self.scheme.style(face))
                    continue
                top, bottom = int(line[a, 0]), int(line[a, 1])
                if (top, bottom) not in styles:
                    styles[top, bottom] = _cell_style(top, bottom)
                char, style = styles[top, bottom]
                yield Segment(char * (b - a), style)
            yield Segment.line()

    def _labels(self) -> dict[tuple[int, int], int]:
        """(column, line) -> face id whose letter stands on the sticker centred there."""
        return {xy: self.colours[i] for i, xy in self.sticker_centres().items()
                if self.colours[i] >= 0 and 0 <= xy[0] < self.width and 0 <= xy[1] < self.height}

    def plain_text(self, pad: bool = False) -> str:
        """The picture as face letters, one per cell a sticker covers (for logs, tests and
        terminals without colour); '?' for a sticker not painted."""
        lines = []
        for row in self.grid():
            text = "".join(" " if i is None else
                           (FACES[self.colours[i]] if self.colours[i] >= 0 else "?") for i in row)
            lines.append(text if pad else text.rstrip())
        return "\n".join(lines)


@lru_cache(maxsize=128)
def _cached_raster(n: int, orientation: str, width: int, height: int, turn: Turn | None,
                   kind: str | None) -> np.ndarray:
    """The raster of a picture's geometry (a still cube per size and holding; the frames of
    each kind of turn, which come again with every such move)."""
    solved = [f // (n * n) for f in range(6 * n * n)]
    return IsoView(colours=solved, orientation=orientation, width=width, height=height,
                   turn=turn, projection=kind)._draw()


if __name__ == "__main__":
    import sys
    from .puzzles import PUZZLES
    alg = " ".join(sys.argv[1:]) or "R U R' U'"
    for puzzle in PUZZLES.values():
        for orientation in ("UFR", "DLB"):
            for height in (9, 20):
                Console().print(f"{puzzle.title}, {orientation}, {height} lines: {alg}",
                                IsoView(puzzle.from_alg(alg).state, orientation=orientation,
                                        width=2 * height + 4, height=height), sep="\n")
