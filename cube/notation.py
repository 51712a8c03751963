"""Move notation: parse, print, invert, mirror, simplify and measure algs (pure syntax, no cube state)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Iterable, Union

__all__ = [
    "MAX_COUNT",
    "MAX_DEPTH",
    "MAX_EXPANDED_MOVES",
    "MAX_INPUT_CHARS",
    "Alg",
    "Commutator",
    "Conjugate",
    "Group",
    "Move",
    "Node",
    "NotationError",
    "format_moves",
    "invert_moves",
    "metric_lengths",
    "mirror_moves",
    "parse",
    "parse_moves",
    "simplify",
]

MAX_INPUT_CHARS = 10_000
MAX_EXPANDED_MOVES = 100_000
MAX_COUNT = 1_000_000
MAX_DEPTH = 200


class NotationError(ValueError):
    """A problem in alg text, with the 1-based line and column it was found at."""

    def __init__(self, message: str, column: int = 0, line: int = 0) -> None:
        super().__init__(message)
        # 0 means "not tied to a place in a text" (e.g. a hand-built tree that is too big).
        self.column = column
        self.line = line

    def __reduce__(self):
        # Keep the position when the error crosses a process boundary.
        return (type(self), (str(self), self.column, self.line))


# --------------------------------------------------------------------------- moves

_FACES = "URFDLB"
_AXIS: dict[str, str] = {}
_KIND: dict[str, str] = {}
for _face, _axis in zip(_FACES, "yxzyxz"):
    for _family, _kind in (
        (_face, "face"),
        (_face + "w", "wide"),
        (_face.lower(), "wide"),
        ("3" + _face + "w", "rotation"),
    ):
        _AXIS[_family] = _axis
        _KIND[_family] = _kind
for _family, _axis in zip("MESxyz", "xyzxyz"):
    _AXIS[_family] = _axis
    _KIND[_family] = "slice" if _family.isupper() else "rotation"

_SUFFIX = ("", "", "2", "'")


@dataclass(frozen=True, slots=True)
class Move:
    """One turn: a family such as "R", "Rw", "r", "3Rw", "M" or "x", and 1, 2 or 3 quarter turns clockwise."""

    family: str
    amount: int = 1

    def __post_init__(self) -> None:
        if self.family not in _AXIS:
            raise ValueError(f"unknown move family {self.family!r}")
        if self.amount not in (1, 2, 3):
            raise ValueError(f"move amount must be 1, 2 or 3, not {self.amount!r}")

    def __str__(self) -> str:
        return self.family + _SUFFIX[self.amount]

    @property
    def axis(self) -> str:
        return _AXIS[self.family]

    def inverse(self) -> Move:
        return _MOVES[self.family, 4 - self.amount]


# Moves are immutable, so the parser and the helpers share one instance per move
# instead of paying for dataclass construction and validation each time.
_MOVES: dict[tuple[str, int], Move] = {(f, a): Move(f, a) for f in _AXIS for a in (1, 2, 3)}


def _mirror_family(family: str) -> tuple[str, bool]:
    """The reflected family, and whether the turn direction flips."""
    if _AXIS[family] != "x":
        # The y and z axes lie in the mirror plane, and a reflection reverses the sense of
        # every rotation about an axis in its plane.
        return family, True
    if family in ("M", "x"):
        # The x axis is the mirror's normal: rotations about it keep their sense.
        return family, False
    # R's layer lands on L's and keeps its absolute sense, but L is named looking from
    # the other side, so the same sense reads as anticlockwise.
    swapped = family.translate(str.maketrans("RLrl", "LRlr"))
    return swapped, True


_MIRROR: dict[Move, Move] = {}
for (_family, _amount), _move in _MOVES.items():
    _mirrored, _flip = _mirror_family(_family)
    _MIRROR[_move] = _MOVES[_mirrored, 4 - _amount if _flip else _amount]
del _face, _axis, _family, _kind, _amount, _move, _mirrored, _flip


# --------------------------------------------------------------------------- tree


def _invert(moves: list[Move]) -> list[Move]:
    return [_MOVES[m.family, 4 - m.amount] for m in reversed(moves)]


def _repeat(out: list[Move], start: int, amount: int, inverted: bool) -> None:
    """Replace out[start:] by that chunk, optionally inverted, repeated amount times."""
    chunk = out[start:]
    if inverted:
        chunk = _invert(chunk)
    out[start:] = chunk * amount


def _count_suffix(amount: int, inverted: bool) -> str:
    return ("" if amount == 1 else str(amount)) + ("'" if inverted else "")


def _size_of(item: object) -> int:
    if type(item) is Move:
        return 1
    if isinstance(item, (Group, Commutator, Conjugate)):
        return item._size
    raise TypeError(f"an Alg holds moves, groups, commutators and conjugates, not {item!r}")


def _as_alg(value: object) -> Alg:
    return value if isinstance(value, Alg) else Alg(tuple(value))


def _check_count(amount: object) -> None:
    if type(amount) is not int or amount < 0:
        raise ValueError(f"a repetition count must be a non-negative int, not {amount!r}")


@dataclass(frozen=True, slots=True)
class Alg:
    """A sequence of moves, groups, commutators and conjugates; also the root of a parsed alg."""

    items: tuple[Node, ...] = ()
    # Expanded length, known before expanding so oversized algs are refused cheaply.
    _size: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if type(self.items) is not tuple:
            object.__setattr__(self, "items", tuple(self.items))
        object.__setattr__(self, "_size", sum(_size_of(item) for item in self.items))

    def flatten(self) -> list[Move]:
        if self._size > MAX_EXPANDED_MOVES:
            raise NotationError(
                f"too many moves: the alg expands to {self._size} moves (at most {MAX_EXPANDED_MOVES})"
            )
        out: list[Move] = []
        self._emit(out)
        return out

    def _emit(self, out: list[Move]) -> None:
        for item in self.items:
            if type(item) is Move:
                out.append(item)
            else:
                item._emit(out)

    def __str__(self) -> str:
        return _render(self)

    def inverse(self) -> Alg:
        # A plain loop, not a generator, to spend one stack frame less per nesting level.
        inverted = []
        for item in reversed(self.items):
            inverted.append(item.inverse())
        return Alg(tuple(inverted))


@dataclass(frozen=True, slots=True)
class Group:
    """A group "(A)n" or "(A)n'": the body repeated amount times, the whole inverted if primed."""

    body: Alg
    amount: int = 1
    inverted: bool = False
    _size: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _check_count(self.amount)
        object.__setattr__(self, "body", _as_alg(self.body))
        object.__setattr__(self, "inverted", bool(self.inverted))
        object.__setattr__(self, "_size", self.body._size * self.amount)

    def _emit(self, out: list[Move]) -> None:
        start = len(out)
        self.body._emit(out)
        _repeat(out, start, self.amount, self.inverted)

    def __str__(self) -> str:
        return _render(self)

    def inverse(self) -> Group:
        if self.inverted:
            return replace(self, inverted=False)
        # (A)n inverts to (A')n, which reads better than (A)n'.
        return Group(self.body.inverse(), self.amount)


@dataclass(frozen=True, slots=True)
class Commutator:
    """A commutator "[A, B]" = A B A' B', optionally repeated and primed like a group."""

    a: Alg
    b: Alg
    amount: int = 1
    inverted: bool = False
    _size: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _check_count(self.amount)
        object.__setattr__(self, "a", _as_alg(self.a))
        object.__setattr__(self, "b", _as_alg(self.b))
        object.__setattr__(self, "inverted", bool(self.inverted))
        object.__setattr__(self, "_size", 2 * (self.a._size + self.b._size) * self.amount)

    def _emit(self, out: list[Move]) -> None:
        start = len(out)
        self.a._emit(out)
        middle = len(out)
        self.b._emit(out)
        first, second = out[start:middle], out[middle:]
        out.extend(_invert(first))
        out.extend(_invert(second))
        _repeat(out, start, self.amount, self.inverted)

    def __str__(self) -> str:
        return _render(self)

    def inverse(self) -> Commutator:
        if self.inverted:
            return replace(self, inverted=False)
        # [A, B]' = (A B A' B')' = B A B' A' = [B, A], and the same holds for every power.
        return Commutator(self.b, self.a, self.amount)


@dataclass(frozen=True, slots=True)
class Conjugate:
    """A conjugate "[A: B]" = A B A', optionally repeated and primed like a group."""

    a: Alg
    b: Alg
    amount: int = 1
    inverted: bool = False
    _size: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _check_count(self.amount)
        object.__setattr__(self, "a", _as_alg(self.a))
        object.__setattr__(self, "b", _as_alg(self.b))
        object.__setattr__(self, "inverted", bool(self.inverted))
        object.__setattr__(self, "_size", (2 * self.a._size + self.b._size) * self.amount)

    def _emit(self, out: list[Move]) -> None:
        start = len(out)
        self.a._emit(out)
        setup = out[start:]
        self.b._emit(out)
        out.extend(_invert(setup))
        _repeat(out, start, self.amount, self.inverted)

    def __str__(self) -> str:
        return _render(self)

    def inverse(self) -> Conjugate:
        if self.inverted:
            return replace(self, inverted=False)
        # [A: B]' = A B' A': only the middle part changes.
        return Conjugate(self.a, self.b.inverse(), self.amount)


Node = Union[Move, Group, Commutator, Conjugate]


def _render(root: Alg | Node) -> str:
    """Canonical text of a tree, built with an explicit stack.

    Nested str() and f-string calls cost several units of the interpreter's recursion
    budget per level, which a tree at the nesting limit would exhaust.
    """
    parts: list[str] = []
    # Work items are popped from the end, so each node pushes its pieces in reverse.
    stack: list[object] = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
        elif isinstance(item, Move):
            parts.append(item.family + _SUFFIX[item.amount])
        elif isinstance(item, Alg):
            for index in range(len(item.items) - 1, -1, -1):
                stack.append(item.items[index])
                if index:
                    stack.append(" ")
        elif isinstance(item, Group):
            stack += [")" + _count_suffix(item.amount, item.inverted), item.body, "("]
        else:
            separator = ", " if isinstance(item, Commutator) else ": "
            stack += ["]" + _count_suffix(item.amount, item.inverted), item.b, separator, item.a, "["]
    return "".join(parts)


# --------------------------------------------------------------------------- tokenizer

# One match per token; the leading part swallows whitespace and "//" comments so the
# parser never sees them. Digits are spelled [0-9] because \d also accepts other scripts'
# digits, which int() would then happily convert.
_TOKEN = re.compile(
    r"""
    (?:\s|//[^\n]*)*
    (?:
        (?P<move>(?P<width>[0-9]+)?(?P<letter>[URFDLBurfdlbMESxyz])(?P<wide>w?)
                 (?P<digits>[0-9]*)(?P<prime>['’`]?))
      | (?P<close>[)\]](?P<cdigits>[0-9]*)(?P<cprime>['’`]?))
      | (?P<punct>[(\[,:])
      | (?P<end>\Z)
      | (?P<bad>.)
    )
    """,
    re.VERBOSE | re.DOTALL,
)

# Token tuples: (kind, position, value, inverted). kind is "m" for a move (value: Move, or
# None when the amount cancels to nothing), one of "()[],:" (closers carry count and
# prime), "$" for the end, and "!" for a lexical error (value: the NotationError), which
# the parser raises only when it gets there so errors are reported in reading order.
_Token = tuple[str, int, object, bool]


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
    significant = digits.lstrip("0") or "0"
    # Checking the length first keeps int() away from huge digit strings, which it refuses.
    if len(significant) > len(str(MAX_COUNT)) or int(significant) > MAX_COUNT:
        shown = significant if len(significant) <= 12 else significant[:12] + "..."
        raise _error(text, pos, f"count {shown} too large", f" (at most {MAX_COUNT})")
    return int(significant)


def _read_move(text: str, m: re.Match[str]) -> Move | None:
    width, letter, wide, digits, prime = m.group("width", "letter", "wide", "digits", "prime")
    start = m.start("move")
    if letter in _FACES:
        family = letter + wide
        if width:
            if not wide:
                hint = " (a layer count needs a wide move such as '3Rw')"
                raise _error(text, start, f"unknown move {width + letter!r}", hint)
            if width not in ("2", "3"):
                raise _error(text, start, f"layer count {width!r} not allowed", " (only 2 or 3)")
            if width == "3":
                family = "3" + family
    else:
        if width or wide:
            raise _error(text, start, f"unknown move {(width or '') + letter + wide!r}")
        family = letter
    amount = _read_count(text, m.start("digits"), digits) % 4
    if prime:
        amount = -amount % 4
    return _MOVES[family, amount] if amount else None


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
            elif kind == "end":
                append(("$", len(text), None, False))
                return tokens
            else:
                start = m.start("bad")
                char = text[start]
                if char.isalpha():
                    error = _error(text, start, f"unknown move {char!r}")
                elif char in "0123456789":
                    hint = " (a count goes right after a move or a closing bracket)"
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
    """

    __slots__ = ("text", "tokens", "i")

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _tokenize(text)
        self.i = 0

    def error(self, pos: int, head: str, tail: str = "") -> NotationError:
        return _error(self.text, pos, head, tail)

    def parse(self) -> Alg:
        alg = self.sequence(0)
        token = self.tokens[self.i]
        if token[0] != "$":
            raise self.stray(token)
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
    """Parse alg text into a tree that keeps groups, commutators and conjugates."""
    if len(text) > MAX_INPUT_CHARS:
        line, column = _location(text, MAX_INPUT_CHARS)
        message = f"input too long: {len(text)} characters (at most {MAX_INPUT_CHARS})"
        raise NotationError(message, column, line)
    return _Parser(text).parse()


def parse_moves(text: str) -> list[Move]:
    """Parse alg text and expand it to plain moves."""
    return parse(text).flatten()


def format_moves(moves: Iterable[Move]) -> str:
    return " ".join(map(str, moves))


def invert_moves(moves: Iterable[Move]) -> list[Move]:
    return _invert(list(moves))


def mirror_moves(moves: Iterable[Move]) -> list[Move]:
    """Reflect through the plane between L and R: R <-> L' and friends, y and z turns reversed."""
    return [_MIRROR[m] for m in moves]


def simplify(moves: Iterable[Move]) -> list[Move]:
    """Merge and cancel moves of the same family across commuting moves of the same axis."""
    out: list[Move] = []
    for move in moves:
        family = move.family
        axis = _AXIS[family]
        # Only the trailing same-axis run can absorb the move: everything there commutes
        # with it. Merging in place keeps each run's order of first appearance, and since
        # a cancellation only shrinks the trailing run, one pass is already stable.
        j = len(out) - 1
        while j >= 0 and _AXIS[out[j].family] == axis:
            if out[j].family == family:
                amount = (out[j].amount + move.amount) % 4
                if amount:
                    out[j] = _MOVES[family, amount]
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
        kind = _KIND[move.family]
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
