"""How commands take a position: ALG words, --facelets S, or --file PATH, on the --puzzle cube.

`PositionInput.from_args` reads them once into a typed value (the commands' functions take it,
not the argparse namespace); `cluster_address` reads --cluster once.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Iterator

from cubelab.cube.files import bounded_lines
from cubelab.cube.positions import Position, PositionError, from_cycles
from cubelab.cube.puzzles import DEFAULT_PUZZLE, PUZZLES, Puzzle, puzzle_named
from cubelab.tui.errors import InputError


def add_position_arguments(parser) -> None:
    parser.add_argument("alg", nargs="*", metavar="ALG",
                        help="a move sequence, e.g. \"R U R' U'\" or \"[R, U]3\"")
    parser.add_argument("--facelets", metavar="S",
                        help="a facelet string in URFDLB order (54 stickers, 24 on the 2x2x2)")
    parser.add_argument("--cycles", metavar="TEXT",
                        help="the position as Singmaster cycles, as the facts print them, e.g. "
                             "\"(UF UR UB) (UFR URB)+ (DF)+\" (3x3x3)")
    parser.add_argument("--unreachable", action="store_true",
                        help="with --cycles: load an assembly no turns reach instead of refusing")
    parser.add_argument("--file", metavar="PATH",
                        help="one position a line: an alg or 'facelets: <stickers>' "
                             "('-' for stdin)")
    parser.add_argument("--puzzle", choices=tuple(PUZZLES), default=DEFAULT_PUZZLE.name,
                        help="which cube (default %(default)s)")


@dataclass(frozen=True)
class PositionInput:
    """The position(s) a command was given, and on which cube."""

    puzzle: Puzzle
    alg: str | None = None
    facelets: str | None = None
    cycles: str | None = None
    unreachable: bool = False
    file: str | None = None

    @classmethod
    def from_args(cls, args) -> "PositionInput":
        return cls(puzzle_named(args.puzzle), " ".join(args.alg) if args.alg else None,
                   args.facelets, args.cycles, bool(args.unreachable), args.file)

    @property
    def grey(self) -> bool:
        """Whether --facelets has grey stickers (`*` or `?`: a partial position)."""
        from cubelab.cube.masked_facelets import is_masked
        return self.facelets is not None and is_masked(self.facelets)

    def single(self, grey: bool = False) -> Position:
        """The one position named by ALG words, --facelets or --cycles; InputError on bad
        input. With `grey`, --facelets may have grey stickers: the Position's state is then
        what they show (a MaskedPosition: a position and the goal of solving what is
        shown)."""
        given = [what for what, there in (("an alg", self.alg), ("--facelets", self.facelets),
                                          ("--cycles", self.cycles)) if there or there == ""]
        if len(given) > 1:
            raise InputError(f"give one position: {' or '.join(given)}, not both")
        puzzle = self.puzzle
        try:
            if self.cycles is not None:
                if not puzzle.cycle_notation:
                    cube = next(p for p in PUZZLES.values() if p.cycle_notation)
                    raise InputError(f"--cycles describes a {cube.title} position (drop "
                                     f"--puzzle)")
                return from_cycles(self.cycles, self.unreachable)
            if self.facelets is not None and grey and self.grey:
                return _masked(puzzle, self.facelets)
            if self.facelets is not None:
                return puzzle.from_facelets(self.facelets)
            return puzzle.from_alg(self.alg or "")
        except PositionError as e:
            raise InputError(str(e)) from None

    def lines(self, grey: bool | str = False
              ) -> Iterator[tuple[int, str, Position | PositionError]]:
        """(line number, text, the position or why there is none) for each line of --file;
        `grey`: 'facelets:' lines with grey stickers are read as what they show (True), or
        refused with that message (a str: the solver takes whole positions only)."""
        return positions_from_file(self.file, self.puzzle, self.unreachable, grey)


def _masked(puzzle: Puzzle, text: str) -> Position:
    """Facelets with grey stickers, read as what they show (InputError saying what no
    position can show)."""
    try:
        return read_grey(puzzle, text)
    except PositionError as e:
        raise InputError(f"--facelets: {e}") from None


def read_grey(puzzle: Puzzle, text: str) -> Position:
    """Facelets with grey stickers as a Position holding a MaskedPosition; PositionError
    saying what no position can show."""
    from cubelab.cube.facelets import FaceletError
    from cubelab.cube.masked_facelets import read_masked
    if not puzzle.cycle_notation:       # the 3x3x3's reader (the 2x2x2 has none)
        raise PositionError(f"grey stickers are read on the 3x3x3, not the {puzzle.title}")
    try:
        return Position(read_masked(text.strip()))
    except FaceletError as e:
        raise PositionError(str(e)) from None


_FACELETS = "facelets:"


def _grey_line(text: str) -> str | None:
    """The stickers of a 'facelets:' line with grey ones, else None."""
    from cubelab.cube.masked_facelets import is_masked
    if text[:len(_FACELETS)].lower() != _FACELETS:
        return None
    stickers = text[len(_FACELETS):].strip()
    return stickers if is_masked(stickers) else None


def cluster_address(text: str):
    """The --cluster ADDRESS, checked (and Dask present), or InputError saying what is wrong."""
    from cubelab.tables.cluster import ClusterError, parse_address, require_dask
    try:
        address = parse_address(text)
        require_dask()
    except ClusterError as e:
        raise InputError(str(e)) from None
    return address


MAX_LINE_BYTES = 1 << 16
"""The longest line of a --file read (an alg is at most 40,000 characters)."""


_SNIFF_BYTES = 8192
"""How much of a file is looked at for a NUL byte before any line is answered."""


class LineProblem(PositionError):
    """A line of a --file that is not text the program can read (not UTF-8, too long)."""


def _open_lines(path: str):
    """A binary handle on the file ('-' = stdin) and whether to close it."""
    if path == "-":
        stdin = getattr(sys.stdin, "buffer", None)
        if stdin is not None:
            return stdin, False
        # a text stream stood in for stdin (tests): its lines as UTF-8 bytes
        return iter([line.encode("utf-8", "surrogateescape") for line in sys.stdin]), False
    try:
        # a FIFO waits for its writer here as any filter's input does (Ctrl-C ends the wait);
        # what is read from it is bounded line by line (files.bounded_lines)
        return open(path, "rb"), True
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}") from None


def file_lines(path: str) -> Iterator[tuple[int, str | LineProblem]]:
    """(line number, text) for each non-blank, non-comment line of a file ('-' = stdin); the
    text is a LineProblem for a line that is not UTF-8 or longer than MAX_LINE_BYTES. A file
    with a NUL byte is not text at all (/dev/zero, /dev/urandom, a binary): InputError."""
    handle, close = _open_lines(path)
    lines = bounded_lines(handle, MAX_LINE_BYTES) if hasattr(handle, "readline") else iter(handle)
    try:
        # a binary file is refused before any of it is answered (its first block shows a NUL)
        if b"\0" in (handle.peek(_SNIFF_BYTES)[:_SNIFF_BYTES] if hasattr(handle, "peek")
                      else b""):
            raise InputError(f"{path}: a NUL byte at the start: not a text file")
        number = 0
        for raw in lines:
            number += 1
            if b"\0" in raw:
                raise InputError(f"{path}: line {number} holds a NUL byte: not a text file")
            if len(raw) > MAX_LINE_BYTES:
                yield number, LineProblem(f"line longer than {MAX_LINE_BYTES:,} bytes")
                continue
            try:
                text = raw.decode("utf-8").strip()
            except UnicodeDecodeError as e:
                yield number, LineProblem(f"not UTF-8 text (byte {e.start + 1})")
                continue
            # blank lines, '#' lines and lines with only a '// comment' are skipped alike
            if text.split("//", 1)[0].strip() and not text.startswith("#"):
                yield number, text
    finally:
        if close:
            handle.close()


def positions_from_file(path: str, puzzle: Puzzle, unreachable: bool = False,
                        grey: bool | str = False
                        ) -> Iterator[tuple[int, str, Position | PositionError]]:
    """(line number, text, the position or why there is none) for each line of a --file;
    `unreachable` lets cycles lines name assemblies the moves cannot reach (--unreachable);
    `grey` reads 'facelets:' lines with grey stickers (PositionInput.lines)."""
    for number, text in file_lines(path):
        if isinstance(text, LineProblem):
            yield number, "", text
            continue
        stickers = _grey_line(text) if grey else None
        if stickers is not None:
            try:
                if isinstance(grey, str):
                    raise PositionError(grey)
                yield number, text, read_grey(puzzle, stickers)
            except PositionError as e:
                yield number, text, e
            continue
        try:
            yield number, text, puzzle.position(text, unreachable)
        except PositionError as e:
            yield number, text, e
