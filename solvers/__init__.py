"""The solver registry: every solver by name, with the puzzle it solves.

`get_solver(name, puzzle)` imports a solver only when it is asked for (numba compiles on first
use); a solver is never handed a position of another puzzle.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Entry:
    """Where a solver lives, the puzzle it solves, and the options it is made with."""

    module: str
    cls: str
    puzzle: str = "3x3"
    options: dict = field(default_factory=dict)
    hidden: bool = False
    """Not offered to users (the test stand-in); only code that asks for hidden ones gets it."""


_REGISTRY: dict[str, Entry] = {
    "kociemba": Entry("cubelab.solvers.kociemba.solver", "KociembaSolver"),
    "korf": Entry("cubelab.solvers.korf.solver", "KorfSolver"),
    "thistlethwaite": Entry("cubelab.solvers.thistlethwaite.solver", "ThistlethwaiteSolver"),
    "threecycle": Entry("cubelab.solvers.threecycle.solver", "ThreeCycleSolver"),
    "cfop": Entry("cubelab.solvers.cfop.solver", "CfopSolver"),
    "bfs": Entry("cubelab.solvers.baselines", "BFSSolver"),
    "astar": Entry("cubelab.solvers.baselines", "AStarSolver"),
    "idastar": Entry("cubelab.solvers.informed.idastar", "IDAStarSolver"),
    "greedy": Entry("cubelab.solvers.informed.greedy", "GreedySolver"),
    "pocket-htm": Entry("cubelab.solvers.pocket", "PocketSolver", "2x2", {"metric": "htm"}),
    "pocket-qtm": Entry("cubelab.solvers.pocket", "PocketSolver", "2x2", {"metric": "qtm"}),
    "fake": Entry("cubelab.solvers.fake", "FakeSolver", hidden=True),
}


def _present(entry: Entry) -> bool:
    return importlib.util.find_spec(entry.module) is not None


def solver_names(puzzle: str = "3x3") -> list[str]:
    """The solvers a user may choose for `puzzle` ("3x3" or "2x2") in this installation."""
    return [name for name, e in _REGISTRY.items()
            if e.puzzle == puzzle and not e.hidden and _present(e)]


def solver_puzzle(name: str) -> str | None:
    """The puzzle a registered solver solves (None for a name nobody registered)."""
    entry = _REGISTRY.get(name)
    return entry.puzzle if entry else None


def get_solver(name: str, puzzle: str = "3x3", *, include_hidden: bool = False, **options):
    """A new solver object. KeyError (with the choices in its message) for a name that is not a
    solver of `puzzle`: a solver never sees a position of another puzzle."""
    entry = _REGISTRY.get(name)
    if entry is None or entry.puzzle != puzzle or (entry.hidden and not include_hidden):
        choices = ", ".join(solver_names(puzzle))
        where = "" if puzzle == "3x3" else f" for the {puzzle}"
        other = solver_puzzle(name) if entry is not None and not entry.hidden else None
        if other is not None and other != puzzle:
            raise KeyError(f"solver {name!r} solves the {other}, not the {puzzle} "
                           f"(choose from {choices})")
        raise KeyError(f"unknown solver {name!r}{where} (choose from {choices})")
    try:
        mod = importlib.import_module(entry.module)
    except ModuleNotFoundError as e:
        if e.name == entry.module:
            raise KeyError(f"solver {name!r} is not available in this build") from None
        raise
    return getattr(mod, entry.cls)(**{**entry.options, **options})


class Registry:
    """The solvers of every puzzle as one object (the front ends take one, tests a fake one)."""

    def solver_names(self, puzzle: str = "3x3") -> list[str]:
        return solver_names(puzzle)

    def get_solver(self, name: str, puzzle: str = "3x3", **options):
        return get_solver(name, puzzle, **options)


REGISTRY = Registry()
