"""Goals: which pieces must be solved, and which of their attributes count.

A goal is a predicate on positions, made of one condition per piece that matters (the others
are ignored), which centres must be in place, and optionally joint conditions on several pieces.

A piece's condition reads its *code*: for a corner, `slot * 3 + t` where t is the position, in
the slot's stickers (`pieces.CORNER_FACELETS`, U/D sticker first), of the piece's *tracked
sticker* (sticker k of the piece, k = 0 its U/D sticker); for an edge `slot * 2 + t` likewise;
or, for a condition on the slot alone, just the slot. The condition is the set of codes it
accepts:

- solved: the home slot, tracked sticker 0 at position 0 (placed and oriented);
- placed: the home slot (any orientation);
- oriented: any slot, sticker 0 at position 0 (a corner's U/D colour on the U or D face; an
  edge's first colour on the slot's first face: Kociemba's edge orientation, F/B axis);
- in its slice (edges: M, E or S) or tetrad (corners), with or without orientation;
- from stickers (masked facelets): a visible sticker must end on the face of its colour.

Goals are read relative to the centres: a position meets a goal when, turned as a whole so its
centres are home, it meets the conditions; and when some centres do not count (Roux blocks care
for L and R only), a whole-cube rotation keeping the centres that count is also allowed. A
`TurnedGoal` is a goal built on another face or axis (`cross:U`) by a whole-cube rotation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from .alg import ColumnError
from .moves import rotations
from .pieces import CORNER_FACELETS, CORNER_NAMES, EDGE_FACELETS, EDGE_NAMES, FACES
from .state import CubeState, as_lists, lists_product, rotation_with_centres

N_CORNERS, N_EDGES = 8, 12
STICKERS = {"c": 3, "e": 2}
"""Stickers on a piece of each orbit ('c' corners, 'e' edges)."""
SLOTS = {"c": N_CORNERS, "e": N_EDGES}
NAMES = {"c": CORNER_NAMES, "e": EDGE_NAMES}
SLICES = {"M": (1, 3, 5, 7), "E": (8, 9, 10, 11), "S": (0, 2, 4, 6)}
"""Edge slots of each slice (UF UB DF DB; FR FL BL BR; UR UL DR DL)."""
TETRADS = ((0, 2, 5, 7), (1, 3, 4, 6))
"""Corner slots of the two tetrads that half turns keep apart."""


class GoalError(ColumnError):
    """A goal that cannot be used: unknown, malformed, met by no position, or at odds with the
    stickers given; the message says where (column, when the goal was typed)."""


@dataclass(frozen=True)
class Condition:
    """What one piece must satisfy: its code (kind "full": slot and tracked sticker position;
    kind "slot": the slot alone) must be in `accept`."""

    kind: str
    accept: frozenset
    sticker: int = 0
    """Which sticker of the piece a full code tracks (0: the U/D sticker, or an edge's first)."""

    def __post_init__(self):
        if self.kind not in ("full", "slot"):
            raise ValueError(f"condition kind {self.kind!r}")
        object.__setattr__(self, "accept", frozenset(int(c) for c in self.accept))


@dataclass(frozen=True)
class Joint:
    """A condition on several pieces of one orbit together: their full codes (sticker 0), in the
    order of `pieces`, must be one of `targets`."""

    orbit: str
    pieces: tuple[int, ...]
    targets: frozenset
    name: str = ""


def code_of(state: CubeState, orbit: str, piece: int, cond: Condition) -> int:
    """The code of a piece in a state, as its condition reads it."""
    perm, ori = (state.cp, state.co) if orbit == "c" else (state.ep, state.eo)
    slot = int(next(i for i in range(len(perm)) if perm[i] == piece))
    if cond.kind == "slot":
        return slot
    n = STICKERS[orbit]
    return slot * n + (cond.sticker + int(ori[slot])) % n


def face_of_code(orbit: str, code: int) -> str:
    """The face a full code's tracked sticker lies on."""
    n = STICKERS[orbit]
    slot, t = divmod(code, n)
    stickers = CORNER_FACELETS[slot] if orbit == "c" else EDGE_FACELETS[slot]
    return FACES[stickers[t] // 9]


def solved_codes(orbit: str, slots, oriented: bool = True) -> frozenset:
    """Codes of the given slots with the tracked sticker at position 0 (or the slots alone)."""
    n = STICKERS[orbit]
    return frozenset(s * n for s in slots) if oriented else frozenset(slots)


@dataclass(frozen=True)
class Goal:
    """Conditions per piece (None: ignored), the centres that count, joint conditions."""

    name: str
    corners: tuple = (None,) * N_CORNERS
    edges: tuple = (None,) * N_EDGES
    centres: frozenset = frozenset(range(6))
    """Faces (0..5, FACES order) whose centres must be home; the others may be anywhere."""
    joints: tuple = ()
    about: str = ""
    auf: str | None = None
    """The face an AUF turns for this goal (None: AUF makes no sense for it)."""
    _stab: tuple = field(default=(), compare=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "corners", tuple(self.corners))
        object.__setattr__(self, "edges", tuple(self.edges))
        object.__setattr__(self, "centres", frozenset(self.centres))
        if len(self.corners) != N_CORNERS or len(self.edges) != N_EDGES:
            raise ValueError("a goal has 8 corner and 12 edge conditions")
        object.__setattr__(self, "_stab", stabiliser(self.centres))

    def conditions(self, orbit: str) -> tuple:
        return self.corners if orbit == "c" else self.edges

    def tracked(self, orbit: str) -> list[int]:
        """Pieces of the orbit with a condition or in a joint condition."""
        joint = {p for j in self.joints if j.orbit == orbit for p in j.pieces}
        return [p for p, c in enumerate(self.conditions(orbit)) if c is not None or p in joint]

    @property
    def rotations(self) -> tuple[CubeState, ...]:
        """The whole-cube rotations that keep every centre that counts (the identity first)."""
        return self._stab

    def meets(self, turned) -> bool:
        """Whether a position with its centres home (a CubeState, or its `as_lists`) meets
        the conditions as it is."""
        lists = as_lists(turned) if isinstance(turned, CubeState) else turned
        for orbit, perm, ori in (("c", lists[0], lists[1]), ("e", lists[2], lists[3])):
            n = STICKERS[orbit]
            slots = [0] * len(perm)
            for slot, piece in enumerate(perm):
                slots[piece] = slot
            for p, cond in enumerate(self.conditions(orbit)):
                if cond is None:
                    continue
                s = slots[p]
                code = s if cond.kind == "slot" else s * n + (cond.sticker + ori[s]) % n
                if code not in cond.accept:
                    return False
            for j in self.joints:
                if j.orbit == orbit and tuple(slots[p] * n + ori[slots[p]] % n
                                              for p in j.pieces) not in j.targets:
                    return False
        return True

    def is_met(self, state) -> bool:
        """Whether the position (a CubeState or its `as_lists`) meets the goal (relative to its
        centres, up to the rotations that keep the centres that count)."""
        t = turned_back_lists(as_lists(state) if isinstance(state, CubeState) else state)
        if self.meets(t):
            return True
        return any(self.meets(lists_product(t, zi)) for zi in _inverses(self.centres)[1:])

    def unmet(self, state: CubeState) -> list[str]:
        """The pieces whose conditions fail (empty when the goal is met), for messages."""
        if self.is_met(state):
            return []
        t = turned_back(state)
        out = []
        for orbit in "ce":
            for p, cond in enumerate(self.conditions(orbit)):
                if cond is not None and code_of(t, orbit, p, cond) not in cond.accept:
                    out.append(NAMES[orbit][p])
        for j in self.joints:
            if not j.name:
                continue
            full = Condition("full", ())
            if tuple(code_of(t, j.orbit, p, full) for p in j.pieces) not in j.targets:
                out.append(j.name)
        return out or ["(up to a whole-cube rotation)"]


def turned_back(state: CubeState) -> CubeState:
    """The position turned as a whole so its centres are home (S X^-1, X the rotation the
    centres show): what every goal reads."""
    if state.centres_home():
        return state
    return state * rotation_with_centres(state.cc).inverse()


@lru_cache(maxsize=64)
def _inverses(centres: frozenset) -> tuple:
    return tuple(as_lists(z.inverse()) for z in stabiliser(centres))


def turned_back_lists(lists: tuple) -> tuple:
    """`turned_back` on the lists of `as_lists`."""
    cc = lists[4]
    if cc == [0, 1, 2, 3, 4, 5]:
        return lists
    return lists_product(lists, _back(tuple(cc)))


@lru_cache(maxsize=32)
def _back(cc: tuple) -> tuple:
    return as_lists(rotation_with_centres(cc).inverse())


@lru_cache(maxsize=256)
def _rotation_lists(key: bytes, inverse: bool) -> tuple:
    state = CubeState(*[list(key[a:b]) for a, b in ((0, 8), (8, 16), (16, 28), (28, 40),
                                                     (40, 46))])
    return as_lists(state.inverse() if inverse else state)


@lru_cache(maxsize=64)
def stabiliser(centres: frozenset) -> tuple[CubeState, ...]:
    """The rotations keeping each of these centres home, identity first."""
    return tuple(r for r in rotations() if all(int(r.cc[f]) == f for f in centres))


@dataclass(frozen=True)
class TurnedGoal:
    """A goal built on another face: the position is read through a whole-cube rotation Y
    (u = Y T Y^-1, T the position turned back), so `cross` written for D serves `cross:U`.
    `label` is how users name it ("cross:U")."""

    goal: Goal
    rotation: CubeState = field(default_factory=CubeState.identity)
    label: str = ""

    @property
    def name(self) -> str:
        return self.label or self.goal.name

    def read(self, state: CubeState) -> CubeState:
        """The position as the goal reads it: turned back, then through the rotation."""
        y = self.rotation
        if y.is_identity():
            return turned_back(state)
        return y * turned_back(state) * y.inverse()

    def is_met(self, state) -> bool:
        """Whether the position (a CubeState or its `as_lists`) meets the turned goal."""
        lists = as_lists(state) if isinstance(state, CubeState) else state
        t = turned_back_lists(lists)
        if not self.rotation.is_identity():
            key = self.rotation.key()
            t = lists_product(lists_product(_rotation_lists(key, False), t),
                              _rotation_lists(key, True))
        return self.goal.is_met(t)

    def unmet(self, state: CubeState) -> list[str]:
        return self.goal.unmet(self.read(state))

    def stickers(self, state: CubeState) -> list[int]:
        """The facelets of the position as held that the goal reads (a net greys the rest):
        every sticker of a piece that must be placed, only the tracked sticker of one that
        must merely be oriented (or show a colour on its face), and the centres that count."""
        y = self.rotation
        out = []
        for orbit, perm, ori, slots, n in (("c", state.cp, state.co, CORNER_FACELETS, 3),
                                           ("e", state.ep, state.eo, EDGE_FACELETS, 2)):
            ymap = y.cp if orbit == "c" else y.ep
            held = {int(p): q for q, p in enumerate(ymap)}     # goal's piece -> held piece
            where = {int(p): s for s, p in enumerate(perm)}
            joint = {p for j in self.goal.joints if j.orbit == orbit for p in j.pieces}
            for p in self.goal.tracked(orbit):
                cond = self.goal.conditions(orbit)[p]
                slot = where[held[p]]
                whole = p in joint or cond.kind == "slot" or len(cond.accept) == 1
                ks = range(n) if whole else [cond.sticker]
                out += [slots[slot][(k + int(ori[slot])) % n] for k in ks]
        for face in self.goal.centres:
            colour = next(a for a in range(6) if int(y.cc[a]) == face)
            pos = next(i for i in range(6) if int(state.cc[i]) == colour)
            out.append(9 * pos + 4)
        return sorted(out)


def rotation_taking(pairs: dict[str, str]) -> CubeState:
    """A rotation Y with Y.cc[face] == target for each pair {face: target} (the first of the 24
    in a fixed order): reading a position through Y puts `face` where the goal has `target`."""
    for r in rotations():
        if all(FACES[int(r.cc[FACES.index(f)])] == t for f, t in pairs.items()):
            return r
    raise GoalError(f"no whole-cube rotation takes {pairs}")
