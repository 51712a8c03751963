"""Names and sticker positions of the cube's faces, corners and edges (Kociemba's conventions)."""

from __future__ import annotations

FACES = "URFDLB"
"""Face letters in Kociemba's facelet order; a face's index is its position here."""

U, R, F, D, L, B = range(6)

OPPOSITE = (D, L, B, U, R, F)

COLOUR_OF_FACE = {"U": "W", "R": "R", "F": "G", "D": "Y", "L": "O", "B": "B"}
"""The colour scheme: white U, red R, green F, yellow D, orange L, blue B."""

FACE_OF_COLOUR = {c: f for f, c in COLOUR_OF_FACE.items()}

CORNER_KOCIEMBA = ("URF", "UFL", "ULB", "UBR", "DFR", "DLF", "DBL", "DRB")
"""Corner slots in Kociemba's order; each name lists its faces clockwise from the U/D face."""

CORNER_NAMES = ("UFR", "ULF", "UBL", "URB", "DRF", "DFL", "DLB", "DBR")
"""The same slots spelt as Singmaster and Reid spell them (used in cycle notation)."""

EDGE_NAMES = ("UR", "UF", "UL", "UB", "DR", "DF", "DL", "DB", "FR", "FL", "BL", "BR")
"""Edge slots in Kociemba's order; the first face is the one that defines the flip."""


def facelet_index(name: str) -> int:
    """'U1' -> 0, 'R1' -> 9, ..., 'B9' -> 53."""
    return FACES.index(name[0]) * 9 + int(name[1]) - 1


def facelet_name(index: int) -> str:
    return f"{FACES[index // 9]}{index % 9 + 1}"


CORNER_FACELETS = tuple(
    tuple(facelet_index(n) for n in names)
    for names in (
        ("U9", "R1", "F3"), ("U7", "F1", "L3"), ("U1", "L1", "B3"), ("U3", "B1", "R3"),
        ("D3", "F9", "R7"), ("D1", "L9", "F7"), ("D7", "B9", "L7"), ("D9", "R9", "B7"),
    )
)
"""For each corner slot, its three stickers clockwise, starting with the U or D sticker."""

EDGE_FACELETS = tuple(
    tuple(facelet_index(n) for n in names)
    for names in (
        ("U6", "R2"), ("U8", "F2"), ("U4", "L2"), ("U2", "B2"), ("D6", "R8"), ("D2", "F8"),
        ("D4", "L8"), ("D8", "B8"), ("F6", "R4"), ("F4", "L6"), ("B6", "L4"), ("B4", "R6"),
    )
)
"""For each edge slot, its two stickers, the orientation-defining one first."""

CENTRE_FACELETS = tuple(9 * f + 4 for f in range(6))

CORNER_COLOURS = tuple(tuple(FACES.index(ch) for ch in name) for name in CORNER_KOCIEMBA)
EDGE_COLOURS = tuple(tuple(FACES.index(ch) for ch in name) for name in EDGE_NAMES)

_CORNER_BY_NAME = {}
for _i, _name in enumerate(CORNER_KOCIEMBA):
    _CORNER_BY_NAME[frozenset(_name)] = _i
_EDGE_BY_NAME = {frozenset(n): i for i, n in enumerate(EDGE_NAMES)}


def corner_slot(name: str) -> int:
    """Index of a corner slot from any spelling of its faces ('UFR', 'RFU', 'urf')."""
    key = frozenset(name.upper())
    if len(name) != 3 or key not in _CORNER_BY_NAME:
        raise KeyError(f"no corner named {name!r}")
    return _CORNER_BY_NAME[key]


def edge_slot(name: str) -> int:
    """Index of an edge slot from any spelling of its faces ('UF', 'FU')."""
    key = frozenset(name.upper())
    if len(name) != 2 or key not in _EDGE_BY_NAME:
        raise KeyError(f"no edge named {name!r}")
    return _EDGE_BY_NAME[key]


def slot_facelet(kind: str, slot: int, face: str) -> int:
    """The sticker of a corner ('c') or edge ('e') slot that lies on the given face."""
    stickers = CORNER_FACELETS[slot] if kind == "c" else EDGE_FACELETS[slot]
    for s in stickers:
        if FACES[s // 9] == face:
            return s
    raise KeyError(f"slot has no sticker on face {face}")
