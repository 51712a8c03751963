"""`cubelab facts`: the command-line contract (keys, exit codes, --file records)."""

import json
import subprocess
import sys

import pytest

from cubelab.tui.cli import main

KEYS = {"facelets", "order", "parity", "trace", "reachable", "morph", "corner_cycles",
        "edge_cycles", "in_centre", "alg", "length"}


def test_json_for_an_alg(capsys):
    assert main(["facts", "--json", "R U"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert KEYS <= record.keys()
    assert record["order"] == 105 and record["parity"] == "even" and record["trace"] == [0, 0, 0]
    assert record["reachable"] is True and record["alg"] == "R U"
    assert record["length"] == {"htm": 2, "qtm": 2, "stm": 2, "etm": 2}
    assert record["inverse"] == "U' R'" and record["mirror"] == "L' U'"


def test_simplified_and_expanded_forms(capsys):
    assert main(["facts", "--json", "R L R [U: F]"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["moves"] == "R L R U F U'" and record["simplified"] == "R2 L U F U'"


def test_alg_given_as_several_words(capsys):
    assert main(["facts", "--json", "[R,", "U]3"]) == 0
    assert json.loads(capsys.readouterr().out)["alg"] == "[R, U]3"


def test_text_output_shows_net_and_facts(capsys):
    assert main(["facts", "R2 U2"]) == 0
    out = capsys.readouterr().out
    assert "order" in out and "morph" in out
    assert "U U U" in out.splitlines()[0] or "U" in out.splitlines()[0]


def test_facelets_input_and_unreachable(capsys):
    twisted = "UUUUUUUUFURRRRRRRRFFRFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB"
    assert main(["facts", "--json", "--facelets", twisted]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["reachable"] is False and record["trace"] == [0, 0, 1]
    assert "alg" not in record


@pytest.mark.parametrize("argv, fragment", [
    (["facts", "R U ]"], "unexpected ']' at column 5"),
    (["facts", "--facelets", "UUU"], "expected 54 stickers, got 3"),
    (["facts", "(R U)1000000000"], "column"),
    (["facts", "--file", "/nonexistent/file"], "cannot read"),
])
def test_bad_input_exits_2_with_one_line(argv, fragment, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1 and "Traceback" not in err


def test_file_gives_json_lines_with_error_records(tmp_path, capsys):
    f = tmp_path / "positions.txt"
    f.write_text("R U\nfacelets: nonsense\n\n[R, U]\nfacelets: " + "U" * 9 + "R" * 9 + "F" * 9
                 + "D" * 9 + "L" * 9 + "B" * 9 + "\n")
    status = main(["facts", "--json", "--file", str(f)])
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert status == 2
    assert [r.get("line") for r in lines] == [1, 2, 4, 5]
    assert lines[0]["order"] == 105 and "error" in lines[1] and lines[2]["order"] == 6
    assert lines[3]["order"] == 1


def test_real_process_exit_status_and_no_traceback(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "cubelab.tui.cli", "facts", "R U R'' U'"],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "column" in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "cubelab.tui.cli", "facts", "--json", "x"],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0 and json.loads(proc.stdout)["order"] == 1


def test_pocket_cube_facts(capsys):
    assert main(["facts", "--puzzle", "2x2", "--json", "R U R' U'"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["order"] == 6 and len(record["facelets"]) == 24
    assert main(["facts", "--puzzle", "2x2", "R2"]) == 0
    assert "order        2" in capsys.readouterr().out
    assert main(["facts", "--puzzle", "2x2", "--facelets", "U" * 24]) == 2
    assert "appears 24 times" in capsys.readouterr().err


def test_pocket_cube_facts_as_a_person_reads_them(capsys):
    assert main(["facts", "--puzzle", "2x2", "R U"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.rstrip() for line in out[:2]] == ["    U U", "    F F"]    # the 2x2x2 net
    text = "\n".join(out)
    assert "length       2 HTM, 2 QTM" in text and "held DLB" in text and "order        15" in text
    assert "coordinates" not in text and "edges" not in text


def test_pocket_cube_class_file_and_bad_input(tmp_path, capsys):
    assert main(["facts", "--puzzle", "2x2", "--json", "--class", "R"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["puzzle"] == "2x2" and len(record["class"]) == record["morph"] == 6
    assert record["inverse"] == "R'" and record["mirror"] == "L'"
    f = tmp_path / "pocket.txt"
    f.write_text("R U\nR M\nfacelets: " + "U" * 4 + "R" * 4 + "F" * 4 + "D" * 4 + "L" * 4
                 + "B" * 4 + "\nfacelets: " + "U" * 54 + "\n")
    assert main(["facts", "--puzzle", "2x2", "--json", "--file", str(f)]) == 2
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [r["line"] for r in lines] == [1, 2, 3, 4]
    assert lines[0]["order"] == 15 and "no middle layer" in lines[1]["error"]
    assert lines[2]["order"] == 1 and "expected 24 stickers, got 54" in lines[3]["error"]
    assert main(["facts", "--puzzle", "2x2", "R M"]) == 2
    assert "no middle layer" in capsys.readouterr().err
    assert main(["facts", "--puzzle", "2x2", "--facelets", "U" * 24, "R"]) == 2
    assert "not both" in capsys.readouterr().err


def test_grey_stickers_that_pin_the_position_get_its_facts(capsys):
    from cubelab.cube.facelets import to_facelets
    from cubelab.cube.moves import alg_state
    whole = to_facelets(alg_state("R U F'"))
    # one sticker of each of three corners and one of an edge: the others name the pieces
    picture = "".join("*" if i in (0, 20, 47, 1) else c for i, c in enumerate(whole))
    assert main(["facts", "--json", "--facelets", picture]) == 0
    got = json.loads(capsys.readouterr().out)
    assert main(["facts", "--json", "--facelets", whole]) == 0
    assert got == json.loads(capsys.readouterr().out)


def test_grey_stickers_that_hide_a_choice_are_refused_naming_the_piece(capsys):
    from cubelab.cube.facelets import to_facelets
    from cubelab.cube.moves import alg_state
    from cubelab.cube.pieces import CORNER_FACELETS, CORNER_NAMES
    whole = to_facelets(alg_state("R U F'"))
    hidden = set(CORNER_FACELETS[0]) | set(CORNER_FACELETS[5])    # two corners wholly grey
    picture = "".join("*" if i in hidden else c for i, c in enumerate(whole))
    assert main(["facts", "--facelets", picture]) == 2
    err = capsys.readouterr().err
    assert "could hide more than one position" in err and "solve --facelets" in err
    assert f"the corner at {CORNER_NAMES[0]} is not pinned down" in err
