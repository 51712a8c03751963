"""Masked facelets: a sticker string whose unknown stickers are `*` or `?` (grey), read as a
position and a goal at once: the solver solves what is shown.

How a piece is read, by what its stickers show (as Cube Explorer does, a grey sticker hides
its colour; we go further and use every colour that shows):

- every sticker grey: the piece is ignored (any piece may sit there, turned any way);
- enough stickers to know the piece (all of them, or two of a corner's three): the piece must
  end solved;
- one sticker only (the piece is one of the four with that colour): that sticker must end on
  the face of its colour, the piece may be any of the four. Pieces showing the same colour
  are interchangeable: an OLL case is its U stickers shown, the rest grey.

Centres: the visible centres count (a goal relative to them); grey centres do not, so a
position with every centre grey is solved up to a whole-cube rotation.

Everything that cannot belong to a real position is refused with the sticker or piece: a
colour more than nine times, centres that no rotation shows, a piece no cube has, the same
piece twice, more pieces showing a colour than there are, twists or flips that cannot add up.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .completion import Impossible, complete, raw_trace
from .facelets import FaceletError
from .goals import (
    N_CORNERS, N_EDGES, STICKERS, Condition, Goal, GoalError, TurnedGoal, solved_codes,
)
from .goals import face_of_code
from .moves import rotations
from .pieces import (
    CENTRE_FACELETS, CORNER_COLOURS, CORNER_FACELETS, CORNER_NAMES, EDGE_COLOURS,
    EDGE_FACELETS, EDGE_NAMES, FACE_OF_COLOUR, FACES, facelet_name,
)
from .state import CubeState

GREY = -1
GREY_CHARS = "*?"

_LETTER = {f: i for i, f in enumerate(FACES)}
_LETTER.update({c: FACES.index(f) for c, f in FACE_OF_COLOUR.items()})
_PARTS = {"c": (CORNER_FACELETS, CORNER_COLOURS, CORNER_NAMES, "corner"),
          "e": (EDGE_FACELETS, EDGE_COLOURS, EDGE_NAMES, "edge")}


def is_masked(text: str) -> bool:
    """Whether a facelet string has grey stickers."""
    return any(ch in GREY_CHARS for ch in text)


@dataclass(frozen=True)
class MaskedPosition:
    """What masked facelets say: `state` one position they show (grey pieces filled in, a
    reachable whole), `goal` what is shown, solved; `allowed` per orbit the (piece, slot, ori)
    the stickers allow; `colours` the 54 stickers (-1 grey)."""

    state: CubeState
    goal: Goal
    allowed: dict
    colours: tuple

    def known(self, orbit: str, piece: int) -> tuple[int, tuple] | None:
        """(slot, orientations) of a piece the stickers pin to one slot, else None."""
        a = self.allowed[orbit][piece]
        slots = np.nonzero(a.any(axis=1))[0]
        if len(slots) != 1:
            return None
        s = int(slots[0])
        return s, tuple(int(o) for o in np.nonzero(a[s])[0])


def read_colours(text: str) -> np.ndarray:
    """54 face ids, -1 for grey; FaceletError for a length or a character that is wrong."""
    chars = "".join(text.split())
    if len(chars) != 54:
        raise FaceletError(f"expected 54 stickers, got {len(chars)}")
    out = np.empty(54, np.int64)
    for i, ch in enumerate(chars):
        if ch in GREY_CHARS:
            out[i] = GREY
            continue
        face = _LETTER.get(ch.upper())
        if face is None:
            raise FaceletError(f"unexpected character {ch!r} at position {i + 1} (sticker "
                               f"{facelet_name(i)}); use face letters URFDLB, colours WYGBRO, "
                               "or * / ? for a grey sticker")
        out[i] = face
    return out


def _centres(colours) -> tuple[CubeState, frozenset]:
    """A rotation the visible centres show, and the faces (colours) of the visible centres."""
    shown = {pos: int(colours[s]) for pos, s in enumerate(CENTRE_FACELETS) if colours[s] >= 0}
    for r in rotations():
        if all(int(r.cc[pos]) == c for pos, c in shown.items()):
            return r, frozenset(shown.values())
    names = " ".join(f"{FACES[p]}5={FACES[c]}" for p, c in shown.items())
    raise FaceletError(f"no whole-cube rotation shows these centres ({names})")


def _allowed(colours, orbit: str) -> np.ndarray:
    """allowed[piece, slot, ori]: the piece, turned ori, shows the slot's visible colours."""
    slots, piece_colours, names, kind = _PARTS[orbit]
    n, k = len(slots), STICKERS[orbit]
    a = np.zeros((n, n, k), bool)
    for s, stickers in enumerate(slots):
        shown = [(j, int(colours[f])) for j, f in enumerate(stickers) if colours[f] >= 0]
        for p in range(n):
            for o in range(k):
                a[p, s, o] = all(piece_colours[p][(j - o) % k] == c for j, c in shown)
        if shown and not a[:, s, :].any():
            show = " ".join(f"{facelet_name(stickers[j])}={FACES[c]}" for j, c in shown)
            raise FaceletError(f"{kind} at {_where(stickers)} shows {show}: no {kind} has "
                               f"{'those colours' if len(shown) > 1 else 'that colour there'}")
    return a


def _pin(a: np.ndarray) -> np.ndarray:
    """A piece that is the only candidate of some slot is nowhere else (repeated until
    nothing changes): what the stickers pin down, pinned."""
    changed = True
    while changed:
        changed = False
        for s in range(a.shape[1]):
            pieces = np.nonzero(a[:, s, :].any(axis=1))[0]
            if len(pieces) != 1:
                continue
            p = int(pieces[0])
            others = [t for t in range(a.shape[1]) if t != s and a[p, t].any()]
            for t in others:
                a[p, t, :] = False
                changed = True
    return a


def _where(stickers) -> str:
    return " ".join(facelet_name(f) for f in stickers)


def _conditions(colours, allowed, orbit: str) -> list:
    """Each piece's condition, by what its slot shows (the piece being the one the completion
    put there)."""
    slots, piece_colours, _, _ = _PARTS[orbit]
    return [_slot_condition(colours, allowed, orbit, s) for s in range(len(slots))]


def _slot_condition(colours, allowed, orbit, s):
    slots, piece_colours, _, _ = _PARTS[orbit]
    shown = [(j, int(colours[f])) for j, f in enumerate(slots[s]) if colours[f] >= 0]
    if not shown:
        return None
    candidates = {p for p in range(len(slots)) if allowed[p, s].any()}
    if len(candidates) == 1 or len(shown) >= 2:
        return "solved"
    return ("sticker", shown[0][1])


def read_masked(text: str) -> MaskedPosition:
    """The position and goal masked facelets show; FaceletError saying what cannot be."""
    colours = read_colours(text)
    counts = np.bincount(colours[colours >= 0], minlength=6)
    for face in range(6):
        if counts[face] > 9:
            raise FaceletError(f"colour {FACES[face]} appears {counts[face]} times (at most 9)")
    rotation, centres = _centres(colours)
    allowed = {"c": _pin(_allowed(colours, "c")), "e": _pin(_allowed(colours, "e"))}
    try:
        state = complete(allowed["c"], allowed["e"], rotation.cc, raw_trace(rotation))
    except Impossible as why:
        raise FaceletError(_explain(why)) from None
    conds = {"c": [None] * N_CORNERS, "e": [None] * N_EDGES}
    for orbit, perm in (("c", state.cp), ("e", state.ep)):
        for s, what in enumerate(_conditions(colours, allowed[orbit], orbit)):
            if what is None:
                continue
            piece = int(perm[s])
            if what == "solved":
                conds[orbit][piece] = Condition("full", solved_codes(orbit, [piece]))
            else:
                conds[orbit][piece] = sticker_condition(orbit, piece, what[1])
    goal = Goal("shown stickers", tuple(conds["c"]), tuple(conds["e"]), centres,
                about="the stickers shown, solved", auf="U")
    if not any(goal.corners) and not any(goal.edges):
        raise FaceletError("every corner and edge sticker is grey: nothing to solve")
    return MaskedPosition(state, goal, allowed, tuple(int(c) for c in colours))


def sticker_condition(orbit: str, piece: int, colour: int) -> Condition:
    """The piece's sticker of that colour must end on the face of its colour."""
    _, piece_colours, _, _ = _PARTS[orbit]
    k = piece_colours[piece].index(colour)
    n = STICKERS[orbit]
    codes = [c for c in range(len(_PARTS[orbit][0]) * n)
             if face_of_code(orbit, c) == FACES[colour]]
    return Condition("full", codes, sticker=k)


def _explain(why: Impossible) -> str:
    if why.kind == "hall":
        orbit = "c" if why.orbit == "corner" else "e"
        slots, _, names, kind = _PARTS[orbit]
        places = "; ".join(_where(slots[s]) for s in why.slots)
        if not why.pieces:
            return f"no {kind} can show the stickers at {places}"
        pieces = ", ".join(names[p] for p in why.pieces)
        return (f"{len(why.slots)} {kind}s ({places}) show stickers that only "
                f"{len(why.pieces)} {kind}{'s' if len(why.pieces) > 1 else ''} ({pieces}) "
                f"{'have' if len(why.pieces) > 1 else 'has'}")
    if why.kind == "twist":
        return ("no position shows these stickers: the corners shown are twisted (their "
                "twists cannot add up to whole turns; a grey corner would absorb it)")
    if why.kind == "flip":
        return ("no position shows these stickers: one edge shown is flipped (an odd number "
                "of flips; a grey edge would absorb it)")
    if why.kind == "parity":
        return ("no position shows these stickers: two pieces shown are swapped (the corner "
                "and edge permutations differ in parity; two grey pieces would absorb it)")
    return "the stickers shown are too loosely pinned to check (give more of them)"


def require_known(goal: TurnedGoal, masked: MaskedPosition) -> None:
    """GoalError when the goal's demand on some slot depends on what the stickers leave open.

    A solution is worked out on one completion of the picture; it serves every other one when
    each slot's possible occupants (piece, orientation) ask the same of it. A piece the goal
    needs placed must be the only candidate of its slot, turned one way; a piece that must
    only show a sticker on a face (OLL's U stickers) may be any of the pieces whose tracked
    sticker sits at the same facelet with the same accepted codes; a piece the goal ignores
    may share a slot only with other ignored ones."""
    y = goal.rotation
    for orbit in "ce":
        slots, _, names, kind = _PARTS[orbit]
        n = STICKERS[orbit]
        ymap = y.cp if orbit == "c" else y.ep
        joint = {p for j in goal.goal.joints if j.orbit == orbit for p in j.pieces}
        tracked = set(goal.goal.tracked(orbit))
        conditions = goal.goal.conditions(orbit)
        allowed = masked.allowed[orbit]
        for s in range(len(slots)):
            demands = set()
            for q, o in zip(*np.nonzero(allowed[:, s, :])):
                # the goal reads Y T Y^-1: the held piece q is the goal's piece Y.perm[q]
                p = int(ymap[int(q)])
                if p not in tracked:
                    demands.add(None)
                    continue
                cond = conditions[p]
                if cond is None or p in joint or len(cond.accept) == 1:
                    demands.add(("whole", p, int(o)))
                elif cond.kind == "slot":
                    demands.add(("slot", cond.accept))
                else:
                    demands.add(("sticker", cond.accept, slots[s][(cond.sticker + int(o)) % n]))
            if len(demands) > 1:
                raise GoalError(f"goal {goal.name} needs the {kind} {names[s]}, which the "
                                "stickers shown do not pin down (grey where it would show)")


# ---- a masked position turned: the grey stickers travel with their pieces --------------------

def sticker_owners(state: CubeState) -> np.ndarray:
    """What sits on each of the 54 stickers of `state`: a number naming the piece and which of
    its stickers (corners 0-23, edges 100-123, centres 200-205), the same wherever it is."""
    from .facelets import paint_pieces
    owners = np.empty(54, np.int64)
    paint_pieces(owners, CORNER_FACELETS, state.cp, state.co,
                 [tuple(3 * p + k for k in range(3)) for p in range(N_CORNERS)])
    paint_pieces(owners, EDGE_FACELETS, state.ep, state.eo,
                 [tuple(100 + 2 * p + k for k in range(2)) for p in range(N_EDGES)])
    for pos, s in enumerate(CENTRE_FACELETS):
        owners[s] = 200 + int(state.cc[pos])
    return owners


def one_completion(masked: MaskedPosition) -> bool:
    """Whether the stickers shown allow one position only (its facts are then the picture's)."""
    return hidden_choice(masked) is None


def hidden_choice(masked: MaskedPosition) -> str | None:
    """None when the stickers shown allow one position only; else where another one differs
    ("a grey centre", "the corner at DFR"). For each piece not pinned by its stickers, a
    completion is sought with the piece barred from where the first completion put it: every
    search refused means there is no other. A search that gives up counts as another."""
    return _hidden_choice(masked.colours)


@lru_cache(maxsize=64)
def _hidden_choice(colours: tuple) -> str | None:
    shown = np.asarray(colours)
    if any(shown[s] < 0 for s in CENTRE_FACELETS):
        return "a grey centre"      # solved up to a rotation: the held one is a choice
    rotation, _ = _centres(shown)
    allowed = {"c": _pin(_allowed(shown, "c")), "e": _pin(_allowed(shown, "e"))}
    first = complete(allowed["c"], allowed["e"], rotation.cc, raw_trace(rotation))
    placed = {"c": (first.cp, first.co), "e": (first.ep, first.eo)}
    for orbit in "ce":
        perm, ori = placed[orbit]
        _, _, names, kind = _PARTS[orbit]
        for slot in range(len(perm)):
            piece, turn = int(perm[slot]), int(ori[slot])
            if allowed[orbit][piece].sum() == 1:
                continue        # the stickers pin it there: nothing else to try
            barred = {k: v.copy() for k, v in allowed.items()}
            barred[orbit][piece, slot, turn] = False
            try:
                complete(barred["c"], barred["e"], rotation.cc, raw_trace(rotation))
            except Impossible as why:
                if why.kind != "too hard":
                    continue
            return f"the {kind} at {names[slot]}"
    return None


def grey_at(masked: MaskedPosition, state: CubeState) -> frozenset:
    """The stickers of `state` (masked.state turned by some moves) that are grey: those the
    grey stickers of the picture travelled to."""
    owners = sticker_owners(masked.state)
    hidden = {int(owners[i]) for i, c in enumerate(masked.colours) if c < 0}
    return frozenset(i for i, o in enumerate(sticker_owners(state)) if int(o) in hidden)


def turned(masked: MaskedPosition, state: CubeState) -> MaskedPosition:
    """The masked position after moves took masked.state to `state`: the same goal (it names
    the pieces of the completion, wherever they are), its stickers and what they allow read
    again from where the moves put them."""
    grey = grey_at(masked, state)
    from .facelets import state_colours
    colours = tuple(-1 if i in grey else int(c) for i, c in enumerate(state_colours(state)))
    shown = np.asarray(colours)
    allowed = {"c": _pin(_allowed(shown, "c")), "e": _pin(_allowed(shown, "e"))}
    return MaskedPosition(state, masked.goal, allowed, colours)


def masked_text(colours) -> str:
    """54 face ids (-1 grey) as the facelet string `--facelets` takes (`*` for grey)."""
    return "".join("*" if c < 0 else FACES[c] for c in colours)
