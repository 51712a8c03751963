"""Reading a position as users type it: an alg, or 'facelets:' followed by 54 stickers."""

from __future__ import annotations

from dataclasses import dataclass

from .facelets import FaceletError, parse_facelets, parse_singmaster
from .moves import apply_moves
from .alg import Move, NotationError
from .notation import parse
from .state import CubeState


class PositionError(ValueError):
    """Input that names no position; the message points at the problem."""


@dataclass(frozen=True)
class Position:
    state: CubeState
    moves: tuple[Move, ...] | None = None   # set when the position came from an alg
    alg: str | None = None                  # the alg in canonical form


def from_alg(text: str) -> Position:
    try:
        tree = parse(text)
        moves = tree.flatten()
    except NotationError as e:
        raise PositionError(str(e)) from None
    return Position(apply_moves(CubeState.identity(), moves), tuple(moves), str(tree))


def from_facelets(text: str) -> Position:
    try:
        return Position(parse_facelets(text))
    except FaceletError as e:
        raise PositionError(str(e)) from None


def from_singmaster(text: str) -> Position:
    try:
        return Position(parse_singmaster(text))
    except FaceletError as e:
        raise PositionError(str(e)) from None


def parse_position(line: str) -> Position:
    """One line of a --file: 'facelets: <54 chars>', 'singmaster: <20 pieces>', or an alg."""
    stripped = line.strip()
    low = stripped.lower()
    if low.startswith("facelets:"):
        return from_facelets(stripped[len("facelets:"):])
    if low.startswith("singmaster:"):
        return from_singmaster(stripped[len("singmaster:"):])
    return from_alg(stripped)
