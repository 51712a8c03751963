"""Blindfold letters: Speffz's letters, memos of known positions traced by hand from the
definition, and the law every memo obeys: swapping the buffer with each letter's place, then
turning the pieces left twisted or flipped, solves the position. Shown by :cycles, :letters,
:buffers, the facts panel and `cubelab facts` (its JSON `memo` key)."""

import json

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from cubelab.cube import pocket
from cubelab.cube.facelets import state_colours
from cubelab.cube.letters import (CORNER_ORDER, EDGE_ORDER, SPEFFZ, MemoOptions, _sticker_order,
                                  letter_scheme_from_text, memo)
from cubelab.cube.moves import alg_state
from cubelab.cube.patterns import pattern_named
from cubelab.cube.pieces import CORNER_FACELETS, CORNER_NAMES, EDGE_FACELETS, EDGE_NAMES, \
    facelet_index
from cubelab.cube.positions import from_cycles
from cubelab.cube.random_states import random_state
from cubelab.cube.state import CubeState
from cubelab.tui.cli import main
from cubelab.tui.session import Session

T_PERM = "R U R' U' R' F R2 U' R' U' R U R' F'"


def letter_at(kind, name):
    order = CORNER_ORDER if kind == "c" else EDGE_ORDER
    return SPEFFZ.letter(kind, order.index(facelet_index(name)))


def test_speffz_letters_run_round_each_face_from_the_top_left():
    # corners: U's A B C D are UBL UBR UFR UFL, then L F R B D
    assert [letter_at("c", n) for n in ("U1", "U3", "U9", "U7")] == list("ABCD")
    assert [letter_at("c", n) for n in ("L1", "F1", "R1", "B1", "D1", "D7")] == list("EIMQUX")
    # edges: U's A B C D are UB UR UF UL; DF's D sticker is U, FD's K
    assert [letter_at("e", n) for n in ("U2", "U6", "U8", "U4")] == list("ABCD")
    assert [letter_at("e", n) for n in ("D2", "F8", "L2", "D4")] == list("UKEX")
    # each piece's letters: UFR is C J M, UBL A E R, DF U K
    ufr = {SPEFFZ.letter("c", CORNER_ORDER.index(f)) for f in CORNER_FACELETS[0]}
    ubl = {SPEFFZ.letter("c", CORNER_ORDER.index(f)) for f in CORNER_FACELETS[2]}
    df = {SPEFFZ.letter("e", EDGE_ORDER.index(f)) for f in EDGE_FACELETS[5]}
    assert (ufr, ubl, df) == (set("CJM"), set("AER"), set("UK"))


KNOWN = [
    # (position, buffers, corners, edges, parity) -- each traced by hand from the definition
    (alg_state("R"), ("UFR", "UF"), "KWQ", "BJVTB", True),
    (alg_state(T_PERM), ("UFR", "UF"), "B", "BDB", True),
    (alg_state(T_PERM), ("UBL", "DF"), "BCB", "BDB", True),
    (from_cycles("(UF UR UB)").state, ("UFR", "UF"), "", "AB", False),
    (from_cycles("(UFR URB DFR)").state, ("UFR", "UF"), "VB", "", False),
    (from_cycles("(UFR URB) (UBL DFL)").state, ("UFR", "UF"), "BAUA", "", False),
]


@pytest.mark.parametrize("state, buffers, corners, edges, parity", KNOWN)
def test_known_memos(state, buffers, corners, edges, parity):
    m = memo(state, MemoOptions(SPEFFZ, *buffers))
    assert "".join(m.corners.letters) == corners and "".join(m.edges.letters) == edges
    assert m.parity is parity and not m.corners.in_place and not m.edges.in_place


def test_twists_and_flips_in_place_are_listed_apart():
    m = memo(from_cycles("(UFR)+ (UBL)-").state)
    assert not m.corners.letters
    # UFR's U sticker now on R (M), UBL's on B (R)
    assert m.corners.in_place == (("UFR", 1, "M"), ("UBL", 2, "R"))
    assert m.text() == "twists UFR cw (M), UBL ccw (R)"
    m = memo(from_cycles("(UF)+ (UB)+").state)
    assert [(p, letter) for p, _, letter in m.edges.in_place] == [("UF", "I"), ("UB", "Q")]
    superflip = memo(pattern_named("superflip").state())
    assert not superflip.edges.letters and len(superflip.edges.in_place) == 12
    assert memo(CubeState.identity()).text() == "solved: nothing to memorise"


def test_the_memo_follows_the_letter_scheme():
    lower = letter_scheme_from_text("abcdefghijklmnopqrstuvwx")
    m = memo(alg_state("R"), MemoOptions(lower))
    assert m.corners.pairs() == "kw q" and m.edges.pairs() == "bj vt b"
    mine = letter_scheme_from_text("ABCDEFGHIJKLMNOPQRSTUVWX 0123456789abcdefghijklmn")
    assert "".join(memo(alg_state("R"), MemoOptions(mine)).edges.letters) == "19lj1"
    for bad in ("ABC", "AACDEFGHIJKLMNOPQRSTUVWX", "a b c"):
        with pytest.raises(ValueError):
            letter_scheme_from_text(bad)
    with pytest.raises(ValueError):
        MemoOptions(SPEFFZ, "DFR", "UF")


# ---- the law: the memo's swaps, then its twists and flips, solve the position ---------------

def swap(colours, buffer, target, t):
    """The buffer's stickers and the target slot's trade places, the buffer's reference sticker
    landing on t (both read clockwise, so a corner keeps its handedness)."""
    k = target.index(t)
    lined_up = target[k:] + target[:k]
    before = colours.copy()
    for b, g in zip(buffer, lined_up):
        colours[g], colours[b] = before[b], before[g]


def turn_back(colours, piece, turns):
    before = colours.copy()
    for k, f in enumerate(piece):
        colours[f] = before[piece[(k + turns) % len(piece)]]


def carry_out(colours, pieces, names, order, letters, buffer, piece_memo):
    place = {letters[i]: f for i, f in enumerate(order)}
    slot = {f: p for p in pieces for f in p}
    buffer_stickers = pieces[names.index(buffer)]
    for letter in piece_memo.letters:
        t = place[letter]
        assert slot[t] is not buffer_stickers          # a letter never names the buffer
        swap(colours, buffer_stickers, slot[t], t)
    for name, turns, _ in piece_memo.in_place:
        turn_back(colours, pieces[names.index(name)], turns)


def assembly(draw_seed: int, reachable: bool) -> CubeState:
    if reachable:
        return random_state(draw_seed)
    g = np.random.default_rng(draw_seed)          # any assembly: parity, twist, flip free
    return CubeState(g.permutation(8), g.integers(0, 3, 8), g.permutation(12),
                     g.integers(0, 2, 12))


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**9), st.booleans(), st.sampled_from(["UFR", "UBL"]),
       st.sampled_from(["UF", "DF"]))
def test_executing_the_memo_solves_the_position(seed, reachable, corner, edge):
    state = assembly(seed, reachable)
    m = memo(state, MemoOptions(SPEFFZ, corner, edge))
    colours = [int(c) for c in state_colours(state)]
    carry_out(colours, CORNER_FACELETS, CORNER_NAMES, CORNER_ORDER, SPEFFZ.corners, corner,
              m.corners)
    carry_out(colours, EDGE_FACELETS, EDGE_NAMES, EDGE_ORDER, SPEFFZ.edges, edge, m.edges)
    assert colours == [f // 9 for f in range(54)]
    assert m.parity == (len(m.corners.letters) % 2 == 1)
    if reachable:       # corners and edges need one more swap each, or neither
        assert len(m.corners.letters) % 2 == len(m.edges.letters) % 2
        twist = sum(t for _, t, _ in m.corners.in_place) % 3
        assert twist == 0 and len(m.edges.in_place) % 2 == 0


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(["UFR", "UBL"]))
def test_the_2x2_memo_solves_its_corners(seed, corner):
    state = pocket.random_state(seed)
    m = memo(state, MemoOptions(SPEFFZ, corner))
    assert m.edges is None
    colours = [int(c) for c in pocket.state_colours(state.normalized())]
    carry_out(colours, pocket.CORNER_STICKERS, CORNER_NAMES, _sticker_order(2, True),
              SPEFFZ.corners, corner, m.corners)
    assert colours == [f // 4 for f in range(24)]


# ---- where users see it ---------------------------------------------------------------------

def test_facts_json_has_a_memo_key_and_takes_letters_and_buffers(capsys):
    assert main(["facts", "--json", "R"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["memo"]["corners"] == "KWQ" and record["memo"]["edges"] == "BJVTB"
    assert record["memo"]["parity"] is True and record["memo"]["corner_buffer"] == "UFR"
    assert main(["facts", "--json", "--buffers", "ubl", "df", T_PERM]) == 0
    record = json.loads(capsys.readouterr().out)
    assert (record["memo"]["corners"], record["memo"]["edge_buffer"]) == ("BCB", "DF")
    assert main(["facts", "R"]) == 0
    assert "memo         corners KW Q · edges BJ VT B · parity" in capsys.readouterr().out
    assert main(["facts", "--buffers", "UFF", "UF", "R"]) == 2
    assert main(["facts", "--letters", "ABC", "R"]) == 2
    err = capsys.readouterr().err
    assert "corner buffer" in err and "24 corner letters" in err


def test_cycles_letters_and_buffers_commands(tmp_path):
    s = Session(saves_dir=tmp_path)
    s.execute("R")
    out = s.execute(":cycles").message
    assert "(UFR BUR DBR FDR)" in out
    assert "memo (speffz, buffers UFR UF): corners KW Q · edges BJ VT B · parity" in out
    out = s.execute(":buffers UBL DF")
    assert not out.error and "buffers UBL DF" in out.message
    assert s.memo_options.corner_buffer == "UBL"
    assert s.execute(":buffers DRF").error
    out = s.execute(":letters abcdefghijklmnopqrstuvwx")
    assert not out.error and "corners bj vt b" in out.message
    assert s.execute(":letters AB").error
    assert "abcdefghijklmnopqrstuvwx" in s.execute(":letters").message
