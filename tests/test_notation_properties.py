"""Property tests for the move-notation module: round trips, inverses, mirror, simplify, metrics, fuzzing."""

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cubelab.cube.alg import Alg, Commutator, Conjugate, Group, Move, NotationError
from cubelab.cube.notation import (format_moves, invert_moves, metric_lengths, mirror_moves, parse,
                                   parse_moves, simplify)

# Spelled out here rather than taken from the module, so a family it forgot is noticed.
FAMILIES = (
    list("URFDLB")
    + [face + "w" for face in "URFDLB"]
    + list("urfdlb")
    + ["3" + face + "w" for face in "URFDLB"]
    + list("MESxyz")
)

move_st = st.builds(Move, st.sampled_from(FAMILIES), st.integers(1, 3))
move_lists = st.lists(move_st, max_size=40)


def _alg(items):
    return Alg(tuple(items))


def _extend(children):
    sequences = st.lists(children, max_size=3).map(_alg)
    counts = st.integers(0, 3)
    return st.one_of(
        st.builds(Group, sequences, counts, st.booleans()),
        st.builds(Commutator, sequences, sequences, counts, st.booleans()),
        st.builds(Conjugate, sequences, sequences, counts, st.booleans()),
    )


node_st = st.recursive(move_st, _extend, max_leaves=12)
alg_st = st.lists(node_st, max_size=4).map(_alg)


def _flatten_or_reject(alg):
    # Random trees can multiply past the expansion limit; those are tested elsewhere.
    try:
        return alg.flatten()
    except NotationError:
        assume(False)


# --------------------------------------------------------------------------- round trips


@given(move_lists)
def test_format_then_parse_gives_the_same_moves(moves):
    assert parse_moves(format_moves(moves)) == moves


@given(move_lists)
def test_unspaced_text_parses_the_same_where_it_is_unambiguous(moves):
    # Without spaces a width prefix would be read as the previous move's count.
    text = "".join(str(m) if not str(m)[0].isdigit() else " " + str(m) for m in moves)
    assert parse_moves(text) == moves


@given(alg_st)
def test_printed_tree_parses_back_to_the_same_tree(alg):
    flat = _flatten_or_reject(alg)
    text = str(alg)
    again = parse(text)
    assert again == alg
    assert again.flatten() == flat
    assert str(again) == text


# --------------------------------------------------------------------------- inverse and mirror


@given(move_lists)
def test_inverting_twice_is_identity(moves):
    assert invert_moves(invert_moves(moves)) == moves


@given(alg_st)
def test_structural_inverse_matches_move_inverse(alg):
    flat = _flatten_or_reject(alg)
    assert alg.inverse().flatten() == invert_moves(flat)
    assert parse(str(alg.inverse())).flatten() == invert_moves(flat)


@given(move_lists)
def test_mirroring_twice_is_identity(moves):
    assert mirror_moves(mirror_moves(moves)) == moves


@given(move_lists)
def test_mirror_commutes_with_inverse(moves):
    assert mirror_moves(invert_moves(moves)) == invert_moves(mirror_moves(moves))


@given(move_lists)
def test_mirror_keeps_axis_and_length(moves):
    mirrored = mirror_moves(moves)
    assert [m.axis for m in mirrored] == [m.axis for m in moves]
    assert metric_lengths(mirrored) == metric_lengths(moves)


# --------------------------------------------------------------------------- simplify


@given(move_lists)
def test_simplify_is_idempotent(moves):
    once = simplify(moves)
    assert simplify(once) == once


@given(move_lists)
def test_simplify_never_lengthens(moves):
    simplified = simplify(moves)
    assert len(simplified) <= len(moves)
    assert metric_lengths(simplified)["htm"] <= metric_lengths(moves)["htm"]
    assert metric_lengths(simplified)["stm"] <= metric_lengths(moves)["stm"]
    assert metric_lengths(simplified)["etm"] <= metric_lengths(moves)["etm"]


@given(move_lists)
def test_simplify_cancels_a_sequence_against_its_inverse(moves):
    assert simplify(moves + invert_moves(moves)) == []


@given(move_lists)
def test_simplify_leaves_no_family_twice_in_a_same_axis_run(moves):
    simplified = simplify(moves)
    run: list[Move] = []
    for move in simplified:
        if run and run[-1].axis != move.axis:
            run = []
        assert move.family not in {m.family for m in run}
        run.append(move)


x_axis_moves = st.builds(Move, st.sampled_from(["R", "L", "M", "x", "r", "Rw", "3Lw"]), st.integers(1, 3))


@given(st.lists(x_axis_moves, max_size=30))
def test_simplify_keeps_the_net_turn_of_each_family_within_a_run(moves):
    # A run of one axis commutes freely, so only the net amount per family may change.
    simplified = simplify(moves)

    def net(sequence):
        totals: dict[str, int] = {}
        for move in sequence:
            totals[move.family] = (totals.get(move.family, 0) + move.amount) % 4
        return {family: amount for family, amount in totals.items() if amount}

    assert net(simplified) == net(moves)


@given(move_lists)
def test_metrics_are_consistent(moves):
    lengths = metric_lengths(moves)
    assert lengths["etm"] == len(moves)
    assert lengths["stm"] <= lengths["htm"] <= lengths["qtm"]
    assert lengths["stm"] <= lengths["etm"]
    assert metric_lengths(invert_moves(moves)) == lengths


# --------------------------------------------------------------------------- fuzzing

_SYNTAX = list("URFDLBurfdlbMESxyzwQ0123456789()[],:'’`/ \n\t")
fuzz_text = st.text(alphabet=st.one_of(st.sampled_from(_SYNTAX), st.characters()), max_size=120)
_PIECES = ["R", "U2", "r'", "3Rw", "2Fw2", "M", "x", "(", ")", ")2", ")'", "[", "]", "]3'", ","]
_PIECES += [":", " ", "//", "\n", "'", "5"]
fuzz_tokens = st.lists(st.sampled_from(_PIECES), max_size=40).map("".join)


def _check_parse_contract(text):
    try:
        alg = parse(text)
    except NotationError as error:
        lines = text.split("\n")
        assert 1 <= error.line <= len(lines)
        assert 1 <= error.column <= len(lines[error.line - 1]) + 1
        assert "\n" not in str(error)
        return
    flat = alg.flatten()
    assert parse(str(alg)).flatten() == flat


@settings(max_examples=500)
@given(fuzz_text)
def test_fuzz_parse_raises_only_notation_errors(text):
    _check_parse_contract(text)


@settings(max_examples=500)
@given(fuzz_tokens)
def test_fuzz_token_soup_raises_only_notation_errors(text):
    _check_parse_contract(text)
