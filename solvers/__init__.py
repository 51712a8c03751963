"""Solvers behind one protocol; `get_solver(name)` imports a solver only when it is asked for."""

from __future__ import annotations

import importlib
import importlib.util

# name -> (module, class). Modules are imported lazily: numba compiles on first use.
_REGISTRY: dict[str, tuple[str, str]] = {
    "kociemba": ("cubelab.solvers.kociemba", "KociembaSolver"),
    "korf": ("cubelab.solvers.korf", "KorfSolver"),
    "thistlethwaite": ("cubelab.solvers.thistlethwaite", "ThistlethwaiteSolver"),
    "threecycle": ("cubelab.solvers.threecycle", "ThreeCycleSolver"),
    "bfs": ("cubelab.solvers.baselines", "BFSSolver"),
    "astar": ("cubelab.solvers.baselines", "AStarSolver"),
    "pocket": ("cubelab.solvers.pocket", "PocketSolver"),
    "fake": ("cubelab.solvers.fake", "FakeSolver"),
}
_HIDDEN = {"fake", "pocket"}
"""Solvers that get_solver knows but solver_names does not offer for the 3x3: the test
stand-in, and the 2x2x2 solver (it would only solve a 3x3's corners)."""


def solver_names() -> list[str]:
    """Solvers whose module is present in this installation."""
    names = []
    for name, (module, _) in _REGISTRY.items():
        if name not in _HIDDEN and importlib.util.find_spec(module) is not None:
            names.append(name)
    return names


def get_solver(name: str, **options):
    if name not in _REGISTRY:
        raise KeyError(f"unknown solver {name!r} (choose from {', '.join(solver_names())})")
    module, cls = _REGISTRY[name]
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name == module:
            raise KeyError(f"solver {name!r} is not available in this build") from None
        raise
    return getattr(mod, cls)(**options)
