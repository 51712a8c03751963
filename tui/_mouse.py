"""The mouse on the cube: which sticker a click hits, and the paint palette it picks colours from.

A click on the net (or on the 3-D view) names a facelet: outside paint mode the app turns its
face (shift: counter-clockwise); in paint mode it paints the sticker with the palette's colour.
The palette is drawn beside the 3x3x3's net (a column of seven swatches in the two spare
columns: the six colours, then grey, an unknown sticker) and under the 2x2x2's (a row in its
spare line), so the layout does not move. The keyboard does
everything the mouse does.
"""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from rich.style import Style

from cubelab.cube.iso import IsoView
from cubelab.cube.net import Net, net_size
from cubelab.cube.pieces import FACES

from .keymap import GREY

PALETTE = (0, 1, 2, 3, 4, 5, GREY)
"""What the palette's swatches paint, in order: the six faces' colours, then grey."""


def palette_slots(n: int, scale: int = 1) -> dict[tuple[int, int], int]:
    """(column, line) of the content -> the value that palette cell picks (a face id, or GREY)."""
    width, height = net_size(n, scale)
    if n == 3:
        return {(width + dx, at): value for at, value in enumerate(PALETTE) for dx in (0, 1)}
    return {(2 * at + dx, height): value for at, value in enumerate(PALETTE) for dx in (0, 1)}


def sticker_at(view, x: int, y: int) -> int | None:
    """The facelet index drawn at content cell (x, y) of a Net or an IsoView (None: none)."""
    if x < 0 or y < 0:
        return None
    if isinstance(view, IsoView):
        grid, x_cells, y_cells = view.grid(), x, y
    else:
        # the net draws a sticker in 2*scale cells and scale lines; in colour a grid column
        # follows each sticker (and a grid line each row of stickers, above scale 1)
        s = view.scale
        across, down = 2 * s + 1, s + (s > 1)
        if x % across == 2 * s or (s > 1 and y % down == s):
            return None                         # on the grid between stickers
        grid, x_cells, y_cells = view.grid(), x // across, y // down
    if y_cells >= len(grid) or x_cells >= len(grid[y_cells]):
        return None
    return grid[y_cells][x_cells]


class PaintBoard:
    """The net being painted with the palette beside (3x3x3) or under (2x2x2) it, in the net's
    colour scheme; the palette's current colour is marked."""

    def __init__(self, net: Net, colour: int, letters: bool):
        self.net = net
        self.colour = colour
        self.letters = letters

    def _swatch(self, face: int, dx: int, plain: bool) -> Segment:
        mark = face == self.colour
        if dx == 0:
            text = ("*" if face == GREY else FACES[face]) if self.letters else " "
        else:
            text = "<" if mark else " "
        if plain:
            return Segment(text)
        return Segment(text, self.net.scheme.style(face, cursor=mark) + Style(underline=mark))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        n = self.net.n
        plain = console.no_color or console.color_system is None
        width, height = net_size(n, self.net.scale)
        lines = console.render_lines(self.net, options.update(width=width), pad=True)
        for y, line in enumerate(lines[:height]):
            yield from line
            if n == 3 and y < len(PALETTE):
                yield Segment(">" if PALETTE[y] == self.colour else " ")
                yield self._swatch(PALETTE[y], 0, plain)
            yield Segment.line()
        if n == 2:
            for value in PALETTE:
                yield self._swatch(value, 0, plain)
                yield self._swatch(value, 1, plain)
            yield Segment.line()
