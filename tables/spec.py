"""What defines a table (TableSpec), the process-wide register of specs, and the store's errors.

Table modules register their specs here when imported; this module imports none of them (the
catalog, one floor up inside tables/, knows which modules to import to list every table).
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


class BuildCancelled(Exception):
    """A build stopped because its cancel flag was raised; nothing was written."""


class TableError(RuntimeError):
    """A table could not be loaded or built (unknown name, dependency cycle, bad builder)."""


def canonical_params(params: dict) -> str:
    return json.dumps(params, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True, eq=False)
class TableSpec:
    """What defines a table: its name, the parameters its content depends on, and its builder."""

    name: str
    solver: str
    params: dict
    build: Callable[..., np.ndarray]
    """build(ctx) -> array, ctx being the store's BuildContext."""
    description: str = ""
    deps: tuple[str, ...] = ()
    expected_bytes: int | None = None
    expected_seconds: float | None = None
    """The build's time on the reference machine (2 cores), for the estimates said before a build
    starts; None: judged from expected_bytes at the builders' usual rate."""
    _key: str = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        if not _NAME_RE.match(self.name):
            raise ValueError(f"table name {self.name!r}: use letters, digits, '.', '_' or '-'")
        try:
            key = canonical_params(self.params)
        except TypeError as e:
            raise ValueError(f"table {self.name}: params must be plain JSON values ({e})") from None
        object.__setattr__(self, "_key", key)
        object.__setattr__(self, "deps", tuple(self.deps))

    @property
    def params_key(self) -> str:
        """The params as canonical JSON: equal keys mean equal table content."""
        return self._key


_specs: dict[str, TableSpec] = {}
_lock = threading.Lock()
_listeners: list = []


def register(spec: TableSpec) -> TableSpec:
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


def unregister(name: str) -> None:
    """Forget a spec (tests register throw-away tables)."""
    with _lock:
        _specs.pop(name, None)


def known_specs() -> dict[str, TableSpec]:
    """The specs registered so far, by name in registration order (catalog.registered() imports
    every table module first)."""
    with _lock:
        return dict(_specs)


def resolve(spec_or_name) -> TableSpec:
    """A spec itself, or the registered spec of that name (TableError if none)."""
    if isinstance(spec_or_name, TableSpec):
        return spec_or_name
    with _lock:
        spec = _specs.get(spec_or_name)
    if spec is None:
        raise TableError(f"unknown table {spec_or_name!r}")
    return spec
