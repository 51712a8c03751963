"""The 48 symmetries checked against geometry, and morph against its definition."""

import itertools

import numpy as np
from hypothesis import given, strategies as st

from cubelab.cube.geometry import sticker_map
from cubelab.cube.moves import FACE_MOVES, alg_state, move_state
from cubelab.cube.notation import mirror_moves, parse_moves
from cubelab.cube.random_states import random_assembly, random_state
from cubelab.cube.symmetry import (
    conjugate, morph, morph_class, move_conjugation, symmetry_arrays, symmetry_inverse_index,
)
from cubelab.cube.moves import apply_moves
from cubelab.cube.state import CubeState

from helpers_model import inverse, state_sticker_perm, sticker_perm, then


def _sym_perm(k):
    cp, co, ep, eo, cc = (a[k] for a in symmetry_arrays())
    return sticker_perm(cp, co, ep, eo, cc)


def test_the_48_symmetries_are_exactly_the_48_isometries_of_the_cube():
    geometric = set()
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            m = np.zeros((3, 3), dtype=int)
            for row, (col, sign) in enumerate(zip(perm, signs)):
                m[row, col] = sign
            target = sticker_map(m)
            as_perm = np.empty(54, dtype=np.intp)
            as_perm[target] = np.arange(54)
            geometric.add(as_perm.tobytes())
    ours = {_sym_perm(k).tobytes() for k in range(48)}
    assert len(geometric) == 48 and ours == geometric


def test_first_sixteen_keep_the_ud_axis_and_identity_comes_first():
    cc = symmetry_arrays()[4]
    assert list(cc[0]) == list(range(6))
    assert all(cc[k][0] in (0, 3) for k in range(16))
    assert not any(cc[k][0] in (0, 3) for k in range(16, 48))


def test_inverse_index():
    inv = symmetry_inverse_index()
    for k in range(48):
        assert np.array_equal(then(_sym_perm(k), _sym_perm(int(inv[k]))), np.arange(54))


@given(st.integers(0, 2**32), st.integers(0, 47))
def test_cubie_conjugation_agrees_with_stickers(seed, k):
    p = random_assembly(seed)
    s = _sym_perm(k)
    expected = then(then(s, state_sticker_perm(p)), inverse(s))
    assert np.array_equal(state_sticker_perm(conjugate(p, k)), expected)


def test_move_conjugation_table():
    table = move_conjugation()
    for k in range(48):
        assert sorted(table[k]) == list(range(18))
        for i, m in enumerate(FACE_MOVES):
            assert conjugate(move_state(m), k) == move_state(FACE_MOVES[table[k, i]])


@given(st.lists(st.sampled_from(["R", "U", "F2", "L'", "D", "B", "M", "x", "Rw"]), max_size=12))
def test_mirror_notation_is_conjugation_by_the_left_right_mirror(words):
    moves = parse_moves(" ".join(words))
    lr = next(k for k in range(48) if list(symmetry_arrays()[4][k]) == [0, 4, 2, 3, 1, 5])
    assert apply_moves(CubeState.identity(), mirror_moves(moves)) == conjugate(
        apply_moves(CubeState.identity(), moves), lr)


def test_morph_of_known_positions():
    assert morph(CubeState.identity()) == 1
    assert morph(alg_state("R")) == 12
    assert morph(alg_state("R2")) == 6
    assert morph(alg_state("U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2")) == 1
    assert morph(random_state(5)) == 96


@given(st.integers(0, 2**32))
def test_morph_is_the_class_size_and_divides_96(seed):
    p = random_assembly(seed) if seed % 2 else alg_state(["R U", "R2 U2", "M2 E2 S2", "R L'"][seed % 4])
    cls = morph_class(p)
    assert len(cls) == morph(p) and 96 % len(cls) == 0
    keys = {c for c in cls}
    for k in (0, 7, 20, 33):
        assert conjugate(p, k) in keys and conjugate(p.inverse(), k) in keys
