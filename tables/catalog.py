"""Every table the program writes: the modules that register them, and tidying the folder.

The modules that register them, and the tidying of the tables directory (files no spec accounts
for, temporaries of killed builds).

This is the one place that names table modules (by string, imported on demand): the modules
register their specs in spec.py and never import this one.
"""

from __future__ import annotations

import importlib

from .checkpoint import table_name_of
from .fileformat import SUFFIX
from .lock import LockBusy, file_lock
from .spec import TableSpec, known_specs
from .store import table_path, tables_dir

TABLE_MODULES = (
    "cubelab.tables.movetables",
    "cubelab.tables.udsym",
    "cubelab.tables.kociemba.specs",
    "cubelab.tables.korf.specs",
    "cubelab.tables.korf.qtm",
    "cubelab.tables.thistlethwaite.specs",
    "cubelab.tables.threecycle.specs",
    "cubelab.tables.insertions.specs",
    "cubelab.tables.pocket_tables",
    "cubelab.tables.cfop.specs",
    "cubelab.tables.goals.specs",
)
"""Modules that register tables when imported."""


def import_table_modules() -> list[str]:
    """Import every known table module that exists; return the names imported."""
    found = []
    for module in TABLE_MODULES:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as e:
            if e.name == module:
                continue
            raise
        found.append(module)
    return found


def registered() -> dict[str, TableSpec]:
    """All specs, after importing the table modules, by name in registration order."""
    import_table_modules()
    return known_specs()


def clear_stray_files(temporaries_only: bool = False) -> list[str]:
    """Delete what no registered spec accounts for: files (and checkpoints) of tables no longer
    registered, and the temporary and lock files left by builds that were killed (never those
    of builds still running; only these leftovers with `temporaries_only`). Returns the names
    removed."""
    directory = tables_dir()
    if not directory.is_dir():
        return []
    known = {table_path(s).name for s in registered().values()}
    removed = []
    for path in sorted(directory.iterdir()):
        if path.name.endswith(".lock"):
            if _remove_stale_lock(path):
                removed.append(path.name)
            continue
        partial_of = table_name_of(path)
        if path.name.endswith(SUFFIX) and path.name not in known and not temporaries_only:
            name = path.name[:-len(SUFFIX)]
        elif partial_of is not None and f"{partial_of}{SUFFIX}" not in known \
                and not temporaries_only:
            name = partial_of
        elif path.name.startswith(".") and path.name.endswith(".tmp"):
            name = path.name[1:-len(".tmp")].rsplit(".", 1)[0]
        else:
            continue
        try:
            with file_lock(directory / f"{name}{SUFFIX}.lock", wait=False):
                path.unlink()
        except (LockBusy, OSError):
            continue
        removed.append(path.name)
    return removed


def _remove_stale_lock(path) -> bool:
    """Remove a lock file no live process holds (a killed builder's); True if it was removed.

    Staleness is read from the lock itself: taking it without waiting succeeds only when no
    process holds it, and file_lock then deletes the file on release, as a builder does. A
    builder that opened the file a moment before finds its inode gone and takes a new one."""
    try:
        with file_lock(path, wait=False):
            pass
    except (LockBusy, OSError):
        return False
    return True
