"""The process-wide registry of table specifications, filled by the solvers' table modules."""

from __future__ import annotations

import importlib
import threading

# Modules that register tables when imported. A module that does not exist (yet) is skipped.
TABLE_MODULES = (
    "cubelab.tables.kociemba_tables",
    "cubelab.tables.korf_tables",
    "cubelab.tables.thistlethwaite_tables",
    "cubelab.tables.pocket_tables",
)

_specs: dict = {}
_lock = threading.Lock()
_listeners: list = []


def register(spec):
    """Add a spec (idempotent by name). Registering a different spec under a taken name replaces
    it (a reloaded module, a changed parameter) and tells the listeners so cached data is dropped."""
    with _lock:
        old = _specs.get(spec.name)
        _specs[spec.name] = spec
    if old is not None and old != spec:
        for listener in _listeners:
            listener(spec.name)
    return spec


def on_replace(listener) -> None:
    """listener(name) is called when a registered name gets a different spec."""
    _listeners.append(listener)


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


def registered() -> dict:
    """All specs, after importing the known table modules, by name in registration order."""
    import_table_modules()
    with _lock:
        return dict(_specs)


def lookup(name: str):
    """The spec called `name`; KeyError if no table module registers it."""
    with _lock:
        spec = _specs.get(name)
    if spec is None:
        spec = registered().get(name)
    if spec is None:
        raise KeyError(name)
    return spec


def unregister(name: str) -> None:
    """Forget a spec (tests register throw-away tables)."""
    with _lock:
        _specs.pop(name, None)
