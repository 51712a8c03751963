"""Edge values and wrong solvers on the command line: one line on stderr, exit 2, never a wrong
answer (issue 18, items 1 and 6)."""

from __future__ import annotations

import pytest

from cubelab.tui.cli import main


def _refused(capsys, argv) -> str:
    assert main(argv) == 2, argv
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and err.startswith("cubelab: "), err
    assert "Traceback" not in err and "usage:" not in err
    return err


@pytest.mark.parametrize("argv", [
    ["solve", "--solver", "pocket", "M2 U2 M2 U2"],
    ["solve", "--solver", "pocket-htm", "M2 U2 M2 U2"],
    ["solve", "--solver", "pocket-qtm", "R U R' U' M2"],
    ["solve", "--solver", "fake", "R"],
    ["solve", "--puzzle", "2x2", "--solver", "kociemba", "R U"],
    ["solve", "--puzzle", "2x2", "--solver", "fake", "R U"],
    ["bench", "--solvers", "fake", "--depths", "1", "-k", "1"],
    ["bench", "--solvers", "pocket-htm", "--depths", "1", "-k", "1"],
])
def test_a_solver_only_sees_its_own_puzzle_and_hidden_ones_are_not_offered(capsys, argv):
    err = _refused(capsys, argv)
    assert "solver" in err
    assert "fake" not in err.split("choose from")[-1]


@pytest.mark.parametrize("argv", [
    ["solve", "--time-limit", "inf", "R"],
    ["solve", "--time-limit", "1e300", "R"],
    ["solve", "--time-limit", "nan", "R"],
    ["solve", "--time-limit", "-0", "R"],
    ["solve", "--time-limit", "soon", "R"],
    ["solve", "--max-length", str(10 ** 20), "--solver", "thistlethwaite", "R"],
    ["solve", "--max-length", "-1", "R"],
    ["solve", "--jobs", "0", "--file", "-"],
    ["solve", "--solver", "bfs", "--tables", "bogus", "R"],
    ["solve", "--solver", "korf", "--tables", "bogus", "R"],
    ["repl", "--time-limit", "nan"],
    ["bench", "--time-limit", "inf"],
    ["bench", "-k", "0"],
    ["facts", "-R"],
    ["facts", "--", "-R"],
    ["solve", "--bogus", "R"],
    ["--port", "99999"],
])
def test_edge_values_get_one_line_and_exit_2(capsys, argv):
    _refused(capsys, argv)


# ---- facts --file and cycles (issue 37, item 10) ----------------------------------------------

def _file_records(capsys, monkeypatch, text, *flags):
    import io
    import json
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    status = main(["facts", "--json", *flags, "--file", "-"])
    return status, [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_facts_file_loads_unreachable_cycles_with_the_flag_its_message_names(capsys,
                                                                              monkeypatch):
    text = "cycles: (UF)+\ncycles: (UFR)+ (UF UR)\nR U\n"
    status, records = _file_records(capsys, monkeypatch, text)
    assert status == 2 and "add --unreachable" in records[0]["error"]
    status, records = _file_records(capsys, monkeypatch, text, "--unreachable")
    assert status == 0, records
    assert [r["reachable"] for r in records] == [False, False, True]
    assert [r["line"] for r in records] == [1, 2, 3]


@pytest.mark.parametrize("line, columns", [
    ("cycles: (UF FU)", (10, 13)),
    ("cycles: (UFR URB) (RFU)", (10, 20)),
    ("cycles:(UF UR) (DF) (RU)", (12, 22)),
])
def test_a_piece_named_twice_is_shown_at_both_columns(capsys, monkeypatch, line, columns):
    _, records = _file_records(capsys, monkeypatch, line + "\n")
    name = line[columns[0] - 1:].split()[0].strip("()")
    assert records[0]["error"] == f"{name} appears twice (columns {columns[0]} and {columns[1]})"
    # and the columns hold the piece as written
    assert all(line[c - 1].isalpha() and line[c - 2] in " (" for c in columns)


def test_cycles_option_names_the_columns_of_its_own_text(capsys):
    assert main(["facts", "--cycles", "(UF FU)"]) == 2
    assert capsys.readouterr().err == "cubelab: UF appears twice (columns 2 and 5)\n"
