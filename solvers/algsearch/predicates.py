"""What an algorithm search looks for: predicates on a sequence's effect, by name and as typed.

A predicate fixes the content of some slots, then makes a final test.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

import numpy as np

from cubelab.cube import position_symmetry
from cubelab.cube.moves import move_state
from cubelab.cube.notation import Move
from cubelab.cube.pieces import CORNER_NAMES, EDGE_NAMES, corner_slot, edge_slot
from cubelab.cube.state import CubeState

# Final tests on the whole effect, after the fixed slots matched.
ANY, CORNER_3CYCLE, EDGE_3CYCLE, SYMMETRIC = 0, 1, 2, 3
# How a slot is fixed: not at all, its piece, its piece and orientation.
FREE, PIECE, PIECE_AND_ORIENTATION = 0, 1, 2



@dataclass(frozen=True)
class Predicate:
    """What the effect of a sequence must satisfy.

    corners[i] / edges[i] say how slot i is fixed (FREE, PIECE, PIECE_AND_ORIENTATION) to the
    content the target state has there; `test` is a final check (ANY or a pure 3-cycle) and
    effects in `excluded` are dropped (the identity, a plain U turn...)."""

    name: str
    description: str
    corners: tuple[int, ...]
    edges: tuple[int, ...]
    target: CubeState = field(default_factory=CubeState.identity)
    test: int = ANY
    excluded: tuple[CubeState, ...] = ()
    symmetries: tuple[frozenset[int], ...] = ()
    """With test SYMMETRIC: the effect must be fixed by every symmetry of one of these sets."""

    def accepts(self, effect: CubeState) -> bool:
        """The predicate on one effect, in plain Python (the kernels do the same)."""
        t = self.target
        for i, how in enumerate(self.corners):
            if how and (effect.cp[i] != t.cp[i] or (how == 2 and effect.co[i] != t.co[i])):
                return False
        for i, how in enumerate(self.edges):
            if how and (effect.ep[i] != t.ep[i] or (how == 2 and effect.eo[i] != t.eo[i])):
                return False
        if any(effect.key() == e.key() for e in self.excluded):
            return False
        if self.test == CORNER_3CYCLE:
            return _moved(effect.cp) == 3 and not effect.co.any()
        if self.test == EDGE_3CYCLE:
            return _moved(effect.ep) == 3 and not effect.eo.any()
        if self.test == SYMMETRIC:
            fixing = set(position_symmetry.fixing(effect))
            return any(group <= fixing for group in self.symmetries)
        return True


def _moved(perm) -> int:
    return int((np.asarray(perm) != np.arange(len(perm))).sum())


_FIXED = PIECE_AND_ORIENTATION
_U_CORNERS = (0, 1, 2, 3)
_U_EDGES = (0, 1, 2, 3)


def last_layer() -> Predicate:
    """Only the U layer changes (the TIPE's ALGr), and the effect is not a mere U turn."""
    corners = tuple(0 if i in _U_CORNERS else _FIXED for i in range(8))
    edges = tuple(0 if i in _U_EDGES else _FIXED for i in range(12))
    u = move_state(Move("U", 1))
    return Predicate("ll", "only the U layer changes (not a U turn)", corners, edges,
                     excluded=tuple(u.power(k) for k in range(4)))


def parse_pieces(names: Iterable[str]) -> tuple[set[int], set[int]]:
    """Corner and edge slots named like 'UFR', 'FU' (commas or spaces between names)."""
    corners, edges = set(), set()
    for word in names:
        for name in word.replace(",", " ").split():
            try:
                if len(name) == 3:
                    corners.add(corner_slot(name))
                elif len(name) == 2:
                    edges.add(edge_slot(name))
                else:
                    raise KeyError(name)
            except KeyError:
                raise ValueError(f"no piece named {name!r} (corners like UFR, edges like UF)") \
                    from None
    return corners, edges


def only_pieces(names: Iterable[str]) -> Predicate:
    """Only the named pieces move (or twist, or flip); every other piece stays home."""
    corners, edges = parse_pieces(names)
    if not corners and not edges:
        raise ValueError("name at least one piece that may move")
    listing = " ".join([CORNER_NAMES[i] for i in sorted(corners)] +
                       [EDGE_NAMES[i] for i in sorted(edges)])
    return Predicate("only", f"only {listing} move",
                     tuple(0 if i in corners else _FIXED for i in range(8)),
                     tuple(0 if i in edges else _FIXED for i in range(12)),
                     excluded=(CubeState.identity(),))


def corner_3cycle() -> Predicate:
    """A pure 3-cycle of corners: edges untouched, three corners cycled, nothing twisted."""
    return Predicate("corner-3cycle", "a pure 3-cycle of corners", (0,) * 8, (_FIXED,) * 12,
                     test=CORNER_3CYCLE)


def edge_3cycle() -> Predicate:
    """A pure 3-cycle of edges: corners untouched, three edges cycled, nothing flipped."""
    return Predicate("edge-3cycle", "a pure 3-cycle of edges", (_FIXED,) * 8, (0,) * 12,
                     test=EDGE_3CYCLE)


def orients() -> Predicate:
    """Orients without permuting: every piece stays in its slot, some twist or flip."""
    return Predicate("orient", "twists or flips without permuting", (PIECE,) * 8, (PIECE,) * 12,
                     excluded=(CubeState.identity(),))


def equals(target: CubeState, ignore: Iterable[str] = ()) -> Predicate:
    """The effect equals the target, except on the pieces named in `ignore` (a partial
    position: those pieces may end anywhere)."""
    target = target.normalized()
    corners, edges = parse_pieces(ignore)
    what = "equals the position" + (f" (ignoring {' '.join(ignore)})" if corners or edges else "")
    return Predicate("equals", what,
                     tuple(0 if i in corners else _FIXED for i in range(8)),
                     tuple(0 if i in edges else _FIXED for i in range(12)), target=target)


def symmetric(name: str) -> Predicate:
    """Effects at least as symmetric as a symmetry type: fixed by every symmetry of some
    subgroup of that type (position_symmetry.py names the 33 types as Cube Explorer does: Oh,
    D4h, C2v(a1), D2d(face), ...; D2d(a) is read as D2d(face), D2d(b) as D2d(edge))."""
    types = {position_symmetry.type_name(cls[0]): cls
             for cls in position_symmetry.subgroup_classes()}
    title = position_symmetry.type_named(name)
    if title is None:
        raise ValueError(f"no symmetry type named {name!r}; choose from " + ", ".join(types))
    cls = types[title]
    return Predicate("symmetry", f"symmetric under {title} (fixed by {len(cls[0])} symmetries)",
                     (FREE,) * 8, (FREE,) * 12, test=SYMMETRIC, symmetries=tuple(cls),
                     excluded=(CubeState.identity(),))


PREDICATES = {
    "ll": "only the U layer changes (the TIPE's ALGr; U turns themselves excluded)",
    "only PIECE...": "only the named pieces move, e.g. only UFR URB UBL",
    "corner-3cycle": "a pure 3-cycle of corners",
    "edge-3cycle": "a pure 3-cycle of edges",
    "orient": "twists and/or flips pieces without permuting any",
    "equals ALG": "the effect equals a position (--ignore pieces for a partial one)",
    "symmetry TYPE": "the effect is fixed by a subgroup of that type (Oh, D4h, C4v, ...)",
}


def parse_predicate(words: list[str], ignore: Iterable[str] = ()) -> Predicate:
    """A predicate from words as typed: 'll', 'only UFR UF', 'corner-3cycle', 'edge-3cycle',
    'orient', 'equals R U R' U'' or 'equals facelets: ...'. ValueError says what is wrong."""
    if not words:
        raise ValueError("name a predicate: " + ", ".join(PREDICATES))
    head, rest = words[0].lower(), words[1:]
    if head in ("ll", "last-layer", "algr") and not rest:
        return last_layer()
    if head == "only":
        return only_pieces(rest)
    if head in ("corner-3cycle", "corner3", "c3") and not rest:
        return corner_3cycle()
    if head in ("edge-3cycle", "edge3", "e3") and not rest:
        return edge_3cycle()
    if head in ("orient", "orients") and not rest:
        return orients()
    if head in ("symmetry", "symmetric") and len(rest) == 1:
        return symmetric(rest[0])
    if head == "equals":
        from cubelab.cube.positions import PositionError, parse_position
        try:
            target = parse_position(" ".join(rest)).state
        except PositionError as e:
            raise ValueError(str(e)) from None
        from cubelab.cube.facts import unreachable_reason
        reason = unreachable_reason(target)
        if reason:
            raise ValueError(f"no sequence reaches that position ({reason})")
        return equals(target, ignore)
    raise ValueError(f"unknown predicate {' '.join(words)!r}; choose from " + ", ".join(PREDICATES))
