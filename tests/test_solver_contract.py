"""Every registered solver, of both puzzles, the hidden stand-in and a solver the tests register
(helpers_tiny_solver), through the solver protocol: its declaration, tables, prepare, the solved
cube, a real position, max_length, a time limit, a cancel from another thread, and refusal of
unreachable positions and of the other puzzle's."""

from __future__ import annotations

import json
import threading
import time

import pytest

from cubelab.cube import pocket
from cubelab.cube.moves import alg_state, apply_moves
from cubelab.cube.notation import metric_lengths, parse_moves
from cubelab.cube.random_states import random_state
from cubelab.cube.state import CubeState
from cubelab.solvers import REGISTRY, get_solver
from cubelab.solvers.protocol import (
    NODES, Solution, SolveResult, SolverError, new_cancel, new_counters,
)
from cubelab.tables.spec import TableSpec
from helpers_tiny_solver import TINY, tiny_registered
from helpers_timing import within

OPTIONS = {
    # Korf on tables built five moves deep, as tests/test_korf.py uses them: weaker but
    # admissible, so still optimal, and quick to build
    "korf": {"tables": "strong", "table_depth": 5, "fallback": False, "split_from": 4},
    "korf-qtm": {"table_depth": 5, "fallback": False, "split_from": 4},
    # slow enough that a cancel after a fraction of a second meets a solve still running
    "fake": {"step_seconds": 0.3, "improvements": 2},
    # a small budget: a random position is refused within a second or two
    "greedy": {"max_nodes": 5_000},
}
OPTIMAL = {"korf", "korf-qtm", "bfs", "astar", "idastar", "pocket-htm", "pocket-qtm", "fake",
           "tiny", "goal"}
"""Solvers whose every solution is proven optimal (the fake's last one is)."""
REFUSES_DEEP = {"bfs", "astar", "idastar", "greedy", "fake", "tiny"}
"""Solvers that refuse, by design, positions deeper than their bound."""
LIMIT = 0.5
GRACE = 2.0
"""How long after a time limit or a cancel a solve may take to return (a loaded machine)."""
SCRAMBLE = "R U F' L2 D"
"""Five face turns: within every solver's reach, the breadth-first search's included."""


DESCRIPTIONS = {d.name: d for d in REGISTRY.descriptions(include_hidden=True) + [TINY]}
"""Every solver's declaration, as the registry serves it (the tiny one once registered)."""


@pytest.fixture(scope="module", autouse=True)
def tiny():
    """The tests' own solver, registered through the public API for this module."""
    with tiny_registered():
        yield


def _metric(name: str) -> str:
    """The metric the solver honours as made by default: its lengths, bounds and optimality
    count in it (an entry made in any of several metrics, the goal solver, is made in its
    first unless asked)."""
    metrics = REGISTRY.solver_metrics(name, DESCRIPTIONS[name].puzzle)
    assert len(metrics) == 1 or DESCRIPTIONS[name].option("metric") is not None
    return metrics[0]


@pytest.fixture(scope="module", params=sorted(DESCRIPTIONS))
def solver(request, tiny):
    name = request.param
    s = get_solver(name, DESCRIPTIONS[name].puzzle, include_hidden=True,
                   **OPTIONS.get(name, {}))
    progress, messages = [], []
    s.prepare(progress=lambda done, total: progress.append((done, total)), cancel=new_cancel(),
              log=messages.append)
    assert all(0 <= d <= t for d, t in progress) and all(isinstance(m, str) for m in messages)
    s.prepare(progress=None, cancel=None, log=None)     # a second time: nothing to do
    return name, s


def _is_3x3(name: str) -> bool:
    return DESCRIPTIONS[name].puzzle == "3x3"


def _position(name: str, alg: str = SCRAMBLE):
    return alg_state(alg) if _is_3x3(name) else pocket.from_alg(alg).state


def _hard_position(name: str):
    """A position no solver here finishes at once (or refuses)."""
    if _is_3x3(name):
        return random_state(2024)
    return _position(name, "R U2 F' R U' F2 R' U F' R2 U' F R2")


def _solves(name: str, state, moves) -> bool:
    if _is_3x3(name):
        return apply_moves(state, moves).is_solved()
    return pocket.apply_moves(state, moves).is_rotation()


def _check_found(name, state, r: SolveResult):
    assert r.found and r.verified and _solves(name, state, r.moves)
    record = r.to_json()
    json.dumps(record)
    for key in ("solver", "solution", "length", "optimal", "nodes", "seconds", "verified"):
        assert key in record
    assert record["length"] == {"htm": r.length["htm"], "qtm": r.length["qtm"]}


def test_tables_are_specs_and_none_is_missing_once_prepared(solver):
    name, s = solver
    specs = s.table_specs()
    assert isinstance(specs, tuple) and all(isinstance(t, TableSpec) for t in specs)
    assert s.missing_tables() == []
    fresh = get_solver(name, DESCRIPTIONS[name].puzzle, include_hidden=True,
                       **OPTIONS.get(name, {}))
    missing = fresh.missing_tables()
    assert isinstance(missing, list) and all(t in fresh.table_specs() for t in missing)


def test_the_solved_cube_needs_no_move(solver):
    name, s = solver
    state = CubeState.identity() if _is_3x3(name) else pocket.PocketState.identity()
    r = s.solve(state)
    assert r.moves == [] and r.verified and r.status == "solved"
    assert r.optimal or name not in OPTIMAL
    assert r.lower_bound in (None, 0)


def test_a_real_position(solver):
    name, s = solver
    state = _position(name)
    counters, seen = new_counters(), []
    r = s.solve(state, counters=counters, on_solution=seen.append)
    _check_found(name, state, r)
    assert counters[NODES] > 0
    assert seen and all(isinstance(x, Solution) for x in seen) and seen[-1].moves == r.moves
    assert r.metric == _metric(name) == r.to_json()["metric"] and tuple(s.metrics) == (r.metric,)
    if name in OPTIMAL:
        assert r.optimal and r.length[_metric(name)] == r.lower_bound
        assert r.length[_metric(name)] <= metric_lengths(parse_moves(SCRAMBLE))[_metric(name)]


def test_max_length_is_honoured(solver):
    name, s = solver
    state = _position(name)
    for limit in (2, 5):
        r = s.solve(state, max_length=limit)
        if r.found:
            _check_found(name, state, r)
            assert r.length[_metric(name)] <= limit
        else:
            assert r.status == "not found"
    assert not s.solve(state, max_length=2).found     # five moves are needed


def test_a_time_limit_stops_a_long_search(solver):
    name, s = solver
    state = _hard_position(name)
    start = time.perf_counter()
    try:
        r = s.solve(state, time_limit=LIMIT)
    except SolverError:
        assert name in REFUSES_DEEP
        return
    assert time.perf_counter() - start < within(LIMIT + GRACE)
    if r.found:
        _check_found(name, state, r)
        assert r.status in ("solved", "time limit")
    else:
        # a depth-bounded baseline may finish its whole reach before the limit
        assert r.status == "time limit" or (name in REFUSES_DEEP and r.status == "too deep")


def test_a_cancel_from_another_thread_ends_the_solve(solver):
    name, s = solver
    state = _hard_position(name) if name != "fake" else _position(name)
    cancel, out = new_cancel(), {}

    def run():
        try:
            out["result"] = s.solve(state, cancel=cancel)
        except SolverError as e:
            out["refused"] = e

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    time.sleep(0.3)
    cancel[0] = 1
    raised = time.perf_counter()
    worker.join(within(GRACE) + 10)
    assert not worker.is_alive(), "the solve did not stop"
    assert time.perf_counter() - raised < within(GRACE)
    if "refused" in out:
        assert name in REFUSES_DEEP
        return
    r = out["result"]
    if r.found:
        _check_found(name, state, r)
        assert r.status in ("solved", "cancelled")
    else:
        # a depth-bounded baseline may finish its whole reach before the flag goes up
        assert r.status == "cancelled" or (name in REFUSES_DEEP and r.status == "too deep")
    if name == "fake":
        assert r.status == "cancelled"


def test_unreachable_positions_are_refused(solver):
    name, s = solver
    if _is_3x3(name):
        state = CubeState(range(8), [1] + [0] * 7, range(12), [0] * 12)
    else:
        state = pocket.PocketState(range(8), [1] + [0] * 7)
    with pytest.raises(SolverError):
        s.solve(state)


def test_a_position_of_the_other_puzzle_is_refused(solver):
    name, s = solver
    other = pocket.from_alg("R U").state if _is_3x3(name) else alg_state("R U")
    with pytest.raises(SolverError):
        s.solve(other)


def test_the_solver_carries_the_declaration_the_registry_serves(solver):
    name, s = solver
    d = REGISTRY.describe(name)
    assert s.description == d and s.puzzle == d.puzzle
    # its metrics are the declared ones; an entry made in any of several counts in one
    assert tuple(s.metrics) == d.metrics or (
        d.option("metric") is not None and tuple(s.metrics) == (d.metrics[0],))
    assert s.name == name or d.family      # pocket's results carry their family's name
    assert d.summary and all(o.help for o in d.user_options)
    for option in d.user_options:          # every declared default is one it takes
        if option.default is not None and not option.switch:
            assert REGISTRY.check_options(name, d.puzzle, {option.name: str(option.default)})


def test_both_puzzles_and_the_stand_in_are_registered():
    assert {d.puzzle for d in DESCRIPTIONS.values()} == {"3x3", "2x2"} and "fake" in DESCRIPTIONS
