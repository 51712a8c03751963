"""The solver registry: every solver's declaration, and the solver made from it on demand.

An entry is a `SolverDescription` (description.py, read without importing the solver) and the
class that implements it, named by "module.Class" and imported only when a solver is made
(numba compiles on first use). The front ends ask the registry for names, descriptions, the
default solver of a puzzle in a metric, the default order and the table sets, and make
solvers through `make`, which checks the user's options against the declaration first.

`register(description, solver)` is the public way in (a solver class, or its module and class
name);
`REGISTRY` holds the solvers of this installation, `installed.py` the lines that fill it.
`StandIn` is the registry the UI tests use: the fake solver for the 3x3x3 (one shared instance,
so a "built" table stays built across solves) and the real solvers of the 2x2x2.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Callable

from cubelab.cube.metrics import Metric

from .description import OptionError, SolverDescription, TableSetChoice

if TYPE_CHECKING:       # the protocol module loads the cube model: not needed to list solvers
    from .protocol import Solver


@dataclass(frozen=True)
class Entry:
    """A registered solver: what it is, and where its class is."""

    description: SolverDescription
    solver: type | str
    """The class, or the module that holds it (imported when a solver is made)."""
    cls: str = ""
    """The class's name in that module."""

    def present(self) -> bool:
        """Whether its module is installed (a build may leave a solver package out)."""
        return not isinstance(self.solver, str) or _installed(self.solver)

    def load(self) -> type:
        if not isinstance(self.solver, str):
            return self.solver
        try:
            return getattr(importlib.import_module(self.solver), self.cls)
        except ModuleNotFoundError as e:
            if e.name == self.solver:
                raise KeyError(f"solver {self.description.name!r} is not available in this "
                               f"build") from None
            raise


@lru_cache(maxsize=None)
def _installed(module: str) -> bool:
    """Whether a module can be imported (looked up once: the front ends ask often)."""
    return importlib.util.find_spec(module) is not None


class Registry:
    """Solvers by name, with their puzzles, declarations and classes."""

    def __init__(self) -> None:
        self._entries: dict[str, Entry] = {}

    # ---- filling it ---------------------------------------------------------------------------
    def register(self, description: SolverDescription, solver: type | str,
                 cls: str = "") -> None:
        """Add a solver: its declaration and its class, or the module and the name of the
        class (imported when one is made). Its name must be new, its table sets' names too
        (`:tables NAME` names one set of one solver)."""
        if isinstance(solver, str) and not cls:
            raise ValueError("name the solver's class in its module")
        if description.name in self._entries:
            raise ValueError(f"a solver named {description.name!r} is registered already")
        taken = {t.name for e in self._entries.values() for t in e.description.table_sets}
        clash = taken & {t.name for t in description.table_sets}
        if clash:
            raise ValueError(f"table set {sorted(clash)[0]!r} belongs to another solver")
        self._entries[description.name] = Entry(description, solver, cls)

    def unregister(self, name: str) -> Entry | None:
        """Remove a solver; its entry (to register again), or None when there was none."""
        return self._entries.pop(name, None)

    # ---- what there is ------------------------------------------------------------------------
    def solver_names(self, puzzle: str = "3x3") -> list[str]:
        """The solvers a user may choose for `puzzle` in this installation."""
        return [e.description.name for e in self._entries.values()
                if e.description.puzzle == puzzle and not e.description.hidden and e.present()]

    def describe(self, name: str) -> SolverDescription:
        """The declaration of a registered solver (hidden ones too); KeyError for none."""
        entry = self._entries.get(name)
        if entry is None:
            raise KeyError(f"unknown solver {name!r}")
        return entry.description

    def descriptions(self, puzzle: str | None = None, *,
                     include_hidden: bool = False) -> list[SolverDescription]:
        """The declarations of the solvers users may choose (of one puzzle, or of all; with
        `include_hidden`, the test stand-in's too)."""
        puzzles = [puzzle] if puzzle is not None else \
            list(dict.fromkeys(e.description.puzzle for e in self._entries.values()))
        out = [self.describe(n) for p in puzzles for n in self.solver_names(p)]
        if include_hidden:
            out += [e.description for e in self._entries.values() if e.description.hidden
                    and (puzzle is None or e.description.puzzle == puzzle)]
        return out

    def solver_puzzle(self, name: str) -> str | None:
        """The puzzle a registered solver solves (None for a name nobody registered)."""
        try:
            return self.describe(name).puzzle
        except KeyError:
            return None

    def solver_metrics(self, name: str, puzzle: str = "3x3") -> tuple[Metric, ...]:
        """The metrics the solver `name` honours; KeyError for a name that is not a solver of
        `puzzle`."""
        return self._own(name, puzzle, include_hidden=True).metrics

    def metric_variant(self, name: str, metric: Metric | str, puzzle: str = "3x3") -> str:
        """The registered solver that is `name` counting in `metric`: `name` itself when it
        honours the metric, else its family's entry that does (korf -> korf-qtm). KeyError with
        a one-line message (which solvers do honour it) when there is none."""
        metric = Metric(metric)
        description = self._own(name, puzzle)
        if metric in description.metrics:
            return name
        for other in self.descriptions(puzzle):
            if other.kin == description.kin and metric in other.metrics:
                return other.name
        able = [d.name for d in self.descriptions(puzzle) if metric in d.metrics]
        own = "/".join(m.title for m in description.metrics)
        raise KeyError(f"solver {name} counts in {own}, not {metric.title}"
                       + (f" (in {metric.title}: {', '.join(able)})" if able else ""))

    def preferred(self, puzzle: str = "3x3") -> list[str]:
        """The solvers of `puzzle` in the default order: the ordered ones first (fast ones
        first), then the others as registered."""
        visible = self.descriptions(puzzle)
        ordered = sorted((d for d in visible if d.order is not None), key=lambda d: d.order)
        return [d.name for d in ordered] + [d.name for d in visible if d.order is None]

    def default_solver(self, puzzle: str = "3x3", metric: Metric | str | None = None) -> str:
        """The solver used when none is named: the first in the default order, made for
        `metric` when one is asked (KeyError when no solver of the puzzle counts in it)."""
        pool = [n for n in self.preferred(puzzle) if self.describe(n).order is not None] \
            or self.preferred(puzzle)
        if metric is None:
            if not pool:
                raise KeyError(f"no solver of the {puzzle} is installed")
            return pool[0]
        metric = Metric(metric)
        for name in pool + self.preferred(puzzle):
            try:
                return self.metric_variant(name, metric, puzzle)
            except KeyError:
                continue
        raise KeyError(f"no solver of the {puzzle} counts in {metric.title}")

    def table_sets(self, puzzle: str | None = None) -> list[tuple[str, TableSetChoice]]:
        """(solver, set) for every table set a user may choose, solver by solver."""
        return [(d.name, t) for d in self.descriptions(puzzle) for t in d.table_sets]

    # ---- making solvers -----------------------------------------------------------------------
    def _own(self, name: str, puzzle: str, include_hidden: bool = False) -> SolverDescription:
        """The declaration of `name` as a solver of `puzzle`; KeyError (with the choices in its
        message) for a name that is not one: a solver never sees another puzzle's position."""
        try:
            description = self.describe(name)
        except KeyError:
            description = None
        offered = name in self.solver_names(puzzle) or (
            include_hidden and description is not None and description.hidden
            and description.puzzle == puzzle)
        if not offered:
            choices = ", ".join(self.solver_names(puzzle))
            where = "" if puzzle == "3x3" else f" for the {puzzle}"
            other = description.puzzle if description is not None \
                and not description.hidden else None
            if other is not None and other != puzzle:
                raise KeyError(f"solver {name!r} solves the {other}, not the {puzzle} "
                               f"(choose from {choices})")
            raise KeyError(f"unknown solver {name!r}{where} (choose from {choices})")
        return description

    def check_options(self, name: str, puzzle: str, options: dict) -> dict:
        """The user's options for solver `name`, read and checked against its declaration:
        OptionError for one it does not declare (saying which solvers do) or a value it cannot
        take; KeyError for an unknown solver. Nothing is made."""
        description = self._own(name, puzzle)
        try:
            return description.check_options(options)
        except OptionError:
            for key in options:
                if description.option(key) is None:
                    raise OptionError(self._refusal(description, key)) from None
            raise

    def _refusal(self, description: SolverDescription, key: str) -> str:
        flag = "--" + key.replace("_", "-")
        takers = [d.name for d in self.descriptions(description.puzzle) if d.option(key)]
        if key == "tables":
            return (f"solver {description.name} has no table sets to choose from (--tables is "
                    f"for solvers that have several: {', '.join(takers) or 'none here'})")
        return (f"solver {description.name} takes no {flag}"
                + (f" ({', '.join(takers)} {'does' if len(takers) == 1 else 'do'})"
                   if takers else ""))

    def make(self, name: str, puzzle: str = "3x3", options: dict | None = None) -> "Solver":
        """A new solver for the user: its options checked against its declaration before it
        is made (OptionError, KeyError), then made with them."""
        checked = self.check_options(name, puzzle, dict(options or {}))
        return self.get_solver(name, puzzle, **checked)

    def get_solver(self, name: str, puzzle: str = "3x3", *, include_hidden: bool = False,
                   **options) -> "Solver":
        """A new solver object made with `options` as given (code's own options, such as a
        test's small tables, included). KeyError (with the choices in its message) for a name
        that is not a solver of `puzzle`."""
        description = self._own(name, puzzle, include_hidden)
        entry = self._entries.get(name)
        if entry is None:       # a name a subclass offers without an entry of its own
            raise KeyError(f"unknown solver {name!r}")
        return entry.load()(**{**description.made_with, **options})


class StandIn(Registry):
    """The registry of the UI tests: the fake solver (solvers/fake.py) for the 3x3x3, one shared
    instance made with `options`, and the real 2x2x2 solvers (they are fast)."""

    def __init__(self, real: Registry | None = None, **options):
        super().__init__()
        self.real = REGISTRY if real is None else real
        fake = self.real._entries["fake"]
        self.solver = fake.load()(**options)
        self.register(replace(fake.description, hidden=False), type(self.solver))
        for entry in self.real._entries.values():
            if entry.description.puzzle != "3x3" and not entry.description.hidden:
                self._entries[entry.description.name] = entry

    def describe(self, name: str) -> SolverDescription:
        """Its own entries' declarations, else the real registry's (a subclass may offer a
        real solver's name, played by the fake)."""
        entry = self._entries.get(name)
        return entry.description if entry is not None else self.real.describe(name)

    def get_solver(self, name: str, puzzle: str = "3x3", *, include_hidden: bool = False,
                   **options):
        if puzzle == "3x3" and name == "fake":
            return self.solver
        return super().get_solver(name, puzzle, include_hidden=include_hidden, **options)


REGISTRY = Registry()
"""This installation's solvers (filled by installed.py)."""

register: Callable[..., None] = REGISTRY.register
get_solver = REGISTRY.get_solver
solver_names = REGISTRY.solver_names
solver_metrics = REGISTRY.solver_metrics
solver_puzzle = REGISTRY.solver_puzzle
metric_variant = REGISTRY.metric_variant
