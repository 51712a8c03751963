"""`cubelab solve --puzzle 2x2`: optimal 2x2x2 solutions through the common solve records."""

import json

from cubelab.tui.cli import main


def test_pocket_solve_is_optimal_in_both_metrics(capsys):
    assert main(["solve", "--puzzle", "2x2", "--json", "R U F R' U2 F2 R"]) == 0
    htm = json.loads(capsys.readouterr().out)
    assert htm["optimal"] and htm["verified"] and htm["length"]["htm"] == 7
    assert main(["solve", "--puzzle", "2x2", "--metric", "qtm", "--json", "R U F R' U2 F2 R"]) == 0
    qtm = json.loads(capsys.readouterr().out)
    assert qtm["optimal"] and qtm["length"]["qtm"] <= htm["length"]["qtm"]


def test_pocket_solve_file_and_errors(tmp_path, capsys):
    f = tmp_path / "p.txt"
    f.write_text("R U\nR ]\nF2\n")
    assert main(["solve", "--puzzle", "2x2", "--json", "--file", str(f)]) == 2
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [r["line"] for r in lines] == [1, 2, 3]
    assert lines[0]["length"]["htm"] == 2 and "error" in lines[1] and lines[2]["solution"] == "F2"


def test_pocket_solve_text_and_the_solver_choice(capsys):
    assert main(["solve", "--puzzle", "2x2", "R U"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "U' R'" and out[1] == "length    2 HTM, 2 QTM"
    assert "optimal in HTM, verified" in out[-1]
    assert main(["solve", "--puzzle", "2x2", "--solver", "pocket-qtm", "--json", "R2"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["solver"] == "pocket" and record["metric"] == "qtm"
    assert record["length"]["qtm"] == 2
    assert main(["solve", "--puzzle", "2x2", "--solver", "kociemba", "R U"]) == 2
    assert "solves the 3x3" in capsys.readouterr().err


def test_pocket_solve_refusals_and_a_file_with_jobs(tmp_path, capsys):
    twisted = "UUUF" + "URRR" + "FRFF" + "DDDD" + "LLLL" + "BBBB"    # URF twisted in place
    assert main(["solve", "--puzzle", "2x2", "--facelets", twisted]) == 2
    assert "twist" in capsys.readouterr().err
    assert main(["solve", "--puzzle", "2x2", "R E"]) == 2
    assert "no middle layer" in capsys.readouterr().err
    f = tmp_path / "p.txt"
    f.write_text("R U\nfacelets: " + twisted + "\nF'\n")
    assert main(["solve", "--puzzle", "2x2", "--jobs", "2", "--json", "--file", str(f)]) == 2
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [r["line"] for r in lines] == [1, 2, 3]
    assert lines[0]["verified"] and "twist" in lines[1]["error"] and lines[2]["solution"] == "F"
