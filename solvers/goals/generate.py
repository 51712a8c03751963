"""Alg generation over a case set: the best algorithms of every case, case by case.

`generate("pll", "<R,U,F>", n=3)` enumerates the set's cases (cubelab.cube.case_sets) and
searches each with the set's goal and AUF, in a move set and metric; every case gives one
record (JSON-ready): its name, its position (facelets) and a setup (the inverse of its best
alg, AUF included), the algorithms found (each with its lengths, finger-trick cost and AUF),
whether the best is proven optimal, the search's status, time and nodes. Records go to
`on_case` as each case ends, so a caller writes them out as they come; `done` names cases to
skip (a resumed run), `progress(done, total)` counts cases, the cancel flag (and a time limit
per case) stop the search in hand. The tables are made once, for the first case, and shared
by the rest.

`generate_on_cluster` spreads the cases over a Dask cluster (solvers/cluster.py's batching,
retries and order): each worker makes or loads the set's tables once and searches the cases it
is sent with the same `_one` as here, so a record does not depend on where it was made; the
records still come out in the set's order.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache

from cubelab.cube.case_sets import Case, CaseSet, case_set, cases as set_cases
from cubelab.cube.goal_catalog import resolve_goal
from cubelab.cube.notation import format_moves, invert_moves

from ..protocol import new_cancel, new_counters
from .search import find


def generate(which: str | CaseSet, moves, *, metric: str = "htm", weights=None,
             n: int | None = 1, all: bool = False, within: float | None = None,
             max_length: float | None = None, time_limit: float | None = None,
             fold: bool = False, done=(), on_case=None, progress=None, cancel=None, log=None,
             counters=None) -> list[dict]:
    """Records of every case not in `done` (see the module docstring)."""
    cs = which if isinstance(which, CaseSet) else case_set(which)
    todo = [c for c in set_cases(cs) if c.name not in set(done)]
    total = len(todo)
    cancel = new_cancel() if cancel is None else cancel
    counters = new_counters() if counters is None else counters
    (goal,) = resolve_goal(cs.goal)
    out = []
    if progress is not None:
        progress(0, total)
    for i, case in enumerate(todo):
        if cancel[0]:
            break
        record = _one(cs, case, goal, moves, metric, weights, n, all, within, max_length,
                      time_limit, fold, cancel, log, counters)
        out.append(record)
        if on_case is not None:
            on_case(record)
        if progress is not None:
            progress(i + 1, total)
    return out


def _one(cs, case: Case, goal, moves, metric, weights, n, all, within, max_length, time_limit,
         fold, cancel, log, counters) -> dict:
    started = time.perf_counter()
    result = find(case.state, goal, moves, metric=metric, weights=weights, auf=cs.auf,
                  all=all, n=None if (all or within is not None) and n == 1 else n,
                  within=within, max_length=max_length, time_limit=time_limit, fold=fold,
                  cancel=cancel, log=log, counters=counters)
    best = result.best
    setup = format_moves(invert_moves(best.full())) if best is not None else None
    return {
        "set": cs.name, "case": case.name, "facelets": case.facelets, "setup": setup,
        "goal": result.goal, "moveset": result.moveset, "metric": result.metric,
        "auf": cs.auf, "optimal": result.optimal, "status": result.status,
        "algs": [s.to_json() for s in result.solutions], "truncated": result.truncated,
        "nodes": int(result.nodes), "seconds": round(time.perf_counter() - started, 6),
    }


@dataclass(frozen=True)
class SearchOptions:
    """How every case of a run is searched (what a cluster task carries besides case names)."""

    moves: str
    metric: str = "htm"
    weights: str | None = None
    n: int | None = 1
    all: bool = False
    within: float | None = None
    max_length: float | None = None
    time_limit: float | None = None
    fold: bool = False


@lru_cache(maxsize=8)
def _cases_by_name(cs: CaseSet) -> dict[str, Case]:
    return {c.name: c for c in set_cases(cs)}


def cases_task(job: tuple[CaseSet, SearchOptions], items: list) -> tuple[list, float]:
    """A cluster task: the records of a batch of (index, case name), and the seconds spent."""
    cs, o = job
    by_name = _cases_by_name(cs)
    (goal,) = resolve_goal(cs.goal)
    cancel, counters = new_cancel(), new_counters()
    started = time.perf_counter()
    out = [(index, _one(cs, by_name[name], goal, o.moves, o.metric, o.weights, o.n, o.all,
                        o.within, o.max_length, o.time_limit, o.fold, cancel, None, counters))
           for index, name in items]
    return out, time.perf_counter() - started


def lost_case(cs: CaseSet, case: Case, deaths: int) -> dict:
    """The record of a case given up because the workers searching it kept dying (status
    "lost": a front end writes it nowhere, so a resumed run searches it again)."""
    return {"set": cs.name, "case": case.name, "facelets": case.facelets, "status": "lost",
            "error": f"the worker searching this case died {deaths} times (out of memory, or "
                     "killed); giving up on it", "algs": []}


def generate_on_cluster(client, which: str | CaseSet, options: SearchOptions, *, done=(),
                        on_case=None, progress=None) -> list[dict]:
    """Records of every case not in `done`, searched on the cluster, in the set's order."""
    import dask

    from ..batch import in_order
    from ..cluster import solve_unordered
    cs = which if isinstance(which, CaseSet) else case_set(which)
    todo = [c for c in set_cases(cs) if c.name not in set(done)]
    deaths = int(dask.config.get("distributed.scheduler.allowed-failures", 3)) + 1
    pairs = solve_unordered(client, [(i, c.name) for i, c in enumerate(todo)], (cs, options),
                            total=len(todo), task=cases_task,
                            lost=lambda index: lost_case(cs, todo[index], deaths))
    out = []
    if progress is not None:
        progress(0, len(todo))
    for k, record in enumerate(in_order(pairs)):
        out.append(record)
        if on_case is not None:
            on_case(record)
        if progress is not None:
            progress(k + 1, len(todo))
    return out
