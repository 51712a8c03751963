"""The puzzle interface: both cubes answer the same questions, so callers never branch on them."""

import json

import numpy as np
import pytest
from hypothesis import given, strategies as st

from cubelab.cube import pocket
from cubelab.cube.facts_report import format_facts
from cubelab.cube.moves import alg_state, rotations
from cubelab.cube.pieces import FACES
from cubelab.cube.positions import PositionError
from cubelab.cube.puzzles import CUBE2, CUBE3, PUZZLES, puzzle_named, puzzle_of
from cubelab.cube.random_states import face_scramble
from cubelab.cube.state import CubeState, rotation_with_centres
from cubelab.solvers import REGISTRY, solver_names

BOTH = pytest.mark.parametrize("puzzle", [CUBE3, CUBE2], ids=["3x3", "2x2"])


def test_names_aliases_and_the_puzzle_of_a_state():
    assert list(PUZZLES) == ["3x3", "2x2"]
    for text, name in [("3", "3x3"), ("3x3x3", "3x3"), (" 2X2 ", "2x2"), ("pocket", "2x2")]:
        assert puzzle_named(text).name == name
    with pytest.raises(KeyError):
        puzzle_named("4x4")
    assert puzzle_of(CubeState.identity()) is CUBE3
    assert puzzle_of(pocket.PocketState.identity()) is CUBE2


@BOTH
def test_a_position_is_an_alg_or_stickers(puzzle):
    by_alg = puzzle.position("  [R, U] ")
    assert by_alg.alg == "[R, U]" and len(by_alg.moves) == 4
    stickers = puzzle.to_facelets(by_alg.state)
    assert puzzle.position("facelets: " + stickers).state == by_alg.state
    assert puzzle.position("FACELETS:" + stickers.lower()).moves is None
    assert puzzle.from_facelets(stickers).state == puzzle.from_alg("R U R' U'").state
    with pytest.raises(PositionError, match="column 4"):
        puzzle.position("R U)")
    with pytest.raises(PositionError, match=f"expected {len(stickers)} stickers, got 3"):
        puzzle.position("facelets: UUU")


def test_the_2x2_refuses_slices_and_the_3x3_reads_singmaster():
    with pytest.raises(PositionError, match="no middle layer"):
        CUBE2.from_alg("R M")
    line = "singmaster: UF UR UB UL DF DR DB DL FR FL BR BL UFR URB UBL ULF DRF DFL DLB DBR"
    assert CUBE3.position(line).state == CubeState.identity()
    with pytest.raises(PositionError):            # not a 2x2x2 format: read as an alg
        CUBE2.position(line)


@BOTH
def test_facts_records_have_the_contract_keys_and_the_alg_views(puzzle):
    record = puzzle.facts_record(puzzle.position("R U R' U' R R"), show_class=True)
    for key in ("facelets", "order", "parity", "trace", "reachable", "morph", "corner_cycles",
                "edge_cycles", "in_centre", "alg", "length", "moves", "simplified", "inverse",
                "mirror", "class"):
        assert key in record, key
    assert record["simplified"] == "R U R' U' R2" and record["inverse"] == "R' R' U R U' R'"
    assert record["mirror"] == "L' U' L U L' L'"
    assert list(record["length"]) == list(puzzle.metrics)
    assert len(record["class"]) == record["morph"]
    json.dumps(record)
    assert "alg" not in puzzle.facts_record(puzzle.from_facelets(record["facelets"]))


def test_only_the_2x2_record_names_its_puzzle_and_how_it_is_held():
    cube = CUBE3.facts_record(CUBE3.from_alg("R U"))
    small = CUBE2.facts_record(CUBE2.from_alg("R U y"))
    assert "puzzle" not in cube and small["puzzle"] == "2x2"
    assert small["normalized"] == CUBE2.to_facelets(CUBE2.from_alg("R U").state)


def test_one_text_format_for_both_cubes():
    cube = format_facts(CUBE3.facts_record(CUBE3.from_alg("R U R2")))
    assert "length       3 HTM, 4 QTM, 3 STM, 3 ETM" in cube
    assert "edges        (" in cube and "coordinates  corner perm" in cube
    assert "held DLB" not in cube and "             edges   " in cube
    small = format_facts(CUBE2.facts_record(CUBE2.from_alg("R U R2")))
    assert "length       3 HTM, 4 QTM" in small and "held DLB     " in small
    assert "edges" not in small and "coordinates" not in small
    assert "trace        (0)  reachable" in small and "mirror       L' U' L2" in small


@BOTH
def test_each_puzzle_names_a_registered_default_solver(puzzle):
    for metric in puzzle.metrics[:2]:
        assert REGISTRY.default_solver(puzzle.name, metric) in solver_names(puzzle.name)
    assert REGISTRY.default_solver(CUBE2.name, "qtm") == "pocket-qtm"


@BOTH
@given(seed=st.integers(0, 2**32 - 1))
def test_scrambles_follow_the_rules(puzzle, seed):
    moves = puzzle.scramble(seed)
    assert moves == puzzle.scramble(seed) and len(moves) == puzzle.scramble_length
    assert {m.family for m in moves} <= set(puzzle.scramble_faces)
    axis = [FACES.index(m.family) % 3 for m in moves]
    assert all(a.family != b.family for a, b in zip(moves, moves[1:]))
    assert all(not a == b == c for a, b, c in zip(axis, axis[1:], axis[2:]))


def test_one_scramble_generator_takes_a_seed_or_a_generator():
    a = face_scramble(np.random.default_rng(5), 30)
    assert a == face_scramble(5, 30) and len(face_scramble(5, 0)) == 0
    rng = np.random.default_rng(5)
    assert face_scramble(rng, 10) + face_scramble(rng, 10) != face_scramble(5, 10) * 2


@BOTH
@given(seed=st.integers(0, 2**32 - 1))
def test_random_positions_are_reachable_and_paint_back(puzzle, seed):
    state = puzzle.random(seed)
    assert puzzle.unreachable(state) is None
    colours = puzzle.colours(state)
    assert len(colours) == len(puzzle.blank()) and puzzle.from_colours(colours) == state
    assert all(c == -1 or c == colours[i] for i, c in enumerate(puzzle.blank()))


def test_unreachable_reasons():
    assert "corner twisted" in CUBE2.unreachable(pocket.PocketState(range(8), [1] + [0] * 7))
    flipped = CubeState(range(8), [0] * 8, range(12), [1] + [0] * 11)
    assert "edge flipped" in CUBE3.unreachable(flipped)


def test_switching_cubes_carries_the_corners_and_the_sequence():
    small = CUBE2.from_alg("R U")
    state, moves, how = CUBE3.carry(small.state, small.moves)
    assert state == alg_state("R U") and moves == small.moves and "replayed" in how
    state, moves, how = CUBE2.carry(alg_state("R M"), CUBE3.from_alg("R M").moves)
    assert state == pocket.PocketState.from_cube(alg_state("R M")) and moves == ()


def test_the_rotation_with_given_centres_is_the_rotation_the_moves_make():
    for r in rotations():
        assert rotation_with_centres(r.cc) == r
    assert alg_state("x y2 z'").is_solved() and not alg_state("x R").is_solved()
    assert alg_state("R U x y2").normalized().centres_home()
