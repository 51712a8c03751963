"""Fixtures shared by the solver tests: one prepared solver per test module."""

import pytest


def prepared_solver(make, **options):
    """A module-scoped fixture giving make(**options), prepared (tables loaded or built)."""

    @pytest.fixture(scope="module")
    def fixture():
        solver = make(**options)
        solver.prepare()
        return solver

    return fixture
