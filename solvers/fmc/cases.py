"""The case names FMC solvers give a position for a step.

- EO on an axis: the bad edges, counted and placed: "4e UF UB DL FR" (count, then the slots
  holding a bad edge, in the order UR UF UL UB DR DF DL DB FR FL BL BR; "0e" when none). An edge
  is bad when a quarter turn of that axis's faces flips it: Kociemba's edge orientation for fb,
  the other axes by the same rule with the axis's faces (see _EO_RULE).
- DR on an axis: "XcYe": X corners whose sticker of that axis's colours is off that axis's
  faces, Y edges of the slice between those faces (E for ud, S for fb, M for rl) out of it,
  plus, when the edges are not oriented for the axis, "+Nf" flipped edges (a DR from an EO on
  another axis has none).
- HTR, from DR on an axis: the "subset" name "<corner class> <N>e", e.g. "4a2 4e".

The HTR corner classes, derived from the groups. In DR every corner permutation occurs and the
orientation is solved; HTR is the half-turn group H = <U2,D2,R2,L2,F2,B2>, whose corner
permutations (96 of them) keep the two tetrads (orbits URF ULB DLF DRB / UFL UBR DFR DBL). Half
turns done before or after a position do not change how far it is from HTR, so a case is a
*double coset* H p H of the DR corner permutation p (20 of them in the 40,320 permutations). Each
double coset is named by three invariants:
- k, the corners out of their tetrad (0, 2, 4, 6 or 8; always even). k and 8 - k are named
  alike (a U D away from each other, the corners are the same relative to one another), so the
  name shows min(k, 8 - k): 0, 2 or 4;
- q, the quarter-turn count: the fewest quarter turns of the DR axis's faces (any half turns
  free) that bring the corners into H (0 for HTR corners, at most 5); its parity is the
  permutation's parity;
- for k = 4, a letter. Two pieces of each tetrad are out of it; the two out-of-tetrad corners
  sitting in one tetrad's slots share exactly one face, and so do those in the other tetrad's
  slots. H maps faces of one axis to faces of one axis, the same way on both tetrads, so
  whether those two faces are on the same axis is invariant: "a" when they are (after a
  single U the four U slots hold them: both pairs share U), "b" when not. For k = 0 or 2 the
  letter is "c".
So a class reads k, letter, q: 0c0 (HTR corners), 4a1 (one quarter turn away), 4a2, 4b2, 2c3,
4a3, 4b3, 0c3, 2c4, 4a4, 4b4, 0c4, 2c5, 4b5, and 0c2 (the U D case). The qualifier "a"/"b"
at q = 3 and q = 4 separates a class from its inverse's (the same test on the pieces instead
of the slots gives the other letter), so a position and its inverse may be named differently.
The edge count N: edges of the U/D layers (of the DR axis) out of their slice (M or S for ud),
as "Ne".
Positions are read as held (face-turn positions keep their centres home).
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache

from cubelab.cube.facelets import to_facelets
from cubelab.cube.goals import turned_back
from cubelab.cube.pieces import CORNER_FACELETS, CORNER_KOCIEMBA, EDGE_FACELETS, EDGE_NAMES, FACES
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
    """"Ne" and the slots of the bad edges, e.g. "2e UF DB"."""
    bad = bad_edges(state, axis)
    return " ".join([f"{len(bad)}e"] + [EDGE_NAMES[s] for s in bad])


def dr_case(state: CubeState, axis: str) -> str:
    """"XcYe" (and "+Nf" when edges are flipped for this axis's DR)."""
    c = len(bad_corners(state, axis))
    e = slice_edges_out(state, axis)
    # DR on an axis needs the edges oriented for either other axis (they agree once the slice
    # is home); count flips for the first other axis with fewer
    flips = min(len(bad_edges(state, a)) for a in AXES if a != axis)
    return f"{c}c{e}e" + (f"+{flips}f" if flips else "")


_QUARTER = {"ud": "U U' D D'", "fb": "F F' B B'", "rl": "R R' L L'"}


def _shared_axis(a: int, b: int) -> str:
    """The axis of the one face two corners of one tetrad share."""
    (face,) = set(CORNER_KOCIEMBA[a]) & set(CORNER_KOCIEMBA[b])
    return {"U": "ud", "D": "ud", "F": "fb", "B": "fb", "R": "rl", "L": "rl"}[face]


@lru_cache(maxsize=3)
def _quarter_turns(axis: str) -> dict:
    """{corner permutation: fewest quarter turns of the axis's faces to H}, by a breadth-first
    search from the identity where half turns cost nothing (0-1 BFS over the 40,320)."""
    from cubelab.cube.moves import alg_state
    half = [tuple(int(x) for x in alg_state(m).cp) for m in "U2 D2 R2 L2 F2 B2".split()]
    quarter = [tuple(int(x) for x in alg_state(m).cp) for m in _QUARTER[axis].split()]
    start = tuple(range(8))
    dist = {start: 0}
    todo = deque([start])
    while todo:
        p = todo.popleft()
        d = dist[p]
        for moves, cost in ((half, 0), (quarter, 1)):
            for q in moves:
                r = tuple(p[q[i]] for i in range(8))      # p then the move
                if r not in dist or dist[r] > d + cost:
                    dist[r] = d + cost
                    (todo.appendleft if cost == 0 else todo.append)(r)
    return dist


def corner_class(state: CubeState, axis: str = "ud") -> str:
    """The HTR corner class of a position in DR on `axis` (see the module docstring), e.g.
    "4a2"."""
    cp = tuple(int(x) for x in _held(state).cp)
    out = [slot for slot in range(8) if TETRAD[cp[slot]] != TETRAD[slot]]
    k = len(out)
    q = _quarter_turns(axis).get(cp)
    if k == 4:
        a_slots = [s for s in out if TETRAD[s] == 0]
        b_slots = [s for s in out if TETRAD[s] == 1]
        letter = "a" if _shared_axis(*a_slots) == _shared_axis(*b_slots) else "b"
    else:
        letter = "c"
    return f"{min(k, 8 - k)}{letter}{q}"


def htr_edges_out(state: CubeState) -> int:
    """Edges out of their slice (M, S or E), summed."""
    s = _held(state)
    return sum(1 for axis in AXES for slot in range(12)
               if int(s.ep[slot]) in SLICE_EDGES[axis] and slot not in SLICE_EDGES[axis])


def htr_case(state: CubeState, axis: str = "ud") -> str:
    """The HTR subset of a position in DR on `axis`: corner class and edges, e.g. "4a2 4e"."""
    return f"{corner_class(state, axis)} {htr_edges_out(state)}e"


def case_after(kind: str, state: CubeState, axis: str | None) -> str:
    """The case the next step meets after a step of this kind: after an EO on `axis`, the DR
    case on each other axis ("ud 4c4e, rl 6c2e"); after a DR, the HTR counts."""
    if kind == "eo":
        return ", ".join(f"{a} {dr_case(state, a)}" for a in AXES if a != axis)
    if kind == "dr":
        return htr_case(state, axis or "ud")
    return ""
