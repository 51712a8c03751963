"""The pattern gallery: its algs, its proven lengths re-proven by exhaustive search where cheap, the
names as users type them, and the commands."""

from __future__ import annotations

import json

import pytest

from cubelab.cube.facts import facts
from cubelab.cube.patterns import BY_NAME, PATTERNS, optimal_text, pattern_named
from cubelab.cube.positions import PositionError, parse_position
from cubelab.cube.position_symmetry import symmetry_record
from cubelab.tui.cli import main
from cubelab.tui.session import Session


def test_gallery_entries_are_consistent():
    assert len(BY_NAME) == len(PATTERNS)
    for p in PATTERNS:
        state = p.state()
        assert not state.is_solved() and facts(state).reachable
        if p.optimal_htm is not None:
            assert p.optimal_htm == p.length() and p.proof
        assert symmetry_record(state)["symmetry_order"] > 1     # a pattern has a symmetry


def test_superflip_and_checkerboard_are_what_they_say():
    flip = BY_NAME["superflip"].state()
    assert flip.cp.tolist() == list(range(8)) and flip.ep.tolist() == list(range(12))
    assert flip.eo.tolist() == [1] * 12 and not flip.co.any()
    both = BY_NAME["superflip-checkerboard"].state()
    assert both == BY_NAME["checkerboard"].state() * flip == flip * BY_NAME["checkerboard"].state()
    board = BY_NAME["checkerboard"].state()
    from cubelab.cube.facelets import to_facelets
    assert to_facelets(board)[:9] == "UDUDUDUDU"


@pytest.mark.parametrize("pattern", [p for p in PATTERNS
                                     if p.optimal_htm is not None and p.optimal_htm <= 8],
                         ids=lambda p: p.name)
def test_short_optimal_lengths_are_proven_by_exhaustive_search(pattern):
    from cubelab.solvers.algsearch import equals, search
    shorter = search(equals(pattern.state()), pattern.optimal_htm - 1, "htm")
    assert shorter.status == "done" and not shorter.classes
    exact = search(equals(pattern.state()), pattern.optimal_htm, "htm")
    assert exact.classes and exact.classes[0].length == pattern.optimal_htm


def test_names_as_users_type_them():
    assert pattern_named("Cube in a cube").name == "cube-in-a-cube"
    assert pattern_named("superflip").name == "superflip"
    assert pattern_named("tet").name == "tetris"
    with pytest.raises(KeyError, match="ambiguous"):
        pattern_named("cube")
    with pytest.raises(KeyError, match="choose from"):
        pattern_named("nonsense")
    assert parse_position("pattern: six spots").state == BY_NAME["six-spots"].state()
    with pytest.raises(PositionError, match="no pattern named"):
        parse_position("pattern: nonsense")
    assert "optimal 20 HTM" == optimal_text(BY_NAME["superflip"])


def test_pattern_commands(tmp_path):
    session = Session(saves_dir=tmp_path)
    out = session.execute(":pattern superflip")
    assert out.changed and "optimal 20 HTM" in out.message and "Oh (48/48)" in out.message
    assert session.state == BY_NAME["superflip"].state() and len(session.moves) == 20
    listing = session.execute(":patterns").message.splitlines()
    assert len(listing) == len(PATTERNS) and listing[0].split()[:2] == ["checkerboard", "Oh"]
    assert session.execute(":pattern nonsense").error
    assert session.completions(":pattern su") == [":pattern superflip",
                                                  ":pattern superflip-checkerboard"]


def test_file_lines_and_facts_take_pattern_names(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_text("pattern: checkerboard\n")
    assert main(["facts", "--json", "--file", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["symmetry"] == "Oh"
