"""The case names FMC solvers give a position for a step.

- EO on an axis: the bad edges, e.g. "4e" (the edges quarter turns of that axis's faces
  flip: Kociemba's edge orientation for fb, the other axes by the rotation taking fb to them).
- DR on an axis: "XcYe": X corners whose sticker of that axis's colours is off that axis's
  faces, Y edges of the slice between those faces (E for ud, S for fb, M for rl) out of it,
  plus, when the edges are not oriented for the axis, "+Nf" flipped edges (a DR from an EO on
  another axis has none).
- HTR (from DR on an axis): the corner case by the number of corners out of their orbit
  (tetrad) and the edge case by the edges out of their slices: "Qc", e.g. "4c 2e" (4 corners
  in the wrong tetrad), read with the same rule for every DR axis.
Positions are read as held (face-turn positions keep their centres home).
"""

from __future__ import annotations

from cubelab.cube.facelets import to_facelets
from cubelab.cube.goals import turned_back
from cubelab.cube.pieces import CORNER_FACELETS, EDGE_FACELETS, FACES
from cubelab.cube.state import CubeState

# Kociemba's order: corners URF UFL ULB UBR DFR DLF DBL DRB; edges UR UF UL UB DR DF DL DB FR
# FL BL BR. The slice between two faces, as edge slots.
SLICE_EDGES = {"ud": frozenset({8, 9, 10, 11}), "fb": frozenset({0, 2, 4, 6}),
               "rl": frozenset({1, 3, 5, 7})}
TETRAD = (0, 1, 0, 1, 1, 0, 1, 0)
"""The two corner tetrads (orbits of <U2,D2,R2,L2,F2,B2>): URF ULB DLF DRB / UFL UBR DFR DBL."""

_AXIS_FACES = {"ud": "UD", "fb": "FB", "rl": "RL"}
_EO_RULE = {"fb": ("UD", "FB"), "ud": ("FB", "UD"), "rl": ("UD", "RL")}
"""(primary, secondary) faces of an axis's edge orientation. An edge's reference sticker is
its primary colour, or its secondary one when it has none; a slot's reference face is its
primary face, or its secondary one when it has none; the edge is good when its reference
sticker is on the slot's reference face (for fb this is Kociemba's edge orientation)."""

AXES = ("ud", "fb", "rl")


def _held(state: CubeState) -> CubeState:
    return turned_back(state)


def _stickers(colours: str, facelets) -> dict[str, str]:
    """{face a sticker is on: the face whose colour it shows} for one piece's stickers."""
    return {FACES[i // 9]: colours[i] for i in facelets}


def bad_edges(state: CubeState, axis: str) -> list[int]:
    """The edge slots whose edge is not oriented for the axis."""
    primary, secondary = _EO_RULE[axis]
    colours = to_facelets(_held(state))
    out = []
    for slot in range(12):
        stickers = _stickers(colours, EDGE_FACELETS[slot])
        slot_faces = "".join(stickers)
        piece = "".join(stickers.values())
        ref_colour = primary if any(c in primary for c in piece) else secondary
        ref_face = primary if any(f in primary for f in slot_faces) else secondary
        if not any(f in ref_face and c in ref_colour for f, c in stickers.items()):
            out.append(slot)
    return out


def bad_corners(state: CubeState, axis: str) -> list[int]:
    """The corner slots whose corner's sticker of the axis's colours is off the axis's faces."""
    faces = _AXIS_FACES[axis]
    colours = to_facelets(_held(state))
    return [slot for slot in range(8)
            if not any(f in faces for f, c in _stickers(colours, CORNER_FACELETS[slot]).items()
                       if c in faces)]


def slice_edges_out(state: CubeState, axis: str) -> int:
    """Edges of the axis's middle slice that are out of it."""
    s = _held(state)
    piece_slice = SLICE_EDGES[axis]
    return sum(1 for slot in range(12) if int(s.ep[slot]) in piece_slice
               and slot not in piece_slice)


def eo_case(state: CubeState, axis: str) -> str:
    return f"{len(bad_edges(state, axis))}e"


def dr_case(state: CubeState, axis: str) -> str:
    """"XcYe" (and "+Nf" when edges are flipped for this axis's DR)."""
    c = len(bad_corners(state, axis))
    e = slice_edges_out(state, axis)
    # DR on an axis needs the edges oriented for either other axis (they agree once the slice
    # is home); count flips for the first other axis with fewer
    flips = min(len(bad_edges(state, a)) for a in AXES if a != axis)
    return f"{c}c{e}e" + (f"+{flips}f" if flips else "")


def htr_case(state: CubeState) -> str:
    """Corners out of their tetrad and edges out of their slice, e.g. "4c 2e"."""
    s = _held(state)
    corners = sum(1 for slot in range(8) if TETRAD[int(s.cp[slot])] != TETRAD[slot])
    edges = sum(1 for axis in AXES for slot in range(12)
                if int(s.ep[slot]) in SLICE_EDGES[axis] and slot not in SLICE_EDGES[axis])
    return f"{corners}c {edges}e"


def case_after(kind: str, state: CubeState, axis: str | None) -> str:
    """The case the next step meets after a step of this kind: after an EO on `axis`, the DR
    case on each other axis ("ud 4c4e, rl 6c2e"); after a DR, the HTR counts."""
    if kind == "eo":
        return ", ".join(f"{a} {dr_case(state, a)}" for a in AXES if a != axis)
    if kind == "dr":
        return htr_case(state)
    return ""
