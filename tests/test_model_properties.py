"""Property tests (hypothesis) for the group laws and the model's round trips."""

import math

import numpy as np
from hypothesis import given, strategies as st

from cubelab.cube.coords import (
    coordinates, position_index, rank_permutation, state_from_coordinates, state_from_index,
    unrank_permutation,
)
from cubelab.cube.facelets import parse_facelets, parse_singmaster, to_facelets, to_singmaster
from cubelab.cube.facts import in_centre, trace
from cubelab.cube.moves import apply_moves, rotations
from cubelab.cube.alg import Move
from cubelab.cube.notation import format_moves, invert_moves, parse_moves
from cubelab.cube.random_states import random_assembly, random_state
from cubelab.cube.state import CubeState

from helpers_model import inverse, state_sticker_perm, then

FAMILIES = ["U", "R", "F", "D", "L", "B", "Uw", "r", "3Fw", "M", "E", "S", "x", "y", "z"]
moves = st.lists(st.builds(Move, st.sampled_from(FAMILIES), st.integers(1, 3)), max_size=25)
assemblies = st.integers(0, 2**32).map(random_assembly)
reachable = st.integers(0, 2**32).map(random_state)
with_centres = st.tuples(assemblies, st.integers(0, 23)).map(lambda t: t[0] * rotations()[t[1]])
any_state = st.one_of(assemblies, reachable, moves.map(lambda m: apply_moves(CubeState.identity(), m)),
                      with_centres)


@given(any_state, any_state, any_state)
def test_associativity(a, b, c):
    assert (a * b) * c == a * (b * c)


@given(any_state)
def test_identity_and_inverse(a):
    e = CubeState.identity()
    assert a * e == a == e * a
    assert a * a.inverse() == e == a.inverse() * a
    assert a.inverse().inverse() == a


@given(any_state, st.integers(-40, 40))
def test_power_by_squaring(a, n):
    expected = CubeState.identity()
    step = a if n >= 0 else a.inverse()
    for _ in range(abs(n)):
        expected = expected * step
    assert a.power(n) == expected


@given(any_state)
def test_order_is_the_least_period(a):
    n = a.order()
    assert a.power(n).is_identity()
    for p in (2, 3, 5, 7, 11):
        if n % p == 0:
            assert not a.power(n // p).is_identity()
    if a.centres_home():
        assert 166320 % n == 0  # every assembly satisfies P^166320 = 1 (the TIPE)


@given(any_state, any_state)
def test_conjugate_and_commutator(a, b):
    assert a.conjugate(b) == b * a * b.inverse()
    assert a.commutator(b) == a * b * a.inverse() * b.inverse()
    assert a.conjugate(b).order() == a.order()


@given(any_state)
def test_composition_agrees_with_stickers(a):
    b = random_assembly(1) * rotations()[5]
    assert np.array_equal(state_sticker_perm(a * b), then(state_sticker_perm(a), state_sticker_perm(b)))
    assert np.array_equal(state_sticker_perm(a.inverse()), inverse(state_sticker_perm(a)))


@given(assemblies, assemblies)
def test_trace_is_a_homomorphism(a, b):
    ta, tb, tab = trace(a), trace(b), trace(a * b)
    assert tab == ((ta[0] + tb[0]) % 2, (ta[1] + tb[1]) % 2, (ta[2] + tb[2]) % 3)


@given(moves)
def test_move_sequences_are_reachable_and_inverse_undoes(ms):
    s = apply_moves(CubeState.identity(), ms)
    assert trace(s) == (0, 0, 0)
    assert apply_moves(s, invert_moves(ms)).is_identity()
    assert apply_moves(CubeState.identity(), parse_moves(format_moves(ms))) == s


@given(reachable)
def test_random_states_are_reachable(s):
    assert trace(s) == (0, 0, 0)


@given(any_state)
def test_facelets_round_trip(a):
    assert parse_facelets(to_facelets(a)) == a
    assert parse_facelets(to_facelets(a, colours=True)) == a


@given(assemblies)
def test_singmaster_and_coordinates_round_trip(a):
    assert parse_singmaster(to_singmaster(a)) == a
    assert state_from_coordinates(**coordinates(a)) == a
    assert state_from_index(position_index(a)) == a


@given(st.integers(1, 12).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, math.factorial(n) - 1))))
def test_permutation_rank_round_trip(nr):
    n, r = nr
    assert rank_permutation(unrank_permutation(r, n)) == r


@given(reachable)
def test_centre_is_identity_and_superflip(a):
    flip = CubeState(range(8), [0] * 8, range(12), [1] * 12)
    assert in_centre(a) == (a.is_identity() or a == flip)
