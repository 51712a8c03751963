"""The two cubes the workbench holds, behind one face: the 3x3x3 and the 2x2x2.

The session asks its puzzle for everything that differs between them: applying moves,
scrambles and random positions, facelets and the colours of the net, what makes a position
unreachable, how long a sequence is, and how a position carries over when the user switches.
Textual-free, so the plain REPL shares it; solver modules are imported only when a solve starts.
"""

from __future__ import annotations

from typing import Iterable

import numpy as np

from cubelab.cube import pocket
from cubelab.cube.facelets import colours_from_text, state_colours, state_from_colours, to_facelets
from cubelab.cube.facts import unreachable_reason
from cubelab.cube.moves import apply_moves
from cubelab.cube.notation import Move, metric_lengths
from cubelab.cube.pieces import FACES
from cubelab.cube.random_states import random_state
from cubelab.cube.state import CubeState


def face_scramble(seed: int, length: int, faces: str = FACES) -> list[Move]:
    """Random face turns: never the same face twice in a row, and never three turns on one axis
    in a row (which would let two of them merge)."""
    rng = np.random.default_rng(seed)
    axis = {f: FACES.index(f) % 3 for f in faces}
    out: list[Move] = []
    while len(out) < length:
        face = faces[int(rng.integers(len(faces)))]
        if out and out[-1].family == face:
            continue
        if len(out) >= 2 and axis[out[-1].family] == axis[out[-2].family] == axis[face]:
            continue
        out.append(Move(face, int(rng.integers(1, 4))))
    return out


class Cube3:
    """The 3x3x3: CubeState, every move of the notation, 54 stickers, the 3x3 solvers."""

    name = "3x3"
    title = "3x3x3"
    side = 3
    scramble_length = 20
    metrics = ("htm", "qtm", "stm", "etm")

    def identity(self) -> CubeState:
        return CubeState.identity()

    def owns(self, state) -> bool:
        return isinstance(state, CubeState)

    def apply(self, state: CubeState, moves: Iterable[Move]) -> CubeState:
        return apply_moves(state, moves)

    def scramble(self, seed: int) -> list[Move]:
        return face_scramble(seed, self.scramble_length)

    def random(self, seed: int) -> CubeState:
        return random_state(seed)

    def parse_facelets(self, text: str) -> CubeState:
        """FaceletError (a ValueError) says what is wrong."""
        return state_from_colours(colours_from_text(text))

    def to_facelets(self, state: CubeState) -> str:
        return to_facelets(state)

    def colours(self, state: CubeState) -> list[int]:
        return [int(c) for c in state_colours(state)]

    def blank(self) -> list[int]:
        """Stickers to paint from: all blank but the centres, which never move."""
        colours = [-1] * 54
        for face in range(6):
            colours[face * 9 + 4] = face
        return colours

    def from_colours(self, colours: list[int]) -> CubeState:
        return state_from_colours(np.array(colours, dtype=np.int8))

    def unreachable(self, state: CubeState) -> str | None:
        return unreachable_reason(state)

    def is_solved(self, state: CubeState) -> bool:
        return state.is_solved()

    def lengths(self, moves) -> dict[str, int]:
        return metric_lengths(moves)

    def carry(self, state, moves: tuple[Move, ...]) -> tuple[CubeState, tuple[Move, ...], str]:
        """A 2x2x2 position on the 3x3x3: its sequence replayed when that gives the same corners
        (wide turns differ: a rotation on the 2x2x2, two layers here), else solved."""
        if moves:
            replayed = apply_moves(CubeState.identity(), moves)
            if pocket.PocketState.from_cube(replayed) == state:
                return replayed, moves, "the sequence replayed"
        if state == pocket.PocketState.identity():
            return CubeState.identity(), (), "solved"
        return CubeState.identity(), (), "solved (no sequence to replay for that position)"


class Cube2:
    """The 2x2x2: PocketState, face turns and rotations (wide turns are rotations), 24
    stickers, the optimal solver in HTM and QTM."""

    name = "2x2"
    title = "2x2x2"
    side = 2
    scramble_length = 11
    metrics = ("htm", "qtm")

    def identity(self) -> pocket.PocketState:
        return pocket.PocketState.identity()

    def owns(self, state) -> bool:
        return isinstance(state, pocket.PocketState)

    def apply(self, state: pocket.PocketState, moves: Iterable[Move]) -> pocket.PocketState:
        """PocketError (a ValueError) for slice moves: the 2x2x2 has no middle layer."""
        return pocket.apply_moves(state, moves)

    def scramble(self, seed: int) -> list[Move]:
        # U, R and F reach every position with DLB held still, so the scramble does too
        return face_scramble(seed, self.scramble_length, "URF")

    def random(self, seed: int) -> pocket.PocketState:
        """Uniform over the 3,674,160 positions, held with DLB home."""
        rng = np.random.default_rng(seed)
        others = [i for i in range(8) if i != pocket.DLB]
        cp = list(range(8))
        for slot, piece in zip(others, rng.permutation(others)):
            cp[slot] = int(piece)
        co = [0] * 8
        for slot in others[:-1]:
            co[slot] = int(rng.integers(3))
        co[others[-1]] = -sum(co) % 3
        return pocket.PocketState(cp, co)

    def parse_facelets(self, text: str) -> pocket.PocketState:
        return pocket.parse_facelets(text)

    def to_facelets(self, state: pocket.PocketState) -> str:
        return pocket.to_facelets(state)

    def colours(self, state: pocket.PocketState) -> list[int]:
        return [int(c) for c in pocket.state_colours(state)]

    def blank(self) -> list[int]:
        return [-1] * pocket.N_FACELETS    # no centres: nothing is given

    def from_colours(self, colours: list[int]) -> pocket.PocketState:
        return pocket.parse_facelets("".join(FACES[c] for c in colours))

    def unreachable(self, state: pocket.PocketState) -> str | None:
        t = pocket.twist(state)
        return f"unreachable: one corner twisted (twist sum {t} mod 3)" if t else None

    def is_solved(self, state: pocket.PocketState) -> bool:
        return state.is_rotation()

    def lengths(self, moves) -> dict[str, int]:
        return pocket.lengths(moves)

    def carry(self, state, moves: tuple[Move, ...]) -> tuple[pocket.PocketState, tuple[Move, ...], str]:
        """A 3x3x3 position on the 2x2x2: its corners, with its sequence when that sequence
        gives the same corners here (no slices or wide turns)."""
        corners = pocket.PocketState.from_cube(state)
        try:
            if moves and pocket.apply_moves(self.identity(), moves) == corners:
                return corners, moves, "the corners and the sequence carried over"
        except pocket.PocketError:
            return corners, (), "the corners carried over (no slices here: sequence dropped)"
        if moves:
            return corners, (), "the corners carried over (wide turns differ: sequence dropped)"
        return corners, (), "the corners carried over"


PUZZLES = {"3x3": Cube3(), "2x2": Cube2()}
"""Puzzle name (as typed after :puzzle and --puzzle) -> puzzle."""

def puzzle_of(state):
    """The puzzle a state belongs to."""
    return next(p for p in PUZZLES.values() if p.owns(state))


def puzzle_named(text: str):
    """The puzzle for what a user typed: 3x3, 3, 3x3x3, 2x2, 2, 2x2x2 or pocket; KeyError."""
    key = text.strip().lower()
    aliases = {"3": "3x3", "3x3x3": "3x3", "2": "2x2", "2x2x2": "2x2", "pocket": "2x2"}
    return PUZZLES[aliases.get(key, key)]


if __name__ == "__main__":
    for puzzle in PUZZLES.values():
        moves = puzzle.scramble(1)
        print(puzzle.title, " ".join(map(str, moves)),
              puzzle.to_facelets(puzzle.apply(puzzle.identity(), moves)))
