"""`cubelab gen` (alg generation over case sets) and `cubelab goals`: the cases of each set,
records as JSON Lines with their algs checked on the case, --output/--resume (a kill's cut
line dropped, other sets' files refused), a set from a start goal and a goal, bad input in one
line with exit 2."""

from __future__ import annotations

import json

import pytest

from cubelab.cube.facelets import parse_facelets
from cubelab.cube.goal_catalog import resolve_goal
from cubelab.cube.moves import apply_moves
from cubelab.cube.notation import parse_moves
from cubelab.tables.goals import plan
from cubelab.tui.cli import main


@pytest.fixture(autouse=True)
def small_tables(monkeypatch):
    monkeypatch.setattr(plan, "BALL_NODES", 150_000)


def _lines(capsys) -> list[dict]:
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


@pytest.mark.parametrize("name, count", [("oll", 57), ("pll", 21), ("ocll", 7), ("coll", 40)])
def test_the_sets_list_their_cases(capsys, name, count):
    assert main(["gen", name, "--list", "--json"]) == 0
    cases = _lines(capsys)
    assert len(cases) == count == len({c["case"] for c in cases})


def _check_algs(record: dict, goal: str) -> None:
    state = parse_facelets(record["facelets"])
    (g,) = resolve_goal(goal)
    assert record["algs"]
    for alg in record["algs"]:
        moves = parse_moves(" ".join(x for x in (alg["auf"]["pre"], alg["solution"],
                                                 alg["auf"]["post"]) if x))
        assert g.is_met(apply_moves(state, moves))
        assert set(alg) >= {"solution", "length", "cost", "auf"}
        assert set(alg["length"]) == {"htm", "qtm", "stm", "etm"}
    # the setup (the best alg undone) makes a position its best alg takes to the goal
    best = record["algs"][0]
    made = apply_moves(state.__class__.identity(), parse_moves(record["setup"]))
    assert g.is_met(apply_moves(made, parse_moves(" ".join(
        x for x in (best["auf"]["pre"], best["solution"], best["auf"]["post"]) if x))))


def test_records_per_case_with_their_algs(capsys):
    assert main(["gen", "pll", "--moves", "RUF", "--cases", "Ua,T", "--all", "--json"]) == 0
    records = _lines(capsys)
    records.sort(key=lambda r: r["case"], reverse=True)      # (written in the set's order)
    assert [r["case"] for r in records] == ["Ua", "T"]
    for r in records:
        assert r["set"] == "pll" and r["moveset"] == "<R,U,F>" and r["metric"] == "htm"
        assert r["optimal"] and r["status"] == "solved"
        _check_algs(r, "pll")
    assert {a["metric_cost"] for a in records[0]["algs"]} == {11}
    assert {a["metric_cost"] for a in records[1]["algs"]} == {14}
    assert main(["gen", "pll", "--moves", "RUF", "--cases", "Ua", "-n", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Ua ") and "11 HTM optimal" in out[0] and len(out) == 3


def test_output_and_resume(tmp_path, capsys):
    out = tmp_path / "pll.jsonl"
    argv = ["gen", "pll", "--moves", "RU", "--output", str(out)]
    assert main([*argv, "--cases", "Ua,Ub"]) == 0
    first = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["case"] for r in first] == ["Ua", "Ub"]
    with open(out, "a") as f:          # a kill in the middle of a record
        f.write('{"set": "pll", "case": "Z", "fa')
    assert main([*argv, "--cases", "Ua,Ub,Z,H", "--resume"]) == 0
    records = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["case"] for r in records][:2] == ["Ua", "Ub"]
    assert sorted(r["case"] for r in records[2:]) == ["H", "Z"]
    assert "2 were there already" in capsys.readouterr().err
    # another set's file is refused, not mixed
    assert main(["gen", "oll", "--moves", "RU", "--output", str(out), "--resume"]) == 2
    assert "holds pll cases in <R,U>" in capsys.readouterr().err


def test_a_set_from_a_start_and_a_goal(capsys):
    assert main(["gen", "--start", "f2l", "--goal", "oll", "--auf", "pre", "--list"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 57
    assert main(["gen", "--start", "oll", "--goal", "pll", "--auf", "both", "--moves", "RU",
                 "--cases", "case 1", "--json"]) == 0
    (record,) = _lines(capsys)
    assert record["set"] == "custom" and record["optimal"]
    _check_algs(record, "pll")


@pytest.mark.parametrize("argv, says", [
    (["gen", "plll"], "unknown case set 'plll'"),
    (["gen"], "name a set"),
    (["gen", "pll", "--moves", "R,Q"], "--moves: unexpected 'Q' at column 3"),
    (["gen", "pll", "--weights", "R=0"], "weight 0 at column 3"),
    (["gen", "pll", "--cases", "Q"], "--cases: no case 'Q'"),
    (["gen", "pll", "--all", "--within", "1"], "give --all or --within, not both"),
    (["gen", "--start", "f2l", "--goal", "crss"], "--goal: unknown goal 'crss'"),
    (["gen", "pll", "--start", "f2l"], "has its own start"),
    (["gen", "pll", "--resume"], "--resume needs --output"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, says):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1


def test_goals_lists_goals_move_sets_and_case_sets(capsys):
    assert main(["goals", "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    names = {g["name"] for g in listing["goals"]}
    assert {"cross", "xcross", "f2l", "f2l-pair", "eo", "dr", "htr", "oll", "pll", "zbll",
            "roux-fb", "2x2x2", "solved"} <= names
    assert {"2gen", "eo-fb", "dr-ud"} <= {m["name"] for m in listing["movesets"]}
    assert {"oll", "pll", "coll", "zbll", "ocll"} == {s["name"] for s in listing["case_sets"]}
    assert main(["goals"]) == 0
    assert "cross[:FACE]" in capsys.readouterr().out
