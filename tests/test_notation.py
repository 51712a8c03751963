"""Example-based tests for the move-notation module: syntax, errors, printing, simplify, mirror, metrics."""

import pickle
import subprocess
import sys
import time

import pytest

from cubelab.cube.alg import MAX_EXPANDED_MOVES, Alg, Commutator, Conjugate, Group, Move, NotationError
from cubelab.cube.notation import (
    MAX_DEPTH, MAX_INPUT_CHARS, format_moves, invert_moves, metric_lengths, mirror_moves, parse,
    parse_moves, simplify,
)
from helpers_timing import within


def moves(text):
    return format_moves(parse_moves(text))


# --------------------------------------------------------------------------- Move


def test_move_str_is_canonical():
    assert [str(Move("R", a)) for a in (1, 2, 3)] == ["R", "R2", "R'"]
    assert str(Move("Rw", 2)) == "Rw2"
    assert str(Move("3Rw", 3)) == "3Rw'"
    assert str(Move("r")) == "r"
    assert str(Move("M", 3)) == "M'"
    assert str(Move("x", 2)) == "x2"


@pytest.mark.parametrize(
    "families, axis",
    [
        ("R L M Rw Lw r l x 3Rw 3Lw", "x"),
        ("U D E Uw Dw u d y 3Uw 3Dw", "y"),
        ("F B S Fw Bw f b z 3Fw 3Bw", "z"),
    ],
)
def test_move_axis(families, axis):
    for family in families.split():
        assert Move(family).axis == axis


def test_move_inverse():
    assert Move("R").inverse() == Move("R", 3)
    assert Move("R", 2).inverse() == Move("R", 2)
    assert Move("3Uw", 3).inverse() == Move("3Uw", 1)


@pytest.mark.parametrize("family, amount", [("Q", 1), ("R", 0), ("R", 4), ("Mw", 1), ("2Rw", 1), ("rw", 1)])
def test_move_rejects_bad_fields(family, amount):
    with pytest.raises(ValueError):
        Move(family, amount)


def test_move_is_hashable_and_frozen():
    assert len({Move("R"), Move("R", 1), Move("R", 2)}) == 2
    with pytest.raises(AttributeError):
        Move("R").amount = 2


# --------------------------------------------------------------------------- accepted syntax


@pytest.mark.parametrize(
    "text, expected",
    [
        ("R", "R"),
        ("R2", "R2"),
        ("R'", "R'"),
        ("R2'", "R2"),
        ("R3", "R'"),
        ("R3'", "R"),
        ("R5", "R"),
        ("R6'", "R2"),
        ("R1000000", ""),
        ("R999999", "R'"),
        ("R0", ""),
        ("R’", "R'"),
        ("R`", "R'"),
        ("R4", ""),
        ("R0", ""),
        ("R0'", ""),
        ("U R F D L B", "U R F D L B"),
        ("Uw Rw Fw Dw Lw Bw", "Uw Rw Fw Dw Lw Bw"),
        ("u r f d l b", "u r f d l b"),
        ("2Rw 3Rw' 3Uw2 2Fw'", "Rw 3Rw' 3Uw2 Fw'"),
        ("M E S M2 E' S2'", "M E S M2 E' S2"),
        ("x y z x' y2 z3", "x y z x' y2 z'"),
        ("RUR'U'", "R U R' U'"),
        ("R2U", "R2 U"),
        ("R2'U'", "R2 U'"),
        ("rUR'", "r U R'"),
        ("Rwu 3RwM", "Rw u 3Rw M"),
        # Digits always belong to the move before them, so a width prefix needs a space.
        ("u3Rw", "u' Rw"),
        ("  R \t U\n\nR'  ", "R U R'"),
        ("R\u00a0U", "R U"),
        ("R U // sexy move\nR' U' // and back", "R U R' U'"),
        ("// only a comment", ""),
        ("R//U", "R"),
        ("", ""),
        ("   \n ", ""),
        # groups, commutators and conjugates
        ("(R U R' U')3", "R U R' U' R U R' U' R U R' U'"),
        ("(R U)'", "U' R'"),
        ("(R U)2'", "U' R' U' R'"),
        ("(R U)0", ""),
        ("(R U)1", "R U"),
        ("()", ""),
        ("()3'", ""),
        ("(())", ""),
        ("((R)2)3", "R R R R R R"),
        ("((R U)2 [R, U])3", " ".join(["R U R U R U R' U'"] * 3)),
        ("[R, U]", "R U R' U'"),
        ("[R: U]", "R U R'"),
        ("[R U R', D]", "R U R' D R U' R' D'"),
        ("[F: [R, U]]", "F R U R' U' F'"),
        ("[[R: U], D]", "R U R' D R U' R' D'"),
        ("[R, U]2", "R U R' U' R U R' U'"),
        ("[R, U]'", "U R U' R'"),
        ("[R: U]2'", "R U' R' R U' R'"),
        ("[, R]", "R R'"),
        ("[R, ]", "R R'"),
        ("[:]", ""),
        ("[R:U2]", "R U2 R'"),
        ("(R U)’", "U' R'"),
        ("(RU)`", "U' R'"),
        ("[R,\n U]", "R U R' U'"),
    ],
)
def test_moves_suffixes_groups_and_brackets(text, expected):
    assert moves(text) == expected


def test_parse_moves_returns_move_objects():
    assert parse_moves("R U2 3Rw'") == [Move("R", 1), Move("U", 2), Move("3Rw", 3)]
    assert parse_moves("r") == [Move("r")]
    assert parse_moves("Rw") == [Move("Rw")]


def test_tree_shape():
    alg = parse("R (U F)2' [R, U]3 [R: U]'")
    assert alg == Alg(
        (
            Move("R"),
            Group(Alg((Move("U"), Move("F"))), 2, True),
            Commutator(Alg((Move("R"),)), Alg((Move("U"),)), 3, False),
            Conjugate(Alg((Move("R"),)), Alg((Move("U"),)), 1, True),
        )
    )


def test_cancelled_moves_leave_no_leaf():
    assert parse("R4 U0") == Alg(())


def test_nesting_up_to_the_limit_works():
    text = "(" * MAX_DEPTH + "R" + ")" * MAX_DEPTH
    alg = parse(text)
    assert alg.flatten() == [Move("R")]
    assert str(alg) == text
    assert alg.inverse().flatten() == [Move("R", 3)]
    brackets = "[R: " * MAX_DEPTH + "U" + "]" * MAX_DEPTH
    assert len(parse(brackets).flatten()) == 2 * MAX_DEPTH + 1


def test_expansion_up_to_the_limit_works():
    assert len(parse_moves(f"(R){MAX_EXPANDED_MOVES}")) == MAX_EXPANDED_MOVES
    assert len(parse_moves("R" * MAX_INPUT_CHARS)) == MAX_INPUT_CHARS


# --------------------------------------------------------------------------- printing


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("RUR'U'", "R U R' U'"),
        ("[RUR',D]", "[R U R', D]"),
        ("[F:[R,U]]", "[F: [R, U]]"),
        ("(RUR'U')3", "(R U R' U')3"),
        ("(RU)'", "(R U)'"),
        ("(RU)2'", "(R U)2'"),
        ("(R U)1", "(R U)"),
        ("(R)0", "(R)0"),
        ("[R,U]2'", "[R, U]2'"),
        ("[,R]", "[, R]"),
        ("()", "()"),
        ("R2' R3 R4 // comment", "R2 R'"),
        ("2Rw r’ M`", "Rw r' M'"),
    ],
)
def test_canonical_str(text, canonical):
    alg = parse(text)
    assert str(alg) == canonical
    assert parse(canonical) == alg


def test_format_moves():
    assert format_moves([Move("R"), Move("U", 2), Move("R", 3)]) == "R U2 R'"
    assert format_moves([]) == ""
    assert format_moves(iter([Move("x")])) == "x"


# --------------------------------------------------------------------------- inverse


@pytest.mark.parametrize(
    "text, inverse",
    [
        ("R U R' U'", "U R U' R'"),
        ("[R U R', D]", "[D, R U R']"),
        ("[F: [R, U]]", "[F: [U, R]]"),
        ("[R: U]", "[R: U']"),
        ("(R U)3", "(U' R')3"),
        ("(R U)'", "(R U)"),
        ("[R, U]'", "[R, U]"),
        ("[R: U]2'", "[R: U]2"),
        ("R2 3Rw' x", "x' 3Rw R2"),
        ("", ""),
    ],
)
def test_structural_inverse(text, inverse):
    alg = parse(text)
    assert str(alg.inverse()) == inverse
    assert alg.inverse().flatten() == invert_moves(alg.flatten())


def test_invert_moves():
    assert format_moves(invert_moves(parse_moves("R U2 R' x"))) == "x' R U2 R'"
    assert invert_moves([]) == []


# --------------------------------------------------------------------------- mirror


@pytest.mark.parametrize(
    "text, mirrored",
    [
        ("R", "L'"),
        ("L2", "R2"),
        ("R'", "L"),
        ("Rw", "Lw'"),
        ("r", "l'"),
        ("l'", "r"),
        ("3Rw", "3Lw'"),
        ("M M' x x2", "M M' x x2"),
        ("U", "U'"),
        ("Uw2", "Uw2"),
        ("E", "E'"),
        ("y", "y'"),
        ("F", "F'"),
        ("S", "S'"),
        ("z", "z'"),
        ("d f' B2", "d' f B2"),
        ("R U R' U'", "L' U' L U"),
    ],
)
def test_mirror(text, mirrored):
    assert format_moves(mirror_moves(parse_moves(text))) == mirrored


# --------------------------------------------------------------------------- simplify


@pytest.mark.parametrize(
    "text, simplified",
    [
        ("R R", "R2"),
        ("R R'", ""),
        ("R2 R2", ""),
        ("R R R", "R'"),
        ("R L R", "R2 L"),
        ("R L R'", "L"),
        ("U D2 U' D2", ""),
        ("R U U' R'", ""),
        ("R U R'", "R U R'"),
        ("R r Rw", "R r Rw"),
        ("R r R'", "r"),
        ("R M x L R' x'", "M L"),
        ("F B' S F'", "B' S"),
        ("R U L U' R", "R U L U' R"),
        ("U R U' U R'", "U"),
        ("R2' U3", "R2 U'"),
        ("", ""),
    ],
)
def test_simplify(text, simplified):
    assert format_moves(simplify(parse_moves(text))) == simplified


def test_simplify_leaves_the_input_alone():
    original = parse_moves("R R'")
    simplify(original)
    assert format_moves(original) == "R R'"


# --------------------------------------------------------------------------- metrics


@pytest.mark.parametrize(
    "text, htm, qtm, stm, etm",
    [
        ("R U R' U'", 4, 4, 4, 4),
        ("R2 M", 3, 4, 2, 2),
        ("x R", 1, 1, 1, 2),
        ("M2", 2, 4, 1, 1),
        ("R2 U2", 2, 4, 2, 2),
        ("Rw2 r'", 2, 3, 2, 2),
        ("3Rw 3Uw2 x y' z2", 0, 0, 0, 5),
        ("E S'", 4, 4, 2, 2),
        ("", 0, 0, 0, 0),
    ],
)
def test_metrics(text, htm, qtm, stm, etm):
    assert metric_lengths(parse_moves(text)) == {"htm": htm, "qtm": qtm, "stm": stm, "etm": etm}


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    "text, message, column, line",
    [
        ("R U R' ]", "unexpected ']' at column 8 (no '[' to close)", 8, 1),
        ("R U )", "unexpected ')' at column 5 (no '(' to close)", 5, 1),
        ("R Q", "unknown move 'Q' at column 3", 3, 1),
        ("RUQ", "unknown move 'Q' at column 3", 3, 1),
        ("R é", "unknown move 'é' at column 3", 3, 1),
        ("R w", "unknown move 'w' at column 3", 3, 1),
        ("Mw", "unknown move 'Mw' at column 1", 1, 1),
        ("R rw", "unknown move 'rw' at column 3 (a wide turn is 'Rw' or 'r', not both)", 3, 1),
        ("3-2r", "layer range 3-2 runs backwards at column 1 (write '2-3r')", 1, 1),
        ("2-3R", "unknown move '2-3R' at column 1 (a layer range turns a wide move: '2-3Rw')", 1, 1),
        ("U 4Rw", "layer 4 does not exist at column 3 (the 3x3x3 has 3 layers a side)", 3, 1),
        ("02Rw", "layer number '02' starts with 0 at column 1 (layers count from 1, the face itself)", 1, 1),
        ("(R U", "unclosed '(' opened at column 1", 1, 1),
        ("R [U, (R", "unclosed '(' opened at column 7", 7, 1),
        ("[R, U", "unclosed '[' opened at column 1", 1, 1),
        ("[R U", "unclosed '[' opened at column 1", 1, 1),
        ("[R U]", "expected ',' or ':' after the first part of a bracket at column 5", 5, 1),
        ("[]", "expected ',' or ':' after the first part of a bracket at column 2", 2, 1),
        ("[R U)", "expected ',' or ':' after the first part of a bracket at column 5", 5, 1),
        ("[R, U, F]", "unexpected ',' at column 6 (a bracket has only two parts)", 6, 1),
        ("[R: U: F]", "unexpected ':' at column 6 (a bracket has only two parts)", 6, 1),
        ("R, U", "unexpected ',' at column 2 (commas and colons only go inside [ ])", 2, 1),
        ("R: U", "unexpected ':' at column 2 (commas and colons only go inside [ ])", 2, 1),
        ("(R, U)", "unexpected ',' at column 3 (commas and colons only go inside [ ])", 3, 1),
        ("(R]", "unexpected ']' at column 3 (expected ')' to close the '(' at column 1)", 3, 1),
        ("[R, U)", "unexpected ')' at column 6 (expected ']' to close the '[' at column 1)", 6, 1),
        ("R 2", "unexpected '2' at column 3 (a count goes right after a move or a closing bracket; layer numbers go right before a face letter)", 3, 1),
        ("(R) 2", "unexpected '2' at column 5 (a count goes right after a move or a closing bracket; layer numbers go right before a face letter)", 5, 1),
        ("'R", "unexpected \"'\" at column 1", 1, 1),
        ("R''", "unexpected \"'\" at column 3", 3, 1),
        ("R2'3", "unexpected '3' at column 4 (a count goes right after a move or a closing bracket; layer numbers go right before a face letter)", 4, 1),
        ("R / U", "unexpected '/' at column 3", 3, 1),
        ("R {U}", "unexpected '{' at column 3", 3, 1),
        ("R \x00", "unexpected '\\x00' at column 3", 3, 1),
        ("R1000001", "count 1000001 too large at column 2 (at most 1000000)", 2, 1),
        ("(R)1000001", "count 1000001 too large at column 4 (at most 1000000)", 4, 1),
        ("R U\nR' Q", "unknown move 'Q' at line 2, column 4", 4, 2),
        ("R U // ok ]\n  ]", "unexpected ']' at line 2, column 3 (no '[' to close)", 3, 2),
        ("(R\nU", "unclosed '(' opened at line 1, column 1", 1, 1),
        ("R\n(U]", "unexpected ']' at line 2, column 3 (expected ')' to close the '(' at line 2, column 1)", 3, 2),
    ],
)
def test_error_messages(text, message, column, line):
    with pytest.raises(NotationError) as info:
        parse(text)
    assert str(info.value) == message
    assert (info.value.column, info.value.line) == (column, line)


def test_first_error_in_reading_order_wins():
    # The ")" comes before the unknown letter, so it is the one reported.
    with pytest.raises(NotationError, match="unexpected '\\)' at column 1"):
        parse(") Q")
    with pytest.raises(NotationError, match="unknown move 'Q' at column 2"):
        parse("(Q")


def test_too_deep_nesting_is_refused_cleanly():
    for opener in "([":
        text = opener * (MAX_DEPTH + 1)
        with pytest.raises(NotationError) as info:
            parse(text)
        assert str(info.value) == f"brackets nested deeper than {MAX_DEPTH} levels at column {MAX_DEPTH + 1}"
    with pytest.raises(NotationError, match="nested deeper"):
        parse("(" * 5000 + ")" * 5000)


def test_expansion_limit_names_the_culprit():
    with pytest.raises(NotationError) as info:
        parse("R ((R U)1000)1000")
    assert str(info.value) == "too many moves: the group at column 3 expands to 2000000 moves (at most 100000)"
    assert info.value.column == 3
    with pytest.raises(NotationError, match="the commutator at column 1 expands to 120000 moves"):
        parse("[(R)30000, (U)30000]")
    with pytest.raises(NotationError, match="the conjugate at column 1 expands to 100001 moves"):
        parse("[(R)50000: U]")
    with pytest.raises(NotationError) as info:
        parse("(R)60000 (R)60000")
    assert str(info.value) == "too many moves: the alg reaches 120000 moves at column 10 (at most 100000)"
    with pytest.raises(NotationError, match="too many moves"):
        parse(f"(R){MAX_EXPANDED_MOVES + 1}")


def test_input_length_limit():
    parse("R" * MAX_INPUT_CHARS)
    with pytest.raises(NotationError) as info:
        parse("R" * (MAX_INPUT_CHARS + 1))
    assert str(info.value) == f"input too long: {MAX_INPUT_CHARS + 1} characters (at most {MAX_INPUT_CHARS})"


@pytest.mark.parametrize(
    "text",
    [
        "(R)1000000000",
        "(R U)1000000000",
        "R" * 1_000_000,
        "(" * 1_000_000,
        "R" + "9" * 9_000,
        "((((R U)1000)1000)1000)1000",
        "[" * 9_000,
        "[R, " * 2_000,
    ],
    ids=["huge-count", "huge-group", "1MB", "1MB-parens", "9000-digits", "nested-counts", "deep", "deep-commas"],
)
def test_absurd_input_is_refused_fast(text):
    start = time.perf_counter()
    with pytest.raises(NotationError):
        parse(text)
    # refused before anything is expanded: milliseconds; the bound leaves room for a machine
    # shared by many (expanding any of these would take minutes or exhaust memory)
    assert time.perf_counter() - start < within(1.0)


def test_hand_built_trees_are_checked_before_expanding():
    huge = Group(Alg((Move("R"),)), 10**9)
    start = time.perf_counter()
    with pytest.raises(NotationError, match="too many moves"):
        Alg((huge,)).flatten()
    assert time.perf_counter() - start < within(0.1)
    with pytest.raises(ValueError):
        Group(Alg(()), -1)
    with pytest.raises(TypeError):
        Alg(("R",))


def test_hand_built_trees_accept_plain_lists():
    alg = Alg([Commutator([Move("R")], [Move("U")]), Conjugate([Move("F")], Alg(()))])
    assert str(alg) == "[R, U] [F: ]"
    assert format_moves(alg.flatten()) == "R U R' U' F F'"


def test_notation_error_is_a_value_error_and_pickles():
    with pytest.raises(ValueError):
        parse("Q")
    try:
        parse("R\n Q")
    except NotationError as error:
        copy = pickle.loads(pickle.dumps(error))
        assert (str(copy), copy.column, copy.line) == (str(error), 2, 2)


# --------------------------------------------------------------------------- speed and demo


def test_parsing_a_20_move_alg_is_fast():
    text = "R U R' U' R' F R2 U' R' U' R U R' F' U2 R U2 R' D R2"
    assert len(parse_moves(text)) == 20
    best = min(_time_per_call(parse_moves, text, 200) for _ in range(5))
    assert best < 0.5e-3


def _time_per_call(function, argument, repeats):
    start = time.perf_counter()
    for _ in range(repeats):
        function(argument)
    return (time.perf_counter() - start) / repeats


def _run_demo(*args):
    return subprocess.run(
        [sys.executable, "-m", "cubelab.cube.notation", *args], capture_output=True, text=True, timeout=60
    )


def test_demo_prints_every_view():
    result = _run_demo("[R U R', D]")
    assert result.returncode == 0
    out = result.stdout
    assert "canonical: [R U R', D]" in out
    assert "moves: R U R' D R U' R' D'" in out
    assert "inverse: [D, R U R']" in out
    assert "mirror: L' U' L D' L' U L D" in out
    assert "simplified: R U R' D R U' R' D'" in out
    assert "htm 8" in out


def test_demo_reports_errors():
    result = _run_demo("R U Q")
    assert result.returncode == 1
    assert "unknown move 'Q' at column 5" in result.stderr
    assert "    ^" in result.stderr
