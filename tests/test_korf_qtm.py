"""Korf's solver in the quarter-turn metric: its move order, its tables (built a few quarter
turns deep) read back against plain breadth-first searches, its optima against an independent
QTM distance, the bounds' parity and God's number, and the metric refused where not honoured."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubelab.cube.moves import FACE_MOVES, alg_state, apply_moves
from cubelab.cube.notation import metric_lengths
from cubelab.cube.random_states import random_state
from cubelab.cube.state import CubeState, permutation_parity
from cubelab.solvers import StandIn, metric_variant, solver_metrics
from cubelab.solvers.korf import quarter
from cubelab.solvers.korf.solver import KorfSolver
from cubelab.solvers.protocol import BOUND, LOWER_BOUND, NODES, new_counters
from cubelab.tables.korf import coords as kc
from cubelab.tables.korf import qtm as kq
from cubelab.tables.korf.slicephase import phase_entry
from cubelab.tables.packed import UNKNOWN2, UNKNOWN4, get2, get4
from cubelab.tables.sequences import sequence_counts
from cubelab.tables.spec import TableError
from cubelab.tables.store import load_or_build
from helpers_model import move_ball
from helpers_solvers import assert_within_moves

TABLE_DEPTH = 5
QUARTERS = [m for m in FACE_MOVES if m.amount != 2]
QTM_POSITIONS = [1, 12, 114, 1068, 10011]
"""Positions at each QTM distance 0..4 from solved (Pos(n) in the quarter-turn metric)."""


@pytest.fixture(scope="module")
def near():
    return move_ball(4, QUARTERS)


@pytest.fixture(scope="module")
def qtm_distance(near):
    """Exact QTM distance of states at most 8 quarter turns from solved: meet in the middle of
    two radius-4 breadth-first searches."""
    def dist(state: CubeState) -> int:
        here = move_ball(4, QUARTERS, state)
        best = min((d + near[k] for k, d in here.items() if k in near), default=99)
        assert best <= 8, "the test only knows QTM distances up to 8"
        return best
    return dist


@pytest.fixture(scope="module")
def solver():
    s = KorfSolver(metric="qtm", table_depth=TABLE_DEPTH, fallback=False, split_from=4)
    s.prepare()
    return s


def _quarter_scramble(seed: int, n: int) -> CubeState:
    rng = np.random.default_rng(seed)
    return apply_moves(CubeState.identity(), [QUARTERS[i] for i in rng.integers(0, 12, n)])


# ---- the move order ---------------------------------------------------------------------------

def _canonical(n: int) -> list[tuple[int, ...]]:
    lists, counts, rows = quarter.quarter_turn_order()
    seqs = [()]
    for _ in range(n):
        nxt = []
        for seq in seqs:
            a = seq[-2] if len(seq) > 1 else quarter.NO_MOVE
            b = seq[-1] if seq else quarter.NO_MOVE
            r = rows[a, b]
            nxt += [seq + (int(m),) for m in lists[r, :counts[r]]]
        seqs = nxt
    return seqs


def test_the_quarter_turn_order_counts_the_canonical_sequences_of_each_cost():
    for n in range(1, 6):
        assert len(_canonical(n)) == sequence_counts("qtm", n)[n]


def test_up_to_four_quarter_turns_each_position_is_written_once(near):
    # the order writes every position within 4 quarter turns exactly once, at its distance
    for n in range(5):
        seqs = _canonical(n)
        keys = {apply_moves(CubeState.identity(), [FACE_MOVES[m] for m in s])
                for s in seqs}
        assert len(keys) == len(seqs) == QTM_POSITIONS[n]
        assert all(near[k] == n for k in keys)


def test_the_order_uses_quarter_turns_and_never_undoes_or_triples_one():
    for seq in _canonical(4):
        assert all(FACE_MOVES[m].amount != 2 for m in seq)
        for a, b in zip(seq, seq[1:]):
            assert not (a // 3 == b // 3 and a != b)              # U U' / U' U
        assert not any(a == b == c for a, b, c in zip(seq, seq[1:], seq[2:]))   # U U U


def test_the_first_bound_has_the_parity_of_the_position():
    assert quarter.first_bound(3, alg_state("R U")) == 4
    assert quarter.first_bound(3, alg_state("R U R")) == 3
    assert quarter.first_bound(0, alg_state("R2")) == 0


# ---- the tables, read back exactly ------------------------------------------------------------

def _coordinate_levels(step, start: int, depth: int) -> list[np.ndarray]:
    """Breadth-first levels of a coordinate under `step(coords) -> (n, 12) neighbours`."""
    levels = [np.array([start], np.int64)]
    seen = set(levels[0].tolist())
    for _ in range(depth):
        nxt = np.unique(step(levels[-1]).ravel())
        nxt = np.array([c for c in nxt.tolist() if c not in seen], np.int64)
        seen.update(nxt.tolist())
        levels.append(nxt)
    return levels


def test_the_qtm_corner_table_holds_exact_quarter_turn_distances():
    mt = kc.move_tables()
    cols = list(kq.QUARTER_TURNS)
    cperm, twist = (a[:, cols].astype(np.int64) for a in (mt.cperm, mt.twist))
    table = load_or_build(kq.corner_qtm_spec(TABLE_DEPTH))

    def step(c):
        return cperm[c // 2187] * 2187 + twist[c % 2187]

    levels = _coordinate_levels(step, 0, TABLE_DEPTH + 1)
    assert [len(x) for x in levels[:6]] == [1, 12, 114, 924, 6539, 39528]
    for d, coords in enumerate(levels[:TABLE_DEPTH + 1]):
        assert all(get4(table, int(c)) == d for c in coords)
    assert all(get4(table, int(c)) == UNKNOWN4 for c in levels[TABLE_DEPTH + 1][:500])


def test_the_qtm_phase_table_holds_quarter_turn_distances_mod_3():
    mt, sym = kc.move_tables(), kc.sym_tables()
    cols = list(kq.QUARTER_TURNS)
    ss_m, f_m, t_m = (a[:, cols].astype(np.int64) for a in (mt.sslice, mt.flip, mt.twist))
    table = load_or_build(kq.phase_qtm_spec(TABLE_DEPTH))
    size_f, size_t = 2048, 2187

    def step(c):
        ss, f, t = c // (size_f * size_t), c // size_t % size_f, c % size_t
        return (ss_m[ss] * size_f + f_m[f]) * size_t + t_m[t]

    levels = _coordinate_levels(step, 0, TABLE_DEPTH + 1)
    rng = np.random.default_rng(3)
    for d, coords in enumerate(levels):
        sample = coords if len(coords) <= 400 else rng.choice(coords, 400, replace=False)
        for c in sample.tolist():
            ss, f, t = c // (size_f * size_t), c // size_t % size_f, c % size_t
            v = get2(table, phase_entry(ss, f, t, sym.ss_cls, sym.ss_sym, sym.ss_fmask,
                                        sym.flip_conj, sym.twist_conj))
            assert v == (d % 3 if d <= TABLE_DEPTH else UNKNOWN2)


def test_the_sets_are_named_by_metric_and_listed_with_the_tables():
    from cubelab.tables.catalog import registered
    names = set(registered())
    assert {"korf.corners-qtm", "korf.phase-qtm"} <= names
    from cubelab.solvers.korf.sets import korf_set
    assert korf_set(None, "qtm").name == "strong-qtm"
    with pytest.raises(ValueError):
        korf_set("strong", "qtm")


# ---- the solver -------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_quarter_turn_scrambles_get_qtm_optimal_solutions(solver, qtm_distance, seed):
    state = _quarter_scramble(seed, 3 + seed)
    result = solver.solve(state)
    assert result.found and result.verified and result.optimal and result.status == "solved"
    assert result.metric == "qtm" and result.solver == "korf-qtm"
    assert result.length["qtm"] == qtm_distance(state) == result.lower_bound


def test_half_turns_count_two_and_are_written_as_half_turns(solver):
    for alg, qtm in (("R2", 2), ("R2 U2", 4), ("F2 L2 U R'", 6)):
        result = solver.solve(alg_state(alg))
        assert result.length["qtm"] == qtm == result.lower_bound and result.optimal
        # a U U of the search is written U2
        texts = result.text().split()
        assert all(a != b for a, b in zip(texts, texts[1:]))


def test_bounds_keep_the_parity_of_the_position_and_step_by_two(solver):
    state = _quarter_scramble(21, 7)
    result = solver.solve(state)
    bounds = [b["bound"] for b in result.detail["bounds"]]
    parity = permutation_parity(state.cp)
    assert all(b % 2 == parity for b in bounds)
    assert all(b2 - b1 == 2 for b1, b2 in zip(bounds, bounds[1:]))
    assert result.length["qtm"] % 2 == parity


def test_two_threads_and_one_agree_below_the_split(solver, qtm_distance):
    state = _quarter_scramble(31, 8)
    one = KorfSolver(metric="qtm", table_depth=TABLE_DEPTH, fallback=False, threads=1)
    one._prepared = solver._prepared
    assert solver.solve(state).length == one.solve(state).length
    assert solver.solve(state).length["qtm"] == qtm_distance(state)


def test_max_length_counts_quarter_turns_and_proves_a_bound(solver):
    state = alg_state("R2 U2")              # 2 HTM, 4 QTM
    result = solver.solve(state, max_length=3)
    assert result.moves is None and not result.optimal and result.status == "not found"
    assert result.lower_bound in (2, 4) and result.metric == "qtm"
    assert solver.solve(state, max_length=4).length["qtm"] == 4


def test_counters_follow_the_search(solver):
    counters = new_counters()
    result = solver.solve(alg_state("R U F' D L"), counters=counters)
    assert counters[NODES] == result.nodes > 0
    assert counters[BOUND] == counters[LOWER_BOUND] == 5 == result.length["qtm"]


def test_time_limit_returns_a_proven_lower_bound_of_the_right_parity(solver):
    state = random_state(7)
    result = solver.solve(state, time_limit=0.3)
    assert result.status == "time limit" and result.moves is None and not result.optimal
    assert result.lower_bound >= solver.heuristic(state)
    assert result.lower_bound % 2 == permutation_parity(state.cp)
    assert result.to_json()["metric"] == "qtm"


def test_the_two_phase_fallback_is_never_called_qtm_optimal(solver, monkeypatch):
    from cubelab.cube.notation import invert_moves
    from cubelab.cube.random_states import face_scramble
    from cubelab.solvers.korf import solver as korf
    from cubelab.solvers.protocol import SolveResult
    scramble = face_scramble(5, 22)
    state = apply_moves(CubeState.identity(), scramble)

    class TwoPhase:
        def prepare(self, progress=None, cancel=None, log=None):
            pass

        def solve(self, state, *, time_limit=None, cancel=None):
            return SolveResult("kociemba", invert_moves(scramble), optimal=True)

    monkeypatch.setattr(korf, "two_phase_ready", lambda: True)
    monkeypatch.setattr("cubelab.solvers.korf.fallback.two_phase_solver", TwoPhase)
    s = KorfSolver(metric="qtm", table_depth=TABLE_DEPTH)
    s._prepared = solver._prepared
    counters = new_counters()
    result = s.solve(state, time_limit=0.5, counters=counters)
    assert result.status == "time limit" and not result.optimal and result.verified
    assert result.moves == invert_moves(scramble) and result.metric == "qtm"
    assert "HTM" in result.detail["solution_note"]
    assert result.lower_bound <= metric_lengths(scramble)["qtm"]
    record = result.to_json()
    assert record["optimal"] is False and record["metric"] == "qtm"
    from cubelab.tui.result_text import format_result
    text = format_result(result)
    assert "not proven optimal" in text and "not searched in QTM" in text
    assert f"lower bound {result.lower_bound} QTM" in text


def test_a_wrong_path_is_refused_in_qtm_too(solver, monkeypatch):
    from cubelab.solvers.korf import solver as korf
    monkeypatch.setattr(korf, "merge_turns", lambda path: list(path)[:-1])
    with pytest.raises(RuntimeError, match="does not solve"):
        solver.solve(alg_state("R U F'"))
    # a path that solves but is longer than the bound it was found at is wrong as well
    monkeypatch.setattr(korf, "merge_turns", lambda path: list(path) + [0, 2])
    with pytest.raises(RuntimeError, match="at bound 3"):
        solver.solve(alg_state("R U F'"))


def test_no_bound_passes_gods_number(solver, monkeypatch):
    from cubelab.solvers.korf import solver as korf
    monkeypatch.setattr(korf, "gods_number", lambda puzzle, metric: 3)
    with pytest.raises(TableError, match="tables are wrong"):
        solver.solve(alg_state("R U F' D L"))


@settings(max_examples=40)
@given(st.lists(st.integers(0, 11), max_size=10))
def test_heuristic_never_overestimates_quarter_turns(solver, moves):
    assert_within_moves(solver, QUARTERS, moves)


def test_table_sets_of_the_other_metric_are_refused():
    with pytest.raises(ValueError, match="strong-qtm"):
        KorfSolver("strong", metric="qtm")
    with pytest.raises(ValueError, match="metric qtm"):
        KorfSolver("strong-qtm")
    with pytest.raises(ValueError):
        KorfSolver(metric="stm")


# ---- which metrics a solver honours ----------------------------------------------------------

def test_the_registry_says_which_metric_each_solver_honours():
    assert solver_metrics("korf") == ("htm",) and solver_metrics("korf-qtm") == ("qtm",)
    assert solver_metrics("kociemba") == ("htm",)
    assert solver_metrics("pocket-qtm", "2x2") == ("qtm",)
    assert metric_variant("korf", "qtm") == "korf-qtm"
    assert metric_variant("korf-qtm", "htm") == "korf"
    assert metric_variant("pocket-htm", "qtm", "2x2") == "pocket-qtm"
    with pytest.raises(KeyError, match="korf-qtm"):
        metric_variant("kociemba", "qtm")


@pytest.fixture
def small_korf(solver):
    """The registry's korf entries made with the test's thin tables (no 900 MB build),
    registered again through the public API for the test."""
    from contextlib import ExitStack
    from dataclasses import replace

    from cubelab.solvers.korf.about import KORF, KORF_QTM
    from helpers_registry import registered
    small = {"table_depth": TABLE_DEPTH, "fallback": False}
    with ExitStack() as stack:
        for description in (KORF, KORF_QTM):
            stack.enter_context(registered(
                replace(description, made_with={**small, **description.made_with}),
                KorfSolver))
        yield


def test_solve_command_proves_qtm_optima(capsys, small_korf):
    from cubelab.tui.cli import main
    assert main(["solve", "--solver", "korf", "--metric", "qtm", "--json", "F2 L2 U R'"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["solver"] == "korf-qtm" and record["metric"] == "qtm"
    assert record["optimal"] is True and record["length"] == {"htm": 4, "qtm": 6}
    assert record["lower_bound"] == 6
    assert main(["solve", "--metric", "qtm", "R2 U2"]) == 0       # no solver named: korf-qtm
    out = capsys.readouterr().out
    assert "korf-qtm, optimal in QTM" in out and "4 QTM" in out


@pytest.mark.parametrize("solver_name", ["kociemba", "thistlethwaite", "threecycle", "bfs"])
def test_solve_command_refuses_a_metric_the_solver_cannot_honour(capsys, solver_name):
    from cubelab.tui.cli import main
    assert main(["solve", "--solver", solver_name, "--metric", "qtm", "R U"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cubelab: ") and "QTM" in err and "korf-qtm" in err
    assert len(err.strip().splitlines()) == 1


def test_solve_command_refuses_the_qtm_set_in_htm(capsys):
    from cubelab.tui.cli import main
    assert main(["solve", "--solver", "korf", "--tables", "strong-qtm", "R U"]) == 2
    assert "qtm" in capsys.readouterr().err


def test_colon_solve_names_the_qtm_solver_or_refuses():
    from cubelab.solvers import REGISTRY
    from cubelab.tui.commands import completions
    from cubelab.tui.session import Session
    s = Session(solver_names=REGISTRY.solver_names)
    assert s.execute(":solve korf qtm").request.solvers == ("korf-qtm",)
    assert s.execute(":solve QTM").request.solvers == ("korf-qtm",)
    assert s.execute(":compare qtm").request.solvers == ("korf-qtm",)
    refused = s.execute(":solve kociemba qtm")
    assert refused.error and refused.request is None and "korf-qtm" in refused.message
    assert s.execute(":solve korf htm qtm").error
    assert ":solve korf qtm" in completions(s, ":solve korf q")


class _QtmRegistry(StandIn):
    """The workbench's solver source with korf and korf-qtm, the latter on the thin tables."""

    def __init__(self, solver):
        super().__init__()
        self.qtm = solver

    def solver_names(self, puzzle: str = "3x3") -> list[str]:
        return ["korf", "korf-qtm"] if puzzle == "3x3" else []

    def get_solver(self, name: str, puzzle: str = "3x3", **options):
        assert name == "korf-qtm", "only the QTM solver is asked for"
        return self.qtm


def test_the_workbench_solves_in_qtm_and_says_so(solver, tmp_path):
    import asyncio

    from cubelab.tui.app import CubeLabApp
    from cubelab.tui.history import InputHistory

    async def body():
        app = CubeLabApp(solvers=_QtmRegistry(solver), history=InputHistory(tmp_path / "h"),
                         compare_time_limit=None)
        async with app.run_test(size=(100, 30)) as pilot:
            for line in ("F2 L2 U R'", ":solve korf qtm"):
                await pilot.press(*line, "enter")
                await pilot.pause()
            for _ in range(400):
                await pilot.pause(0.05)
                rows = app.session.solutions
                if rows and rows[0].status == "solved" and not app.solver_panel.running:
                    break
            row = app.session.solutions[0]
            assert row.solver == "korf-qtm" and row.optimal
            assert metric_lengths(row.moves)["qtm"] == 6
            table = app.query_one("#solutions")
            assert str(table.get_row_at(0)[-1]) == "QTM"       # the opt column names the metric
            await pilot.press(*":solve kociemba qtm", "enter")
            await pilot.pause()
            assert len(app.session.solutions) == 1              # refused: nothing started

    asyncio.run(body())
