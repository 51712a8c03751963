"""Reading a position as users type it: an alg, or a sticker format's prefix and its stickers.

The readers take the puzzle's parts (how moves apply, from which start, which sticker formats),
so the 3x3x3 and the 2x2x2 read positions the same way; the defaults are the 3x3x3's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .alg import Move, NotationError
from .cycle_notation import CycleError, parse_cycles
from .facelets import FaceletError, parse_facelets, parse_singmaster
from .facts import unreachable_reason
from .moves import apply_moves
from .patterns import pattern_named
from .notation import parse
from .state import CubeState


class PositionError(ValueError):
    """Input that names no position; the message points at the problem."""


@dataclass(frozen=True)
class Position:
    state: object                           # a CubeState, or a PocketState on the 2x2x2
    moves: tuple[Move, ...] | None = None   # set when the position came from an alg
    alg: str | None = None                  # the alg in canonical form


def read_cycles(text: str, unreachable: bool = False):
    """The position Singmaster cycles describe (cycle_notation.py); an unreachable assembly is
    refused with the invariants it breaks unless `unreachable` asks for it (CycleError)."""
    state = parse_cycles(text)
    reason = None if unreachable else unreachable_reason(state)
    if reason:
        raise CycleError(f"{reason}: no turns reach these cycles (add --unreachable to load "
                         "the assembly anyway)")
    return state


def read_pattern(name: str):
    """The position of a pattern of the gallery (patterns.py); for an unknown name a
    FaceletError (like every format's reader) listing the names there are."""
    try:
        return pattern_named(name).state()
    except KeyError as e:
        raise FaceletError(e.args[0]) from None


CUBE_FORMATS = {"facelets:": parse_facelets, "singmaster:": parse_singmaster,
                "cycles:": read_cycles, "pattern:": read_pattern}
"""The 3x3x3's position formats other than algs, by the prefix a line starts with."""

UNREACHABLE_CUBE_FORMATS = {**CUBE_FORMATS,
                            "cycles:": lambda text: read_cycles(text, unreachable=True)}
"""The same, loading the assemblies no turns reach (--unreachable) instead of refusing them."""


def from_alg(text: str, apply: Callable = apply_moves, start=None) -> Position:
    """The position an alg reaches from `start` (solved by default) under `apply`."""
    try:
        tree = parse(text)
        moves = tree.flatten()
    except NotationError as e:
        raise PositionError(str(e)) from None
    state = apply(CubeState.identity() if start is None else start, moves)
    return Position(state, tuple(moves), str(tree))


def from_facelets(text: str, read: Callable = parse_facelets) -> Position:
    """The position some stickers show, read by `read` (54 facelets by default)."""
    try:
        return Position(read(text))
    except FaceletError as e:
        raise PositionError(str(e)) from None


def from_singmaster(text: str) -> Position:
    return from_facelets(text, parse_singmaster)


def from_cycles(text: str, unreachable: bool = False) -> Position:
    """The position cycle notation describes, refusing unreachable ones unless asked."""
    return from_facelets(text, lambda t: read_cycles(t, unreachable))


def parse_position(line: str, apply: Callable = apply_moves, start=None,
                   formats: dict[str, Callable] = CUBE_FORMATS) -> Position:
    """One line of a --file: a format's prefix ('facelets:', 'singmaster:', 'cycles:',
    'pattern:') and its text, or an alg."""
    stripped = line.strip()
    low = stripped.lower()
    for prefix, read in formats.items():
        if low.startswith(prefix):
            # blanks in place of what comes before: a column a reader names is the line's own
            indent = len(line) - len(line.lstrip()) + len(prefix)
            return from_facelets(" " * indent + stripped[len(prefix):], read)
    return from_alg(stripped, apply, start)
