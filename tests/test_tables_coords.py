"""Coordinates, move tables and packed entries of the table engine, against the cubie model."""

import math
import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cubelab.cube import coords as model_coords
from cubelab.cube.moves import FACE_MOVES, move_state
from cubelab.cube.random_states import random_state
from cubelab.cube.state import CubeState
from cubelab.tables import coords as C
from cubelab.tables.movetables import (PHASE2_MOVES, move_indices, move_table,
                                       orientation_add_table, orientation_delta_table)
from cubelab.tables.packed import (get2, get4, new_packed2, new_packed4, set2, set4, unpack2,
                                   unpack4)

SIZES = {
    C.TWIST: 2187, C.FLIP: 2048, C.UD_SLICE: 495, C.SLICE_SORTED: 11880,
    C.CORNER_PERM: 40320, C.EDGE8_PERM: 40320, C.SLICE_PERM: 24,
    C.edge_positions(range(6)): 665280, C.edge_flips(range(6)): 64,
    C.corner_positions((0, 2, 5, 7)): 1680,
}

SMALL = [C.TWIST, C.FLIP, C.UD_SLICE, C.SLICE_SORTED, C.SLICE_PERM,
         C.edge_flips((3, 1, 4)), C.corner_positions((0, 2, 5, 7)),
         C.Coord("tetrad", "corner", (0, 2, 5, 7), positions="set"),
         C.Coord("slice_flips", "edge", C.SLICE_EDGES, positions="set", orientation="slot"),
         C.Coord("uface", "corner", (0, 1, 2, 3), positions="ordered", orientation="piece")]


@pytest.mark.parametrize("coord,size", list(SIZES.items()), ids=lambda x: getattr(x, "name", ""))
def test_sizes(coord, size):
    assert coord.size == size


@pytest.mark.parametrize("coord", SMALL, ids=lambda c: c.name)
def test_decode_encode_round_trip(coord):
    sample = range(coord.size) if coord.size <= 12000 else random.Random(0).sample(
        range(coord.size), 2000)
    assert all(coord.encode(coord.decode(i)) == i for i in sample)


def test_large_round_trips():
    for coord in (C.CORNER_PERM, C.EDGE8_PERM, C.edge_positions(range(6)),
                  C.Product((C.CORNER_PERM, C.TWIST))):
        for i in random.Random(1).sample(range(coord.size), 500):
            assert coord.encode(coord.decode(i)) == i


def test_solved_values_follow_kociemba():
    for coord in (C.TWIST, C.FLIP, C.UD_SLICE, C.SLICE_SORTED, C.CORNER_PERM, C.EDGE8_PERM,
                  C.SLICE_PERM):
        assert coord.solved() == 0, coord.name


@pytest.mark.parametrize("seed", range(30))
def test_agrees_with_the_model(seed):
    s = random_state(seed)
    assert C.CORNER_PERM.encode(s) == model_coords.rank_permutation(s.cp)
    assert C.EDGE_PERM.encode(s) == model_coords.rank_permutation(s.ep)
    assert C.TWIST.encode(s) == model_coords.rank_orientation(s.co[:7], 3)
    assert C.FLIP.encode(s) == model_coords.rank_orientation(s.eo[:11], 2)
    assert C.SLICE_SORTED.encode(s) // 24 == C.UD_SLICE.encode(s)
    # the slice coordinate depends only on which slots the slice edges occupy
    moved = CubeState(s.cp, s.co, _shuffle_within(s.ep, C.SLICE_EDGES, seed), s.eo)
    assert C.UD_SLICE.encode(moved) == C.UD_SLICE.encode(s)


def _shuffle_within(ep, pieces, seed):
    """ep with the given pieces permuted among their own slots."""
    ep = np.array(ep)
    slots = [int(np.flatnonzero(ep == p)[0]) for p in pieces]
    values = ep[slots].copy()
    random.Random(seed).shuffle(values)
    ep[slots] = values
    return ep


def test_products_are_mixed_radix():
    p = C.Product((C.UD_SLICE, C.FLIP, C.TWIST))
    s = random_state(5)
    assert p.encode(s) == (C.UD_SLICE.encode(s) * 2048 + C.FLIP.encode(s)) * 2187 + C.TWIST.encode(s)
    assert p.split(p.encode(s)) == (C.UD_SLICE.encode(s), C.FLIP.encode(s), C.TWIST.encode(s))
    assert p.join(p.split(12345)) == 12345


def test_bad_coordinates_are_refused():
    with pytest.raises(ValueError):
        C.Coord("x", "edge", (0, 0), positions="set")
    with pytest.raises(ValueError):
        C.Coord("x", "edge", (9,), positions="set", slots=(0, 8))
    with pytest.raises(ValueError):
        C.Coord("x", "corner", (), positions="none", orientation="slot")
    with pytest.raises(ValueError):
        C.Product((C.TWIST,)).decode(2187)


@pytest.mark.parametrize("coord", [C.TWIST, C.FLIP, C.UD_SLICE, C.SLICE_SORTED, C.CORNER_PERM,
                                   C.corner_positions((0, 2, 5, 7))], ids=lambda c: c.name)
def test_move_tables_follow_cubie_moves(coord):
    table = move_table(coord)
    assert table.shape == (coord.size, 18)
    for seed in range(15):
        s = random_state(seed)
        i = coord.encode(s)
        for m, mv in enumerate(FACE_MOVES):
            assert table[i, m] == coord.encode(s * move_state(mv))


def test_phase2_move_tables():
    moves = [move_state(FACE_MOVES[i]) for i in move_indices(PHASE2_MOVES)]
    e8, sp = move_table(C.EDGE8_PERM, PHASE2_MOVES), move_table(C.SLICE_PERM, PHASE2_MOVES)
    rng = random.Random(3)
    s = CubeState.identity()
    for _ in range(300):
        m = rng.randrange(len(moves))
        t = s * moves[m]
        assert e8[C.EDGE8_PERM.encode(s), m] == C.EDGE8_PERM.encode(t)
        assert sp[C.SLICE_PERM.encode(s), m] == C.SLICE_PERM.encode(t)
        s = t


def test_move_table_refuses_moves_outside_the_domain():
    with pytest.raises(ValueError, match="takes pieces out"):
        move_table(C.EDGE8_PERM)


def test_move_indices():
    assert list(move_indices("U R2 B'")) == [0, 4, 17]
    assert len(move_indices(None)) == 18
    with pytest.raises(ValueError):
        move_indices(["M"])


@pytest.mark.parametrize("piece,pieces", [("edge", (0, 5, 9)), ("corner", (1, 6))])
def test_orientation_deltas(piece, pieces):
    pos = C.edge_positions(pieces) if piece == "edge" else C.corner_positions(pieces)
    ori = C.edge_flips(pieces) if piece == "edge" else C.corner_twists(pieces)
    pm, delta, add = move_table(pos), orientation_delta_table(ori, pos), orientation_add_table(ori)
    for seed in range(20):
        s = random_state(seed)
        for m, mv in enumerate(FACE_MOVES):
            t = s * move_state(mv)
            p, o = pos.encode(s), ori.encode(s)
            assert pm[p, m] == pos.encode(t)
            assert add[o, delta[p, m]] == ori.encode(t)


def test_orientation_add_is_digitwise():
    add = orientation_add_table(C.corner_twists((0, 1)))
    assert add[1, 1] == 2 and add[2, 1] == 0 and add[3 * 2 + 1, 3 * 1 + 2] == 0
    flips = orientation_add_table(C.edge_flips((0, 1, 2)))
    assert all(flips[a, b] == a ^ b for a in range(8) for b in range(8))


@given(st.lists(st.integers(0, 15), min_size=1, max_size=200))
def test_packed4_round_trip(values):
    t = new_packed4(len(values))
    assert (unpack4(t, len(values)) == 15).all()
    for i, v in enumerate(values):
        set4(t, i, v)
    assert unpack4(t, len(values)).tolist() == values
    assert [get4(t, i) for i in range(len(values))] == values


@given(st.lists(st.integers(0, 3), min_size=1, max_size=200))
def test_packed2_round_trip(values):
    t = new_packed2(len(values))
    assert (unpack2(t, len(values)) == 3).all()
    for i, v in enumerate(values):
        set2(t, i, v)
    assert unpack2(t, len(values)).tolist() == values
    assert [get2(t, i) for i in range(len(values))] == values


def test_sizes_match_formulae():
    assert C.SLICE_SORTED.size == math.perm(12, 4)
    assert C.edge_positions(range(7)).size == math.perm(12, 7)
