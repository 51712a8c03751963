"""Recording a session and replaying it: the file, the command, the plain replay, the workbench
replay with its timing, and bad files."""

from __future__ import annotations

import asyncio
import json

import pytest

from cubelab.cube.moves import alg_state
from cubelab.solvers import StandIn
from cubelab.tui.cli import main
from cubelab.tui.history import InputHistory
from cubelab.tui.recording import read_recording
from cubelab.tui.replay_cmd import replay_app
from cubelab.tui.session import Session


def _record(tmp_path, lines):
    path = tmp_path / "walk.jsonl"
    session = Session(saves_dir=tmp_path)
    session.execute("F")
    assert not session.execute(f":record {path}").error
    for line in lines:
        session.execute(line)
    assert "recording stopped: " in session.execute(":record stop").message
    return path, session


def test_the_recording_holds_each_line_its_time_and_position(tmp_path):
    path, session = _record(tmp_path, ["R U", ":scramble", "nonsense(", ":undo"])
    rec = read_recording(str(path))
    assert rec.start_state() == alg_state("F") and [str(m) for m in rec.start_moves()] == ["F"]
    assert [s.line for s in rec.steps] == ["R U", ":scramble", "nonsense(", ":undo"]
    assert [s.error for s in rec.steps] == [False, False, True, False]
    assert rec.steps[0].facelets == session.puzzle.to_facelets(alg_state("F R U"))
    assert all(a.t <= b.t for a, b in zip(rec.steps, rec.steps[1:]))
    assert Session().execute(":record stop").error
    session.execute(f":record {tmp_path / 'again.jsonl'}")
    assert session.execute(f":record {tmp_path / 'third.jsonl'}").error   # one at a time
    session.execute(":record stop")
    out = session.execute(f":record {tmp_path / 'no' / 'such.jsonl'}")
    assert out.error and out.message.startswith("cannot record to")


def test_plain_replay_reproduces_the_positions(tmp_path, capsys):
    path, session = _record(tmp_path, ["R U", ":scramble", "[R, U]", ":pattern checkerboard"])
    assert main(["replay", "--json", str(path)]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["line"] for r in records] == ["R U", ":scramble", "[R, U]", ":pattern checkerboard"]
    # an unseeded scramble draws another one: the recorded position is put back, so the rest
    # of the replay matches the recording
    assert records[0]["matched"] and records[2]["matched"] and records[3]["matched"]


@pytest.mark.parametrize("text, words", [
    ("", "empty"),
    ("not json\n", "not JSON Lines"),
    ('{"a": 1}\n', "not a cubelab recording header"),
    ('{"cubelab_recording": 1, "puzzle": "3x3", "facelets": "' + "U" * 54 + '"}\n', "line 1"),
])
def test_bad_recordings_are_refused_in_one_line(tmp_path, capsys, text, words):
    path = tmp_path / "bad.jsonl"
    path.write_text(text)
    assert main(["replay", "--json", str(path)]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
    assert main(["replay", "--json", str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_the_workbench_replays_with_its_timing(tmp_path):
    path, session = _record(tmp_path, ["R U", "[R, U]", ":invert"])
    recording = read_recording(str(path))

    async def body():
        app = replay_app(recording, 4.0, "walk", solvers=StandIn(),
                         history=InputHistory(tmp_path / "h"))
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(60):
                await pilot.pause(0.05)
                if app.session.entry.label == ":invert":
                    break
            assert app.session.state == session.state
            assert app.session.execute(":undo").changed        # each step is an undo step
            assert app.session.state == alg_state("F R U [R, U]")
    asyncio.run(body())
