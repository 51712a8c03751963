"""The 54-sticker facelet format (Kociemba's URFDLB order) and the Singmaster/Reid cubie string.

Reading validates everything a sticker pattern can get wrong and says where: the length, the
characters, the colour counts, the centres, a sticker combination that no piece has, a piece
that appears twice. Physically assembled but unreachable states are valid assemblies. The
piece readers and painters take the sticker layout as an argument, so the 2x2x2's 24 stickers
(pocket.py) are read and painted by the same code.
"""

from __future__ import annotations

import numpy as np

from .pieces import (
    CENTRE_FACELETS, CORNER_COLOURS, CORNER_FACELETS, CORNER_NAMES, EDGE_COLOURS, EDGE_FACELETS,
    EDGE_NAMES, FACE_OF_COLOUR, FACES, COLOUR_OF_FACE, OPPOSITE, corner_slot, edge_slot,
    facelet_name, slot_facelet,
)
from .state import CubeState

SOLVED_FACELETS = "".join(f * 9 for f in FACES)

SINGMASTER_SLOTS = ("UF UR UB UL DF DR DB DL FR FL BR BL "
                    "UFR URB UBL ULF DRF DFL DLB DBR").split()
"""The slot order of the Singmaster/Reid cubie string (solved: exactly these names)."""

_LETTER_TO_FACE = {f: i for i, f in enumerate(FACES)}
_LETTER_TO_FACE.update({c: FACES.index(f) for c, f in FACE_OF_COLOUR.items()})

# Axis vectors of the faces, to tell a rotation of the centres from a reflection.
_AXIS = {0: (0, 1, 0), 1: (1, 0, 0), 2: (0, 0, 1), 3: (0, -1, 0), 4: (-1, 0, 0), 5: (0, 0, -1)}


class FaceletError(ValueError):
    """A sticker pattern that no assembled cube shows; the message says where."""


def _names(stickers, name=facelet_name) -> str:
    return " ".join(name(s) for s in stickers)


def colours_from_text(text: str, count: int = 54, name=facelet_name) -> np.ndarray:
    """`count` letters (face letters URFDLB or colours WYGBRO, any case, blanks ignored) -> face
    ids; `name` names a sticker by its index, for the messages."""
    chars = "".join(text.split())
    if len(chars) != count:
        raise FaceletError(f"expected {count} stickers, got {len(chars)}")
    colours = np.empty(count, dtype=np.int8)
    for i, ch in enumerate(chars):
        face = _LETTER_TO_FACE.get(ch.upper())
        if face is None:
            raise FaceletError(
                f"unexpected character {ch!r} at position {i + 1} (sticker {name(i)}); "
                "use face letters URFDLB or colours WYGBRO")
        colours[i] = face
    return colours


def check_colour_counts(colours, per_face: int) -> None:
    """FaceletError unless each of the six colours shows on exactly `per_face` stickers."""
    counts = np.bincount(np.asarray(colours), minlength=6)
    for face in range(6):
        if counts[face] != per_face:
            raise FaceletError(
                f"colour {FACES[face]} ({COLOUR_OF_FACE[FACES[face]]}) appears {counts[face]} "
                f"times (expected {per_face})")


def read_pieces(colours, slots, piece_colours, piece_names, kind: str,
                name=facelet_name) -> tuple[list[int], list[int]]:
    """(perm, ori) of one kind of pieces from the colours on their stickers: the piece in each
    slot, and how far its colours are turned from the slot's first sticker (a corner's twist,
    an edge's flip). FaceletError for colours no piece has, or a piece seen twice."""
    by_colours = {tuple(c): p for p, c in enumerate(piece_colours)}
    colours = colours.tolist() if isinstance(colours, np.ndarray) else colours
    perm, ori, seen = [], [], {}
    for slot, stickers in enumerate(slots):
        cols = tuple(int(colours[s]) for s in stickers)
        found = next(((by_colours[cols[k:] + cols[:k]], k) for k in range(len(cols))
                      if cols[k:] + cols[:k] in by_colours), None)
        if found is None:
            raise FaceletError(f"{kind} at {_names(stickers, name)} has colours "
                               + " ".join(FACES[c] for c in cols))
        piece, turn = found
        if piece in seen:
            raise FaceletError(
                f"{kind} {piece_names[piece]} appears twice (at "
                f"{_names(slots[seen[piece]], name)} and at {_names(stickers, name)})")
        seen[piece] = slot
        perm.append(piece)
        ori.append(turn)
    return perm, ori


def paint_pieces(colours: np.ndarray, slots, perm, ori, piece_colours) -> None:
    """Write each piece's colours onto the stickers of its slot, turned by its orientation."""
    for slot, stickers in enumerate(slots):
        piece, turn, n = int(perm[slot]), int(ori[slot]), len(stickers)
        for k in range(n):
            colours[stickers[(k + turn) % n]] = piece_colours[piece][k]


def letters(colours, colour_letters: bool = False) -> str:
    """Face ids as face letters (or colour letters WYGBRO)."""
    table = [COLOUR_OF_FACE[f] for f in FACES] if colour_letters else FACES
    return "".join(table[c] for c in colours)


def state_from_colours(colours) -> CubeState:
    """Cubie state from 54 face ids, validated; raises FaceletError naming the problem."""
    colours = np.asarray(colours)
    check_colour_counts(colours, 9)
    cc = [int(colours[s]) for s in CENTRE_FACELETS]
    if len(set(cc)) != 6:
        raise FaceletError("centres " + "".join(FACES[c] for c in cc) + " are not six distinct colours")
    _check_centres(cc)
    cp, co = read_pieces(colours, CORNER_FACELETS, CORNER_COLOURS, CORNER_NAMES, "corner")
    ep, eo = read_pieces(colours, EDGE_FACELETS, EDGE_COLOURS, EDGE_NAMES, "edge")
    return CubeState(cp, co, ep, eo, cc)


def _cross(a, b) -> tuple[int, int, int]:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _dot(a, b) -> int:
    return sum(int(x) * int(y) for x, y in zip(a, b))


def _check_centres(cc) -> None:
    for pos in range(3):
        if cc[OPPOSITE[pos]] != OPPOSITE[cc[pos]]:
            raise FaceletError(
                f"centres {FACES[cc[pos]]} and {FACES[cc[OPPOSITE[pos]]]} sit on opposite faces "
                f"{FACES[pos]} and {FACES[OPPOSITE[pos]]} but are not opposite colours")
    right, up, front = (_AXIS[cc[p]] for p in (1, 0, 2))
    # the determinant of the three axes, as a triple product: numpy.linalg.det's first call
    # (LAPACK set up) cost ~30 ms of every `cubelab facts`, for a 3x3 integer matrix
    if _dot(right, _cross(up, front)) != 1:
        raise FaceletError("centres are a mirror image of the solved cube's (no rotation gives them)")


def parse_facelets(text: str) -> CubeState:
    """The state shown by a 54-character facelet string (face letters or colour letters)."""
    return state_from_colours(colours_from_text(text))


def state_colours(state: CubeState) -> np.ndarray:
    """Face id of the colour shown on each of the 54 stickers."""
    colours = np.empty(54, dtype=np.int8)
    paint_pieces(colours, CORNER_FACELETS, state.cp, state.co, CORNER_COLOURS)
    paint_pieces(colours, EDGE_FACELETS, state.ep, state.eo, EDGE_COLOURS)
    for pos, s in enumerate(CENTRE_FACELETS):
        colours[s] = state.cc[pos]
    return colours


def to_facelets(state: CubeState, colours: bool = False) -> str:
    """The 54-character facelet string, in face letters (or colour letters WYGBRO)."""
    return letters(state_colours(state), colours)


def parse_singmaster(text: str) -> CubeState:
    """Read 'UF UR UB UL DF DR DB DL FR FL BR BL UFR URB UBL ULF DRF DFL DLB DBR' style strings:
    for each slot in that order, the colours on the slot's faces in the order of its name."""
    tokens = text.split()
    if len(tokens) != 20:
        raise FaceletError(f"expected 20 pieces (12 edges then 8 corners), got {len(tokens)}")
    colours = np.full(54, -1, dtype=np.int8)
    for s, f in zip(CENTRE_FACELETS, range(6)):
        colours[s] = f
    for n, (slot_name, token) in enumerate(zip(SINGMASTER_SLOTS, tokens), start=1):
        if len(token) != len(slot_name):
            raise FaceletError(f"piece {n} ({slot_name}) is {token!r}: expected "
                               f"{len(slot_name)} letters")
        kind = "e" if len(slot_name) == 2 else "c"
        slot = edge_slot(slot_name) if kind == "e" else corner_slot(slot_name)
        for face, ch in zip(slot_name, token):
            col = _LETTER_TO_FACE.get(ch.upper())
            if col is None:
                raise FaceletError(f"piece {n} ({slot_name}) is {token!r}: {ch!r} is not a face letter")
            colours[slot_facelet(kind, slot, face)] = col
    return state_from_colours(colours)


def to_singmaster(state: CubeState) -> str:
    colours = state_colours(state)
    out = []
    for slot_name in SINGMASTER_SLOTS:
        kind = "e" if len(slot_name) == 2 else "c"
        slot = edge_slot(slot_name) if kind == "e" else corner_slot(slot_name)
        out.append("".join(FACES[colours[slot_facelet(kind, slot, f)]] for f in slot_name))
    return " ".join(out)
