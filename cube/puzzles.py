"""The two cubes cubelab holds, behind one face: the 3x3x3 and the 2x2x2.

The command line, the REPL and the workbench ask their puzzle for everything that differs
between the cubes: applying moves, scrambles and random positions, reading a position (an alg,
or stickers after 'facelets:'), facelets and the colours of the net, what makes a position
unreachable, how long a sequence is, its facts (one record shape for both), what it can do
(its capabilities: cycle notation, the algorithm search, the pattern gallery, how deep a count
goes) and how a position carries over when the user switches cubes. Solvers are not named
here: the solver registry (`cubelab.solvers`) knows each puzzle by its `name`.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import facelets, pocket, positions, symmetry
from .alg import Move
from .facts import facts, unreachable_reason
from .facts_report import alg_record
from .metrics import Metric, gods_number
from .letters import MemoOptions, memo
from .moves import apply_moves
from .notation import metric_lengths
from .pocket import PocketState
from .positions import CUBE_FORMATS, UNREACHABLE_CUBE_FORMATS, Position
from .random_states import face_scramble, random_state
from .state import CubeState


@dataclass(frozen=True)
class Counting:
    """What `cubelab count` does on a puzzle: the depth it counts to by default and at most,
    whether a complete distance table answers every depth at once (no counting), and whether
    a Dask cluster can share the work."""

    default_depth: int
    max_depth: int
    complete: bool = False
    cluster: bool = False
    metrics: tuple[Metric, ...] = (Metric.QTM, Metric.HTM)
    """The metrics it counts in, the default first."""


class Puzzle:
    """One cube as the front ends see it: its model's parts under the same names for both
    cubes, and what is done alike with them. Use `PUZZLES`, `puzzle_named` or `puzzle_of`.
    The front ends ask its capabilities, never its name."""

    name = ""
    """How users, the solver registry and saved files name the puzzle ('3x3', '2x2')."""
    title = ""
    """How the puzzle is written in prose ('3x3x3')."""
    state_type: type = object
    """The class of its states."""
    scramble_length = 0
    """Face turns in a :scramble."""
    scramble_faces = "URFDLB"
    """The faces a scramble turns."""
    metrics: tuple[Metric, ...] = ()
    """The metrics of `lengths` (its keys)."""
    formats: dict = {}
    """Sticker formats a position may be given in, by the prefix of the line."""
    unreachable_formats: dict = {}
    """The same, reading assemblies no turns reach instead of refusing them (--unreachable);
    empty when every format reads them already."""
    parallel_solves = True
    """Whether a file of positions is worth one solving process per core."""
    cycle_notation = False
    """Its positions are read and written as Singmaster cycles (--cycles, :cycles, :case)."""
    alg_search: tuple[Metric, ...] = ()
    """The metrics the algorithm search (cubelab search, :search) counts in on it (none: it
    does not search this cube)."""
    patterns = False
    """The gallery of named patterns (:pattern, targets by pattern name) holds its positions."""
    counting: Counting | None = None
    """How `cubelab count` counts its positions (None: it does not)."""
    player_puzzle: str | None = None
    """How the cubing.js player names it (None: the player's default cube)."""
    layer_count = 0
    """Layers along each axis (a move turning all of them turns the whole puzzle)."""

    # The model's parts, named by each cube: apply(state, moves) (a ValueError for a move the
    # cube lacks), is_solved(state) (solved however it is held), random(seed), parse_facelets(text) and from_colours(face ids) (FaceletError
    # says what is wrong), to_facelets(state), state_colours(state), unreachable(state) (the
    # reason, or None), lengths(moves) (by metric), facts(state) (a dict), morph_class(state).

    def identity(self):
        return self.state_type.identity()

    def gods_number(self, metric: Metric | str) -> int | None:
        """The most moves any position needs in the metric (None where not known)."""
        return gods_number(self.name, metric)

    def length_text(self, moves) -> str:
        """'8 HTM  10 QTM ...': a sequence's length in each of the puzzle's metrics."""
        n = self.lengths(moves)
        return "  ".join(f"{n[m.value]} {m.title}" for m in self.metrics)

    def owns(self, state) -> bool:
        return isinstance(state, self.state_type)

    def scramble(self, seed) -> list[Move]:
        return face_scramble(seed, self.scramble_length, self.scramble_faces)

    def colours(self, state) -> list[int]:
        """The face id each sticker shows, in facelet order (what the net draws)."""
        return [int(c) for c in self.state_colours(state)]

    # ---- positions as users type them
    def from_alg(self, text: str) -> Position:
        """PositionError (a ValueError) for bad notation or a move the puzzle lacks."""
        return positions.from_alg(text, self.apply, self.identity())

    def from_facelets(self, text: str) -> Position:
        return positions.from_facelets(text, self.parse_facelets)

    def position(self, line: str, unreachable: bool = False) -> Position:
        """An alg, or a sticker format's prefix ('facelets:') and stickers; PositionError.
        With `unreachable`, a format that refuses assemblies no turns reach reads them."""
        formats = (self.unreachable_formats or self.formats) if unreachable else self.formats
        return positions.parse_position(line, self.apply, self.identity(), formats)

    def solves(self, state, moves) -> bool:
        """Whether the moves take the position to solved (however the cube is then held)."""
        return self.is_solved(self.apply(state, moves))

    def facts_record(self, position: Position, show_class: bool = False,
                     memo_options: MemoOptions = MemoOptions()) -> dict:
        """What `cubelab facts --json` prints: the state's facts, its blindfold memo (in the
        letter scheme and from the buffers of `memo_options`), then its alg's (if any), then
        with `show_class` the facelets of the positions in its morph class."""
        record = self.facts(position.state)
        record["memo"] = memo(position.state, memo_options).as_dict()
        record.update(alg_record(position, self.lengths))
        if show_class:
            record["class"] = [self.to_facelets(s) for s in self.morph_class(position.state)]
        return record


class Cube3(Puzzle):
    """The 3x3x3: CubeState, every move of the notation, 54 stickers, the 3x3 solvers."""

    name = "3x3"
    title = "3x3x3"
    layer_count = 3
    state_type = CubeState
    scramble_length = 20
    metrics = (Metric.HTM, Metric.QTM, Metric.STM, Metric.ETM)
    formats = CUBE_FORMATS
    cycle_notation = patterns = True
    alg_search = (Metric.HTM, Metric.QTM)
    counting = Counting(default_depth=7, max_depth=20, cluster=True)
    unreachable_formats = UNREACHABLE_CUBE_FORMATS

    apply = staticmethod(apply_moves)
    is_solved = staticmethod(CubeState.is_solved)
    random = staticmethod(random_state)
    parse_facelets = staticmethod(facelets.parse_facelets)
    from_colours = staticmethod(facelets.state_from_colours)
    to_facelets = staticmethod(facelets.to_facelets)
    state_colours = staticmethod(facelets.state_colours)
    unreachable = staticmethod(unreachable_reason)
    lengths = staticmethod(metric_lengths)

    def facts(self, state: CubeState) -> dict:
        return facts(state).as_dict()

    def morph_class(self, state: CubeState) -> list[CubeState]:
        return symmetry.morph_class(state.normalized())

    def blank(self) -> list[int]:
        """Stickers to paint from: all blank but the centres, which never move."""
        colours = [-1] * 54
        for face in range(6):
            colours[face * 9 + 4] = face
        return colours

    def carry(self, state, moves: tuple[Move, ...]) -> tuple[CubeState, tuple[Move, ...], str]:
        """A 2x2x2 position on the 3x3x3: its sequence replayed when that gives the same corners
        (wide turns differ: a rotation on the 2x2x2, two layers here), else solved."""
        if moves:
            replayed = apply_moves(CubeState.identity(), moves)
            if PocketState.from_cube(replayed) == state:
                return replayed, moves, "the sequence replayed"
        if state == PocketState.identity():
            return CubeState.identity(), (), "solved"
        return CubeState.identity(), (), "solved (no sequence to replay for that position)"


class Cube2(Puzzle):
    """The 2x2x2: PocketState, face turns and rotations (wide turns are rotations), 24
    stickers, the optimal solver in HTM and QTM."""

    name = "2x2"
    title = "2x2x2"
    layer_count = 2
    state_type = PocketState
    scramble_length = 11
    scramble_faces = "URF"
    """U, R and F reach every position with DLB held still, so the scramble does too."""
    metrics = (Metric.HTM, Metric.QTM)
    formats = {"facelets:": pocket.parse_facelets}
    parallel_solves = False
    """Its solver walks a table in microseconds: worker processes would only add start-up."""
    counting = Counting(default_depth=14, max_depth=14, complete=True)
    """Its complete distance table holds every depth (14, God's number in QTM)."""
    player_puzzle = "2x2x2"

    apply = staticmethod(pocket.apply_moves)
    is_solved = staticmethod(PocketState.is_rotation)
    random = staticmethod(pocket.random_state)
    parse_facelets = staticmethod(pocket.parse_facelets)
    from_colours = staticmethod(pocket.state_from_colours)
    to_facelets = staticmethod(pocket.to_facelets)
    state_colours = staticmethod(pocket.state_colours)
    unreachable = staticmethod(pocket.unreachable_reason)
    lengths = staticmethod(pocket.lengths)
    facts = staticmethod(pocket.facts)

    def morph_class(self, state: PocketState) -> list[PocketState]:
        return sorted(pocket.morph_class(state), key=pocket.to_facelets)

    def blank(self) -> list[int]:
        return [-1] * pocket.N_FACELETS    # no centres: nothing is given

    def carry(self, state, moves: tuple[Move, ...]) -> tuple[PocketState, tuple[Move, ...], str]:
        """A 3x3x3 position on the 2x2x2: its corners, with its sequence when that sequence
        gives the same corners here (no slices or wide turns)."""
        corners = PocketState.from_cube(state)
        try:
            if moves and pocket.apply_moves(self.identity(), moves) == corners:
                return corners, moves, "the corners and the sequence carried over"
        except pocket.PocketError:
            return corners, (), "the corners carried over (no slices here: sequence dropped)"
        if moves:
            return corners, (), "the corners carried over (wide turns differ: sequence dropped)"
        return corners, (), "the corners carried over"


CUBE3, CUBE2 = Cube3(), Cube2()

PUZZLES = {p.name: p for p in (CUBE3, CUBE2)}
"""Puzzle name (as typed after :puzzle and --puzzle) -> puzzle."""
DEFAULT_PUZZLE = CUBE3
"""The cube commands take when none is named, and the workbench's layout is sized for."""


def puzzle_of(state) -> Puzzle:
    """The puzzle a state belongs to."""
    return next(p for p in PUZZLES.values() if p.owns(state))


def puzzle_named(text: str) -> Puzzle:
    """The puzzle for what a user typed: 3x3, 3, 3x3x3, 2x2, 2, 2x2x2 or pocket; KeyError."""
    key = text.strip().lower()
    aliases = {"3": "3x3", "3x3x3": "3x3", "2": "2x2", "2x2x2": "2x2", "pocket": "2x2"}
    return PUZZLES[aliases.get(key, key)]


if __name__ == "__main__":
    for puzzle in PUZZLES.values():
        moves = puzzle.scramble(1)
        print(puzzle.title, " ".join(map(str, moves)),
              puzzle.to_facelets(puzzle.apply(puzzle.identity(), moves)))
