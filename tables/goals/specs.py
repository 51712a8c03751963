"""The goal tables in the store: specs made on demand from their defining parameters.

A goal table's params hold everything its builder needs (the items and code maps of a
component, its solved tuples, element costs, the canonical order...), so a spec can be made
again from a file's header alone: on import, this module registers a spec for every goal table
already on disk, and `cubelab tables status` lists them (and `tables clear` does not take them
for strays). Names are `goal-<kind>-<digest of params>`: a table serves every goal and move set
that yields the same parameters (the cross table is the same for all six faces).
"""

from __future__ import annotations

import hashlib
import json

import numpy as np

from ..fileformat import SUFFIX, stored_header
from ..spec import TableSpec, canonical_params, known_specs, register
from ..store import tables_dir
from .ball import MAX_COMPONENTS, fill
from .components import enumerate_component, key_of, table_keys
from .distances import pair_distances, shallow_pair_distances, single_distances

VERSION = 2
"""2: the parameters' "about" no longer names the goal (tables two goals share are one table),
and pair tables may be shallow ("shallow": distances.SHALLOW_SHARE)."""
SOLVER = "goals"
PREFIX = "goal-"


def _name(kind: str, params: dict) -> str:
    digest = hashlib.sha1(canonical_params(params).encode()).hexdigest()[:12]
    return f"{PREFIX}{kind}-{digest}"


def _dummy() -> np.ndarray:
    """A stand-in component table, read-only like the loaded ones (one type for numba)."""
    a = np.zeros((1, 3), np.int32)
    a.flags.writeable = False
    return a


def _build_component(params):
    def build(ctx):
        return enumerate_component(params["kinds"], params["groups"], params["fullmap"],
                                   params["slotmap"], params["seeds"], ctx.cancel,
                                   ctx.counters)
    return build


def _coords(table, codes_list) -> list[int]:
    """The coordinates of a few code tuples (the solved ones): one vectorised pass over the
    keys, not a sorted index (sorting a component's keys cost more than its distances)."""
    keys = table_keys(table)
    want = [key_of(c) for c in codes_list]
    rows = np.flatnonzero(np.isin(keys, np.asarray(want, np.int64)))
    where = {int(keys[r]): int(r) for r in rows}
    out = [where.get(k, -1) for k in want]
    if min(out, default=0) < 0:
        raise ValueError("a solved tuple is missing from its component")
    return out


def _build_single(params):
    def build(ctx):
        table = ctx.load(params["component"])
        seeds = _coords(table, params["seeds"])
        return single_distances(table, params["inv"], params["costs"], seeds, ctx.cancel, ctx)
    return build


def _build_pair(params):
    def build(ctx):
        ta, tb = ctx.load(params["a"]), ctx.load(params["b"])
        sa = _coords(ta, [s[0] for s in params["seeds"]])
        sb = _coords(tb, [s[1] for s in params["seeds"]])
        if params.get("shallow"):
            return shallow_pair_distances(ta, tb, params["inv_a"], params["costs"],
                                          list(zip(sa, sb)), params["shallow"], ctx.cancel, ctx)
        return pair_distances(ta, tb, params["inv_a"], params["inv_b"], params["costs"],
                              list(zip(sa, sb)), ctx.cancel, ctx)
    return build


def _build_ball(params):
    def build(ctx):
        names = params["components"]
        tables = [ctx.load(n) for n in names]
        coords = [_coords(t, [s[k] for s in params["seeds"]]) for k, t in enumerate(tables)]
        seeds = np.array(list(zip(*coords)), np.int64).reshape(-1, len(names))
        padded = tuple(tables + [_dummy()] * (MAX_COMPONENTS - len(tables)))
        inv = np.zeros((MAX_COMPONENTS, len(params["costs"])), np.int64)
        inv[:len(names)] = np.array(params["inv"], np.int64)
        ball = np.zeros(1 << params["bits"], np.uint8)
        done = fill(ball, params["radius"], seeds, padded, len(names),
                    np.array(params["fsm"], np.int64), inv, np.array(params["costs"], np.int64),
                    ctx.cancel, ctx.counters)
        ctx.check_cancel()
        if done < 0:
            from ..spec import BuildCancelled
            raise BuildCancelled(ctx.spec.name)
        return ball
    return build


_BUILDERS = {"component": _build_component, "single": _build_single, "pair": _build_pair,
             "ball": _build_ball}


def _deps(params) -> tuple[str, ...]:
    kind = params["kind"]
    if kind == "single":
        return (params["component"],)
    if kind == "pair":
        return (params["a"], params["b"])
    if kind == "ball":
        return tuple(params["components"])
    return ()


def spec_for(params: dict, about: str = "", expected_bytes: int | None = None) -> TableSpec:
    """The spec (registered) of a goal table with these parameters."""
    params = dict(params, v=VERSION)
    params = json.loads(canonical_params(params))
    name = _name(params["kind"], params)
    known = known_specs().get(name)
    if known is not None and known.params_key == canonical_params(params):
        return known
    return register(TableSpec(name=name, solver=SOLVER, params=params,
                              build=_BUILDERS[params["kind"]](params),
                              description=about or params.get("about", ""),
                              deps=_deps(params), expected_bytes=expected_bytes,
                              expected_seconds=build_seconds(expected_bytes)))


BUILD_OVERHEAD = 0.1
"""Seconds a goal table costs whatever its size (its move columns, its file), measured on the
reference machine: cross, OLL and F2L-pair tables build in a tenth of a second to a second."""
ENTRIES_PER_SECOND = 2e7
"""How fast the goal builders fill entries there (one byte an entry)."""


def build_seconds(expected_bytes: int | None) -> float:
    """The expected build time of a goal table of that size (what `cubelab` announces)."""
    return BUILD_OVERHEAD + (expected_bytes or 0) / ENTRIES_PER_SECOND


def register_stored() -> list[str]:
    """Register a spec for each goal table on disk (read from its header); returns names."""
    directory = tables_dir()
    if not directory.is_dir():
        return []
    found = []
    for path in sorted(directory.glob(f"{PREFIX}*{SUFFIX}")):
        header = stored_header(path)
        params = header.get("params") if header else None
        if not isinstance(params, dict) or params.get("v") != VERSION \
                or params.get("kind") not in _BUILDERS:
            continue
        name = path.name[:-len(SUFFIX)]
        if _name(params["kind"], params) != name:
            continue
        spec_for({k: v for k, v in params.items() if k != "v"}, params.get("about", ""))
        found.append(name)
    return found


register_stored()
