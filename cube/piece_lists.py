"""The piece-list syntax: a goal written as the pieces that must be solved, and how.

    UF UR UFR:o DF:p        UF and UR solved, the UFR corner oriented, DF placed
    all U-layer:o           everything solved but the U layer, which need only be oriented
    corners:o edges:o E-slice:os     domino reduction (DR) on U/D

A list is tokens separated by spaces or commas; each token is NAME or NAME:ATTRS.

NAME is a piece (a corner `UFR` or an edge `UF`, faces in any order, any case) or a set:
`all`, `corners`, `edges`, `centres`; a face's layer `U-layer`, its `U-corners`, `U-edges`,
its `U-centre`; a slice's edges `M-slice`, `E-slice`, `S-slice`.

ATTRS are letters (default `po`, solved):
  p  placed: in its home slot          o  oriented (U/D colour on U/D; edges F/B axis)
  s  in its home slice (edges) or tetrad (corners)          i  ignored
`o` without `p` means oriented wherever it is; `os` oriented and in its slice.

Later tokens override earlier ones for the same piece. Centres: all six count unless the list
names centres, in which case exactly the centres named (without `:i`) count.
"""

from __future__ import annotations

import re

from .goals import (
    N_CORNERS, N_EDGES, SLICES, TETRADS, Condition, Goal, GoalError, solved_codes,
)
from .pieces import CORNER_KOCIEMBA, CORNER_NAMES, EDGE_NAMES, FACES, corner_slot, edge_slot

_TOKEN = re.compile(r"[^\s,]+")
ATTRS = "posi"


def role_condition(orbit: str, piece: int, attrs: str) -> Condition | None:
    """The condition of a piece for attribute letters (already checked)."""
    if "i" in attrs:
        return None
    if "p" in attrs:
        if "o" in attrs:
            return Condition("full", solved_codes(orbit, [piece]))
        return Condition("slot", {piece})
    if "s" in attrs:
        slots = _home_slice(orbit, piece)
        return Condition("full" if "o" in attrs else "slot",
                         solved_codes(orbit, slots, "o" in attrs))
    # "o" alone: oriented anywhere
    return Condition("full", solved_codes(orbit, range(N_CORNERS if orbit == "c" else N_EDGES)))


def _home_slice(orbit: str, piece: int) -> tuple[int, ...]:
    groups = TETRADS if orbit == "c" else tuple(SLICES.values())
    return next(g for g in groups if piece in g)


def _members(name: str) -> list[tuple[str, int]] | None:
    """(orbit, index) of what a name covers: 'c', 'e' pieces and 'x' centres; None if unknown."""
    low = name.lower()
    corners = [("c", i) for i in range(N_CORNERS)]
    edges = [("e", i) for i in range(N_EDGES)]
    centres = [("x", i) for i in range(6)]
    sets = {"all": corners + edges + centres, "corners": corners, "edges": edges,
            "centres": centres, "centers": centres}
    if low in sets:
        return sets[low]
    m = re.fullmatch(r"([URFDLBurfdlb])-(layer|corners|edges|centre|center)", name)
    if m:
        face, what = m.group(1).upper(), m.group(2)
        cs = [("c", i) for i, n in enumerate(CORNER_KOCIEMBA) if face in n]
        es = [("e", i) for i, n in enumerate(EDGE_NAMES) if face in n]
        return {"layer": cs + es, "corners": cs, "edges": es}.get(
            what, [("x", FACES.index(face))])
    m = re.fullmatch(r"([MESmes])-slice", name)
    if m:
        return [("e", i) for i in SLICES[m.group(1).upper()]]
    if len(name) in (2, 3) and name.isalpha():
        try:
            if len(name) == 3:
                return [("c", corner_slot(name))]
            return [("e", edge_slot(name))]
        except KeyError:
            return None
    return None


def parse_piece_list(text: str, name: str | None = None) -> Goal:
    """The goal a piece list describes; GoalError naming the token and its column."""
    if text is None or not text.strip():
        raise GoalError("empty piece list (e.g. \"UF UR UFR:o DF:p\")", 1)
    corners: list = [None] * N_CORNERS
    edges: list = [None] * N_EDGES
    centres: dict[int, bool] = {}
    for m in _TOKEN.finditer(text):
        token, column = m.group(0), m.start() + 1
        head, sep, attrs = token.partition(":")
        if sep and not attrs:
            raise GoalError(f"{token!r} at column {column}: no attributes after ':' "
                            "(p placed, o oriented, s in its slice, i ignored)", column)
        members = _members(head)
        if members is None:
            raise GoalError(f"unknown piece {head!r} at column {column} (corners like UFR, "
                            "edges like UF, sets like all, corners, U-layer, E-slice, "
                            "U-centre)", column)
        explicit = attrs
        attrs = attrs or "po"
        for ch in attrs:
            if ch not in ATTRS:
                at = column + len(head) + 1 + attrs.index(ch)
                raise GoalError(f"unknown attribute {ch!r} in {token!r} at column {at} "
                                "(p placed, o oriented, s in its slice or tetrad, i ignored)",
                                at)
        if "i" in attrs and len(set(attrs)) > 1:
            raise GoalError(f"{token!r} at column {column}: 'i' (ignored) goes alone", column)
        for orbit, index in members:
            if orbit == "x":
                if len(members) == 1 and set(explicit) - set("pi"):
                    raise GoalError(f"{token!r} at column {column}: a centre is placed (p) "
                                    "or ignored (i), nothing else", column)
                centres[index] = "i" not in attrs
                continue
            target = corners if orbit == "c" else edges
            target[index] = role_condition(orbit, index, attrs)
    placed = frozenset(range(6)) if not centres else \
        frozenset(f for f, keep in centres.items() if keep)
    goal = Goal(name or " ".join(text.split()), tuple(corners), tuple(edges), placed)
    if not any(goal.corners) and not any(goal.edges) and not goal.joints:
        raise GoalError(f"the piece list {text.strip()!r} leaves every piece ignored")
    return goal


def describe(goal: Goal) -> str:
    """The goal back as a piece list (conditions that a role makes; others as 'sticker')."""
    out = []
    for orbit, conds in (("c", goal.corners), ("e", goal.edges)):
        names = CORNER_NAMES if orbit == "c" else EDGE_NAMES
        for p, cond in enumerate(conds):
            if cond is None:
                continue
            attrs = next((a for a in ("po", "p", "o", "s", "os")
                          if role_condition(orbit, p, a) == cond), "?")
            out.append(names[p] + ("" if attrs == "po" else ":" + attrs))
    if goal.centres != frozenset(range(6)):
        out.extend(f"{FACES[f]}-centre" for f in sorted(goal.centres))
        if not goal.centres:
            out.append("centres:i")
    return " ".join(out)

