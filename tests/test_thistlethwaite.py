"""Thistlethwaite: coset coordinates, the four tables, and solutions that pass through G1, G2, G3."""

import numpy as np
import pytest

from cubelab.cube.moves import FACE_MOVES, alg_state, apply_moves, move_state
from cubelab.cube.notation import parse_moves, simplify
from cubelab.cube.random_states import random_state
from cubelab.cube.state import CubeState
from cubelab.solvers import get_solver
from cubelab.solvers.protocol import BEST, SolverError, new_counters
from cubelab.solvers.thistlethwaite.solver import ThistlethwaiteSolver
from cubelab.tables.catalog import registered
from cubelab.tables.thistlethwaite import coords as tt

from helpers_solvers import prepared_solver

pytestmark = pytest.mark.slow   # builds the tables and compiles the kernels (~20-40 s)

solver = prepared_solver(ThistlethwaiteSolver)


@pytest.fixture(scope="module")
def tables(solver):
    return solver._tables


@pytest.fixture(scope="module")
def half_turn_group():
    return {tuple(p) for p in tt.half_turn_corner_group()}


def word(rng, moves, n):
    return [FACE_MOVES[int(m)] for m in rng.choice(moves, n)]


def coords(phase, s, lookups):
    return tt.phase_coordinates(phase, s.cp, s.co, s.ep, s.eo, lookups)


def goal(phase, lookups):
    return coords(phase, CubeState.identity(), lookups)


# ---- membership, checked on cubies without the coordinates -----------------------------------

def in_g1(s):
    return not s.eo.any()


def in_g2(s):
    lr = [(tt.LR_STICKER[p] + o - tt.LR_STICKER[i]) % 3 for i, (p, o) in enumerate(zip(s.cp, s.co))]
    return in_g1(s) and not any(lr) and set(s.ep[tt.M_SLOTS].tolist()) == set(tt.M_SLOTS.tolist())


def in_g3(s, group):
    slices_home = all(set(s.ep[sl].tolist()) == set(sl.tolist())
                      for sl in (tt.M_SLOTS, tt.E_SLOTS, tt.S_SLOTS))
    return in_g2(s) and slices_home and tuple(s.cp.tolist()) in group and not s.co.any()


# ---- the tables ----------------------------------------------------------------------------------

def test_tables_are_registered():
    names = set(registered())
    for k in range(1, 5):
        assert f"thistlethwaite.phase{k}" in names
    assert "thistlethwaite.corner_lookups" in names


def test_coset_counts_and_maximum_distances(tables):
    assert [len(d) for d in tables.dist] == [2048, 1082565, 29400, 663552]
    assert [int(d.max()) for d in tables.dist] == [7, 10, 13, 15]
    for d in tables.dist:
        assert int((d == 0).sum()) == 1


def test_half_turn_group(half_turn_group):
    assert len(half_turn_group) == 96
    # every element is even, and tetrads stay tetrads
    t1 = {0, 2, 5, 7}
    for p in half_turn_group:
        assert all((p[i] in t1) == (i in t1) for i in range(8))


@pytest.mark.parametrize("phase", [0, 1, 2, 3])
def test_coordinates_name_cosets(tables, phase):
    """Left multiplication by an element of the phase's target subgroup keeps the coordinate;
    each move acts through the move table."""
    rng = np.random.default_rng(phase)
    inner = tt.PHASE_MOVES[phase + 1] if phase < 3 else None
    outer = tt.PHASE_MOVES[phase]
    size_b = tables.move_b[phase].shape[0]
    for _ in range(40):
        x = apply_moves(CubeState.identity(), word(rng, outer, 25))
        c = coords(phase, x, tables.lookups)
        if inner is not None:
            g = apply_moves(CubeState.identity(), word(rng, inner, 25))
            assert coords(phase, g * x, tables.lookups) == c
        for col, m in enumerate(outer):
            y = x * move_state(FACE_MOVES[m])
            a, b = coords(phase, y, tables.lookups)
            assert (a, b) == (tables.move_a[phase][c[0], col], tables.move_b[phase][c[1], col])
        assert tables.dist[phase][c[0] * size_b + c[1]] <= 15


def test_goal_exactly_in_the_subgroup(tables, half_turn_group):
    rng = np.random.default_rng(9)
    checks = (in_g1, in_g2, lambda s: in_g3(s, half_turn_group))
    for phase in range(3):
        target = tt.PHASE_MOVES[phase + 1]
        for _ in range(30):
            inside = apply_moves(CubeState.identity(), word(rng, target, 30))
            assert coords(phase, inside, tables.lookups) == goal(phase, tables.lookups)
            assert checks[phase](inside)
            # one move from outside the subgroup, then more inside moves
            extra = [m for m in tt.PHASE_MOVES[phase] if m not in target]
            out = inside * move_state(FACE_MOVES[int(rng.choice(extra))])
            out = apply_moves(out, word(rng, target, 10))
            assert (coords(phase, out, tables.lookups) == goal(phase, tables.lookups)) == \
                checks[phase](out)


def test_g3_needs_the_parity_condition(tables, half_turn_group):
    """In G2, corners in their tetrads and edges in their slices is not enough: the corner
    permutation must also lie in the half-turn group, one tetrad-keeping permutation in six."""
    import itertools
    from cubelab.cube.state import permutation_parity
    t1, t2 = [0, 2, 5, 7], [1, 3, 4, 6]
    at_goal = 0
    for a in itertools.permutations(t1):
        for b in itertools.permutations(t2):
            cp = [0] * 8
            for slot, piece in zip(t1 + t2, a + b):
                cp[slot] = piece
            ep = list(range(12))
            if permutation_parity(cp):
                ep[8], ep[9] = 9, 8           # an E-slice swap keeps the edges in their slices
            s = CubeState(cp, [0] * 8, ep, [0] * 12)
            assert in_g2(s)
            hit = coords(2, s, tables.lookups) == goal(2, tables.lookups)
            assert hit == (tuple(cp) in half_turn_group)
            at_goal += hit
    assert at_goal == 96                      # of 576


def test_twist_lr_is_what_l_and_r_keep():
    for alg, oriented in (("R L' R2", True), ("U", False), ("F2 B2 U2 D2", True), ("D'", False)):
        s = alg_state(alg)
        assert (tt.twist_lr_of(s.cp.astype(np.int64), s.co.astype(np.int64),
                               tt.LR_STICKER) == 0) == oriented


# ---- the solver ----------------------------------------------------------------------------------

def check(state, result, half_turn_group):
    assert result.verified and result.found
    assert apply_moves(state, result.moves).is_solved()
    phases = result.to_json()["phases"]
    assert [p["subgroup"] for p in phases] == list(tt.SUBGROUPS)
    s = state.normalized()
    members = (in_g1, in_g2, lambda x: in_g3(x, half_turn_group), lambda x: x.is_identity())
    flat = []
    for k, ph in enumerate(phases):
        moves = parse_moves(ph["moves"])
        assert len(moves) == ph["length"]
        allowed = {FACE_MOVES[m] for m in tt.PHASE_MOVES[k]}
        assert all(m in allowed for m in moves)
        s = apply_moves(s, moves)
        assert members[k](s), f"after phase {k + 1} the cube is not in {ph['subgroup']}"
        flat += moves
    assert simplify(flat) == result.moves


def test_random_states(solver, half_turn_group):
    lengths = []
    for seed in range(20):
        s = random_state(seed)
        r = solver.solve(s)
        check(s, r, half_turn_group)
        lengths.append(len(r.moves))
    assert np.mean(lengths) <= 30


def test_more_rounds_never_lengthen(solver, half_turn_group):
    first = ThistlethwaiteSolver(rounds=((0, 0, 0),))
    first.prepare()      # the tables are already held by this process
    for seed in range(5):
        s = random_state(100 + seed)
        a, b = first.solve(s), solver.solve(s)
        check(s, b, half_turn_group)
        assert len(b.moves) <= len(a.moves)


def test_positions_already_in_a_subgroup(solver, half_turn_group):
    for alg in ("U R2 F2 L D'", "R2 U2 F2 L2", "U", "R L' U2 D2 F2 B2"):
        s = alg_state(alg)
        r = solver.solve(s)
        check(s, r, half_turn_group)
        assert len(r.moves) <= len(parse_moves(alg))


def test_solved_rotated_and_unreachable(solver, half_turn_group):
    r = solver.solve(CubeState.identity())
    assert r.moves == [] and [p["length"] for p in r.to_json()["phases"]] == [0, 0, 0, 0]
    assert solver.solve(alg_state("y x'")).moves == []
    s = alg_state("x y2 R U F' D2 L B'")
    check(s, solver.solve(s), half_turn_group)
    with pytest.raises(SolverError, match="unreachable"):
        solver.solve(CubeState([1, 0, 2, 3, 4, 5, 6, 7], [0] * 8, range(12), [0] * 12))


def test_protocol_extras(solver):
    s = random_state(7)
    seen = []
    counters = new_counters()
    r = solver.solve(s, on_solution=seen.append, counters=counters)
    assert seen and [len(x.moves) for x in seen] == sorted((len(x.moves) for x in seen),
                                                          reverse=True)
    assert len(seen[-1].moves) == len(r.moves) == counters[BEST]
    assert r.nodes > 0
    short = solver.solve(s, max_length=12)
    assert not short.found and short.status == "not found"
    assert not solver.solve(s, cancel=np.ones(1, dtype=np.int32)).found
    data = r.to_json()
    assert data["phases"][0]["subgroup"] == "G1 = <L, R, F2, B2, U, D>"


def test_registry_gives_the_solver():
    assert get_solver("thistlethwaite").name == "thistlethwaite"
