"""Move notation as text and move lists: parse algs; print, invert, mirror, simplify, measure.

Algs are SiGN as cubing.js reads it (commutators, conjugates, repetition): a tokenizer turns
the text into a token list, then a recursive-descent parser builds an `alg.py` tree. Errors
say where (line and column), and absurd input (too long, too deep, too many moves) is refused
before any work grows with it. Pure syntax: no cube state.
"""

from __future__ import annotations

import re

from typing import Iterable

from .alg import (
    MAX_EXPANDED_MOVES, Alg, Commutator, Conjugate, Group, Move, Node, NotationError,
)
from .pieces import FACES

__all__ = [
    "MAX_COUNT", "MAX_DEPTH", "MAX_INPUT_CHARS", "format_moves", "invert_moves",
    "metric_lengths", "mirror_moves", "parse", "parse_moves", "simplify",
]

MAX_INPUT_CHARS = 10_000
MAX_COUNT = 1_000_000
MAX_DEPTH = 200


# --------------------------------------------------------------------------- tokenizer

# One match per token; the leading part swallows whitespace and "//" comments so the
# parser never sees them. Digits are spelled [0-9] because \d also accepts other scripts'
# digits, which int() would then happily convert. A move may start with layer numbers
# ("2R", "3Rw", "2-3Rw"); "." is a pause (nothing happens) and "^(...)" a NISS group.
_TOKEN = re.compile(
    r"""
    (?:\s|//[^\n]*)*
    (?:
        (?P<move>(?P<outer>[0-9]+-)?(?P<width>[0-9]+)?(?P<letter>[URFDLBurfdlbMESxyz])
                 (?P<suffix>[wv]?)(?P<digits>[0-9]*)(?P<prime>['’`]?))
      | (?P<close>[)\]](?P<cdigits>[0-9]*)(?P<cprime>['’`]?))
      | (?P<punct>[(\[,:^])
      | (?P<pause>\.)
      | (?P<end>\Z)
      | (?P<bad>.)
    )
    """,
    re.VERBOSE | re.DOTALL,
)

# Token tuples: (kind, position, value, inverted). kind is "m" for a move (value: Move, or
# None when the amount cancels to nothing or for a pause), one of "()[],:^" (closers carry
# count and prime), "$" for the end, and "!" for a lexical error (value: the NotationError),
# which the parser raises only when it gets there so errors are reported in reading order.
_Token = tuple[str, int, object, bool]

N_LAYERS = 3
"""Layers of the 3x3x3 along each axis: layer numbers run from 1 (the face) to 3."""


def _location(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    column = pos - text.rfind("\n", 0, pos)
    return line, column


def _where(text: str, pos: int) -> str:
    line, column = _location(text, pos)
    return f"line {line}, column {column}" if "\n" in text else f"column {column}"


def _error(text: str, pos: int, head: str, tail: str = "") -> NotationError:
    line, column = _location(text, pos)
    return NotationError(f"{head} at {_where(text, pos)}{tail}", column, line)


def _read_count(text: str, pos: int, digits: str) -> int:
    if not digits:
        return 1
    if len(digits) > 1 and digits[0] == "0":
        # cubing.js reads "R0" as no turn but refuses "R01" and "R00": so do we
        raise _error(text, pos, f"count {digits[:12]!r} starts with 0", " (only 0 itself may)")
    # Checking the length first keeps int() away from huge digit strings, which it refuses.
    if len(digits) > len(str(MAX_COUNT)) or int(digits) > MAX_COUNT:
        shown = digits if len(digits) <= 12 else digits[:12] + "..."
        raise _error(text, pos, f"count {shown} too large", f" (at most {MAX_COUNT})")
    return int(digits)


def _read_layer(text: str, pos: int, digits: str) -> int:
    """A layer number before a move: 1 (the face) to 3 (the far side)."""
    if digits[0] == "0":
        head = "layer 0 does not exist" if set(digits) == {"0"} else \
            f"layer number {digits!r} starts with 0"
        raise _error(text, pos, head, " (layers count from 1, the face itself)")
    if len(digits) > 2 or int(digits) > N_LAYERS:
        raise _error(text, pos, f"layer {digits[:12]} does not exist",
                     f" (the 3x3x3 has {N_LAYERS} layers a side)")
    return int(digits)


def _face_family(face: str, wide_name: str | None, first: int, last: int) -> str:
    """The family turning layers first..last counted from `face`, as SiGN names it;
    `wide_name` is how the move was written when wide ('Rw' or 'r')."""
    if first == last:
        return face if first == 1 else f"{first}{face}"
    name = wide_name or face + "w"
    if first == 1:
        return name if last == 2 else f"{last}{name}"
    return f"{first}-{last}{name}"


def _read_move(text: str, m: re.Match[str]) -> Move | None:
    outer, width, letter, suffix, digits, prime = m.group(
        "outer", "width", "letter", "suffix", "digits", "prime")
    start = m.start("move")
    written = text[start:m.end("suffix")]
    if letter not in "URFDLBurfdlb":
        if outer or width or suffix:
            hint = " (layer numbers go before a face letter: '2R', '2-3Rw')" \
                if (outer or width) and not suffix else ""
            raise _error(text, start, f"unknown move {written!r}", hint)
        family = letter
    else:
        face, lower = letter.upper(), letter.islower()
        if suffix == "v":
            if lower or outer or width:
                raise _error(text, start, f"unknown move {written!r}",
                             " (a rotation 'v' goes after a capital face letter: 'Rv')")
            family = face + "v"
        elif lower and suffix == "w":
            raise _error(text, start, f"unknown move {written!r}",
                         f" (a wide turn is '{face}w' or '{letter}', not both)")
        else:
            wide = lower or suffix == "w"
            last = _read_layer(text, m.start("width"), width) if width else None
            if outer and last is None:
                raise _error(text, start, f"unknown move {written!r}",
                             " (a layer range needs both ends, as in '2-3Rw')")
            if outer and not wide:
                raise _error(text, start, f"unknown move {written!r}",
                             f" (a layer range turns a wide move: '{outer}{width}{face}w')")
            first = _read_layer(text, start, outer[:-1]) if outer else 1
            if not wide:
                first = last = last or 1        # '2R': that one layer alone
            else:
                last = last or 2
            if first > last:
                raise _error(text, start, f"layer range {first}-{last} runs backwards",
                             f" (write '{last}-{first}{letter}{suffix}')")
            family = _face_family(face, (face + "w") if suffix == "w" else letter if lower
                                  else None, first, last)
    amount = _read_count(text, m.start("digits"), digits) % 4
    if prime:
        amount = -amount % 4
    return Move.of(family, amount) if amount else None


def _tokenize(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    append = tokens.append
    match = _TOKEN.match
    pos = 0
    try:
        while True:
            m = match(text, pos)
            kind = m.lastgroup
            if kind == "move":
                append(("m", m.start("move"), _read_move(text, m), False))
            elif kind == "close":
                start = m.start("close")
                count = _read_count(text, m.start("cdigits"), m.group("cdigits"))
                append((text[start], start, count, bool(m.group("cprime"))))
            elif kind == "punct":
                start = m.start("punct")
                append((text[start], start, None, False))
            elif kind == "pause":
                append(("m", m.start("pause"), None, False))
            elif kind == "end":
                append(("$", len(text), None, False))
                return tokens
            else:
                start = m.start("bad")
                char = text[start]
                if char.isalpha():
                    error = _error(text, start, f"unknown move {char!r}")
                elif char in "0123456789":
                    hint = (" (a count goes right after a move or a closing bracket; layer "
                            "numbers go right before a face letter)")
                    error = _error(text, start, f"unexpected {char!r}", hint)
                else:
                    error = _error(text, start, f"unexpected {char!r}")
                raise error
            pos = m.end()
    except NotationError as error:
        append(("!", pos, error, False))
        return tokens


# --------------------------------------------------------------------------- parser


class _Parser:
    """Recursive descent over the token list.

    sequence := item*
    item     := move | "(" sequence ")" | "[" sequence ("," | ":") sequence "]"
              | "^(" sequence ")"

    A NISS group "^(A)" holds moves done on the inverse of the scramble: as cubing.js reads
    it, the group leaves its place and A' goes at the very end, later groups before earlier
    ones (so "N ^(A) ^(B)" is N B' A').
    """

    __slots__ = ("text", "tokens", "i", "niss")

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _tokenize(text)
        self.i = 0
        self.niss: list[Group] = []

    def error(self, pos: int, head: str, tail: str = "") -> NotationError:
        return _error(self.text, pos, head, tail)

    def parse(self) -> Alg:
        alg = self.sequence(0)
        token = self.tokens[self.i]
        if token[0] != "$":
            raise self.stray(token)
        if self.niss:
            alg = Alg(alg.items + tuple(Group(g.body, 1, True) for g in reversed(self.niss)))
            if alg._size > MAX_EXPANDED_MOVES:
                raise self.error(0, f"too many moves: the alg reaches {alg._size} moves",
                                 f" (at most {MAX_EXPANDED_MOVES})")
        return alg

    def sequence(self, depth: int) -> Alg:
        items: list[Node] = []
        total = 0
        tokens = self.tokens
        while True:
            token = tokens[self.i]
            kind = token[0]
            if kind == "m":
                self.i += 1
                if token[2] is not None:
                    items.append(token[2])
                    total += 1
                continue
            if kind == "(":
                node: Node = self.group(token, depth + 1)
            elif kind == "[":
                node = self.bracket(token, depth + 1)
            elif kind == "^":
                self.niss_group(token, depth + 1)
                continue
            else:
                return Alg(tuple(items))
            items.append(node)
            total += node._size
            if total > MAX_EXPANDED_MOVES:
                raise self.error(
                    token[1],
                    f"too many moves: the alg reaches {total} moves",
                    f" (at most {MAX_EXPANDED_MOVES})",
                )

    def enter(self, opener: _Token, depth: int) -> None:
        if depth > MAX_DEPTH:
            # Refuse here rather than let deeper recursion end in a RecursionError.
            raise self.error(opener[1], f"brackets nested deeper than {MAX_DEPTH} levels")
        self.i += 1

    def group(self, opener: _Token, depth: int) -> Group:
        self.enter(opener, depth)
        body = self.sequence(depth)
        close = self.tokens[self.i]
        if close[0] != ")":
            raise self.unclosed(opener, close, ")")
        self.i += 1
        return self.checked(Group(body, close[2], close[3]), opener, "group")

    def niss_group(self, caret: _Token, depth: int) -> None:
        self.enter(caret, depth)
        opener = self.tokens[self.i]
        if opener[0] != "(":
            if opener[0] == "!":
                raise opener[2]
            raise self.error(caret[1], "'^' must be followed by '('", " (NISS: ^(moves))")
        group = self.group(opener, depth)
        if group.amount != 1 or group.inverted:
            raise self.error(caret[1], "a NISS group ^(...) takes no count or prime")
        self.niss.append(group)

    def bracket(self, opener: _Token, depth: int) -> Commutator | Conjugate:
        self.enter(opener, depth)
        a = self.sequence(depth)
        separator = self.tokens[self.i]
        if separator[0] not in (",", ":"):
            if separator[0] in ("!", "$"):
                raise self.unclosed(opener, separator, "]")
            raise self.error(separator[1], "expected ',' or ':' after the first part of a bracket")
        self.i += 1
        b = self.sequence(depth)
        close = self.tokens[self.i]
        if close[0] != "]":
            if close[0] in (",", ":"):
                raise self.error(close[1], f"unexpected {close[0]!r}", " (a bracket has only two parts)")
            raise self.unclosed(opener, close, "]")
        self.i += 1
        if separator[0] == ",":
            return self.checked(Commutator(a, b, close[2], close[3]), opener, "commutator")
        return self.checked(Conjugate(a, b, close[2], close[3]), opener, "conjugate")

    def checked(self, node: Node, opener: _Token, name: str) -> Node:
        if node._size > MAX_EXPANDED_MOVES:
            tail = f" expands to {node._size} moves (at most {MAX_EXPANDED_MOVES})"
            raise self.error(opener[1], f"too many moves: the {name}", tail)
        return node

    def unclosed(self, opener: _Token, token: _Token, closer: str) -> NotationError:
        """The error for a bracket that ends at `token` instead of at `closer`."""
        kind = token[0]
        if kind == "!":
            return token[2]
        if kind == "$":
            return self.error(opener[1], f"unclosed {opener[0]!r} opened")
        if kind in (",", ":"):
            return self.error(token[1], f"unexpected {kind!r}", " (commas and colons only go inside [ ])")
        hint = f" (expected {closer!r} to close the {opener[0]!r} at {_where(self.text, opener[1])})"
        return self.error(token[1], f"unexpected {kind!r}", hint)

    def stray(self, token: _Token) -> NotationError:
        """The error for a token that cannot start an item at the top level."""
        kind = token[0]
        if kind == "!":
            return token[2]
        if kind in (",", ":"):
            return self.error(token[1], f"unexpected {kind!r}", " (commas and colons only go inside [ ])")
        opener = "(" if kind == ")" else "["
        return self.error(token[1], f"unexpected {kind!r}", f" (no {opener!r} to close)")



# --------------------------------------------------------------------------- public functions


def parse(text: str) -> Alg:
    """Parse alg text into a tree that keeps groups, commutators and conjugates.

    The length limit counts the characters that are not white space: printing an alg adds
    spaces ("RRR" prints as "R R R"), and whatever is accepted must read back."""
    significant = len(text) - sum(map(str.isspace, text)) if len(text) <= MAX_RAW_CHARS else 0
    if len(text) > MAX_RAW_CHARS or significant > MAX_INPUT_CHARS:
        where = _significant_index(text, MAX_INPUT_CHARS) if significant else MAX_RAW_CHARS
        line, column = _location(text, where)
        counted = significant or len(text)
        limit = MAX_INPUT_CHARS if significant else MAX_RAW_CHARS
        message = f"input too long: {counted} characters (at most {limit})"
        raise NotationError(message, column, line)
    return _Parser(text).parse()


MAX_RAW_CHARS = 4 * MAX_INPUT_CHARS
"""The limit on raw text, white space included (it bounds the parser's work)."""


def _significant_index(text: str, n: int) -> int:
    """The index of the character after the first n that are not white space."""
    seen = 0
    for i, ch in enumerate(text):
        if not ch.isspace():
            if seen == n:
                return i
            seen += 1
    return len(text)


def parse_moves(text: str) -> list[Move]:
    """Parse alg text and expand it to plain moves."""
    return parse(text).flatten()


# --------------------------------------------------------------------------- move lists


def format_moves(moves: Iterable[Move]) -> str:
    return " ".join(map(str, moves))


def invert_moves(moves: Iterable[Move]) -> list[Move]:
    return [m.inverse() for m in reversed(list(moves))]


def mirror_moves(moves: Iterable[Move]) -> list[Move]:
    """Reflect through the plane between L and R: R <-> L' and friends, y and z turns reversed."""
    return [m.mirrored() for m in moves]


def simplify(moves: Iterable[Move]) -> list[Move]:
    """Merge and cancel moves of the same family across commuting moves of the same axis."""
    out: list[Move] = []
    for move in moves:
        family = move.family
        axis = move.axis
        # Only the trailing same-axis run can absorb the move: everything there commutes
        # with it. Merging in place keeps each run's order of first appearance, and since
        # a cancellation only shrinks the trailing run, one pass is already stable.
        j = len(out) - 1
        while j >= 0 and out[j].axis == axis:
            if out[j].family == family:
                amount = (out[j].amount + move.amount) % 4
                if amount:
                    out[j] = Move.of(family, amount)
                else:
                    del out[j]
                break
            j -= 1
        else:
            out.append(move)
    return out


def metric_lengths(moves: Iterable[Move]) -> dict[str, int]:
    """Lengths in the half-turn, quarter-turn, slice-turn and execution-turn metrics."""
    htm = qtm = stm = etm = 0
    for move in moves:
        etm += 1
        kind = move.kind
        if kind == "rotation":
            continue
        stm += 1
        quarters = 2 if move.amount == 2 else 1
        if kind == "slice":
            # A slice move is the same as turning both outer layers the other way.
            htm += 2
            qtm += 2 * quarters
        else:
            htm += 1
            qtm += quarters
    return {"htm": htm, "qtm": qtm, "stm": stm, "etm": etm}


def _demo(argv: list[str]) -> int:
    import sys

    if len(argv) != 1:
        print('usage: python -m cubelab.cube.notation "ALG"', file=sys.stderr)
        return 2
    text = argv[0]
    try:
        alg = parse(text)
    except NotationError as error:
        print(f"error: {error}", file=sys.stderr)
        lines = text.split("\n")
        if 1 <= error.line <= len(lines) and len(lines[error.line - 1]) <= 200:
            print("  " + lines[error.line - 1], file=sys.stderr)
            print("  " + " " * (error.column - 1) + "^", file=sys.stderr)
        return 1
    moves = alg.flatten()
    rows = [
        ("canonical", str(alg)),
        ("moves", format_moves(moves)),
        ("inverse", str(alg.inverse())),
        ("mirror", format_moves(mirror_moves(moves))),
        ("simplified", format_moves(simplify(moves))),
        ("metrics", "  ".join(f"{name} {value}" for name, value in metric_lengths(moves).items())),
    ]
    for name, value in rows:
        print(f"{name:>10}: {value}")
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(_demo(sys.argv[1:]))
