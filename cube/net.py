"""The unfolded net as a Rich renderable: U on top, L F R B in a row, D below.

Two character cells per sticker so stickers look square. Exact xterm-256 colours, so truecolor
and 256-colour terminals look alike; letters instead of colour where colour cannot tell the
faces apart (16 colours, NO_COLOR, output to a pipe), or on request.
"""

from __future__ import annotations

from rich.color import Color
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style

from .facelets import state_colours
from .pieces import COLOUR_OF_FACE, FACES
from .state import CubeState

XTERM_256 = {"U": 231, "R": 196, "F": 40, "D": 226, "L": 208, "B": 21}
"""xterm-256 colour of each face's colour: white, red, green, yellow, orange, blue."""

# Where each face's 3x3 block sits, in units of stickers (row, column).
_LAYOUT = {"U": (0, 3), "L": (3, 0), "F": (3, 3), "R": (3, 6), "B": (3, 9), "D": (6, 3)}
WIDTH = 24
HEIGHT = 9
_UNPAINTED_BG = 240


def sticker_style(face: int, cursor: bool = False) -> Style:
    """The style of one sticker: its exact xterm-256 colour as background, a readable letter
    colour on top (dark on the light colours), bold when under the cursor."""
    if face < 0:
        return Style(color=Color.from_ansi(231), bgcolor=Color.from_ansi(_UNPAINTED_BG),
                     bold=cursor)
    letter = FACES[face]
    fg = 16 if letter in "UDFR" else 231
    return Style(color=Color.from_ansi(fg), bgcolor=Color.from_ansi(XTERM_256[letter]),
                 bold=cursor)


def net_position(index: int) -> tuple[int, int]:
    """(row, column) of a facelet on the net, in stickers."""
    r0, c0 = _LAYOUT[FACES[index // 9]]
    k = index % 9
    return r0 + k // 3, c0 + k % 3


_AT = {net_position(i): i for i in range(54)}


def step_cursor(index: int, drow: int, dcol: int) -> int:
    """The facelet reached from `index` by one step on the net, skipping the empty corners of
    the cross and wrapping around (right of B comes L, below D comes U)."""
    row, col = net_position(index)
    for _ in range(12):
        row, col = (row + drow) % HEIGHT, (col + dcol) % (WIDTH // 2)
        if (row, col) in _AT:
            return _AT[(row, col)]
    return index


class Net:
    """Renderable net of a state. `letters`: None = automatic, True = always, False = never;
    `scheme`: 'face' shows face letters (U R F D L B), 'colour' colour letters (W R G Y O B);
    `cursor`: a facelet index to highlight (paint mode); `colours`: 54 face ids (-1 for a
    sticker not painted yet) instead of a state."""

    def __init__(self, state: CubeState | None = None, *, colours=None, letters: bool | None = None,
                 scheme: str = "face", cursor: int | None = None):
        self.colours = list(colours) if colours is not None else list(
            state_colours(state if state is not None else CubeState.identity()))
        self.letters = letters
        self.scheme = scheme
        self.cursor = cursor

    def grid(self) -> list[list[int | None]]:
        """9 rows of 12 cells: the facelet index (0..53) drawn there, or None for an empty cell."""
        rows: list[list[int | None]] = [[None] * 12 for _ in range(HEIGHT)]
        for fi, f in enumerate(FACES):
            r0, c0 = _LAYOUT[f]
            for k in range(9):
                rows[r0 + k // 3][c0 + k % 3] = fi * 9 + k
        return rows

    def _letter(self, face: int) -> str:
        if face < 0:
            return "?"
        f = FACES[face]
        return COLOUR_OF_FACE[f] if self.scheme == "colour" else f

    def _use_letters(self, console: Console) -> bool:
        if self.letters is not None:
            return self.letters
        return console.no_color or console.color_system in (None, "standard")

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(WIDTH, WIDTH)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        letters = self._use_letters(console)
        plain = console.no_color or console.color_system is None
        for row in self.grid():
            for idx in row:
                if idx is None:
                    yield Segment("  ")
                    continue
                face = self.colours[idx]
                text = self._cell_text(face, letters, idx == self.cursor)
                if plain:
                    yield Segment(text)
                    continue
                yield Segment(text, sticker_style(face, cursor=idx == self.cursor))
            yield Segment.line()

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
    from .moves import alg_state
    Console().print(Net(alg_state(" ".join(sys.argv[1:]) or "R U R' U'")))
