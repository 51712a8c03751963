"""Fixtures shared by the solver tests: one prepared solver per test module."""

import pytest

from cubelab.cube.moves import apply_moves
from cubelab.cube.state import CubeState


def prepared_solver(make, **options):
    """A module-scoped fixture giving make(**options), prepared (tables loaded or built)."""

    @pytest.fixture(scope="module")
    def fixture():
        solver = make(**options)
        solver.prepare()
        return solver

    return fixture


def assert_within_moves(solver, turns, moves):
    """The solver's heuristic does not overestimate a position made by len(moves) turns
    (moves: indices into turns)."""
    state = apply_moves(CubeState.identity(), [turns[m] for m in moves])
    assert solver.heuristic(state) <= len(moves)
