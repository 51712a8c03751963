"""`:tables`: the table sets the solvers can read, and choosing one for the session.

A user with the memory picks a larger set for faster optimal solves (`:tables layers-h48`), one
on a small machine a smaller one; the choice holds until the session ends or another is made,
and the solver's next run loads the set (or offers to build it). `cubelab --tables NAME` and
`cubelab repl --tables NAME` start a session with the choice made; `cubelab solve --tables NAME`
does the same for one solve from the shell. The sets are those the solvers declare.
"""

from __future__ import annotations

from .command_table import CommandTable
from .errors import InputError
from .records import Outcome
from .table_sets import set_names, set_rows, size_text

TABLE = CommandTable()


def _in_use(session, row) -> bool:
    chosen = session.table_sets.get(row.solver)
    return row.name == chosen if chosen else row.default


def _listing(session) -> str:
    """One line per solver: its sets with their sizes, which are built, which is in use."""
    rows = set_rows(session.registry)
    lines = []
    for solver in dict.fromkeys(r.solver for r in rows):
        sets = [f"{r.name} {size_text(r.bytes)}"
                + ("" if r.built else " not built") + (" (in use)" if _in_use(session, r) else "")
                for r in rows if r.solver == solver]
        lines.append(f"{solver}: " + " · ".join(sets))
    return "\n".join(lines + [":tables NAME chooses the set its solver reads"])


def _complete(session, words) -> list[str]:
    return set_names(session.registry)


def choose(registry, table_sets: dict[str, str], name: str, listing: str):
    """Make `name` the set its solver reads (table_sets: solver -> set, the default absent);
    returns the set's row, or raises ValueError with a message for the user (an unknown name,
    a set the memory cannot hold) and leaves table_sets as it was."""
    rows = {r.name: r for r in set_rows(registry)}
    row = rows.get(name.lower())
    if row is None:
        raise ValueError(f"unknown table set {name!r} (choose from {', '.join(rows)})")
    from cubelab.tables.spec import TableError
    try:
        row.choice.check_memory(listing=listing)
    except TableError as e:
        raise ValueError(str(e)) from None
    if row.default:
        table_sets.pop(row.solver, None)
    else:
        table_sets[row.solver] = row.name
    return row


def chosen_tables(name: str | None, listing: str = "'cubelab tables status'") -> dict[str, str]:
    """The session's table choice for a --tables option on the command line (solver -> set;
    {} for none), with the checks of :tables; a refusal is an InputError (exit 2 before
    anything starts)."""
    from cubelab.solvers import REGISTRY
    choice: dict[str, str] = {}
    if name:
        try:
            choose(REGISTRY, choice, name, listing)
        except ValueError as e:
            raise InputError(str(e)) from None
    return choice


@TABLE.command("tables", "[SET]",
               "list the solvers' table sets; with a name, solve with that set from now "
               "on (a larger set solves faster)", complete=_complete)
def _tables(session, args, rest) -> Outcome:
    if not args:
        return Outcome(_listing(session))
    if len(args) > 1:
        return Outcome("give one table set (:tables alone lists them)", error=True)
    try:
        row = choose(session.registry, session.table_sets, args[0], ":tables")
    except ValueError as e:
        return Outcome(str(e), error=True)
    ready = "built" if row.built else "not built yet: its next solve offers to build it"
    return Outcome(f"{row.solver} solves with the {row.name} tables ({size_text(row.bytes)}, "
                   f"{ready})")
