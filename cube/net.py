"""The unfolded net as a Rich renderable: U on top, L F R B in a row, D below.

Two character cells per sticker so stickers look square. Exact xterm-256 colours, so truecolor
and 256-colour terminals look alike; letters instead of colour where colour cannot tell the
faces apart (16 colours, NO_COLOR, output to a pipe), or on request.
"""

from __future__ import annotations

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


class Net:
    """Renderable net of a state. `letters`: None = automatic, True = always, False = never;
    `scheme`: 'face' shows face letters (U R F D L B), 'colour' colour letters (W R G Y O B);
    `cursor`: a facelet index to highlight (paint mode)."""

    def __init__(self, state: CubeState | None = None, *, colours=None, letters: bool | None = None,
                 scheme: str = "face", cursor: int | None = None):
        self.colours = list(colours) if colours is not None else list(
            state_colours(state if state is not None else CubeState.identity()))
        self.letters = letters
        self.scheme = scheme
        self.cursor = cursor

    def grid(self) -> list[list[int | None]]:
        """9 rows of 12 stickers: the face id shown there (-1 for an unpainted one), or None."""
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
                text = (self._letter(face) + " ") if letters else "  "
                if idx == self.cursor:
                    text = "[]" if not letters else self._letter(face) + "<"
                if plain:
                    yield Segment(text)
                    continue
                bg = XTERM_256[FACES[face]] if face >= 0 else 240
                fg = 16 if face >= 0 and FACES[face] in "UDFR" else 231
                style = Style.parse(f"color({fg}) on color({bg})")
                if idx == self.cursor:
                    style += Style(bold=True, reverse=True)
                yield Segment(text, style)
            yield Segment.line()

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
