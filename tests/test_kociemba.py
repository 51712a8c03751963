"""Kociemba's two-phase solver: verified solutions, limits, streaming, refusal, cancel."""

import threading
import time

import pytest

from cubelab.cube.moves import alg_state, apply_moves
from cubelab.cube.random_states import random_state
from cubelab.cube.state import CubeState
from cubelab.solvers import get_solver
from cubelab.solvers.protocol import (
    BEST, NODES, SOLUTIONS, SolverError, new_cancel, new_counters, verify,
)
from helpers_timing import within

# The first solve builds the full tables (about a minute) and compiles the search.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def solver():
    s = get_solver("kociemba")
    s.prepare()
    return s


@pytest.mark.parametrize("seed", range(5))
def test_random_states_solved_within_20(solver, seed):
    state = random_state(seed)
    result = solver.solve(state)
    assert result.verified and result.found
    assert len(result.moves) <= 20
    assert verify(state, result.moves)
    assert result.to_json()["length"]["htm"] == len(result.moves)
    assert sum(result.to_json()["phases"]) == len(result.moves)


def test_solved_cube_gives_empty_solution(solver):
    result = solver.solve(CubeState.identity())
    assert result.moves == [] and result.verified and result.optimal


def test_rotated_centres_are_solved_relative_to_centres(solver):
    state = alg_state("x y R U R' F2 D")
    assert not state.centres_home()
    result = solver.solve(state)
    assert result.verified
    assert apply_moves(state, result.moves).is_solved()
    assert solver.solve(alg_state("y2 z")).moves == []


@pytest.mark.parametrize("cubies,words", [
    (dict(co=[1, 0, 0, 0, 0, 0, 0, 0]), "one corner twisted"),
    (dict(eo=[1] + [0] * 11), "an edge flipped"),
    (dict(cp=[1, 0, 2, 3, 4, 5, 6, 7]), "two pieces swapped"),
])
def test_unreachable_states_are_refused_with_the_invariant(solver, cubies, words):
    parts = dict(cp=range(8), co=[0] * 8, ep=range(12), eo=[0] * 12)
    parts.update(cubies)
    with pytest.raises(SolverError, match=words):
        solver.solve(CubeState(**parts))


def test_short_scramble_is_solved_optimally_when_searched_to_the_end(solver):
    state = alg_state("R U2 F' L D2")
    result = solver.solve(state, time_limit=20)
    assert result.optimal and len(result.moves) == 5
    assert result.lower_bound == 5
    assert result.detail["stopped"] in ("exhausted", "proven")
    # without the prover beside it, the two-phase search proves it on its own
    from cubelab.solvers.kociemba.solver import KociembaSolver
    alone = KociembaSolver(prove=False).solve(state, time_limit=20)
    assert alone.optimal and len(alone.moves) == 5 and alone.lower_bound == 5


def test_max_length_below_the_optimum_is_not_found(solver):
    result = solver.solve(alg_state("R U F"), max_length=2)
    assert not result.found and result.status == "not found"
    assert result.lower_bound == 3


def test_improvements_are_streamed_shortest_last(solver):
    seen = []
    counters = new_counters()
    result = solver.solve(random_state(7), time_limit=0.3, on_solution=seen.append,
                          counters=counters)
    lengths = [len(s.moves) for s in seen]
    assert len(lengths) >= 2
    assert lengths == sorted(lengths, reverse=True) and len(set(lengths)) == len(lengths)
    assert seen[-1].moves == result.moves and len(result.solutions) == len(seen)
    assert all(verify(random_state(7), s.moves) for s in seen)
    assert counters[BEST] == lengths[-1] and counters[SOLUTIONS] == len(seen)
    assert counters[NODES] == result.nodes > 0


def test_cancel_stops_a_long_search(solver):
    cancel = new_cancel()
    timer = threading.Timer(0.2, lambda: cancel.__setitem__(0, 1))
    timer.start()
    began = time.perf_counter()
    # proving that no 16-move solution exists takes many minutes (random cubes need 17-18); with 12
    # the proof could finish before the cancel on an idle machine
    result = solver.solve(random_state(3), max_length=16, cancel=cancel)
    elapsed = time.perf_counter() - began
    timer.cancel()
    assert result.status == "cancelled" and not result.found
    assert elapsed < within(5)


def test_time_limit_stops_and_keeps_the_best(solver):
    result = solver.solve(random_state(11), time_limit=0.2)
    assert result.found and result.verified and result.detail["stopped"] == "time limit"
    assert not result.optimal


def test_one_direction_still_solves(solver):
    from cubelab.solvers.kociemba.solver import KociembaSolver
    one = KociembaSolver(directions=1)
    state = random_state(21)
    result = one.solve(state)
    assert result.verified and len(result.moves) <= 20
    assert result.detail["direction"] == "UD"


def test_symmetric_cube_searches_each_direction_once(solver):
    superflip = CubeState(range(8), [0] * 8, range(12), [1] * 12)
    roots = solver._roots(superflip)
    assert len(roots) == 1          # the superflip is its own inverse and fully symmetric
    result = solver.solve(superflip, max_length=24)
    assert result.verified and len(result.moves) <= 24


def _model_directions(solver, state):
    """The search directions the slow way: the model's conjugation, one kernel call each."""
    import numpy as np

    from cubelab.cube.symmetry import conjugate
    from cubelab.solvers.kociemba import search as ks
    out, seen = [], set()
    for inv in (False, True):
        for k in solver._axes:
            s = conjugate(state.inverse() if inv else state, k)
            coords = ks.root_coordinates(*(np.asarray(a, np.int64)
                                           for a in (s.cp, s.co, s.ep, s.eo)),
                                         *solver._root_tables)
            if s.key() not in seen:
                seen.add(s.key())
                out.append((k, inv, tuple(int(c) for c in coords), list(s.cp), list(s.ep)))
    return out


@pytest.mark.parametrize("state", [random_state(s) for s in range(12)] + [
    CubeState(range(8), [0] * 8, range(12), [1] * 12), alg_state("U2 D2 F2 B2 L2 R2"),
    alg_state("R U R' U'"), alg_state("F2"), CubeState.identity()])
def test_directions_kernel_matches_the_model(solver, state):
    roots = solver._roots(state)
    got = []
    for i in range(len(roots)):
        k, inv = roots.direction(i, solver._axes)
        got.append((k, inv, tuple(int(c) for c in roots.coords[i]), list(roots.cps[i]),
                    list(roots.eps[i])))
    assert got == _model_directions(solver, state)
    import numpy as np

    from cubelab.cube.symmetry import conjugate
    from cubelab.solvers.kociemba import search as ks
    for a, k in enumerate(solver._axes):     # the prover's start: every axis, repeated or not
        s = conjugate(state, k)
        expected = ks.root_coordinates(*(np.asarray(x, np.int64) for x in (s.cp, s.co, s.ep, s.eo)),
                                       *solver._root_tables)
        assert tuple(int(c) for c in roots.axis_coords[a]) == tuple(int(c) for c in expected)


def test_fast_checks_agree_with_the_model(solver):
    import numpy as np

    from cubelab.cube.facts import is_reachable
    from cubelab.cube.notation import parse_moves
    from cubelab.solvers.kociemba import roots as kr
    rng = np.random.default_rng(7)
    for _ in range(300):       # random assemblies: a quarter of them reachable
        s = CubeState(rng.permutation(8), rng.integers(0, 3, 8), rng.permutation(12),
                      rng.integers(0, 2, 12))
        assert kr.reachable(s.cp, s.co, s.ep, s.eo, s.cc) == is_reachable(s)
    bad = CubeState([0, 0, 2, 3, 4, 5, 6, 7], [0] * 8, range(12), [0] * 12)
    assert not kr.reachable(bad.cp, bad.co, bad.ep, bad.eo, bad.cc)
    for seed in range(20):
        state = random_state(seed)
        moves = solver.solve(state, max_length=20).moves
        solver.verify(state, moves)                     # the kernel's check passes
        wrong = moves[:-1] + parse_moves("U")
        if not verify(state, wrong):
            with pytest.raises(RuntimeError, match="does not solve"):
                solver.verify(state, wrong)


@pytest.mark.parametrize("alg", ["R U2 F' L D2", "F R' U B2 L' D", "U R2 F B' L2 D' R"])
def test_max_length_finds_within_the_optimum_and_not_below(solver, alg):
    # a search for the first solution within a length skips redundant phase-1 tails: before it
    # says "not found" it must have searched again without them
    state = alg_state(alg)
    best = solver.solve(state)
    assert best.optimal
    n = len(best.moves)
    assert len(solver.solve(state, max_length=n).moves) <= n
    below = solver.solve(state, max_length=n - 1)
    assert not below.found and below.status == "not found"


def test_a_tiny_time_limit_alone_still_returns_a_solution(solver):
    state = random_state(13)
    result = solver.solve(state, time_limit=1e-6)
    assert result.found and verify(state, result.moves)
    assert result.detail["stopped"] == "time limit"


def test_a_stopped_search_resumes_without_losing_leaves(solver):
    # max_length and a time limit: stopped early, nothing found, and no claim of optimality
    result = solver.solve(random_state(5), max_length=14, time_limit=0.05)
    assert not result.found and result.status == "time limit" and not result.optimal


def test_two_threads_share_the_limit_and_stop_together():
    from cubelab.solvers.kociemba.solver import KociembaSolver
    two = KociembaSolver(threads=2)
    state = random_state(17)
    seen = []
    result = two.solve(state, time_limit=0.3, on_solution=seen.append)
    lengths = [len(s.moves) for s in seen]
    assert lengths == sorted(lengths, reverse=True) and len(set(lengths)) == len(lengths)
    assert result.verified and verify(state, result.moves)
    assert two.solve(alg_state("R U2 F' L")).moves is not None
    exact = two.solve(alg_state("R U2 F' L D2"), time_limit=20)
    assert exact.optimal and len(exact.moves) == 5


def test_a_budgeted_prover_stops_before_a_depth_it_cannot_finish(solver, monkeypatch):
    # on two cores the prover's thread takes the search's time: past the lengths a budgeted
    # solve always settles (SETTLED_UP_TO), it searches a depth only if it expects to finish
    # it in time. Here every next depth is expected to take forever.
    from cubelab.solvers.kociemba import solver as ksolver
    depths = []
    real = ksolver.kp.prove_depth

    def counted(depth, *args):
        depths.append(depth)
        return real(depth, *args)
    monkeypatch.setattr(ksolver.kp, "prove_depth", counted)
    monkeypatch.setattr(ksolver, "NEXT_DEPTH_RATIO", (1e9, 1e9, 1e9))
    result = solver.solve(random_state(11), time_limit=0.5)
    assert result.verified and len(result.moves) <= 20
    assert depths and max(depths) == ksolver.SETTLED_UP_TO   # every length up to it settled
    depths.clear()
    monkeypatch.setattr(ksolver, "NEXT_DEPTH_RATIO", (0.0, 0.0, 0.0))
    solver.solve(random_state(11), time_limit=0.5)
    assert max(depths) > ksolver.SETTLED_UP_TO      # expected to be quick: it goes on


def test_the_next_depths_time_is_guessed_from_the_last_two():
    from cubelab.solvers.kociemba.solver import NEXT_DEPTH_RATIO, _next_depth_seconds
    least, most, guess = NEXT_DEPTH_RATIO
    assert _next_depth_seconds(None, None) == 0.0
    assert _next_depth_seconds(None, 0.01) == pytest.approx(0.01 * guess)
    assert _next_depth_seconds(0.001, 0.01) == pytest.approx(0.1)
    assert _next_depth_seconds(0.01, 0.01) == pytest.approx(0.01 * least)
    assert _next_depth_seconds(0.0001, 0.1) == pytest.approx(0.1 * most)


@pytest.mark.parametrize("seed", range(6))
def test_a_found_frame_is_translated_as_the_model_conjugates_and_inverts(solver, seed):
    """kr.translate against the model: the moves found in a direction's frame, conjugated back
    (and, for the inverse's directions, inverted), solve the position the direction came from;
    phase 1 ends at the last move outside the phase-2 set."""
    import random

    import numpy as np

    from cubelab.cube.moves import FACE_MOVES
    from cubelab.cube.notation import invert_moves
    from cubelab.cube.symmetry import conjugate, symmetry_inverse_index
    from cubelab.solvers.kociemba import roots as kr
    from cubelab.tables.kociemba.specs import PHASE2_MOVES
    rng = random.Random(seed)
    phase2 = set(int(m) for m in PHASE2_MOVES)
    inv_index = symmetry_inverse_index()
    for k in solver._axes:
        for inverse in (False, True):
            frame = np.array([rng.randrange(18) for _ in range(rng.randrange(1, 24))], np.int64)
            out = np.empty(len(frame), np.int64)
            n1 = kr.translate(frame, len(frame), solver._unconjugate[k], inverse,
                              solver._phase2_mask, out)
            # the frame's moves solve the position seen in frame k (S_k Q S_k^-1, Q the
            # position or its inverse): so build that position from them and check the
            # translated moves solve Q (the position itself, or undone from the inverse)
            seen = alg_state(" ".join(str(FACE_MOVES[m]) for m in frame)).inverse()
            q = conjugate(seen, inv_index[k])
            target = q.inverse() if inverse else q
            moves = [FACE_MOVES[i] for i in out.tolist()]
            assert apply_moves(target, moves).is_solved()
            if inverse:
                assert moves == invert_moves([FACE_MOVES[solver._unconjugate[k][m]] for m in frame])
            assert all(int(m) in phase2 for m in frame[n1:])
            assert n1 == 0 or int(frame[n1 - 1]) not in phase2


def test_the_near_table_gives_exactly_the_moves_into_the_subgroup(solver):
    """subgroup_moves against the phase-1 distance: a coordinate triple has a move in all three
    masks exactly when it is one move from the subgroup (checked on positions one move out of
    it, and on random ones), and each such move takes it in."""
    import random

    import numpy as np

    from cubelab.solvers.kociemba import search as ks
    from cubelab.tables.ranks import N_FLIP, N_TWIST
    twist_move, flip_move, slice_move = solver._kernel_tables[:3]
    near = solver._search_tables[-1]
    rng = random.Random(5)
    one_out = [(int(flip_move[0, m]), int(twist_move[0, m]), int(slice_move[s, m]))
               for s in range(24) for m in range(18)]
    two_out = [(int(flip_move[f, m]), int(twist_move[t, m]), int(slice_move[s, m]))
               for f, t, s in one_out[::7] for m in range(18)]
    anywhere = [(rng.randrange(N_FLIP), rng.randrange(N_TWIST), rng.randrange(11880))
                for _ in range(300)]
    for f, t, s in one_out + two_out + anywhere:
        mask = int(near[f]) & int(near[N_FLIP + t]) & int(near[N_FLIP + N_TWIST + s])
        into = [m for m in range(18) if flip_move[f, m] == 0 and twist_move[t, m] == 0
                and slice_move[s, m] < 24]
        d = ks.phase1_depth_words(np.int64(f), np.int64(t), np.int64(s), flip_move, twist_move,
                                  slice_move, *solver._root_tables[4:])
        assert (mask != 0) == (d == 1), (f, t, s, d)
        assert [m for m in range(18) if mask >> m & 1] == (into if d == 1 else [])
        # the second part: the moves after which flip and twist can each still reach the
        # subgroup in one move, a superset of the moves that lead one move from it
        after = int(near[ks.NEXT_FLIP + f]) & int(near[ks.NEXT_TWIST + t])
        for m in range(18):
            f2, t2, s2 = int(flip_move[f, m]), int(twist_move[t, m]), int(slice_move[s, m])
            one = int(near[f2]) & int(near[N_FLIP + t2]) & int(near[N_FLIP + N_TWIST + s2])
            assert not one or after >> m & 1, (f, t, s, m)
            assert bool(after >> m & 1) == bool(int(near[f2]) and int(near[N_FLIP + t2]))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("max_length", [None, 21])
def test_the_short_way_answers_as_the_template_does(solver, seed, max_length):
    """The first solution within a length, asked alone (_first_alone), against the same solve
    through the template (a counters array makes the solver take the template's way): the same
    moves, phases, direction, bound and status, verified."""
    from cubelab.solvers.protocol import SolverBase
    first = get_solver("kociemba", first=True)
    first.prepare()
    state = random_state(500 + seed)
    short = first.solve(state, max_length=max_length)
    template = SolverBase.solve(first, state, max_length=max_length)
    assert first._first_alone(state, max_length or 20) is not None   # the short way was taken
    for r in (short, template):
        assert r.verified and r.status == "solved" and len(r.moves) <= (max_length or 20)
        assert apply_moves(state, r.moves).is_solved()
    assert short.moves == template.moves
    assert short.detail == template.detail
    assert short.lower_bound == template.lower_bound and short.optimal == template.optimal
    assert [tuple(p.lengths) for p in short.phases] == [tuple(p.lengths) for p in template.phases]
    assert [s.moves for s in short.solutions] == [s.moves for s in template.solutions]
    assert short.nodes == template.nodes


def test_the_short_way_leaves_what_it_cannot_answer_to_the_template():
    first = get_solver("kociemba", first=True)
    first.prepare()
    scramble = alg_state("R U F' D2 L B'")
    assert first._first_alone(scramble, 5) is None          # proven: no solution of 5 moves
    r = first.solve(scramble, max_length=5)
    assert r.status == "not found" and r.moves is None
    assert first.solve(CubeState.identity()).moves == []
    with pytest.raises(SolverError):
        first.solve(CubeState(range(8), [1] + [0] * 7, range(12), [0] * 12))
    rotated = alg_state("R U F' D2 L B' x y")                 # centres away from home
    assert first._first_alone(rotated, 20) is None
    r = first.solve(rotated)
    assert r.verified and apply_moves(rotated, r.moves).is_solved()
