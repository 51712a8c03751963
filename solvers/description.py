"""What a solver is, declared without loading it: puzzle, metrics, options, table sets, reach, order.

A solver package declares one `SolverDescription` per registry entry in a light module (no
numba, no tables: `about.py`), and its solver class carries the same object. The registry
serves these declarations, so every front end lists solvers, builds their flags and
completion, checks options and table choices, and picks a default, without importing a kernel;
and a new option of a solver reaches the command line, the workbench and the REPL with no edit
there.

- `Option`: a keyword of the solver's constructor a user may set, typed: how what a user types
  is read (`parse`), its choices, default and help. A switch (`type=bool`) takes no value.
- `TableSetChoice`: one choice of tables for a solver with several (Korf's): its name, what it
  is, whether it is the default, and its specs, computed only when asked (they import the
  tables' modules: a solver's subclass says which); `status()` says how big it is, whether it
  is built, the memory it needs.
- `SolverDescription`: the entry itself. `check_options` refuses, before any solver is made, an
  option the solver does not declare or a value it cannot take (OptionError, one line).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from cubelab.cube.metrics import Metric


class OptionError(ValueError):
    """An option a solver does not declare, or a value it cannot take (the message says which
    and what it takes)."""


@dataclass(frozen=True)
class Option:
    """One option of a solver, as users set it (`--name VALUE` on the command line, the same
    words after `:solve`)."""

    name: str
    """The constructor's keyword; its flag is --name with '_' written '-'."""
    help: str
    type: Callable[[str], Any] = str
    """Reads what a user typed (ValueError says what is wrong); `bool` makes a switch."""
    default: Any = None
    choices: tuple[str, ...] = ()
    metavar: str = ""
    aliases: tuple[str, ...] = ()
    """Other spellings of its flag (`-n` for --n, `--mirror` for --fold)."""

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def flags(self) -> tuple[str, ...]:
        """Its flag and its other spellings."""
        return (self.flag, *self.aliases)

    @property
    def switch(self) -> bool:
        """A switch is given or not; it takes no value."""
        return self.type is bool

    def parse(self, text) -> Any:
        """The value of what a user typed (or of a value already read, as argparse gives a
        switch's True); OptionError naming the flag and its choices."""
        if self.switch:
            if isinstance(text, bool):
                return text
            raise OptionError(f"{self.flag} takes no value")
        if self.choices:
            word = str(text).strip().lower()
            if word not in self.choices:
                raise OptionError(f"{self.flag} takes {', '.join(self.choices)}, not {text!r}")
            return word
        try:
            return self.type(str(text))
        except (TypeError, ValueError) as e:
            raise OptionError(f"{self.flag}: {e}") from None


@dataclass(frozen=True)
class TableSetStatus:
    """A table set as a user chooses among them: how big, built or not, the memory it needs."""

    solver: str
    name: str
    summary: str
    bytes: int
    """Every table it reads: their files once built, else their expected sizes."""
    memory: int
    """The bytes it holds in memory while searching (all its tables are read at random)."""
    built: bool
    default: bool
    choice: "TableSetChoice"


@dataclass(frozen=True)
class TableSetChoice:
    """One set of tables a solver can read, by the name `--tables` and `:tables` take."""

    name: str
    summary: str
    default: bool = False

    def specs(self) -> tuple:
        """Every table the set reads, full size (a subclass says which: the tables' modules
        load only when this is asked)."""
        return ()

    def memory(self) -> int:
        return sum(s.expected_bytes or 0 for s in self.specs())

    def status(self, solver: str, known: dict | None = None) -> TableSetStatus:
        """Its row for listings; `known` maps table names to store.table_status rows already
        read (the headers of the others are read here and added to it)."""
        from cubelab.tables.store import table_status
        known = {} if known is None else known
        rows = []
        for spec in self.specs():
            if spec.name not in known:
                known[spec.name] = table_status(spec)
            rows.append(known[spec.name])
        memory = self.memory()
        size = sum(r["bytes"] or 0 for r in rows) or memory
        return TableSetStatus(solver, self.name, self.summary, size, memory,
                              all(r["built"] for r in rows), self.default, self)

    def check_memory(self, listing: str = "'cubelab tables status'") -> None:
        """TableError, in one line, when the memory available now cannot hold the set (what
        this process holds already costs nothing more); `listing` names where the smaller
        sets are listed."""
        from cubelab.tables.store import check_memory
        check_memory(self.specs(), f"the {self.name} tables",
                     f"choose a smaller set ({listing} lists them)")


@dataclass(frozen=True)
class SolverDescription:
    """One registry entry: everything the front ends need to know before making the solver."""

    name: str
    summary: str
    puzzle: str = "3x3"
    """The puzzle's name (cube/puzzles.py): a solver never sees another puzzle's position."""
    metrics: tuple[Metric, ...] = (Metric.HTM,)
    """The metrics it honours: its optima, bounds and lengths count in them; a metric not
    listed is refused, never ignored."""
    options: tuple[Option, ...] = ()
    table_sets: tuple[TableSetChoice, ...] = ()
    """Its choice of tables, when it has several (then it takes a `tables` option)."""
    reach: int | None = None
    """How many moves from solved a position may be for it to solve it (a bounded search);
    None: any position."""
    order: int | None = None
    """Its place in the default order (1 first): with no solver named, the first that honours
    the metric asked solves; None: never picked by default."""
    family: str = ""
    """Entries that are one method counted in different metrics share a family (korf,
    korf-qtm): asking one of them for another metric finds its sibling."""
    made_with: dict = field(default_factory=dict)
    """Constructor options this entry fixes (its metric, for a family's sibling)."""
    compare: bool = True
    """Whether a plain :compare (no solver named) runs it (within its reach)."""
    grey_stickers: bool = False
    """It solves what facelets with grey stickers (`*`, `?`) show (a MaskedPosition): a
    partial goal; the others take whole positions only."""
    hidden: bool = False
    """Not offered to users (the test stand-in); only code that asks for hidden ones gets it."""
    long_searches: bool = False
    """Its searches run long enough (seconds to hours, probing big tables at random) to repay
    copying its tables into private huge pages even for one position (Korf's). A one-shot
    solve of the others reads the tables' file mappings as they are: copying two-phase's
    480 MB cost a single solve more than its search."""

    @property
    def kin(self) -> str:
        """Its family, or its own name."""
        return self.family or self.name

    @property
    def tables_option(self) -> Option | None:
        """The `tables` option a solver with a choice of table sets takes."""
        if not self.table_sets:
            return None
        default = next((t.name for t in self.table_sets if t.default), self.table_sets[0].name)
        return Option("tables", "its table set (sizes: cubelab tables status)",
                      choices=tuple(t.name for t in self.table_sets), default=default,
                      metavar="SET")

    @property
    def user_options(self) -> tuple[Option, ...]:
        """Every option a user may set: the declared ones and, with table sets, `tables`."""
        tables = self.tables_option
        return self.options + ((tables,) if tables is not None else ())

    def option(self, name: str) -> Option | None:
        return next((o for o in self.user_options if o.name == name), None)

    def table_set(self, name: str) -> TableSetChoice | None:
        return next((t for t in self.table_sets if t.name == name), None)

    def check_options(self, given: dict) -> dict:
        """The options read and checked (values as the constructor takes them); OptionError
        for one it does not declare, or a value it cannot take. Nothing is made here."""
        out = {}
        for key, value in given.items():
            option = self.option(key)
            if option is None:
                flag = "--" + key.replace("_", "-")
                takes = [o.flag for o in self.user_options]
                raise OptionError(f"solver {self.name} takes no {flag}"
                                  + (f" (it takes {', '.join(takes)})" if takes else
                                     " (it has no options)"))
            try:
                out[key] = option.parse(value)
            except OptionError as e:
                raise OptionError(f"solver {self.name}: {e}") from None
        return out
