"""Positions from Singmaster cycle notation: what the facts print reads back to the same position,
each written sticker means what it says, bad text gets one clear line, unreachable is refused."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, strategies as st

from cubelab.cube.cycle_notation import CycleError, corner_and_edge_text, parse_cycles
from cubelab.cube.facelets import to_facelets
from cubelab.cube.facts import corner_cycles, edge_cycles, facts, unreachable_reason
from cubelab.cube.facts_report import format_facts
from cubelab.cube.moves import alg_state
from cubelab.cube.pieces import FACES, corner_slot, edge_slot, slot_facelet
from cubelab.cube.positions import PositionError, from_cycles, parse_position
from cubelab.cube.puzzles import CUBE3
from cubelab.cube.random_states import random_assembly, random_state
from cubelab.tui.cli import main
from cubelab.tui.session import Session

assemblies = st.integers(0, 2**32).map(random_assembly)


@given(assemblies)
def test_what_the_facts_print_reads_back_to_the_same_assembly(state):
    f = facts(state)
    assert parse_cycles(f"{f.corner_cycles} {f.edge_cycles}") == state


@given(st.integers(0, 2**32).map(random_state))
def test_the_text_facts_output_pastes_back(state):
    record = CUBE3.facts_record(CUBE3.position("facelets: " + to_facelets(state)))
    lines = [ln for ln in format_facts(record).splitlines()
             if ln.startswith(("corners", "edges"))]
    assert parse_cycles("\n".join(lines)) == state


@given(assemblies)
def test_each_written_sticker_lands_where_the_next_name_says(state):
    shown = to_facelets(state)
    for cycle in corner_and_edge_text(state).replace("+", "").replace("-", "").split(")"):
        names = cycle.strip(" (").split()
        for before, after in zip(names, names[1:]):
            slot = (corner_slot if len(after) == 3 else edge_slot)(after)
            sticker = slot_facelet("c" if len(after) == 3 else "e", slot, after[0])
            assert shown[sticker] == before[0]


def test_turns_are_written_as_cubers_write_them():
    assert corner_cycles(alg_state("R")) == "(UFR BUR DBR FDR)"
    assert edge_cycles(alg_state("R")) == "(UR BR DR FR)"
    assert edge_cycles(alg_state("F")) == "(UF RF DF LF)"
    assert corner_and_edge_text(alg_state("M2 U M2 U2 M2 U M2")) == "(UR UL) (UF UB)"


def test_spellings_marks_and_the_facts_labels_are_read():
    three = parse_cycles("(UF UR UB)")      # the piece at UF moves to UR, UR's to UB, ...
    assert [three.ep[edge_slot(s)] for s in ("UR", "UB", "UF")] == [edge_slot(s) for s in
                                                                    ("UF", "UR", "UB")]
    # any letter order names the slot; the first letter is the sticker that travels
    assert parse_cycles("(ufr, bur, dbr, fdr) (UR BR DR FR)") == alg_state("R")
    assert parse_cycles("(RFU)") == parse_cycles("")
    assert parse_cycles("(UFR)+ (URB)-").co.tolist()[:4] == [1, 0, 0, 2]
    assert parse_cycles("corners (UFR)- (URB)+\nedges (solved)") == parse_cycles("(UFR)- (URB)+")
    assert parse_cycles("corners -  edges (UF UB) (UR UL)") == alg_state("M2 U M2 U2 M2 U M2")


@pytest.mark.parametrize("text, words", [
    ("(UF UX UB)", "no piece named 'UX' at column 5"),
    ("(UF UR UB) (UF DF DB)", "UF appears twice"),
    ("(UF UFR)", "mixes corners and edges"),
    ("(UF UR", "not closed"),
    ("UF UR", "outside a cycle"),
    ("(UF)-", "write '+', not '-'"),
    ("(UF UR) )", "')' with no '('"),
    ("()", "empty cycle"),
    ("(UF (UR))", "'(' inside a cycle"),
    ("(UF UR) * (UB UL)", "unexpected '*'"),
])
def test_bad_text_is_refused_with_where(text, words):
    with pytest.raises(CycleError, match=re.escape(words)):
        parse_cycles(text)


def test_unreachable_assemblies_load_only_when_asked():
    with pytest.raises(PositionError) as e:
        from_cycles("(UFR)+")
    assert "one corner twisted" in str(e.value) and "--unreachable" in str(e.value)
    with pytest.raises(PositionError, match="two pieces swapped"):
        from_cycles("(UF UR)")
    state = from_cycles("(UFR)+", unreachable=True).state
    assert unreachable_reason(state).startswith("unreachable: one corner twisted")
    assert parse_position("cycles: (UF UR UB)").state == parse_cycles("(UF UR UB)")


def test_facts_command_reads_cycles(capsys):
    assert main(["facts", "--json", "--cycles", "(UF UR UB) (UFR URB UBL)"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["edge_cycles"] == "(UR UB UF)" and record["corner_cycles"] == "(UFR URB UBL)"
    assert main(["facts", "--json", "--cycles", "(DF)+"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "an edge flipped" in err and "--unreachable" in err
    assert main(["facts", "--json", "--unreachable", "--cycles", "(DF)+"]) == 0
    assert json.loads(capsys.readouterr().out)["reachable"] is False
    assert main(["facts", "--cycles", "(UF UR UB)", "R"]) == 2
    assert "give one position" in capsys.readouterr().err
    assert main(["facts", "--puzzle", "2x2", "--cycles", "(UFR URB UBL)"]) == 2


def test_file_lines_may_be_cycles(tmp_path, capsys):
    path = tmp_path / "cases.txt"
    path.write_text("cycles: (UF UR UB)\ncycles: (UFR)+\n")
    assert main(["facts", "--json", "--file", str(path)]) == 2
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first["edge_cycles"] == "(UR UB UF)" and "one corner twisted" in second["error"]


def test_cycles_and_case_commands(tmp_path):
    session = Session(saves_dir=tmp_path)
    out = session.execute(":cycles (UF UR UB) (UFR)+ (URB)-")
    assert out.changed and session.state == parse_cycles("(UF UR UB) (UFR)+ (URB)-")
    cycles, memo = session.execute(":cycles").message.splitlines()
    assert cycles == "(UFR)+ (URB)- (UR UB UF)"
    # and the memo: UF's sticker belongs on UB (A), UB's on UR (B); the corners twisted apart
    assert memo == "memo (speffz, buffers UFR UF): twists UFR cw (M), URB ccw (N) · edges AB"
    assert "one corner twisted" in session.execute(":cycles (UFR)+").message
    assert session.execute(":cycles --unreachable (UFR)+").changed
    assert session.execute(":case UF UR UB").changed
    assert session.state == parse_cycles("(UF UR UB)")
    session.execute(":case UFR URB")
    assert session.state == parse_cycles("(UFR)+ (URB)-")
    session.execute(":case UF UB")
    assert session.state == parse_cycles("(UF)+ (UB)+")
    assert session.execute(":case UF UFR").error
    assert session.execute(":case UF").error
    session.execute(":undo")
    assert session.state == parse_cycles("(UFR)+ (URB)-")


def test_cycles_on_the_pocket_cube_switch_to_the_3x3x3(tmp_path):
    session = Session(saves_dir=tmp_path, puzzle="2x2")
    assert "now the 3x3x3" in session.execute(":case UFR URB UBL").message
    assert session.puzzle.name == "3x3"
    session.execute(":undo")
    assert session.puzzle.name == "2x2"
