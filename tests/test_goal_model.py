"""The goal model: move sets, metrics and weights, piece lists, the named goals and their
arguments, and goals checked (not trusted): errors name the token, the column, the piece."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from cubelab.cube.alg import Move
from cubelab.cube.costs import CostError, CostModel, parse_weights
from cubelab.cube.goal_catalog import (
    catalog, goal_names, half_turn_corners, resolve_goal, resolve_moveset,
)
from cubelab.cube.goals import GoalError
from cubelab.cube.moves import alg_state
from cubelab.cube.movesets import MoveSetError, parse_moveset
from cubelab.cube.notation import parse_moves
from cubelab.cube.piece_lists import describe, parse_piece_list
from cubelab.cube.state import CubeState

FAMILIES = ["U", "R", "F", "D", "L", "B", "r", "u", "Rw", "M", "E", "S", "x", "y", "2R"]


# ---- move sets ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, want", [
    ("RUF", "<R,U,F>"), ("R,U,F", "<R,U,F>"), ("<R,U>", "<R,U>"), ("R2,U", "<R2,U>"),
    ("<U,D,R2,L2,F2,B2>", "<U,D,R2,L2,F2,B2>"), ("r U M'", "<r,U,M'>"), ("R R2", "<R>"),
    ("  < Rw , E , S >  ", "<Rw,E,S>"), ("R2 R'", "<R2,R'>"),
])
def test_move_sets_read_as_written(text, want):
    assert parse_moveset(text).text == want


def test_a_bare_family_allows_every_power_and_a_power_only_itself():
    s = parse_moveset("R2,U")
    assert s.powers("R") == (2,) and s.powers("U") == (1, 2, 3)
    assert Move("R", 1) not in s and Move("R", 2) in s


@pytest.mark.parametrize("text, column", [
    ("RUX", 3), ("R,U,Q", 5), ("<R,U", 1), ("R,U>", 4), ("R4", 1), ("", 1), ("R, 2-1Rw", 4),
])
def test_bad_move_sets_name_the_column(text, column):
    with pytest.raises(MoveSetError) as e:
        parse_moveset(text)
    assert e.value.column == column
    assert f"column {column}" in str(e.value) or "empty" in str(e.value)


def test_named_move_sets():
    assert resolve_moveset("dr-ud").text == "<U,D,R2,L2,F2,B2>"
    assert resolve_moveset("htr").text == "<U2,D2,R2,L2,F2,B2>"
    assert len(resolve_moveset("all").moves) == 18


@given(st.lists(st.tuples(st.sampled_from(FAMILIES), st.sampled_from(["", "2", "'"])),
                min_size=1, max_size=8),
       st.sampled_from([",", " ", ", "]), st.booleans())
def test_move_set_text_reads_back_to_the_same_set(tokens, sep, brackets):
    text = sep.join(f + p for f, p in tokens)
    if brackets:
        text = f"<{text}>"
    s = parse_moveset(text)
    assert parse_moveset(s.text) == s
    for f, p in tokens:
        amounts = {"": (1, 2, 3), "2": (2,), "'": (3,)}[p]
        assert set(amounts) <= set(s.powers(parse_moves(f)[0].family))


@given(st.text(alphabet="RUFX2',<> wQ", max_size=12))
def test_any_text_is_a_move_set_or_a_located_error(text):
    try:
        parse_moveset(text)
    except MoveSetError as e:
        assert 1 <= e.column <= max(1, len(text))


# ---- metrics and weights -----------------------------------------------------------------

def test_metric_costs_follow_the_notation():
    htm, qtm, stm, etm = (CostModel(m) for m in ("htm", "qtm", "stm", "etm"))
    r2, m, y = Move("R", 2), Move("M", 1), Move("y", 1)
    assert (htm.units(r2), qtm.units(r2), stm.units(r2), etm.units(r2)) == (1, 2, 1, 1)
    assert (htm.units(m), qtm.units(m), stm.units(m), etm.units(m)) == (2, 2, 1, 1)
    assert etm.units(y) == 1
    with pytest.raises(CostError, match="counts 0 in HTM"):
        htm.check_moves([y])


def test_weights_replace_the_metric_for_the_moves_they_name():
    c = CostModel("htm", "R=1,U=1,F=1.5,D=2,R2=1.25")
    assert c.scale == 4
    assert c.cost(Move("F", 3)) == 1.5 and c.cost(Move("R", 2)) == 1.25
    assert c.cost(Move("R", 1)) == 1 and c.cost(Move("L", 1)) == 1     # unnamed: the metric
    assert c.units(Move("F", 1)) == 6 and c.value(6) == 1.5
    assert c.bound_table([Move("R", 1), Move("F", 1)], 4) == [0, 4, 8, 12]


@pytest.mark.parametrize("text, column", [
    ("R=", 3), ("R=0", 3), ("X=1", 1), ("R=1,R=2", 5), ("R=1.234", 3), ("R=abc", 3),
    ("R=1,,U=2", 5), ("R=101", 3),
])
def test_bad_weights_name_the_column(text, column):
    with pytest.raises(CostError) as e:
        parse_weights(text)
    assert e.value.column == column


@given(st.dictionaries(st.sampled_from(["R", "U", "F", "D", "L", "B", "M", "r"]),
                       st.integers(1, 10_000), min_size=1, max_size=6))
def test_weights_read_exactly(entries):
    text = ",".join(f"{k}={v / 100:g}" for k, v in entries.items())
    w = parse_weights(text)
    for k, v in entries.items():
        assert w.weight(Move(k, 1)) * 100 == v


# ---- piece lists ---------------------------------------------------------------------------

def test_piece_lists_and_their_attributes():
    g = parse_piece_list("UF UR UFR:o DF:p")
    assert describe(g) == "UFR:o UR UF DF:p"
    assert g.is_met(alg_state("")) and g.is_met(alg_state("B"))    # B touches none of them
    assert not g.is_met(alg_state("U")) and not g.is_met(alg_state("F"))
    # DF placed, its flip free: flipping DF alone (with UB, untracked) still meets it
    eo = [0] * 12
    eo[3] = eo[5] = 1
    two_flipped = CubeState(range(8), [0] * 8, range(12), eo)
    assert parse_piece_list("DF:p").is_met(two_flipped)
    assert not parse_piece_list("DF").is_met(two_flipped)
    dr = parse_piece_list("corners:o edges:o E-slice:os")
    assert dr.is_met(alg_state("U R2 D' F2 L2 B2 U")) and not dr.is_met(alg_state("R"))


@pytest.mark.parametrize("text, column, words", [
    ("UF UX", 4, "unknown piece"), ("UF:q", 4, "unknown attribute"),
    ("UF:", 1, "no attributes"), ("U-centre:o", 1, "centre"), ("UF:io", 1, "alone"),
])
def test_bad_piece_lists_name_the_column(text, column, words):
    with pytest.raises(GoalError) as e:
        parse_piece_list(text)
    assert e.value.column == column and words in str(e.value)


def test_a_piece_list_must_leave_something_tracked():
    with pytest.raises(GoalError, match="every piece ignored"):
        parse_piece_list("corners:i edges:i")


NAMES = ["UF", "UR", "DB", "FR", "UFR", "DLB", "corners", "edges", "U-layer", "E-slice",
         "M-slice", "D-edges", "L-corners"]


@given(st.lists(st.tuples(st.sampled_from(NAMES), st.sampled_from(["", ":p", ":o", ":s",
                                                                    ":os", ":i"])),
                min_size=1, max_size=6))
def test_piece_lists_read_back(tokens):
    text = " ".join(n + a for n, a in tokens)
    try:
        g = parse_piece_list(text)
    except GoalError as e:
        assert "every piece ignored" in str(e)
        return
    again = parse_piece_list(describe(g))
    assert again.corners == g.corners and again.edges == g.edges


# ---- named goals ---------------------------------------------------------------------------

def test_every_named_goal_of_the_issue_is_there():
    for name in ("cross", "xcross", "f2l", "f2l-pair", "f2l-1", "eoline", "eocross", "eo", "dr",
                 "htr", "2x2x2", "2x2x3", "roux-fb", "roux-sb", "cmll", "oll", "pll", "coll",
                 "zbll", "ll", "solved"):
        assert name in goal_names()
    for name in goal_names():
        for g in resolve_goal(name):
            assert g.is_met(alg_state(""))


OPPOSITE = {"U": "D", "D": "U", "R": "L", "L": "R", "F": "B", "B": "F"}


@pytest.mark.parametrize("edge", ["UR", "UF", "UL", "UB", "DR", "DF", "DL", "DB", "FR", "FL",
                                  "BL", "BR"])
def test_a_2x2x3_block_is_named_by_the_edge_where_its_two_layers_meet(edge):
    """`2x2x3:E` is the block of the two layers meeting at edge E: turns of the two opposite
    faces never touch it, a turn of either of its own faces breaks it."""
    (goal,) = resolve_goal(f"2x2x3:{edge}")
    kept = " ".join(OPPOSITE[f] + a for f, a in zip(edge * 4, ["", "2", "'", "", "2", "'", "",
                                                                  "2"]))
    assert goal.is_met(alg_state(kept))
    assert not goal.is_met(alg_state(edge[0])) and not goal.is_met(alg_state(edge[1]))
    assert resolve_goal(f"2x2x3:{edge[::-1].lower()}")[0].name == f"2x2x3:{edge}"


def test_the_2x2x3_alone_is_the_one_it_always_was_and_any_is_all_twelve():
    assert resolve_goal("2x2x3")[0].goal == resolve_goal("2x2x3:DL")[0].goal
    assert len({g.name for g in resolve_goal("2x2x3:any")}) == 12
    with pytest.raises(GoalError, match="'UFR' is not an edge"):
        resolve_goal("2x2x3:UFR")


@pytest.mark.parametrize("text, held_turn, met", [
    ("cross", "U", True), ("cross", "D", False), ("cross:U", "D", True), ("cross:U", "U", False),
    ("cross:R", "L", True), ("eo:ud", "F", True), ("eo:ud", "U", False), ("eo", "F", False),
    ("eo:rl", "R", False), ("f2l-pair:BL", "U", True), ("f2l-pair:BL", "L", False),
    ("dr:rl", "R", True), ("dr:rl", "U", False), ("htr", "R2 U2", True), ("htr", "R2 U", False),
    ("roux-fb", "M' U r", True), ("oll", "R U R' U' R' F R2 U' R' U' R U R' F'", True),
    ("oll", "R U2 R' U' R U' R'", False), ("pll", "U", False),
])
def test_named_goals_and_their_arguments(text, held_turn, met):
    (goal,) = resolve_goal(text)
    assert goal.is_met(alg_state(held_turn)) is met


def test_any_gives_one_goal_per_choice():
    assert [g.label for g in resolve_goal("cross:any")] == [f"cross:{f}" for f in "URFDLB"]
    assert len(resolve_goal("f2l-pair")) == 4 and len(resolve_goal("2x2x2:any")) == 8


def test_arguments_name_faces_as_held():
    # after x2 the white (U) centre is at the bottom: cross:D is the white cross
    (goal,) = resolve_goal("cross:D", alg_state("x2"))
    assert goal.is_met(alg_state("x2 U")) and not goal.is_met(alg_state("x2 D"))


@pytest.mark.parametrize("text, words", [
    ("crss", "did you mean cross"), ("cross:X", "is not a face"), ("f2l:U", "takes no argument"),
    ("eo:xy", "is not an axis"), ("", "empty goal"),
])
def test_bad_goal_names(text, words):
    with pytest.raises(GoalError, match=words):
        resolve_goal(text)


def test_htr_corners_are_the_96_half_turn_positions():
    assert len(half_turn_corners().targets) == 96


def test_a_user_goals_file_adds_goals(fresh_dirs, monkeypatch):
    config = fresh_dirs / "config"
    config.mkdir(exist_ok=True)
    (config / "goals.toml").write_text(
        '[goals.my-line]\nabout = "the DF and DB edges"\npieces = "DF DB"\n\n'
        '[movesets]\nmine = "R,U,D"\n')
    assert "my-line" in goal_names() and resolve_goal("my-line")[0].is_met(alg_state("U"))
    assert resolve_moveset("mine").text == "<R,U,D>"
    assert str(config / "goals.toml") in catalog().sources


def test_a_broken_user_goals_file_is_named(fresh_dirs):
    config = fresh_dirs / "config"
    config.mkdir(exist_ok=True)
    (config / "goals.toml").write_text('[goals.bad]\npieces = "DF DX"\n')
    with pytest.raises(GoalError, match="goals.toml.*unknown piece 'DX'"):
        resolve_goal("cross")
