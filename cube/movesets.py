"""Move sets as users type them: `RUF`, `R,U,F`, `<R,U>`, `R2,U`, `<U,D,R2,L2,F2,B2>`, `r,U,M`.

A move set lists move families (any the notation knows: face turns, wide turns `r`/`Rw`, slices
`M E S`, inner layers `2R`, rotations `x y z`), separated by commas or spaces, optionally inside
`< >`. A family written bare allows every power (`R` = R, R2, R'); written with a power it allows
that power only (`R2` = half turns of R; `R'` = only R'); a family listed twice allows the powers
of both (`R2, R'`). Written without separators, a set is read move by move (`RUF`, `RU2F`):
separate with commas where a layer number would be ambiguous (`R,2U`).

Named sets (`all`, `dr-ud`, `htr`... see goals.toml) are looked up by the goal catalog and
parsed by the same reader. Errors name the token and its column (1-based).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .alg import ColumnError, Move, NotationError
from .notation import parse_moves

_TOKEN = re.compile(
    r"(?:[0-9]+-)?[0-9]*[URFDLBurfdlbMESxyz][wv]?[0-9]*['’`]?")
_SEPARATORS = re.compile(r"[\s,]+")


class MoveSetError(ColumnError):
    """A move set that cannot be read; the message says which token and where (column)."""


@dataclass(frozen=True)
class MoveSet:
    """The moves a search may use, family by family in the order first written; each move once
    (a family's allowed powers in the order 1, 2, 3)."""

    moves: tuple[Move, ...]

    @property
    def families(self) -> tuple[str, ...]:
        seen: list[str] = []
        for m in self.moves:
            if m.family not in seen:
                seen.append(m.family)
        return tuple(seen)

    def powers(self, family: str) -> tuple[int, ...]:
        return tuple(m.amount for m in self.moves if m.family == family)

    @property
    def text(self) -> str:
        """Canonical text: `<R,U,F>`, with a restricted family written per power (`R2`)."""
        parts = []
        for f in self.families:
            powers = self.powers(f)
            if powers == (1, 2, 3):
                parts.append(f)
            else:
                parts.extend(str(Move(f, a)) for a in powers)
        return "<" + ",".join(parts) + ">"

    def __str__(self) -> str:
        return self.text

    def __contains__(self, move: Move) -> bool:
        return move in self.moves

    def has_rotations(self) -> bool:
        return any(m.kind == "rotation" for m in self.moves)

    def moves_centres(self) -> bool:
        """Whether some move turns the centres (wide, slice, inner layer or rotation)."""
        return any(m.kind != "face" for m in self.moves)


def parse_moveset(text: str, aliases: dict[str, str] | None = None) -> MoveSet:
    """Read a move set; `aliases` maps set names (lower case) to their text. MoveSetError
    naming the token and its column for anything else than moves and separators."""
    if text is None or not str(text).strip():
        raise MoveSetError("empty move set (e.g. \"<R,U,F>\" or RUF)", 1)
    raw = str(text)
    alias = (aliases or {}).get(raw.strip().lower())
    if alias is not None:
        try:
            return parse_moveset(alias)
        except MoveSetError as e:
            raise MoveSetError(f"move set {raw.strip()!r} ({alias}): {e}") from None
    body, offset = _unwrap(raw)
    powers: dict[str, set[int]] = {}
    pos = 0
    while pos < len(body):
        sep = _SEPARATORS.match(body, pos)
        if sep:
            pos = sep.end()
            continue
        m = _TOKEN.match(body, pos)
        column = offset + pos + 1
        if m is None or m.end() == pos:
            raise MoveSetError(f"unexpected {body[pos]!r} at column {column} (a move set lists "
                               "moves: \"<R,U,F>\", RUF, \"R2,U\")", column)
        token = m.group(0)
        move = _read(token, column)
        explicit = token.rstrip("'’`") != token or token[-1].isdigit()
        allowed = {move.amount} if explicit else {1, 2, 3}
        powers.setdefault(move.family, set()).update(allowed)
        pos = m.end()
    if not powers:
        raise MoveSetError("empty move set (e.g. \"<R,U,F>\" or RUF)", offset + 1)
    moves = tuple(Move.of(f, a) for f, ps in powers.items() for a in sorted(ps))
    return MoveSet(moves)


def _unwrap(raw: str) -> tuple[str, int]:
    """The text inside optional angle brackets, and the offset of its first character."""
    stripped = raw.strip()
    lead = len(raw) - len(raw.lstrip())
    if stripped.startswith("<"):
        if not stripped.endswith(">"):
            raise MoveSetError(f"unclosed '<' at column {lead + 1}", lead + 1)
        return stripped[1:-1], lead + 1
    if stripped.endswith(">"):
        col = lead + len(stripped)
        raise MoveSetError(f"unexpected '>' at column {col} (no '<' to close)", col)
    return stripped, lead


def _read(token: str, column: int) -> Move:
    try:
        moves = parse_moves(token)
    except NotationError as e:
        raise MoveSetError(f"{token!r} at column {column}: {_short(e)}", column) from None
    if len(moves) != 1:
        raise MoveSetError(f"{token!r} at column {column} turns nothing (a power of 4?)", column)
    return moves[0]


def _short(e: NotationError) -> str:
    """The notation's message without its own 'at column N' (it counts inside the token)."""
    return re.sub(r" at (line \d+, )?column \d+", "", str(e))


if __name__ == "__main__":
    import sys

    for arg in sys.argv[1:] or ["RUF", "<R,U>", "R2,U", "<U,D,R2,L2,F2,B2>", "r,U,M'"]:
        try:
            s = parse_moveset(arg)
            print(f"{arg!r:24} -> {s.text}  ({len(s.moves)} moves)")
        except MoveSetError as e:
            print(f"{arg!r:24} -> error: {e}")
