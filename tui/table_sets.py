"""The optimal solvers' table sets as a user chooses among them: size, built or not, default.

`cubelab tables status` prints them and `:tables` lists and chooses them in the workbench and
the REPL; both read `set_rows`, so the two say the same thing.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SetRow:
    """One table set of one solver."""

    solver: str             # the solver that reads it: korf or korf-qtm
    name: str               # what `--tables` and `:tables` take
    bytes: int              # every table it reads: their files once built, else expected
    built: bool             # all its tables are built
    default: bool           # the set the solver reads when none is chosen
    table_set: object       # the tables' TableSet (its check_memory refuses a set too large)


def set_names() -> list[str]:
    """The name of every set, without reading any file: for completion."""
    from cubelab.tables.korf.qtm import QTM_SET_NAMES
    from cubelab.tables.korf.specs import TABLE_SET_NAMES
    return list(TABLE_SET_NAMES + QTM_SET_NAMES)


def _sets():
    from cubelab.tables.korf.qtm import QTM_SET_NAMES, STRONG_QTM, qtm_table_set
    from cubelab.tables.korf.specs import DEFAULT_SET, TABLE_SET_NAMES, table_set
    return ([("korf", n, table_set(n), n == DEFAULT_SET) for n in TABLE_SET_NAMES]
            + [("korf-qtm", n, qtm_table_set(n), n == STRONG_QTM) for n in QTM_SET_NAMES])


def set_rows(status: dict | None = None) -> list[SetRow]:
    """Every set; `status` maps table names to store.table_status rows already read (the
    headers of the others are read here)."""
    from cubelab.tables.store import table_status
    status = dict(status or {})
    rows = []
    for solver, name, ts, default in _sets():
        tables = []
        for spec in ts.all_specs:
            if spec.name not in status:
                status[spec.name] = table_status(spec)
            tables.append(status[spec.name])
        size = sum(t["bytes"] or 0 for t in tables) or ts.expected_bytes
        rows.append(SetRow(solver, name, size, all(t["built"] for t in tables), default, ts))
    return rows


def size_text(n) -> str:
    """A byte count the way the tables' listings print it (1.2 GB, 908.0 MB)."""
    if n is None:
        return "?"
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return str(n)
