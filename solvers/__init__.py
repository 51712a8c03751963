"""The solver registry: every solver by name, with the puzzle it solves.

`get_solver(name, puzzle)` imports a solver only when it is asked for (numba compiles on first
use); a solver is never handed a position of another puzzle. A solver honours the metrics it
lists (`metrics`); `metric_variant` names the entry of a solver made for another metric.
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
    "korf-qtm": Entry("cubelab.solvers.korf.solver", "KorfSolver", options={"metric": "qtm"}),
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
    # the goal engine (issue 34): hidden until the front ends offer its goal, move set and
    # metric options (the contract test runs it with its defaults: the whole cube, HTM)
    "goal": Entry("cubelab.solvers.goals.solver", "GoalSolver", hidden=True),
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


def solver_metrics(name: str, puzzle: str = "3x3") -> tuple[str, ...]:
    """The metrics the registered solver `name` honours (its `metrics`): the metric it is made
    with, or its class's own. KeyError for a name that is not a solver of `puzzle`."""
    entry = _REGISTRY.get(name)
    if entry is None or entry.puzzle != puzzle:
        raise KeyError(f"unknown solver {name!r}")
    if "metric" in entry.options:
        return (entry.options["metric"],)
    cls = getattr(importlib.import_module(entry.module), entry.cls)
    return tuple(cls.metrics)


def _but_metric(entry: Entry) -> dict:
    """An entry's options other than its metric: what makes two entries the same solver."""
    return {k: v for k, v in entry.options.items() if k != "metric"}


def metric_variant(name: str, metric: str, puzzle: str = "3x3") -> str:
    """The registered solver that is `name` counting in `metric`: `name` itself when it honours
    the metric, else the entry of the same solver made with that metric (korf -> korf-qtm).
    KeyError with a one-line message (which solvers do honour it) when there is none."""
    entry = _REGISTRY.get(name)
    if entry is None or entry.puzzle != puzzle:
        get_solver(name, puzzle)            # raises the registry's own message
    if metric in solver_metrics(name, puzzle):
        return name
    same = (entry.module, entry.cls, puzzle, _but_metric(entry))
    for other, e in _REGISTRY.items():
        if (e.module, e.cls, e.puzzle, _but_metric(e)) == same \
                and metric in solver_metrics(other, puzzle):
            return other
    able = [n for n in solver_names(puzzle) if metric in solver_metrics(n, puzzle)]
    own = "/".join(m.upper() for m in solver_metrics(name, puzzle))
    raise KeyError(f"solver {name} counts in {own}, not {metric.upper()}"
                   + (f" (in {metric.upper()}: {', '.join(able)})" if able else ""))


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
