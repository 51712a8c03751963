"""The 54-sticker facelet format (Kociemba's URFDLB order) and the Singmaster/Reid cubie string.

Reading validates everything a sticker pattern can get wrong and says where: the length, the
characters, the colour counts, the centres, a sticker combination that no piece has, a piece
that appears twice. Physically assembled but unreachable states are valid assemblies.
"""

from __future__ import annotations

import numpy as np

from .pieces import (
    CENTRE_FACELETS, CORNER_COLOURS, CORNER_FACELETS, CORNER_NAMES, EDGE_COLOURS, EDGE_FACELETS,
    EDGE_NAMES, FACE_OF_COLOUR, FACES, COLOUR_OF_FACE, OPPOSITE, D, U, facelet_name,
    slot_facelet,
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


def _names(stickers) -> str:
    return " ".join(facelet_name(s) for s in stickers)


def colours_from_text(text: str) -> np.ndarray:
    """54 letters (face letters URFDLB or colours WYGBRO, any case, blanks ignored) -> face ids."""
    chars = "".join(text.split())
    if len(chars) != 54:
        raise FaceletError(f"expected 54 stickers, got {len(chars)}")
    colours = np.empty(54, dtype=np.int8)
    for i, ch in enumerate(chars):
        face = _LETTER_TO_FACE.get(ch.upper())
        if face is None:
            raise FaceletError(
                f"unexpected character {ch!r} at position {i + 1} (sticker {facelet_name(i)}); "
                "use face letters URFDLB or colours WYGBRO")
        colours[i] = face
    return colours


def state_from_colours(colours) -> CubeState:
    """Cubie state from 54 face ids, validated; raises FaceletError naming the problem."""
    colours = np.asarray(colours)
    counts = np.bincount(colours, minlength=6)
    for face in range(6):
        if counts[face] != 9:
            raise FaceletError(
                f"colour {FACES[face]} ({COLOUR_OF_FACE[FACES[face]]}) appears {counts[face]} "
                "times (expected 9)")
    cc = [int(colours[s]) for s in CENTRE_FACELETS]
    if len(set(cc)) != 6:
        raise FaceletError("centres " + "".join(FACES[c] for c in cc) + " are not six distinct colours")
    _check_centres(cc)

    cp, co = [0] * 8, [0] * 8
    seen_corner: dict[int, int] = {}
    for slot, stickers in enumerate(CORNER_FACELETS):
        cols = [int(colours[s]) for s in stickers]
        twist = next((k for k in range(3) if cols[k] in (U, D)), None)
        piece = None
        if twist is not None:
            turned = (cols[twist], cols[(twist + 1) % 3], cols[(twist + 2) % 3])
            piece = next((p for p, pc in enumerate(CORNER_COLOURS) if pc == turned), None)
        if piece is None:
            raise FaceletError(f"corner at {_names(stickers)} has colours "
                               + " ".join(FACES[c] for c in cols))
        if piece in seen_corner:
            raise FaceletError(
                f"corner {CORNER_NAMES[piece]} appears twice (at "
                f"{_names(CORNER_FACELETS[seen_corner[piece]])} and at {_names(stickers)})")
        seen_corner[piece] = slot
        cp[slot], co[slot] = piece, twist

    ep, eo = [0] * 12, [0] * 12
    seen_edge: dict[int, int] = {}
    for slot, stickers in enumerate(EDGE_FACELETS):
        cols = (int(colours[stickers[0]]), int(colours[stickers[1]]))
        piece, flip = None, 0
        for p, pc in enumerate(EDGE_COLOURS):
            if pc == cols:
                piece, flip = p, 0
            elif pc == cols[::-1]:
                piece, flip = p, 1
        if piece is None:
            raise FaceletError(f"edge at {_names(stickers)} has colours "
                               + " ".join(FACES[c] for c in cols))
        if piece in seen_edge:
            raise FaceletError(
                f"edge {EDGE_NAMES[piece]} appears twice (at "
                f"{_names(EDGE_FACELETS[seen_edge[piece]])} and at {_names(stickers)})")
        seen_edge[piece] = slot
        ep[slot], eo[slot] = piece, flip
    return CubeState(cp, co, ep, eo, cc)


def _check_centres(cc) -> None:
    for pos in range(3):
        if cc[OPPOSITE[pos]] != OPPOSITE[cc[pos]]:
            raise FaceletError(
                f"centres {FACES[cc[pos]]} and {FACES[cc[OPPOSITE[pos]]]} sit on opposite faces "
                f"{FACES[pos]} and {FACES[OPPOSITE[pos]]} but are not opposite colours")
    right, up, front = (np.array(_AXIS[cc[p]]) for p in (1, 0, 2))
    if int(np.linalg.det(np.array([right, up, front]))) != 1:
        raise FaceletError("centres are a mirror image of the solved cube's (no rotation gives them)")


def parse_facelets(text: str) -> CubeState:
    """The state shown by a 54-character facelet string (face letters or colour letters)."""
    return state_from_colours(colours_from_text(text))


def state_colours(state: CubeState) -> np.ndarray:
    """Face id of the colour shown on each of the 54 stickers."""
    colours = np.empty(54, dtype=np.int8)
    for slot, stickers in enumerate(CORNER_FACELETS):
        piece, twist = int(state.cp[slot]), int(state.co[slot])
        for k in range(3):
            colours[stickers[(k + twist) % 3]] = CORNER_COLOURS[piece][k]
    for slot, stickers in enumerate(EDGE_FACELETS):
        piece, flip = int(state.ep[slot]), int(state.eo[slot])
        for k in range(2):
            colours[stickers[(k + flip) % 2]] = EDGE_COLOURS[piece][k]
    for pos, s in enumerate(CENTRE_FACELETS):
        colours[s] = state.cc[pos]
    return colours


def to_facelets(state: CubeState, colours: bool = False) -> str:
    """The 54-character facelet string, in face letters (or colour letters WYGBRO)."""
    letters = [COLOUR_OF_FACE[f] for f in FACES] if colours else FACES
    return "".join(letters[c] for c in state_colours(state))


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
        from .pieces import corner_slot, edge_slot
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
    from .pieces import corner_slot, edge_slot
    for slot_name in SINGMASTER_SLOTS:
        kind = "e" if len(slot_name) == 2 else "c"
        slot = edge_slot(slot_name) if kind == "e" else corner_slot(slot_name)
        out.append("".join(FACES[colours[slot_facelet(kind, slot, f)]] for f in slot_name))
    return " ".join(out)
