"""Korf's solver through the solver protocol, on tables built only a few moves deep (a weaker
but still admissible heuristic), against a plain breadth-first search of states."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubelab.cube.moves import FACE_MOVES, alg_state, apply_moves, move_state, rotations
from cubelab.cube.random_states import random_state
from cubelab.cube.state import CubeState
from cubelab.solvers import get_solver
from cubelab.solvers.korf.solver import KorfSolver
from cubelab.solvers.protocol import (
    BOUND, LOWER_BOUND, NODES, SolverError, new_cancel, new_counters,
)
from helpers_model import move_ball
from helpers_solvers import assert_within_moves
from helpers_timing import within

TABLE_DEPTH = 5


@pytest.fixture(scope="module")
def distance():
    """Exact distance of states at most 6 moves from solved: meet in the middle of two radius-3
    breadth-first searches."""
    near = {s.key(): d for s, d in move_ball(3, FACE_MOVES).items()}

    def dist(state: CubeState) -> int:
        best = near.get(state.key(), 99)
        seen = {state.key()}
        frontier = [state]
        for d in range(1, 4):
            nxt = []
            for s in frontier:
                for m in FACE_MOVES:
                    t = s * move_state(m)
                    if t.key() not in seen:
                        seen.add(t.key())
                        nxt.append(t)
                        best = min(best, d + near.get(t.key(), 99))
            frontier = nxt
        assert best <= 6, "the test only knows distances up to 6"
        return best

    return dist


# `layers` allocates its full 2.75 GB table even when built only a few moves deep
@pytest.fixture(scope="module", params=["korf1997", "strong", "layers-small",
                                        pytest.param("layers", marks=pytest.mark.slow)])
def solver(request):
    s = KorfSolver(request.param, table_depth=TABLE_DEPTH, fallback=False, split_from=4)
    s.prepare()
    return s


def _scramble(seed: int, n: int) -> CubeState:
    rng = np.random.default_rng(seed)
    return apply_moves(CubeState.identity(), [FACE_MOVES[i] for i in rng.integers(0, 18, n)])


@pytest.mark.parametrize("seed", range(6))
def test_short_scrambles_get_optimal_solutions(solver, distance, seed):
    state = _scramble(seed, 1 + seed)
    result = solver.solve(state)
    assert result.found and result.verified and result.optimal
    assert result.length["htm"] == distance(state) == result.lower_bound
    assert result.status == "solved"


def test_six_move_positions_on_both_threads_and_one(solver, distance):
    for seed in (11, 12):
        state = _scramble(seed, 6)
        two = solver.solve(state)
        one = KorfSolver(solver.tables, table_depth=TABLE_DEPTH, fallback=False, threads=1)
        one._prepared = solver._prepared
        single = one.solve(state)
        assert two.length == single.length
        assert two.length["htm"] == distance(state)


def test_bounds_below_the_split_run_in_the_calling_thread(solver, distance, monkeypatch):
    """A short solve starts no thread (its fixed cost was two thread start-ups); bounds from
    split_from on are still searched by the solver's threads."""
    import threading

    from cubelab.solvers.korf import solver as korf_module
    started = []

    class Counted(threading.Thread):
        def start(self):
            started.append(self.name)
            super().start()

    monkeypatch.setattr(korf_module.threading, "Thread", Counted)
    state = _scramble(4, 5)
    root_only = KorfSolver(solver.tables, table_depth=TABLE_DEPTH, fallback=False, split_from=9)
    root_only._prepared = solver._prepared
    assert root_only.solve(state).length["htm"] == distance(state)
    assert started == []
    split = solver.solve(state)            # split_from=4: bounds 4 and up on both threads
    assert split.length["htm"] == distance(state)
    assert started and all(name.startswith("korf search") for name in started)


@pytest.mark.parametrize("alg", ["U2 D2 R2 L2", "R2 L2 U2 D2 F2 B2", "U D' R L' F B'",
                                 "F2 U2 F2 U2 F2 U2"])
def test_symmetric_positions_search_one_start_node_of_each_orbit(solver, distance, alg):
    from cubelab.solvers.korf.startnodes import distinct_starts
    state = alg_state(alg)
    result = solver.solve(state)
    assert result.optimal and result.verified and result.length["htm"] == distance(state)
    items, paths = solver.start_nodes(solver._prepared.root(state))
    kept = len(distinct_starts(state, items, paths)[1])
    # the last position's symmetries all move the U-R-F corner: no symmetry keeps the order
    assert kept < len(paths) == 3240 if alg != "U D' R L' F B'" else kept == 3240


def test_the_superflip_keeps_one_start_node_in_six():
    from cubelab.solvers.korf.startnodes import distinct_starts, order_keeping_symmetries
    superflip = CubeState(range(8), [0] * 8, range(12), [1] * 12)
    paths = np.array([(a, b, c) for a in range(18) for b in range(18) for c in range(18)
                      if a // 3 != b // 3 != c // 3 and (a // 3 % 3 != b // 3 % 3 or a < b)
                      and (b // 3 % 3 != c // 3 % 3 or b < c)], np.int8)
    assert len(paths) == 3240 and len(order_keeping_symmetries()) == 6
    assert len(distinct_starts(superflip, np.arange(3240), paths)[1]) == 540
    assert len(distinct_starts(random_state(1), np.arange(3240), paths)[1]) == 3240


def test_solved_cube_needs_no_moves(solver):
    result = solver.solve(CubeState.identity())
    assert result.moves == [] and result.optimal and result.lower_bound == 0 and result.verified


def test_rotated_cube_is_solved_relative_to_its_centres(solver):
    state = rotations()[5] * alg_state("R U2 F'")
    result = solver.solve(state)
    assert result.verified and result.length["htm"] == 3


def test_max_length_below_the_optimum_finds_nothing_but_proves_a_bound(solver):
    state = alg_state("R U F L")
    result = solver.solve(state, max_length=2)
    assert result.moves is None and not result.optimal
    # proven: more than max_length, and the root's heuristic; never more than the truth (4)
    assert result.status == "not found" and 3 <= result.lower_bound <= 4


def test_counters_follow_the_search(solver):
    counters = new_counters()
    result = solver.solve(alg_state("R U F' D2 L"), counters=counters)
    assert counters[NODES] == result.nodes > 0
    assert counters[BOUND] == counters[LOWER_BOUND] == 5
    assert [b["bound"] for b in result.detail["bounds"]][-1] == 5


def test_a_raised_cancel_flag_stops_before_searching(solver):
    cancel = new_cancel()
    cancel[0] = 1
    result = solver.solve(alg_state("R U F"), cancel=cancel)
    assert result.moves is None and result.status == "cancelled" and not result.optimal


def test_time_limit_returns_the_bound_it_proved(solver):
    state = random_state(7)
    result = solver.solve(state, time_limit=0.3)
    assert result.status == "time limit" and result.moves is None and not result.optimal
    assert result.lower_bound >= solver.heuristic(state)


def test_time_limit_falls_back_on_the_two_phase_solution(solver, monkeypatch):
    from cubelab.cube.notation import invert_moves
    from cubelab.solvers.korf import solver as korf
    from cubelab.solvers.protocol import SolveResult
    # 22 turns, no face twice in a row: far beyond what the thin test tables solve in 0.5 s
    rng = np.random.default_rng(5)
    scramble = []
    while len(scramble) < 22:
        m = FACE_MOVES[int(rng.integers(18))]
        if not scramble or m.family != scramble[-1].family:
            scramble.append(m)
    state = apply_moves(CubeState.identity(), scramble)

    class TwoPhase:
        def prepare(self, progress=None, cancel=None, log=None):
            pass

        def solve(self, state, *, time_limit=None, cancel=None):
            return SolveResult("kociemba", invert_moves(scramble))

    monkeypatch.setattr(korf, "two_phase_ready", lambda: True)
    monkeypatch.setattr("cubelab.solvers.korf.fallback.two_phase_solver", TwoPhase)
    s = KorfSolver(solver.tables, table_depth=TABLE_DEPTH)
    s._prepared = solver._prepared
    heard = []
    result = s.solve(state, time_limit=0.5, on_solution=heard.append)
    assert result.status == "time limit" and not result.optimal and result.verified
    assert result.moves == invert_moves(scramble) and result.detail["solution_from"] == "kociemba"
    assert result.lower_bound <= len(scramble) and len(heard) == 1


def test_a_path_that_does_not_solve_is_refused_not_returned(solver, monkeypatch):
    # a wrong path (here its last move lost on the way out) must never reach the user
    from cubelab.solvers.korf import solver as korf
    monkeypatch.setattr(korf, "merge_turns", lambda path: list(path)[:-1])
    heard = []
    with pytest.raises(RuntimeError, match="does not solve"):
        solver.solve(alg_state("R U F'"), on_solution=heard.append)
    assert heard == []


def test_a_slow_fallback_preparation_stays_inside_the_time_limit(solver, monkeypatch):
    # a cold two-phase solver (tables to load, kernels to compile) once made an 8 s limit
    # return after 235 s: its preparation now runs beside the search, within the fallback's share
    import threading
    import time
    from cubelab.solvers.korf import solver as korf
    release = threading.Event()

    class ColdTwoPhase:
        def prepare(self, progress=None, cancel=None, log=None):
            release.wait(30)

        def solve(self, state, *, time_limit=None, cancel=None):
            raise AssertionError("not prepared yet: must not be asked")

    monkeypatch.setattr(korf, "two_phase_ready", lambda: True)
    monkeypatch.setattr("cubelab.solvers.korf.fallback.two_phase_solver", ColdTwoPhase)
    s = KorfSolver(solver.tables, table_depth=TABLE_DEPTH)
    s._prepared = solver._prepared
    start = time.perf_counter()
    try:
        result = s.solve(random_state(12), time_limit=0.5)
    finally:
        release.set()
    assert time.perf_counter() - start < within(5.0)
    assert result.status == "time limit" and result.moves is None and not result.optimal
    assert "not ready" in result.detail["fallback_error"]


def test_a_wrong_two_phase_answer_is_not_passed_on(solver, monkeypatch):
    from cubelab.solvers.korf import solver as korf
    from cubelab.solvers.protocol import SolveResult
    state = random_state(11)

    class TwoPhase:   # answers with a sequence that does not solve the position
        def prepare(self, progress=None, cancel=None, log=None):
            pass

        def solve(self, state, *, time_limit=None, cancel=None):
            return SolveResult("kociemba", [FACE_MOVES[0]] * 3)

    monkeypatch.setattr(korf, "two_phase_ready", lambda: True)
    monkeypatch.setattr("cubelab.solvers.korf.fallback.two_phase_solver", TwoPhase)
    s = KorfSolver(solver.tables, table_depth=TABLE_DEPTH)
    s._prepared = solver._prepared
    result = s.solve(state, time_limit=0.3)
    assert result.moves is None and not result.optimal and result.status == "time limit"
    assert "does not solve" in result.detail["fallback_error"]


def _lying(solver, kernel, heuristic):
    """A copy of the solver whose search kernel and root bound are replaced (wrong tables)."""
    import dataclasses
    s = KorfSolver(solver.tables, table_depth=TABLE_DEPTH, threads=1, fallback=False)
    s._prepared = dataclasses.replace(solver._prepared, kernel=kernel,
                                      heuristic=lambda node: heuristic, unknown_depth=99)
    return s


def test_start_nodes_costly_at_the_last_bound_are_searched_first(solver):
    """Each bound hands the start nodes out in the order of the nodes their subtrees took at
    the bound before (most first, ties kept in place)."""
    seen: dict[int, list] = {}

    def cost_of(path):
        return (path[-1] % 5) * 7 + path[0] % 3      # many ties: the order within must hold

    def records(items, paths, i0, i1, g0, bound, *rest):
        costs = rest[-1]
        for i in range(i0, i1):
            seen.setdefault(bound, []).append(tuple(paths[i].tolist()))
            costs[i] = cost_of(seen[bound][-1])
        return 0, 0

    from cubelab.tables.spec import TableError
    with pytest.raises(TableError):
        _lying(solver, records, 18).solve(alg_state("R U F"))
    assert len(seen[18]) == 3240 and sorted(seen[18]) == sorted(seen[19])
    assert seen[19] == sorted(seen[18], key=lambda p: -cost_of(p))
    assert seen[20] == sorted(seen[19], key=lambda p: -cost_of(p))


def test_a_bound_beyond_gods_number_says_the_tables_are_wrong(solver):
    bounds = []

    def finds_nothing(items, paths, i0, i1, g0, bound, *rest):
        bounds.append(bound)
        return 0, 0

    from cubelab.tables.spec import TableError
    with pytest.raises(TableError, match="God's number"):
        _lying(solver, finds_nothing, 18).solve(alg_state("R U"))
    # (each bound is searched in chunks of start nodes: one call per chunk)
    assert list(dict.fromkeys(bounds)) == [18, 19, 20]


def test_a_search_answer_that_does_not_solve_is_refused(solver):
    def claims_u(items, paths, i0, i1, g0, bound, *rest):
        rest[-1][:bound] = 0          # "U" (times bound): not a solution of R U
        return 1, 1

    with pytest.raises(SolverError, match="does not solve"):
        _lying(solver, claims_u, 2).solve(alg_state("R U"))


def test_on_solution_hears_the_answer(solver):
    heard = []
    result = solver.solve(alg_state("F2 U' R"), on_solution=heard.append)
    assert [s.moves for s in heard] == [result.moves]


def test_unreachable_positions_are_refused(solver):
    s = CubeState.identity()
    twisted = CubeState(s.cp, [1, 0, 0, 0, 0, 0, 0, 0], s.ep, s.eo)
    with pytest.raises(SolverError):
        solver.solve(twisted)


@settings(max_examples=40)
@given(st.lists(st.integers(0, 17), max_size=9))
def test_heuristic_never_overestimates(solver, moves):
    assert_within_moves(solver, FACE_MOVES, moves)


def test_unknown_table_set_is_refused():
    with pytest.raises(ValueError):
        KorfSolver("enormous")


def test_the_registry_builds_it():
    s = get_solver("korf", tables="korf1997")
    assert isinstance(s, KorfSolver) and s.name == "korf" and s.tables == "korf1997"


@pytest.mark.slow
def test_full_korf1997_tables_solve_ten_move_scrambles():
    solver = KorfSolver("korf1997", fallback=False)
    solver.prepare()
    for seed in range(3):
        state = _scramble(100 + seed, 10)
        result = solver.solve(state)
        assert result.optimal and result.verified and result.length["htm"] <= 10
        assert solver.heuristic(state) <= result.length["htm"]


_LAYERS_RUN = """
import sys
from cubelab.cube.moves import alg_state
from cubelab.solvers.korf.solver import KorfSolver
s = KorfSolver("layers-small", table_depth=5, fallback=False)
s.prepare()
result = s.solve(alg_state("R U F D2 L"))
assert result.found and result.length["htm"] == 5, result
print(" ".join(sorted(sys.modules)))
"""


def test_a_layer_set_search_imports_only_the_tables_it_reads():
    # the layer kernel compiles the H48 probes in (one kernel serves layers and layers-h48), but
    # the H48 coordinates and builder, and the other sets' table modules (the strong set's
    # phase table among them), stay unloaded
    import subprocess
    import sys
    run = subprocess.run([sys.executable, "-c", _LAYERS_RUN], capture_output=True, text=True,
                         timeout=900)
    assert run.returncode == 0, run.stderr
    loaded = set(run.stdout.split())
    assert "cubelab.solvers.korf.layersearch" in loaded
    others = {"cubelab.tables.korf.h48coords", "cubelab.tables.korf.h48table",
              "cubelab.tables.korf.qtm", "cubelab.tables.korf.slicephase",
              "cubelab.solvers.korf.strong", "cubelab.solvers.korf.korf1997"}
    assert not others & loaded, sorted(others & loaded)
