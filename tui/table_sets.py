"""The solvers' table sets as a user chooses among them: size, built or not, default.

`cubelab tables status` prints them and `:tables` lists and chooses them in the workbench and
the REPL; both read `set_rows` over a registry's declarations (solvers/description.py), so the
two say the same thing and a solver with a new set needs no edit here.
"""

from __future__ import annotations


def set_names(registry) -> list[str]:
    """The name of every set, without reading any file: for completion."""
    return [t.name for _, t in registry.table_sets()]


def set_rows(registry, status: dict | None = None) -> list:
    """Every set of the registry's solvers (description.TableSetStatus rows); `status` maps
    table names to store.table_status rows already read (the headers of the others are read
    here)."""
    known = dict(status or {})
    return [choice.status(solver, known) for solver, choice in registry.table_sets()]


def size_text(n) -> str:
    """A byte count the way the tables' listings print it (1.2 GB, 908.0 MB)."""
    if n is None:
        return "?"
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return str(n)
