"""The two cubes cubelab holds, behind one face: the 3x3x3 and the 2x2x2.

The command line, the REPL and the workbench ask their puzzle for everything that differs
between the cubes: applying moves, scrambles and random positions, reading a position (an alg,
or stickers after 'facelets:'), facelets and the colours of the net, what makes a position
unreachable, how long a sequence is, its facts record, which solver to use, and how a position
carries over when the user switches cubes. Solvers are named here, never imported: the solver
registry (`cubelab.solvers`) knows each puzzle by its `name`.
"""

from __future__ import annotations

from typing import Iterable

import numpy as np

from . import facelets, pocket, positions, symmetry
from .alg import Move
from .facts import facts, unreachable_reason
from .facts_report import alg_record
from .moves import apply_moves
from .notation import metric_lengths
from .pocket import PocketState
from .positions import CUBE_FORMATS, Position
from .random_states import face_scramble, random_state
from .state import CubeState


class Puzzle:
    """What both cubes do alike, from the parts each one names; use `PUZZLES` or the helpers."""

    name = ""
    """How users, the solver registry and saved files name the puzzle ('3x3', '2x2')."""
    title = ""
    """How the puzzle is written in prose ('3x3x3')."""
    scramble_length = 0
    """Face turns in a :scramble."""
    scramble_faces = "URFDLB"
    """The faces a scramble turns."""
    metrics: tuple[str, ...] = ()
    """The keys of `lengths`."""
    formats: dict = {}
    """Sticker formats a position may be given in, by the prefix of the line."""
    parallel_solves = True
    """Whether a file of positions is worth one solving process per core."""

    # ---- the parts each cube supplies
    def identity(self):
        raise NotImplementedError

    def owns(self, state) -> bool:
        raise NotImplementedError

    def apply(self, state, moves: Iterable[Move]):
        raise NotImplementedError

    # ---- positions
    def scramble(self, seed) -> list[Move]:
        return face_scramble(seed, self.scramble_length, self.scramble_faces)

    def from_alg(self, text: str) -> Position:
        """PositionError (a ValueError) for bad notation or a move the puzzle lacks."""
        return positions.from_alg(text, self.apply, self.identity())

    def from_facelets(self, text: str) -> Position:
        return positions.from_facelets(text, self.parse_facelets)

    def position(self, line: str) -> Position:
        """An alg, or a sticker format's prefix ('facelets:') and stickers; PositionError."""
        return positions.parse_position(line, self.apply, self.identity(), self.formats)

    # ---- facts
    def facts_record(self, position: Position, show_class: bool = False) -> dict:
        """What `cubelab facts --json` prints: the state's facts, then its alg's (if any), then
        with `show_class` the facelets of the positions in its morph class."""
        record = self.facts(position.state)
        record.update(alg_record(position, self.lengths))
        if show_class:
            record["class"] = [self.to_facelets(s) for s in self.morph_class(position.state)]
        return record

    def colours(self, state) -> list[int]:
        """The face id each sticker shows, in facelet order (what the net draws)."""
        return [int(c) for c in self.state_colours(state)]

    def default_solver(self, metric: str = "htm") -> str:
        """The solver to use when none is named, optimal in `metric` where the puzzle has one."""
        raise NotImplementedError


class Cube3(Puzzle):
    """The 3x3x3: CubeState, every move of the notation, 54 stickers, the 3x3 solvers."""

    name = "3x3"
    title = "3x3x3"
    scramble_length = 20
    metrics = ("htm", "qtm", "stm", "etm")
    formats = CUBE_FORMATS

    def identity(self) -> CubeState:
        return CubeState.identity()

    def owns(self, state) -> bool:
        return isinstance(state, CubeState)

    def apply(self, state: CubeState, moves: Iterable[Move]) -> CubeState:
        return apply_moves(state, moves)

    def random(self, seed) -> CubeState:
        return random_state(seed)

    def parse_facelets(self, text: str) -> CubeState:
        """FaceletError (a ValueError) says what is wrong."""
        return facelets.parse_facelets(text)

    def to_facelets(self, state: CubeState) -> str:
        return facelets.to_facelets(state)

    def state_colours(self, state: CubeState) -> np.ndarray:
        return facelets.state_colours(state)

    def blank(self) -> list[int]:
        """Stickers to paint from: all blank but the centres, which never move."""
        colours = [-1] * 54
        for face in range(6):
            colours[face * 9 + 4] = face
        return colours

    def from_colours(self, colours: list[int]) -> CubeState:
        return facelets.state_from_colours(np.array(colours, dtype=np.int8))

    def unreachable(self, state: CubeState) -> str | None:
        return unreachable_reason(state)

    def lengths(self, moves) -> dict[str, int]:
        return metric_lengths(moves)

    def facts(self, state: CubeState) -> dict:
        return facts(state).as_dict()

    def morph_class(self, state: CubeState) -> list[CubeState]:
        return symmetry.morph_class(state.normalized())

    def default_solver(self, metric: str = "htm") -> str:
        return "kociemba"

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
    scramble_length = 11
    scramble_faces = "URF"
    """U, R and F reach every position with DLB held still, so the scramble does too."""
    metrics = ("htm", "qtm")
    formats = {"facelets:": pocket.parse_facelets}
    parallel_solves = False
    """Its solver walks a table in microseconds: worker processes would only add start-up."""

    def identity(self) -> PocketState:
        return PocketState.identity()

    def owns(self, state) -> bool:
        return isinstance(state, PocketState)

    def apply(self, state: PocketState, moves: Iterable[Move]) -> PocketState:
        """PocketError (a ValueError) for slice moves: the 2x2x2 has no middle layer."""
        return pocket.apply_moves(state, moves)

    def random(self, seed) -> PocketState:
        """Uniform over the 3,674,160 positions, held with DLB home."""
        return pocket.random_state(seed)

    def parse_facelets(self, text: str) -> PocketState:
        return pocket.parse_facelets(text)

    def to_facelets(self, state: PocketState) -> str:
        return pocket.to_facelets(state)

    def state_colours(self, state: PocketState) -> np.ndarray:
        return pocket.state_colours(state)

    def blank(self) -> list[int]:
        return [-1] * pocket.N_FACELETS    # no centres: nothing is given

    def from_colours(self, colours: list[int]) -> PocketState:
        return pocket.state_from_colours(np.array(colours, dtype=np.int8))

    def unreachable(self, state: PocketState) -> str | None:
        return pocket.unreachable_reason(state)

    def lengths(self, moves) -> dict[str, int]:
        return pocket.lengths(moves)

    def facts(self, state: PocketState) -> dict:
        return pocket.facts(state)

    def morph_class(self, state: PocketState) -> list[PocketState]:
        return sorted(pocket.morph_class(state), key=pocket.to_facelets)

    def default_solver(self, metric: str = "htm") -> str:
        if metric not in self.metrics:
            raise ValueError(f"the 2x2x2 solvers are optimal in {' or '.join(self.metrics)}, "
                             f"not {metric}")
        return f"pocket-{metric}"

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
