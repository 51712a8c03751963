"""The test stand-in made visible to the command line, through the registry's public API."""

from contextlib import contextmanager
from dataclasses import replace

import pytest

from cubelab.solvers import REGISTRY
from cubelab.solvers.fake import FakeSolver
from cubelab.solvers.fake_about import FAKE


@contextmanager
def registered(description, solver):
    """`description` registered for the duration (a solver of the same name steps aside)."""
    entry = REGISTRY.unregister(description.name)
    REGISTRY.register(description, solver)
    try:
        yield
    finally:
        REGISTRY.unregister(description.name)
        if entry is not None:
            REGISTRY.register(entry.description, entry.solver, entry.cls)


@pytest.fixture
def visible_fake():
    """The fake solver offered to users (`cubelab solve --solver fake`); worker processes still
    make it by its name as the hidden stand-in."""
    with registered(replace(FAKE, hidden=False), FakeSolver):
        yield


def as_records(results) -> list[dict]:
    """A batch's results (SolveResult objects and error records) as JSON records."""
    return [r if isinstance(r, dict) else r.to_json() for r in results]
