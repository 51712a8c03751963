"""BFS and A*: optimal on shallow positions, agreeing with each other, refusing deep ones."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubelab.cube.moves import FACE_MOVES, alg_state, apply_moves
from cubelab.cube.random_states import random_state
from cubelab.cube.state import CubeState
from cubelab.solvers import get_solver
from cubelab.solvers.baselines import (AStarSolver, BFSSolver, PatternDatabases,
                                       _positions_within, coordinates)
from cubelab.solvers.protocol import SolverError, new_counters
from cubelab.tables.ranks import N_PERM8

from helpers_solvers import prepared_solver

astar = prepared_solver(AStarSolver)


@pytest.fixture(scope="module")
def bfs():
    return BFSSolver()


def scramble(seq):
    return apply_moves(CubeState.identity(), seq)


@settings(max_examples=25)
@given(st.lists(st.sampled_from(FACE_MOVES), max_size=5))
def test_bfs_and_astar_agree_and_are_optimal(bfs, astar, seq):
    s = scramble(seq)
    rb, ra = bfs.solve(s), astar.solve(s)
    for r in (rb, ra):
        assert r.verified and r.optimal
        assert apply_moves(s, r.moves).is_solved()
        assert len(r.moves) <= len(seq)
    assert len(rb.moves) == len(ra.moves)


def test_known_depths(bfs, astar):
    # a quarter-turn commutator is 4 moves and cannot be done in fewer
    s = alg_state("R U R' U'")
    assert len(bfs.solve(s).moves) == 4
    assert len(astar.solve(s).moves) == 4
    # U D' is two moves, and its inverse in either order is optimal
    assert len(bfs.solve(alg_state("U D'")).moves) == 2


def test_astar_reaches_further_than_bfs(bfs, astar):
    s = alg_state("R U F' L2 D B R' U2")
    r = astar.solve(s)
    assert r.verified and len(r.moves) == 8
    r = bfs.solve(s)
    assert r.moves is None and r.status == "too deep" and r.lower_bound == 6
    assert "too deep for bfs: needs > 5" in r.detail["message"]


def test_deep_positions_are_a_status_not_an_error(astar):
    small = AStarSolver(max_nodes=2000)
    small.prepare()
    r = small.solve(random_state(3))
    assert r.moves is None and r.status == "too deep"
    assert "too deep for astar" in r.detail["message"] and "2,000 nodes" in r.detail["message"]


def test_solved_rotated_and_unreachable(bfs, astar):
    for solver in (bfs, astar):
        assert solver.solve(CubeState.identity()).moves == []
        assert solver.solve(alg_state("x2 y")).moves == []
        s = alg_state("z R U2 F")
        r = solver.solve(s)
        assert r.verified and len(r.moves) == 3
        with pytest.raises(SolverError, match="unreachable"):
            solver.solve(CubeState(range(8), [0] * 8, range(12), [1] + [0] * 11))


def test_max_length_and_cancel(bfs, astar):
    s = alg_state("R U F D")
    for solver in (bfs, astar):
        r = solver.solve(s, max_length=3)
        assert not r.found and r.status == "not found"
        r = solver.solve(s, cancel=np.ones(1, dtype=np.int32))
        assert not r.found
    counters = new_counters()
    seen = []
    r = astar.solve(alg_state("R U F D L B"), counters=counters, on_solution=seen.append)
    assert seen and seen[0].moves == r.moves


def test_pattern_databases_are_admissible(astar):
    pdb: PatternDatabases = astar._pdb
    assert pdb.cperm.shape == (N_PERM8,) and pdb.cperm.max() < 255
    assert pdb.twist_flip.max() < 255       # every twist x flip pair reached
    rng = np.random.default_rng(0)
    for _ in range(30):
        n = int(rng.integers(0, 9))
        s = scramble([FACE_MOVES[i] for i in rng.integers(0, 18, n)])
        h = pdb.h(*coordinates(s))
        assert h <= n


def test_position_counts():
    # canonical sequences (no face twice in a row, opposite faces in one order)
    assert [_positions_within(d) for d in range(4)] == [1, 19, 262, 3502]


def test_registry():
    assert get_solver("bfs").name == "bfs" and get_solver("astar").name == "astar"
