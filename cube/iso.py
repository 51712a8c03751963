"""The cube in three dimensions as a Rich renderable: three faces in an oblique projection.

The front view shows U, F and R as seen from above the front-right corner; the back view the
other three, D, L and B, as seen from below the back-left corner (the same picture after the
whole-cube rotation that carries the DBL corner to UFR). Same colours as the net (cube/net.py),
letters where colour cannot tell faces apart or on request; either cube (54 or 24 stickers).
`scale` 1 fits the net's 24 x 9 cells; larger scales fill a large terminal (`fit_scale`).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.segment import Segment

from .geometry import layer_turn
from .net import sticker_style
from .pieces import FACES
from .puzzles import CUBE3, puzzle_of

SHEAR = 2
"""Cells a receding edge moves right per line up (terminal cells are about twice as tall as
wide, so this draws depth at roughly 45 degrees)."""
VIEWS = ("front", "back")
VIEW_FACES = {"front": "UFR", "back": "DLB"}
"""The faces drawn on top, in front and on the right."""


def size(scale: int = 1) -> tuple[int, int]:
    """(width in cells, height in lines) of the picture at a scale."""
    w, h, d = 4 * scale, 2 * scale, scale
    return 3 * w + 3 * d * SHEAR, 3 * h + 3 * d


def fit_scale(width: int, height: int) -> int:
    """The largest scale (at least 1) whose picture fits in width x height cells."""
    k = 1
    while size(k + 1)[0] <= width and size(k + 1)[1] <= height:
        k += 1
    return k


@lru_cache(maxsize=1)
def _back_positions() -> np.ndarray:
    """For the back view: shown[p] = the sticker (3x3x3 facelet index) seen at position p after
    the whole-cube rotation taking D, L, B to the places of U, F, R."""
    gens = [layer_turn(f, (1, 0, -1)) for f in "RUF"]
    maps = {tuple(range(54)): np.arange(54)}
    frontier = [np.arange(54)]
    while frontier:
        nxt = []
        for t in frontier:
            for g in gens:
                c = g[t]          # sticker i goes to t[i], then on to g[t[i]]
                if tuple(c) not in maps:
                    maps[tuple(c)] = c
                    nxt.append(c)
        frontier = nxt
    centre = {f: FACES.index(f) * 9 + 4 for f in FACES}
    for t in maps.values():
        if t[centre["D"]] == centre["U"] and t[centre["L"]] == centre["F"] \
                and t[centre["B"]] == centre["R"]:
            shown = np.empty(54, np.int64)
            shown[t] = np.arange(54)
            return shown
    raise AssertionError("no rotation carries D, L, B to U, F, R")


def _facelet(face: str, row: int, col: int, n: int, view: str) -> int:
    """The facelet index of the sticker drawn at (row, col) of the face in position `face`."""
    i = FACES.index(face) * 9 + (row * 3 + col if n == 3 else 6 * row + 2 * col)
    if view == "back":
        i = int(_back_positions()[i])
    if n == 3:
        return i
    f, k = divmod(i, 9)
    return f * 4 + (k // 3 // 2) * 2 + (k % 3) // 2


class IsoView:
    """Renderable 3-D view of a state of either cube (or of painted colours, as Net takes)."""

    def __init__(self, state=None, *, colours=None, view: str = "front",
                 letters: bool | None = None, scale: int = 1):
        if view not in VIEWS:
            raise ValueError(f"unknown view {view!r} (choose {' or '.join(VIEWS)})")
        if colours is None:
            state = CUBE3.identity() if state is None else state
            colours = puzzle_of(state).colours(state)
        self.colours = list(colours)
        self.n = 3 if len(self.colours) == 54 else 2
        self.view = view
        self.letters = letters
        self.scale = max(1, int(scale))

    def grid(self) -> list[list[int | None]]:
        """Each cell's facelet index (None outside the cube), line by line."""
        n, k = self.n, self.scale
        w, h, d = 4 * k, 2 * k, k
        width, height = size(k)
        top, front, right = "UFR"     # positions: the back view maps other stickers there
        rows: list[list[int | None]] = []
        for r in range(height):
            line: list[int | None] = []
            for c in range(width):
                x, y = c + 0.5, r + 0.5
                cell = None
                if y >= 3 * d and x < 3 * w:                  # the front face
                    u, v = x / w, (y - 3 * d) / h
                    cell = (front, int(v * n / 3), int(u * n / 3))
                else:
                    z = (3 * d - y) / d                        # depth, top face
                    u = (x - z * d * SHEAR) / w
                    if 0 < z <= 3 and 0 <= u < 3:
                        cell = (top, min(n - 1, int((3 - z) * n / 3)), int(u * n / 3))
                    else:
                        z = (x - 3 * w) / (d * SHEAR)          # depth, right face
                        v = (y - 3 * d + z * d) / h
                        if 0 <= z < 3 and 0 <= v < 3:
                            cell = (right, int(v * n / 3), int(z * n / 3))
                line.append(None if cell is None else _facelet(*cell, n, self.view))
            rows.append(line)
        return rows

    def _use_letters(self, console: Console) -> bool:
        if self.letters is not None:
            return self.letters
        return console.no_color or console.color_system in (None, "standard")

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        width = size(self.scale)[0]
        return Measurement(width, width)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        letters = self._use_letters(console)
        plain = console.no_color or console.color_system is None
        for line in self.grid():
            for idx in line:
                if idx is None:
                    yield Segment(" ")
                    continue
                face = self.colours[idx]
                text = FACES[face] if letters and face >= 0 else ("?" if letters else " ")
                yield Segment(text) if plain else Segment(text, sticker_style(face))
            yield Segment.line()

    def plain_text(self) -> str:
        """The picture as face letters (for logs and tests)."""
        return "\n".join("".join(" " if i is None else FACES[self.colours[i]] for i in line)
                         .rstrip() for line in self.grid())



if __name__ == "__main__":
    import sys
    from .puzzles import PUZZLES
    alg = " ".join(sys.argv[1:]) or "R U R' U'"
    for puzzle in PUZZLES.values():
        for view in VIEWS:
            Console().print(f"{puzzle.title}, {view}: {alg}",
                            IsoView(puzzle.from_alg(alg).state, view=view, scale=2), sep="\n")
