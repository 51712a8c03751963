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
