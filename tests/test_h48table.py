"""The H48 table of Korf's `layers-h48` set, built a few moves deep (its unreached entries stay
zero pages, so the 7.5 GB layout costs only what the build writes): distances read back
against a breadth-first search of the coordinate, and the search kernel's H48 stage against
the same kernel without it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numba import njit

from cubelab.cube.moves import FACE_MOVES, apply_moves
from cubelab.cube.random_states import random_state
from cubelab.cube.state import CubeState
from cubelab.cube.symmetry import N_SYMMETRIES, conjugate
from cubelab.cube.moves import move_state
from cubelab.solvers.korf.solver import KorfSolver
from cubelab.tables.korf import h48coords as H
from cubelab.tables.korf import h48probe as P
from cubelab.tables.korf import h48table as T
from cubelab.solvers.korf.sets import korf_set
from cubelab.tables.packed import bit_count, lowest_bit

DEPTH = 5


def table_set(name: str, max_depth: int | None = None):
    """The tables of Korf's set `name` (the set's record says which), `max_depth` deep."""
    return korf_set(name).tables(max_depth)


def _coords(state):
    c, e = H.coords_of(state)
    return c, e // 256, e % 256


def _index(c, m, f):
    look = T.lookup_arrays()
    return int(P.entry_index(c, m, f, look[1], look[2], look[5], look[6]))


def test_neighbour_distance_decodes_every_step():
    for h in range(21):
        for child in (h - 1, h, h + 1):
            if child >= 0:
                assert P.neighbour_distance(h, child % 3 + 1, 99) == child
        assert P.neighbour_distance(h, P.UNKNOWN, 7) == 7
    # from a parent only known to be beyond the table (depth 5: read as 6), a child the table
    # knows is at the table's last depth
    assert P.neighbour_distance(6, 5 % 3 + 1, 6) == 5


@pytest.mark.parametrize("seed", range(6))
def test_all_48_conjugates_share_one_entry(seed):
    s = random_state(seed)
    first = _index(*_coords(s))
    assert all(_index(*_coords(conjugate(s, k))) == first for k in range(N_SYMMETRIES))


@pytest.mark.parametrize("seed", range(6))
def test_moves_follow_the_cubie_model(seed):
    s = random_state(100 + seed)
    look = T.lookup_arrays()
    c, m, f = _coords(s)
    for mv, move in enumerate(FACE_MOVES):
        got = P.moved(c, m, f, mv, look[0], look[3], look[4])
        assert tuple(int(x) for x in got) == _coords(s * move_state(move))


def test_the_set_is_only_built_in_full():
    with pytest.raises(ValueError, match="only built in full"):
        table_set("layers-h48", max_depth=3)
    assert table_set("layers-h48").expected_bytes > T.TABLE_BYTES


@pytest.fixture(scope="module")
def table():
    built, stats = T.build(None, threads=2, max_depth=DEPTH)
    # entries per level, as the full build logs them
    assert stats.counts[:6] == [1, 1, 4, 34, 331, 3809]
    return built


def _ball(depth):
    """Every raw coordinate within `depth` moves of the solved one, with its distance."""
    look = T.lookup_arrays()
    start = _coords(CubeState.identity())
    dist = {start: 0}
    frontier = [start]
    for d in range(1, depth + 1):
        nxt = []
        for c, m, f in frontier:
            for mv in range(18):
                t = tuple(int(x) for x in P.moved(c, m, f, mv, look[0], look[3], look[4]))
                if t not in dist:
                    dist[t] = d
                    nxt.append(t)
        frontier = nxt
    return dist, frontier


def test_distances_read_back_against_a_breadth_first_search(table):
    look = T.lookup_arrays(max_depth=DEPTH)
    dist, last = _ball(DEPTH)
    assert len(dist) > 10_000
    for (c, m, f), d in dist.items():
        assert T.distance(table, c, m, f, look) == d
    # one move further, the table knows nothing: it reads as its depth + 1
    beyond = 0
    for c, m, f in last[:300]:
        for mv in range(18):
            t = tuple(int(x) for x in P.moved(c, m, f, mv, look[0], look[3], look[4]))
            if t not in dist:
                assert T.distance(table, *t, look) == DEPTH + 1
                beyond += 1
    assert beyond > 0


LAYER_DEPTH = 3
"""The layer tables are built shallower than the H48 table, so that it has something to add."""


@pytest.fixture(scope="module")
def solvers(table):
    """The small layer set's solver on one thread (its node counts are then the same run to
    run), and the same with the H48 table as a seventh lookup."""
    from cubelab.solvers.korf.lanes import LANES, face_turn_order
    from cubelab.solvers.korf.layersearch import prepare_layers
    from cubelab.solvers.korf.sets import Prepared as _Prepared
    from cubelab.tables import memory
    plain = KorfSolver("layers-small", table_depth=LAYER_DEPTH, fallback=False, threads=1)
    plain.prepare()
    arrays = plain.table_set.load()
    shared = memory._SHARED
    memory._SHARED = True      # the search reads the table where it is: no 7.5 GB copy
    try:
        parts = prepare_layers(arrays + (table,), LAYER_DEPTH, corners=False, h48_depth=DEPTH)
    finally:
        memory._SHARED = shared
    both = KorfSolver("layers-small", table_depth=LAYER_DEPTH, fallback=False, threads=1)
    both._prepared = _Prepared("layers-small+h48", *parts, LANES, face_turn_order())
    return plain, both


def test_the_h48_stage_keeps_answers_optimal_and_prunes(solvers):
    plain, both = solvers
    rng = np.random.default_rng(5)
    nodes = np.zeros(2, np.int64)
    for n in (5, 6, 7, 8, 9, 9):
        state = apply_moves(CubeState.identity(), [FACE_MOVES[i] for i in rng.integers(0, 18, n)])
        a, b = plain.solve(state), both.solve(state)
        assert a.optimal and b.optimal and b.verified
        assert a.length == b.length
        # the same kernel and move order with one more admissible lookup: never more nodes
        assert b.nodes <= a.nodes
        nodes += (a.nodes, b.nodes)
    assert nodes[1] * 4 < nodes[0]


def test_two_threads_with_the_h48_stage(solvers):
    _, both = solvers
    two = KorfSolver("layers-small", table_depth=LAYER_DEPTH, fallback=False, split_from=4)
    two._prepared = both._prepared
    state = random_state(7)
    result = two.solve(state, max_length=9)
    # every bound up to 9 searched out on both threads: proven longer than 9
    assert result.moves is None and not result.optimal and result.lower_bound == 10
    rng = np.random.default_rng(9)
    for n in (8, 9):
        state = apply_moves(CubeState.identity(), [FACE_MOVES[i] for i in rng.integers(0, 18, n)])
        assert two.solve(state).length == both.solve(state).length


def test_the_root_reads_its_exact_distance(solvers):
    _, both = solvers
    from cubelab.solvers.korf.layersearch import N_H48
    for alg, d in (("", 0), ("U2", 0), ("R", 1), ("R U", 2), ("R U F'", 3)):
        from cubelab.cube.moves import alg_state
        node = both._prepared.root(alg_state(alg) if alg else CubeState.identity())
        assert node[N_H48 + 3] == d, alg


def test_a_backward_level_settles_what_a_forward_level_sets(table):
    # the full build's last levels run backward (each unknown entry looks for a neighbour one
    # closer); one such level, on a few corner classes of a table built one level shallower,
    # must give exactly the entries the forward level gave
    shallower, _ = T.build(None, threads=2, max_depth=DEPTH - 1)
    trans, _, _ = T.class_moves()
    aff = T.operation_first(H.edge_affine())
    row = H.N_MEMBER * T.ROW_BYTES
    _, last = _ball(DEPTH)
    cls = H.corner_tables().cls
    classes = sorted({int(cls[c]) for c, _, _ in last})[:3]
    assert classes
    for c in classes:
        n = T._backward(shallower, shallower.view(np.uint64), DEPTH - 1, c, c + 1, trans, *aff,
                        np.zeros(1, np.int32))
        assert n > 0
        assert (shallower[c * row:(c + 1) * row] == table[c * row:(c + 1) * row]).all()


def test_the_composed_flip_map_is_the_two_maps_in_turn():
    # the builder composes a move's flip map and a symmetry's into one for rows with many
    # entries; the test table above has few such rows, so the composition is checked here
    # on its own, for every flip class
    af = T.operation_first(H.edge_affine())
    mem_move, flip_move, mem_conj, flip_conj = af
    rng = np.random.default_rng(5)
    g = np.zeros(32, np.int64)
    for _ in range(200):
        mv, m, k = int(rng.integers(18)), int(rng.integers(H.N_MEMBER)), int(rng.integers(48))
        m1 = int(mem_move[mv, m])
        T._compose(flip_move, flip_conj, mv, m, k, m1, g)
        for x in range(256):
            two = P.apply_affine(flip_conj, k, m1, P.apply_affine(flip_move, mv, m, x))
            assert g[x & 15] ^ g[16 + (x >> 4)] == two


@njit
def _bits(v):
    return lowest_bit(v), bit_count(v)


@given(st.integers(0, 2**64 - 1))
def test_the_bit_intrinsics_agree_with_python(x):
    low, count = _bits(np.uint64(x))
    assert count == bin(x).count("1")
    assert low == ((x & -x).bit_length() - 1 if x else 64)


def test_a_set_too_large_for_the_memory_is_refused_before_anything_is_built(monkeypatch):
    from cubelab.tables import memory
    from cubelab.tables.spec import TableError
    monkeypatch.setattr(memory, "available_bytes", lambda: 4 * 10**9)
    with pytest.raises(TableError, match=r"layers-h48 tables need 10\.\d GB of memory and "
                                         r"4\.0 GB is available"):
        table_set("layers-h48").load()
    table_set("layers-small", max_depth=2).check_memory()    # 100 MB: fits


def test_the_command_line_refuses_the_set_in_one_line_before_building(monkeypatch, capsys):
    from cubelab.tables import memory
    from cubelab.tui.cli import main
    monkeypatch.setattr(memory, "available_bytes", lambda: 4 * 10**9)
    assert main(["solve", "--solver", "korf", "--tables", "layers-h48", "R U"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "building" not in err
    assert "layers-h48 tables need 10.3 GB of memory and 4.0 GB is available" in err
