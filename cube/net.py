"""The unfolded net of either cube as a Rich renderable: U on top, L F R B in a row, D below.

Stickers are twice as wide as they are tall in character cells, so they look square, and
`scale` makes them larger (2: four cells by two lines). In colour a grid runs between the
stickers, as on the cube itself: a blank column between neighbours, and between rows a line
under each sticker (scale 1) or a blank line (larger scales); without colour the letters stand
apart already. The colours are the scheme's (cube/colour_scheme.py: Western by default), in
exact xterm-256 colours, so truecolor and 256-colour terminals look alike; letters instead of
colour where colour cannot tell the faces apart (16 colours, NO_COLOR, output to a pipe), or
on request. The one layout draws the 3x3x3 from its 54 stickers and the
2x2x2 from its 24 (n = 3 or 2 stickers a side).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .colour_scheme import WESTERN, ColourScheme
from .pieces import FACES
from .puzzles import CUBE3, puzzle_of

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderResult
    from rich.measure import Measurement
# rich is imported where the net is rendered through it: `cubelab facts` writes it with
# `terminal_text` when its terminal lets it (tui/plain_terminal.py), ~15 ms sooner.

WIDTH = 35
HEIGHT = 9
"""Size of the 3x3x3 net in colour, in character cells (`net_size(2)` gives the 2x2x2's)."""


def _layout(n: int) -> dict[str, tuple[int, int]]:
    """Where each face's n x n block sits, in units of stickers (row, column)."""
    return {"U": (0, n), "L": (n, 0), "F": (n, n), "R": (n, 2 * n), "B": (n, 3 * n),
            "D": (2 * n, n)}


def net_size(n: int = 3, scale: int = 1, grid: bool = True) -> tuple[int, int]:
    """(width in cells, height in lines) of the net of a cube with n stickers a side, drawn
    at `scale` with the grid of colour (`grid`) or as plain letters."""
    if not grid:
        return 8 * n, 3 * n
    return (2 * scale + 1) * 4 * n - 1, 3 * n * scale + (3 * n - 1) * (scale > 1)


def side_of(stickers: int) -> int:
    """Stickers a side for a sticker count: 54 -> 3, 24 -> 2."""
    for n in (3, 2):
        if stickers == 6 * n * n:
            return n
    raise ValueError(f"no cube has {stickers} stickers")


def net_position(index: int, n: int = 3) -> tuple[int, int]:
    """(row, column) of a facelet on the net, in stickers."""
    r0, c0 = _layout(n)[FACES[index // (n * n)]]
    k = index % (n * n)
    return r0 + k // n, c0 + k % n


def step_cursor(index: int, drow: int, dcol: int, n: int = 3) -> int:
    """The facelet reached from `index` by one step on the net, skipping the empty corners of
    the cross. Left and right go round the band of L F R B (right of B comes L, as on the
    cube); up and down stop at the top of U and the bottom of D, as in a text editor's column."""
    at = {net_position(i, n): i for i in range(6 * n * n)}
    row, col = net_position(index, n)
    for _ in range(4 * n):
        row, col = row + drow, (col + dcol) % (4 * n)
        if not 0 <= row < 3 * n:
            return index
        if (row, col) in at:
            return at[(row, col)]
    return index


def is_centre(index: int, n: int = 3) -> bool:
    """Whether a facelet is a face's fixed centre (only an odd cube has one)."""
    return n % 2 == 1 and index % (n * n) == (n * n) // 2


class Net:
    """Renderable net of a state of either cube (a CubeState or a PocketState; the solved
    3x3x3 by default). `letters`: None = automatic, True = always, False = never; `labels`:
    'face' shows face letters (U R F D L B), 'colour' the colours' letters (W R G Y O B in the
    Western scheme); `scheme`: the colour scheme; `cursor`: a facelet index to highlight (paint
    mode); `colours`: face ids (-1 for a sticker not painted yet) instead of a state, 54 for a
    3x3x3 or 24 for a 2x2x2."""

    def __init__(self, state=None, *, colours=None, letters: bool | None = None,
                 labels: str = "face", cursor: int | None = None, scale: int = 1,
                 scheme: ColourScheme = WESTERN):
        if colours is None:
            state = CUBE3.identity() if state is None else state
            colours = puzzle_of(state).colours(state)
        self.colours = list(colours)
        self.letters = letters
        self.labels = labels
        self.scheme = scheme
        self.cursor = cursor
        self.n = side_of(len(self.colours))
        if scale < 1:
            raise ValueError(f"scale must be 1 or more, not {scale}")
        self.scale = scale

    def grid(self) -> list[list[int | None]]:
        """3n rows of 4n cells: the facelet index drawn there, or None for an empty cell."""
        n = self.n
        rows: list[list[int | None]] = [[None] * (4 * n) for _ in range(3 * n)]
        for fi, f in enumerate(FACES):
            r0, c0 = _layout(n)[f]
            for k in range(n * n):
                rows[r0 + k // n][c0 + k % n] = fi * n * n + k
        return rows

    def _letter(self, face: int) -> str:
        if face < 0:
            return "?"
        return self.scheme.letter(face) if self.labels == "colour" else FACES[face]

    def _use_letters(self, console: Console) -> bool:
        if self.letters is not None:
            return self.letters
        return console.no_color or console.color_system in (None, "standard")

    @staticmethod
    def _plain(console: Console) -> bool:
        return console.no_color or console.color_system is None

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        from rich.measure import Measurement
        plain = self._plain(console)
        width = net_size(self.n, 1 if plain else self.scale, grid=not plain)[0]
        return Measurement(width, width)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich.segment import Segment
        from rich.style import Style
        letters = self._use_letters(console)
        if self._plain(console):
            for row in self.grid():
                for idx in row:
                    yield Segment("  " if idx is None else
                                  self._cell_text(self.colours[idx], True, idx == self.cursor))
                yield Segment.line()
            return
        s = self.scale
        width = 2 * s
        gap = Segment(" ")
        rows = self.grid()
        for r, row in enumerate(rows):
            for line in range(s):
                for c, idx in enumerate(row):
                    if c:
                        yield gap
                    if idx is None:
                        yield Segment(" " * width)
                        continue
                    face = self.colours[idx]
                    cursor = idx == self.cursor
                    text = self._cell_text(face, letters, cursor) if line == 0 else ""
                    style = self.scheme.style(face, cursor=cursor, plain_fg=not letters)
                    if s == 1:
                        style += Style(underline=True)      # the line between sticker rows
                    yield Segment(text.ljust(width) if not cursor or line else
                                  text[0] + " " * (width - 2) + text[1], style)
                yield Segment.line()
            if s > 1 and r < len(rows) - 1:
                # the blank line between rows, full width like every other line
                yield Segment(" " * net_size(self.n, s)[0])
                yield Segment.line()

    def terminal_text(self, colour: bool) -> str:
        """The net as rich writes it (each line ending in a newline) where that needs no
        rich: `colour` False for a console without colour (NO_COLOR, a pipe: the letters,
        as `__rich_console__` draws them), True for a 256-colour or truecolor terminal showing
        the colours without letters (rich's choice on those at the automatic `letters`). Only
        for scale 1, no cursor and `letters` None (`cubelab facts`' net); ValueError else."""
        if self.scale != 1 or self.cursor is not None or self.letters is not None:
            raise ValueError("terminal_text draws the plain net of `cubelab facts` only")
        lines = []
        for row in self.grid():
            if not colour:
                lines.append("".join("  " if idx is None else
                                     self._cell_text(self.colours[idx], True, False)
                                     for idx in row))
                continue
            lines.append(" ".join(
                "  " if idx is None else
                f"\x1b[{self.scheme.sgr(self.colours[idx], plain_fg=True, underline=True)}m"
                f"  \x1b[0m" for idx in row))
        return "".join(line + "\n" for line in lines)

    def _cell_text(self, face: int, letters: bool, cursor: bool) -> str:
        if cursor:
            # the sticker keeps its colour under the cursor, so painting shows what is there
            return (self._letter(face) + "<") if letters else "<>"
        return (self._letter(face) + " ") if letters else "  "

    def plain_text(self) -> str:
        """The net as letters, one line per row (for logs and tests)."""
        lines = []
        for row in self.grid():
            lines.append("".join("  " if i is None else self._letter(self.colours[i]) + " "
                                 for i in row).rstrip())
        return "\n".join(lines)


if __name__ == "__main__":
    import sys
    from rich.console import Console
    from .puzzles import PUZZLES
    alg = " ".join(sys.argv[1:]) or "R U R' U'"
    for puzzle in PUZZLES.values():
        Console().print(f"{puzzle.title}: {alg}", Net(puzzle.from_alg(alg).state), sep="\n")
