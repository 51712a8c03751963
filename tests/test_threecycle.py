"""The commutator table and the 3-cycle solver: every alg does what it says, every solve solves."""

import threading
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubelab.cube.facts import corner_cycles, edge_cycles, three_cycles
from cubelab.cube.moves import FACE_MOVES, alg_state, apply_moves
from cubelab.cube.notation import parse_moves, simplify
from cubelab.cube.random_states import random_state
from cubelab.cube.state import CubeState, permutation_parity
from cubelab.solvers import get_solver
from cubelab.solvers.protocol import SolverError, new_cancel, new_counters
from cubelab.solvers.threecycle import solver as threecycle_solver
from cubelab.solvers.threecycle.solver import ThreeCycleSolver
from cubelab.tables import store
from cubelab.tables.catalog import registered
from cubelab.tables.sequences import cancel, sequence_elements
from cubelab.tables.spec import BuildCancelled
from cubelab.tables.threecycle import specs as cspecs

from helpers_solvers import prepared_solver
from helpers_timing import within

pytestmark = pytest.mark.slow   # the first test searches the commutator table (~10-40 s)

solver = prepared_solver(ThreeCycleSolver)


@pytest.fixture(scope="module")
def table(solver):
    return solver.table


def moves_of(text):
    return parse_moves(text)


# ---- facts.three_cycles: its convention, checked against the state ---------------------------

def cycle_state(a, b, c, n):
    """The permutation moving the piece at slot a to b, b to c, c to a (perm[slot] = piece)."""
    perm = list(range(n))
    perm[b], perm[c], perm[a] = a, b, c
    return perm


@given(st.permutations(list(range(12))))
def test_three_cycles_applied_in_order_rebuild_the_permutation(perm):
    cycles = three_cycles(perm)
    if permutation_parity(perm):
        assert cycles is None
        return
    current = list(range(12))
    for a, b, c in cycles:
        step = cycle_state(a, b, c, 12)
        current = [current[step[i]] for i in range(12)]   # current then step
    assert current == list(perm)


def test_three_cycles_matches_a_commutator_on_the_cube():
    s = alg_state("R U' R' D R U R' D'")      # a pure corner 3-cycle
    (a, b, c), = three_cycles(s.cp)
    # the state's own permutation: the piece at a sits at b afterwards
    assert s.cp[b] == a and s.cp[c] == b and s.cp[a] == c


# ---- the commutator table --------------------------------------------------------------------

def test_table_covers_every_target(table):
    assert table.counts() == {"corner": 1008, "edge": 1760, "twist": 56, "flip": 66}


def test_every_alg_realises_its_element(table):
    flats, wanted = [], []
    for element, algs in zip(table.elements, table.algs):
        assert algs
        for f in algs:
            flats.append(f.flat)
            wanted.append(element)
    assert np.array_equal(sequence_elements(flats), np.array(wanted))


def test_notation_expands_to_the_flat_moves(table):
    rng = np.random.default_rng(5)
    for i in rng.choice(len(table), 200, replace=False):
        for f in table.algs[i]:
            text = f.notation()
            assert text.startswith("[")
            assert simplify(parse_moves(text)) == [FACE_MOVES[m] for m in f.flat]


def test_kinds_touch_the_right_pieces(table):
    for element, kind in zip(table.elements, table.kinds):
        e = element.astype(int)
        corners = int(((e[:8] != np.arange(8)) | (e[8:16] != 0)).sum())
        edges = int(((e[16:28] != np.arange(12)) | (e[28:40] != 0)).sum())
        expected = {"corner": (3, 0), "edge": (0, 3), "twist": (2, 0), "flip": (0, 2)}[kind]
        assert (corners, edges) == expected


def test_lengths_are_short(table):
    assert table.mean_length("corner") <= 9.5
    assert table.mean_length("edge") <= 11.5
    assert max(len(a[0].flat) for a in table.algs) <= 20


def test_cancel_agrees_with_notation_simplify():
    rng = np.random.default_rng(1)
    for _ in range(300):
        seq = tuple(int(m) for m in rng.integers(0, 18, rng.integers(0, 12)))
        assert [FACE_MOVES[m] for m in cancel(seq)] == simplify(FACE_MOVES[m] for m in seq)


def test_the_table_is_a_store_table(solver, table):
    assert registered()["threecycle.commutators"] is cspecs.COMMUTATORS
    assert solver.table_specs() == (cspecs.COMMUTATORS,) and solver.missing_tables() == []
    status = store.table_status(cspecs.COMMUTATORS)
    assert status["built"] and status["problem"] is None
    assert store.verify_table(cspecs.COMMUTATORS) is None
    data = store.load_or_build(cspecs.COMMUTATORS)
    assert data.dtype == np.uint8 and data.nbytes == cspecs.COMMUTATORS.expected_bytes
    again = cspecs.CommutatorTable(cspecs.decode(data))
    assert again.counts() == table.counts() and again.algs == table.algs
    assert np.array_equal(cspecs.encode(cspecs.decode(data)), data)


def test_a_new_solver_says_the_table_is_missing(fresh_dirs):
    store.forget_cache()
    assert ThreeCycleSolver().missing_tables() == [cspecs.COMMUTATORS]


@pytest.mark.parametrize("delay", [0.2, 2.5])
def test_the_search_stops_when_cancelled_and_leaves_no_file(fresh_dirs, delay):
    store.forget_cache()
    sequence_elements([(0, 3)])          # compiled before the clock starts
    cancel_flag, raised = new_cancel(), []

    def stop():
        raised.append(time.perf_counter())
        cancel_flag[0] = 1

    threading.Timer(delay, stop).start()
    with pytest.raises(BuildCancelled):
        store.load_or_build(cspecs.COMMUTATORS, cancel=cancel_flag)
    assert time.perf_counter() - raised[0] < within(1.5)
    assert not store.table_path(cspecs.COMMUTATORS).exists()


def test_the_build_removes_the_old_json_cache(fresh_dirs, monkeypatch):
    from cubelab.cube.paths import data_dir
    old = data_dir() / "commutators" / "table-v1.json"
    old.parent.mkdir(parents=True)
    old.write_text("{}")
    monkeypatch.setattr(cspecs, "search", lambda params, progress=None, cancel=None: {})
    monkeypatch.setattr(cspecs, "encode", lambda entries: np.zeros((1, 43), np.uint8))
    cspecs._build(store.BuildContext(cspecs.COMMUTATORS))
    assert not old.parent.exists()


def test_loading_the_table_is_not_part_of_the_time_limit(solver, monkeypatch):
    slow = ThreeCycleSolver()
    real = threecycle_solver.load_table

    def load_slowly(**kwargs):
        time.sleep(1.0)
        return real(**kwargs)

    monkeypatch.setattr(threecycle_solver, "load_table", load_slowly)
    r = slow.solve(random_state(4), time_limit=0.8)
    assert r.found and r.verified and r.status == "solved"


# ---- the solver ------------------------------------------------------------------------------

def check_result(state, result):
    assert result.verified and result.found
    assert apply_moves(state, result.moves).is_solved()
    steps = result.to_json()["steps"]
    flat = [m for step in steps for m in parse_moves(step["moves"])]
    assert simplify(flat) == result.moves
    for step in steps:
        assert simplify(parse_moves(step["alg"])) == simplify(parse_moves(step["moves"]))
        effect = alg_state(step["moves"])
        does = step["does"]
        if does.startswith("corner 3-cycle"):
            assert does.endswith(corner_cycles(effect))
        elif does.startswith("edge 3-cycle"):
            assert does.endswith(edge_cycles(effect))
        elif does.startswith("twist"):
            assert does == "twist " + corner_cycles(effect).replace("(", "").replace(")", "")
        elif does.startswith("flip"):
            assert does == "flip " + edge_cycles(effect).replace("(", "").replace(")", "")
        else:
            assert does.startswith("parity")


def test_random_states(solver):
    lengths = []
    for seed in range(25):
        s = random_state(seed)
        r = solver.solve(s)
        check_result(s, r)
        lengths.append(len(r.moves))
    assert np.mean(lengths) <= 130


@settings(max_examples=20)
@given(st.lists(st.sampled_from(FACE_MOVES), max_size=8))
def test_short_scrambles(solver, scramble):
    s = apply_moves(CubeState.identity(), scramble)
    r = solver.solve(s)
    if s.is_identity():
        assert r.moves == [] and r.to_json()["steps"] == []
    else:
        check_result(s, r)


def test_odd_position_starts_with_a_quarter_turn(solver):
    s = alg_state("R U R' U' R' F R2 U' R' U' R U R' F'")   # T-perm: odd
    r = solver.solve(s)
    check_result(s, r)
    first = r.to_json()["steps"][0]
    assert first["does"].startswith("parity")
    assert parse_moves(first["moves"])[0].amount in (1, 3)


def test_orientation_free_positions_use_the_textbook_number_of_3_cycles(solver):
    rng = np.random.default_rng(3)
    for _ in range(10):
        cp = rng.permutation(8)
        ep = rng.permutation(12)
        if permutation_parity(cp):
            cp[[0, 1]] = cp[[1, 0]]
        if permutation_parity(ep):
            ep[[0, 1]] = ep[[1, 0]]
        s = CubeState(cp, [0] * 8, ep, [0] * 12)
        r = solver.solve(s)
        check_result(s, r)
        kinds = [st["does"].split()[0] for st in r.to_json()["steps"]]
        assert kinds.count("corner") == len(three_cycles(cp))
        assert kinds.count("edge") == len(three_cycles(ep))


def test_twists_and_flips_in_place(solver):
    s = CubeState(range(8), [1, 2, 0, 0, 0, 0, 0, 0], range(12), [1, 1] + [0] * 10)
    r = solver.solve(s)
    check_result(s, r)
    assert sorted(st["does"].split()[0] for st in r.to_json()["steps"]) == ["flip", "twist"]


def test_solved_and_rotated(solver):
    assert solver.solve(CubeState.identity()).moves == []
    rotated = alg_state("x y")
    assert solver.solve(rotated).moves == []
    s = alg_state("x y R U F' L2 D")
    r = solver.solve(s)
    check_result(s, r)


def test_unreachable_is_refused(solver):
    twisted = CubeState(range(8), [1] + [0] * 7, range(12), [0] * 12)
    with pytest.raises(SolverError, match="twisted"):
        solver.solve(twisted)


def test_protocol_extras(solver):
    counters = new_counters()
    seen = []
    s = random_state(99)
    r = solver.solve(s, counters=counters, on_solution=seen.append)
    assert counters[0] > 0 and seen and seen[0].moves == r.moves
    short = solver.solve(s, max_length=10)
    assert not short.found and short.status == "not found"
    cancelled = solver.solve(s, cancel=np.ones(1, dtype=np.int32))
    assert not cancelled.found
    data = r.to_json()
    assert data["solver"] == "threecycle" and data["steps"] and data["verified"]


def test_registry_gives_the_solver():
    assert get_solver("threecycle").name == "threecycle"
