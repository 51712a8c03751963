"""The notation against cubing.js's behaviour for the 3x3x3: what its alg parser and its 3x3x3
accept (inner slices, layer ranges, 'v' rotations, pauses, NISS) and what they refuse (leading
zeros, suffixes without a move), each checked by the position it gives or the error it names."""

import pytest

from cubelab.cube import pocket
from cubelab.cube.alg import NotationError
from cubelab.cube.moves import alg_state
from cubelab.cube.notation import mirror_moves, metric_lengths, parse, parse_moves
from cubelab.cube.puzzles import CUBE2, CUBE3


@pytest.mark.parametrize("sign, plain", [
    # an inner slice named from a face turns that one layer as the face turns
    ("2R", "M'"), ("2L", "M"), ("2U", "E'"), ("2D", "E"), ("2F", "S"), ("2B", "S'"),
    ("2U", "u U'"),                       # how cubing.js's own 3x3x3 defines it
    ("3R", "L'"), ("3U", "D'"), ("1R", "R"),
    # wide turns and their layer numbers and ranges
    ("2r", "r"), ("2Rw", "Rw"), ("3r", "x"), ("3Rw", "x"), ("1-2Rw", "Rw"),
    ("2-3Rw", "M' L'"), ("2-3r", "M' L'"), ("2-3u", "E' D'"), ("2-3Uw", "E' D'"),
    ("2-2Rw", "M'"), ("3-3Rw", "L'"), ("1-3Fw", "z"),
    # rotations named from a face
    ("Rv", "x"), ("Lv", "x'"), ("Uv", "y"), ("Dv", "y'"), ("Fv", "z"), ("Bv", "z'"),
    ("Rv2 Uv'", "x2 y'"),
    # pauses do nothing
    (". . .", ""), ("R . U", "R U"), ("R.U", "R U"),
    # counts: R0 (and R0') is no turn, as in cubing.js
    ("R0", ""), ("R0'", ""), ("R1", "R"),
])
def test_sign_moves_reach_the_same_position_as_plain_ones(sign, plain):
    assert alg_state(sign) == alg_state(plain)


@pytest.mark.parametrize("text, expected", [
    ("R ^(U L) D", "R D (U L)'"),             # cubing.js's own example
    ("^(R U)", "(R U)'"),
    ("F ^(R) U ^(D B)", "F U (D B)' R'"),     # later groups go first: N (A B)'
    ("^(R ^(U))", "R' U'"),                   # the inner group is queued first
])
def test_niss_groups_are_applied_to_the_inverse(text, expected):
    assert alg_state(text) == alg_state(expected)
    assert parse_moves(text) == parse_moves(expected)


def test_niss_position_shows_in_facts_and_net():
    # the moves done on the inverse scramble solve the normal one when done at the end
    scramble = "R U F"
    assert alg_state(f"{scramble} ^(F R)") == alg_state("R U F R' F'")
    record = CUBE3.facts_record(CUBE3.from_alg("^(R)"))
    assert record["facelets"] == CUBE3.to_facelets(alg_state("R'"))


@pytest.mark.parametrize("text, message", [
    ("R01", "count '01' starts with 0 at column 2"),
    ("R00", "count '00' starts with 0 at column 2"),
    ("(R U)01", "count '01' starts with 0 at column 6"),
    ("R U 2'", "unexpected '2' at column 5"),
    ("R U '", "unexpected \"'\" at column 5"),
    ("R U 2", "unexpected '2' at column 5"),
    ("2-3R", "unknown move '2-3R' at column 1 (a layer range turns a wide move: '2-3Rw')"),
    ("2-Rw", "unknown move '2-Rw' at column 1 (a layer range needs both ends"),
    ("4R", "layer 4 does not exist at column 1 (the 3x3x3 has 3 layers a side)"),
    ("2-4Rw", "layer 4 does not exist at column 3"),
    ("0R", "layer 0 does not exist at column 1"),
    ("3-2Rw", "layer range 3-2 runs backwards at column 1 (write '2-3Rw')"),
    ("2M", "unknown move '2M' at column 1 (layer numbers go before a face letter"),
    ("2x", "unknown move '2x' at column 1"),
    ("rv", "unknown move 'rv' at column 1 (a rotation 'v' goes after a capital face letter"),
    ("2Rv", "unknown move '2Rv' at column 1"),
    ("Mv", "unknown move 'Mv' at column 1"),
    ("R ^U", "'^' must be followed by '(' at column 3"),
    ("^(R)2", "a NISS group ^(...) takes no count or prime at column 1"),
    ("^(R U", "unclosed '(' opened at column 2"),
])
def test_refused_input_names_the_real_problem(text, message):
    with pytest.raises(NotationError) as info:
        parse(text)
    assert str(info.value).startswith(message)


def test_layer_moves_print_canonically_and_invert():
    alg = parse("2R 2-3Rw' 2-3u2 Rv 3r 2r")
    assert str(alg) == "2R 2-3Rw' 2-3u2 Rv 3r r"
    assert str(alg.inverse()) == "r' 3r' Rv' 2-3u2 2-3Rw 2R'"
    assert alg_state(str(alg)) * alg_state(str(alg.inverse())) == alg_state("")


@pytest.mark.parametrize("sign, plain", [
    ("2R", "M'"), ("3R", "L'"), ("2-3Rw", "M' L'"), ("2U'", "E"), ("2-3f", "S B'"),
    ("Rv", "x"), ("Lv2", "x2"), ("2F 3B'", "S F"),
])
def test_layer_moves_mirror_like_their_plain_equivalents(sign, plain):
    def mirrored(text):
        return alg_state(" ".join(map(str, mirror_moves(parse_moves(text)))))
    assert alg_state(sign) == alg_state(plain)
    assert mirrored(sign) == mirrored(plain)


def test_metrics_count_layers_by_what_turns():
    # an inner slice is two face turns, a far layer or a range of two is one, rotations free
    assert metric_lengths(parse_moves("2R"))["htm"] == 2
    assert metric_lengths(parse_moves("3R 2-3Rw"))["htm"] == 2
    assert metric_lengths(parse_moves("Rv 3r"))["htm"] == 0


def test_the_2x2x2_takes_rotations_but_not_3x3x3_layers():
    assert CUBE2.from_alg("R Rv").state == CUBE2.from_alg("R x").state
    for text in ("2R", "3R", "2-3Rw"):
        with pytest.raises(pocket.PocketError, match="not a 2x2x2 move"):
            CUBE2.from_alg(text)
