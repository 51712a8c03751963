"""solve --file's --output and --resume, and the checks of the batch options (no cluster needed)."""

import json

import pytest

from cubelab.tables.cluster import ClusterError, parse_address
from cubelab.tui.cli import main
from cubelab.tui.solve_file import Progress
from helpers_registry import visible_fake  # noqa: F401  (a fixture)

ALGS = ["R U F", "R U ]", "D B", "L' U R' F", "F2"]


@pytest.fixture
def fake_solver(visible_fake):
    """The stand-in solver offered to the command line."""


def _records(path):
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_output_gets_every_line_in_order_and_resume_solves_only_what_is_missing(
        tmp_path, capsys, fake_solver):
    f = tmp_path / "in.txt"
    f.write_text("\n".join(ALGS) + "\n")
    out = tmp_path / "out.jsonl"
    assert main(["solve", "--solver", "fake", "--jobs", "1", "--file", str(f),
                 "--output", str(out)]) == 2
    assert capsys.readouterr().out == ""          # the records went to the file
    full = _records(out)
    assert [r["line"] for r in full] == [1, 2, 3, 4, 5]
    # a run killed after two records, in the middle of writing the third
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join(lines[:2]) + lines[2][:17])
    assert main(["solve", "--solver", "fake", "--jobs", "1", "--file", str(f),
                 "--output", str(out), "--resume"]) == 0     # no bad line left to read
    resumed = _records(out)
    assert [r["line"] for r in resumed] == [1, 2, 3, 4, 5]
    assert [r.get("solution") for r in resumed] == [r.get("solution") for r in full]
    assert "2 lines were already there" in capsys.readouterr().err


def test_records_of_positions_lost_to_dying_workers_are_solved_again(tmp_path, fake_solver):
    f = tmp_path / "in.txt"
    f.write_text("R\nU\n")
    out = tmp_path / "out.jsonl"
    out.write_text(json.dumps({"error": "the worker died", "internal": True, "line": 1}) + "\n"
                   + json.dumps({"solution": "U'", "line": 2}) + "\n")
    assert main(["solve", "--solver", "fake", "--file", str(f), "--output", str(out),
                 "--resume"]) == 0
    records = _records(out)
    # solved again in its place: every line once, in input order (issue 37, item 5)
    assert [r["line"] for r in records] == [1, 2] and records[0]["solution"]
    assert "internal" not in records[0]


@pytest.mark.parametrize("argv, message", [
    (["--resume", "--output", "o"], "--output needs --file"),
    (["--jobs", "2"], "--jobs needs --file"),
    (["--cluster", "local:2"], "--cluster needs --file"),
    (["--file", "F", "--resume"], "--resume needs --output"),
    (["--file", "F", "--jobs", "2", "--cluster", "local"], "either --jobs or --cluster"),
    (["--file", "F", "--cluster", "local:0"], "local:N"),
    (["--file", "F", "--cluster", "lo cal"], "scheduler address"),
])
def test_bad_batch_options_are_one_line_errors(argv, message, capsys, tmp_path):
    argv = [str(tmp_path / "in.txt") if a == "F" else a for a in argv]
    (tmp_path / "in.txt").write_text("R\n")
    assert main(["solve", *argv, *([] if "--file" in argv else ["R"])]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_resume_refuses_a_file_that_is_not_json_lines(tmp_path, capsys, fake_solver):
    f = tmp_path / "in.txt"
    f.write_text("R\n")
    out = tmp_path / "out.txt"
    out.write_text("R U R' U'\n")
    assert main(["solve", "--solver", "fake", "--file", str(f), "--output", str(out),
                 "--resume"]) == 2
    assert "not JSON" in capsys.readouterr().err


def test_cluster_addresses():
    assert parse_address("local:3").workers == 3 and parse_address("local:3").local
    assert parse_address("local").workers >= 1
    assert parse_address("10.0.0.5:8786").scheduler == "tcp://10.0.0.5:8786"
    assert parse_address("tls://h:1").scheduler == "tls://h:1"
    for bad in ("local:0", "local:-1", "local:x", "", "a b"):
        with pytest.raises(ClusterError):
            parse_address(bad)


def test_without_dask_the_message_says_how_to_install_it(monkeypatch, tmp_path, capsys):
    import sys
    monkeypatch.setitem(sys.modules, "distributed", None)
    f = tmp_path / "in.txt"
    f.write_text("R\n")
    assert main(["solve", "--file", str(f), "--cluster", "local:2"]) == 2
    assert "cubelab[cluster]" in capsys.readouterr().err
    assert main(["count", "--cluster", "local:2"]) == 2
    assert "cubelab[cluster]" in capsys.readouterr().err


def test_progress_line_shows_rate_and_time_left():
    bar = Progress(200)
    line = bar.line(50, 10.0)
    assert "50/200" in line and "5/s" in line and "0:30 left" in line
    assert bar.line(0, 0.0).endswith("0/200")
