"""`cubelab bench` and its experiment engine, run small with the fake solver."""

import csv
import json

import numpy as np
import pytest

from cubelab.cube.moves import apply_moves
from cubelab.cube.state import CubeState
from cubelab.solvers.experiment import Positions, scramble
from cubelab.tui.chart import LineChart
from cubelab.tui.cli import main
from helpers_registry import visible_fake  # noqa: F401  (a fixture)


@pytest.fixture
def fake_registered(visible_fake):
    """The stand-in solver offered to the command line."""


def test_scrambles_never_turn_a_face_twice_in_a_row():
    rng = np.random.default_rng(0)
    for depth in range(0, 15):
        moves = scramble(rng, depth)
        assert len(moves) == depth
        assert all(a.family != b.family for a, b in zip(moves, moves[1:]))


def test_positions_are_reproducible_from_the_seed():
    a = Positions.by_depth([3, 5], 4, seed=9)
    b = Positions.by_depth([3, 5], 4, seed=9)
    assert [x[2] for x in a.items] == [x[2] for x in b.items]
    assert len(a.items) == 8 and {x[0] for x in a.items} == {3, 5}
    from cubelab.cube.notation import parse_moves
    for depth, _, text, state in a.items:
        assert apply_moves(CubeState.identity(), parse_moves(text)) == state


def test_small_bench_run_writes_table_chart_csv_and_json(fake_registered, tmp_path, capsys):
    csv_path, json_path = tmp_path / "b.csv", tmp_path / "b.json"
    status = main(["bench", "--solvers", "fake", "--depths", "1-3", "-k", "2", "--time-limit", "5",
                   "--csv", str(csv_path), "--json", str(json_path)])
    out = capsys.readouterr().out
    assert status == 0
    assert "cubelab bench" in out and "median time per solve" in out and "mean solution length" in out
    rows = list(csv.DictReader(csv_path.open()))
    assert len(rows) == 6 and all(r["verified"] == "True" for r in rows)
    data = json.loads(json_path.read_text())
    assert [r["depth"] for r in data["summary"]] == [1, 2, 3]
    assert all(r["solved_share"] == 1.0 for r in data["summary"])
    assert data["summary"][0]["mean_length"] == 1.0


def test_time_limit_counts_unsolved(fake_registered, tmp_path, capsys):
    json_path = tmp_path / "b.json"
    # the fake solver refuses positions beyond 6 moves: they count as unsolved, not as errors
    assert main(["bench", "--solvers", "fake", "--depths", "9", "-k", "1", "--time-limit", "1",
                 "--no-chart", "--json", str(json_path)]) == 0
    summary = json.loads(json_path.read_text())["summary"]
    assert summary[0]["solved_share"] <= 1.0


@pytest.mark.parametrize("argv, fragment", [
    (["bench", "--solvers", "nosuch"], "unknown solver"),
    (["bench", "--depths", "a-b"], "--depths"),
    (["bench", "--per-depth", "0"], "--per-depth"),
])
def test_bad_arguments(argv, fragment, capsys):
    assert main(argv) == 2
    assert fragment in capsys.readouterr().err


def test_chart_places_points_and_legend():
    chart = LineChart("t", {"a": [(1, 1.0), (2, 10.0), (3, 100.0)], "b": [(1, 5.0), (3, 5.0)]},
                      log_y=True, width=40, height=7, y_label="s")
    text = chart.plain_text()
    lines = text.splitlines()
    assert lines[0].startswith("t") and "log scale" in lines[0]
    assert "* a" in lines[-1] and "o b" in lines[-1]
    plot = lines[1:8]
    assert "*" in plot[0] and "*" in plot[-1]   # 100 at the top, 1 at the bottom
    assert text.count("o") >= 2 + 1


def test_chart_keeps_the_last_x_label_whole():
    chart = LineChart("t", {"a": [(x, float(x)) for x in range(1, 15)]}, width=64, height=5)
    axis_labels = chart.plain_text().splitlines()[-2]
    assert axis_labels.split()[-2] == "14" and axis_labels.endswith("depth")
