"""A tiny solver that lives only in the tests: what a new solver is, in full, from the outside.

Its declaration (one light value), its class (the protocol's template; it writes only its
search) and one registry line (`register`, the public API) are all it takes: `cubelab solve
--help` lists it, its declared option becomes a flag, options it does not declare are refused
before it is made, and the contract test runs it. Its search is the fake's meet in the middle
(within 6 face turns), bounded by its option.
"""

from contextlib import contextmanager

from cubelab.solvers import REGISTRY
from cubelab.solvers.description import Option, SolverDescription
from cubelab.solvers.fake import shortest_solution
from cubelab.solvers.protocol import Answer, SolverBase, SolverError

TINY = SolverDescription(
    name="tiny",
    summary="a test's solver: the shortest solution within a few face turns",
    options=(Option("reach", "the most face turns it looks (1 to 6)", type=int, default=6),),
    reach=6,
)


class TinySolver(SolverBase):
    """Shortest solutions of positions within `reach` face turns of solved."""

    description = TINY
    made: list[dict] = []
    """The options of every TinySolver made (the tests check that a refused option made none)."""

    def __init__(self, reach: int = 6):
        if not 1 <= reach <= 6:
            raise ValueError(f"reach must lie between 1 and 6, not {reach}")
        TinySolver.made.append({"reach": reach})
        self.reach = reach
        self._prepared = True

    def search(self, job) -> Answer:
        moves = shortest_solution(job.position, job.counters)
        if moves is None or len(moves) > self.reach:
            raise SolverError(f"tiny looks {self.reach} face turns deep, and this position is "
                              f"further")
        if job.max_length is not None and len(moves) > job.max_length:
            return Answer(None, lower_bound=job.max_length + 1)
        return Answer(moves, optimal=True, lower_bound=len(moves))


@contextmanager
def tiny_registered():
    """The tiny solver in the registry for the duration: one registry line."""
    REGISTRY.register(TINY, TinySolver)
    try:
        yield
    finally:
        REGISTRY.unregister(TINY.name)
