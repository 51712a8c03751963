"""Singmaster cycle notation, both ways: the cycles the facts print, and positions read from them.

A cycle such as `(UFR BUR DBR FDR)` says where pieces travel and where their stickers go: the
piece at UFR moves to URB, and its sticker on U (the first letter written) lands on that slot's
B face; the piece there moves on to DBR with that sticker on D, and so on. A mark after the
cycle says how the first piece comes home: `+` turned clockwise, `-` anticlockwise (edges: `+`
flipped). A lone piece turned in place is written `(UFR)+` or `(UF)+`. Written this way every
position has one spelling (each cycle starts at its lowest slot, spelt as `pieces.py` spells
it), so what the facts panel shows can be pasted back and gives the same position.

Reading is lenient where that costs no meaning: a piece may be spelt in any letter order (only
the first letter says which sticker), commas may separate pieces, and the labels and dashes of
the facts output ('corners', 'edges', '(solved)', '-') are skipped.
"""

from __future__ import annotations

import re

import numpy as np

from .facelets import FaceletError
from .pieces import CORNER_FACELETS, CORNER_NAMES, EDGE_FACELETS, EDGE_NAMES, FACES
from .state import CubeState, permutation_cycles


class CycleError(FaceletError):
    """Cycle notation that names no assembly; the message says where (a sticker-format error
    like any other, so the readers of positions treat it alike)."""


# For each kind: slot names, each slot's stickers (clockwise for corners, the flip-defining one
# first for edges) and the orientation modulus.
_KINDS = {
    "corner": (CORNER_NAMES, CORNER_FACELETS, 3),
    "edge": (EDGE_NAMES, EDGE_FACELETS, 2),
}


def _offset(kind: str, slot: int, face: str) -> int:
    """Which of a slot's stickers (by its place in the slot's sticker list) lies on `face`."""
    _, facelets, _ = _KINDS[kind]
    return next(k for k, s in enumerate(facelets[slot]) if FACES[s // 9] == face)


def _spelling(kind: str, slot: int, offset: int) -> str:
    """The slot's name rotated to start with the face of its sticker at `offset`."""
    names, facelets, _ = _KINDS[kind]
    name = names[slot]
    first = FACES[facelets[slot][offset] // 9]
    at = name.index(first)
    return name[at:] + name[:at]


def cycles_text(perm, ori, kind: str) -> str:
    """The cycles of one kind of pieces (perm[i]: the piece at slot i, ori[i]: its turn) in
    the notation above; '' when every piece is home."""
    names, _, mod = _KINDS[kind]
    parts = []
    for cycle in permutation_cycles(perm, include_fixed=True):
        net = sum(int(ori[i]) for i in cycle) % mod
        if len(cycle) == 1 and not net:
            continue
        # follow the first piece's named sticker: the orientation of the piece at each slot
        # says where that sticker lands there
        offset, words = 0, []
        for slot in cycle:
            if words:
                offset = (offset + int(ori[slot])) % mod
            words.append(_spelling(kind, slot, offset))
        mark = "" if not net else ("+" if net == 1 else "-")
        parts.append("(" + " ".join(words) + ")" + mark)
    return " ".join(parts)


_TOKEN = re.compile(r"\s*(?:(\()|(\))([+-]?)|([A-Za-z]+)|(,)|(\S))")
_SKIPPED_WORDS = {"corners", "edges", "solved"}


def _piece(word: str, column: int) -> tuple[str, int, int]:
    """(kind, slot, sticker offset) of a piece as written, or CycleError."""
    letters = word.upper()
    kind = {3: "corner", 2: "edge"}.get(len(letters))
    if kind is not None and len(set(letters)) == len(letters):
        names = _KINDS[kind][0]
        for slot, name in enumerate(names):
            if set(name) == set(letters):
                return kind, slot, _offset(kind, slot, letters[0])
    raise CycleError(f"no piece named {word!r} at column {column} (corners are written like "
                     "UFR, edges like UF)")


def _cycles(text: str) -> list[tuple[list[tuple[str, int, int, int]], str, int]]:
    """The cycles written in `text`: (pieces, mark, column) each, a piece as (kind, slot,
    sticker offset, column); the words of the facts output skipped."""
    cycles, current, start = [], None, 0
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:           # only trailing blanks are left
            break
        column = m.start(m.lastindex) + 1
        pos = m.end()
        opening, closing, mark, word, comma, other = m.groups()
        if opening:
            if current is not None:
                raise CycleError(f"a '(' inside a cycle at column {column}")
            current, start = [], column
        elif closing:
            if current is None:
                raise CycleError(f"a ')' with no '(' at column {column}")
            if not current:
                raise CycleError(f"an empty cycle at column {start}")
            cycles.append((current, mark, start))
            current = None
        elif word:
            if current is None:
                if word.lower() in _SKIPPED_WORDS:
                    continue
                raise CycleError(f"{word!r} at column {column} is outside a cycle: write "
                                 "pieces inside parentheses, e.g. (UF UR UB)")
            current.append(_piece(word, column) + (column,))
        elif comma:
            if current is None:
                raise CycleError(f"a ',' outside a cycle at column {column}")
        elif other == "-" and current is None:
            continue            # the facts' dash for "nothing here"
        else:
            raise CycleError(f"unexpected {other!r} at column {column}")
    if current is not None:
        raise CycleError(f"the cycle opened at column {start} is not closed")
    return cycles


def parse_cycles(text: str) -> CubeState:
    """The assembly the cycles describe (centres home), reachable or not; CycleError for text
    that names none. Pieces not mentioned stay home."""
    perm = {"corner": list(range(8)), "edge": list(range(12))}
    ori = {"corner": [0] * 8, "edge": [0] * 12}
    seen: dict[tuple[str, int], int] = {}
    # the facts output writes "(solved)" for a kind with every piece home
    text = re.sub(r"\(\s*solved\s*\)", " ", text, flags=re.IGNORECASE)
    for pieces, mark, column in _cycles(text):
        kinds = {kind for kind, _, _, _ in pieces}
        if len(kinds) > 1:
            raise CycleError(f"the cycle at column {column} mixes corners and edges")
        kind = kinds.pop()
        names, _, mod = _KINDS[kind]
        for _, slot, _, at in pieces:
            if (kind, slot) in seen:
                raise CycleError(f"{names[slot]} appears twice (columns {seen[kind, slot]} "
                                 f"and {at})")
            seen[kind, slot] = at
        turn = {"": 0, "+": 1, "-": mod - 1}[mark]
        if kind == "edge" and mark == "-":
            raise CycleError(f"an edge is flipped or not: write '+', not '-' (column {column})")
        for k, (_, slot, offset, _) in enumerate(pieces):
            _, before, before_offset, _ = pieces[k - 1]
            # the piece from the previous slot lands here, its named sticker on our named face
            perm[kind][slot] = before
            target = offset + (turn if k == 0 else 0)
            ori[kind][slot] = (target - before_offset) % mod
    return CubeState(perm["corner"], ori["corner"], perm["edge"], ori["edge"])


def corner_and_edge_text(state: CubeState) -> str:
    """Both kinds' cycles on one line (what `:cycles` with no argument shows)."""
    s = state.normalized()
    parts = [cycles_text(s.cp, s.co, "corner"), cycles_text(s.ep, s.eo, "edge")]
    return " ".join(p for p in parts if p)


if __name__ == "__main__":
    from .moves import alg_state
    for alg in ("R", "F", "R U R' U'", "M2 U M2 U2 M2 U M2"):
        state = alg_state(alg)
        text = corner_and_edge_text(state)
        print(f"{alg:24} {text}")
        assert parse_cycles(text) == state.normalized()
    print(np.array(parse_cycles("(UFR)+ (URB)-").co))
