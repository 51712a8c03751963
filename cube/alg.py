"""Algs as values: the Move, and the syntax tree of groups, commutators and conjugates.

Pure syntax: nothing here knows a cube state. `notation.py` reads text into these values and
works on plain move lists; what a move does to a cube is `moves.py`'s.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Union

from .pieces import FACES

__all__ = [
    "MAX_EXPANDED_MOVES",
    "Alg",
    "Commutator",
    "Conjugate",
    "Group",
    "Move",
    "Node",
    "NotationError",
]

MAX_EXPANDED_MOVES = 100_000
"""The most moves an alg may expand to (the parser refuses more before expanding anything)."""


class ColumnError(ValueError):
    """A user's text that cannot be used, with the 1-based column of the problem (0: none);
    the column survives a process boundary. Goals, move sets and costs raise their own kinds."""

    def __init__(self, message: str, column: int = 0):
        super().__init__(message)
        self.column = column

    def __reduce__(self):
        return (type(self), (str(self), self.column))


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

_AXIS: dict[str, str] = {}
_KIND: dict[str, str] = {}
_LAYERS: dict[str, tuple[str, tuple[int, ...]]] = {}


def _declare(name: str, axis: str, kind: str, face: str | None = None,
             layers: tuple[int, ...] = ()) -> None:
    _AXIS[name] = axis
    _KIND[name] = kind
    if face is not None:
        _LAYERS[name] = (face, layers)


# Every family the 3x3x3 has, as SiGN writes it (cubing.js reads the same): layers are counted
# from the named face, 1 being the face itself. A family turning one outer layer counts as a
# face turn in the metrics, an inner layer alone as a slice, all three layers as a rotation.
for _face, _axis in zip(FACES, "yxzyxz"):
    _low = _face.lower()
    _declare(_face, _axis, "face", _face, (1,))
    _declare("2" + _face, _axis, "slice", _face, (2,))
    _declare("3" + _face, _axis, "outer", _face, (3,))
    for _wide in (_face + "w", _low):
        _declare(_wide, _axis, "wide", _face, (1, 2))
        _declare("2-3" + _wide, _axis, "wide", _face, (2, 3))
        _declare("3" + _wide, _axis, "rotation", _face, (1, 2, 3))
    _declare(_face + "v", _axis, "rotation", _face, (1, 2, 3))
for _name, _axis in zip("MESxyz", "xyzxyz"):
    _declare(_name, _axis, "slice" if _name.isupper() else "rotation")

_SUFFIX = ("", "", "2", "'")


@dataclass(frozen=True, slots=True)
class Move:
    """One turn: a family such as "R", "Rw", "r", "2R", "2-3Rw", "3Rw", "Rv", "M" or "x", and
    1, 2 or 3 quarter turns clockwise."""

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

    @property
    def kind(self) -> str:
        """'face', 'wide', 'slice', 'rotation', or 'outer' (the far layer named from the
        other side, as in '3R')."""
        return _KIND[self.family]

    @property
    def layers(self) -> tuple[str, tuple[int, ...]] | None:
        """(face, layers counted from it, 1 = the face) for families named from a face; None
        for M, E, S, x, y and z."""
        return _LAYERS.get(self.family)

    def inverse(self) -> Move:
        return _MOVES[self.family, 4 - self.amount]

    def mirrored(self) -> Move:
        """The move seen in a mirror between L and R."""
        return _MIRROR[self]

    @staticmethod
    def of(family: str, amount: int) -> Move:
        """The shared instance of a move (moves are immutable; this skips validation)."""
        return _MOVES[family, amount]


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
    # the other side, so the same sense reads as anticlockwise (the layer numbers stay).
    swapped = family.translate(str.maketrans("RLrl", "LRlr"))
    return swapped, True


_MIRROR: dict[Move, Move] = {}
for (_family, _amount), _move in _MOVES.items():
    _mirrored, _flip = _mirror_family(_family)
    _MIRROR[_move] = _MOVES[_mirrored, 4 - _amount if _flip else _amount]
del _face, _axis, _low, _wide, _name, _family, _amount, _move, _mirrored, _flip


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
    if isinstance(item, (Group, _Bracket)):
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
class _Bracket:
    """What a commutator and a conjugate share: two parts, a count and a prime."""

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
        object.__setattr__(self, "_size", self._once(self.a._size, self.b._size) * self.amount)

    def __str__(self) -> str:
        return _render(self)


class Commutator(_Bracket):
    """A commutator "[A, B]" = A B A' B', optionally repeated and primed like a group."""

    __slots__ = ()

    @staticmethod
    def _once(a: int, b: int) -> int:
        return 2 * (a + b)

    def _emit(self, out: list[Move]) -> None:
        start = len(out)
        self.a._emit(out)
        middle = len(out)
        self.b._emit(out)
        first, second = out[start:middle], out[middle:]
        out.extend(_invert(first))
        out.extend(_invert(second))
        _repeat(out, start, self.amount, self.inverted)

    def inverse(self) -> Commutator:
        if self.inverted:
            return replace(self, inverted=False)
        # [A, B]' = (A B A' B')' = B A B' A' = [B, A], and the same holds for every power.
        return Commutator(self.b, self.a, self.amount)


class Conjugate(_Bracket):
    """A conjugate "[A: B]" = A B A', optionally repeated and primed like a group."""

    __slots__ = ()

    @staticmethod
    def _once(a: int, b: int) -> int:
        return 2 * a + b

    def _emit(self, out: list[Move]) -> None:
        start = len(out)
        self.a._emit(out)
        setup = out[start:]
        self.b._emit(out)
        out.extend(_invert(setup))
        _repeat(out, start, self.amount, self.inverted)

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
