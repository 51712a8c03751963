"""The last session kept and brought back (issue 39): the record and its bounds, damaged files
set aside, the workbench (quit, start again, the state back) and `cubelab repl --restore`."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import pytest

from cubelab.cube.moves import alg_state
from cubelab.cube.notation import parse
from cubelab.solvers import StandIn
from cubelab.tui.app import CubeLabApp
from cubelab.tui.history import InputHistory
from cubelab.tui.records import SolutionRow
from cubelab.tui.session import Session
from cubelab.tui.session_store import (MAX_SESSION_BYTES, MAX_UNDO, FoundClass, SessionStore,
                                       is_fresh, restore, snapshot)
from cubelab.tui.settings import Settings
from helpers_apps import until


def moves(text: str) -> list:
    return list(parse(text).flatten())


def busy_session() -> Session:
    """A session with history to undo and redo, a switch of cube, rows of an old position and
    of the current one, search results, the 3-D view and a table set chosen."""
    s = Session()
    s.execute(":puzzle 2x2")
    s.execute("U2")
    s.execute(":puzzle 3x3")
    s.execute("R U R'")
    s.solutions = [SolutionRow("fake", s.state, moves("R U' R'"), 1.5, 1234, True, "solved")]
    s.execute("F")                          # the row is now for the previous position
    s.solutions.append(SolutionRow("kociemba", s.state, moves("F' R U' R'"), status="solved"))
    s.execute("B")
    s.execute(":undo")                      # B can be redone
    s.record_found([FoundClass(moves("R U R' U'"), 4, {
        "corners": "2 2-cycles", "edges": "3-cycle", "order": 6, "morph": 96,
        "length": {"htm": 4, "qtm": 4}, "sequences": {"4": 8},
        "corner_cycles": "(UFR UBR) (UFL DFR)", "edge_cycles": "(UF UL UR)"})])
    s.found_by = {"caption": "only UF UR UB; up to 5 HTM", "metric": "htm"}
    s.view, s.orientation = "3d", "BDL"      # the 3-D view turned to show B, D and L
    s.table_sets = {"korf": "layers"}
    return s


def test_a_session_comes_back_as_it_was():
    s = busy_session()
    record = json.loads(json.dumps(snapshot(s)))
    back = Session()
    restore(back, record)
    assert [(e.state, e.moves, e.label, e.puzzle) for e in back.history.entries] == \
        [(e.state, e.moves, e.label, e.puzzle) for e in s.history.entries]
    assert back.history.cursor == s.history.cursor
    assert {e.puzzle for e in back.history.entries} == {"2x2", "3x3"}
    assert len(back.solutions) == 2 and back.solutions[0].for_state != back.state
    assert back.solutions[1].for_state == back.state
    assert back.redo() is not None and back.moves == s.history.entries[-1].moves
    assert [(r.solver, r.for_state, r.moves, r.status, r.optimal, r.nodes) for r in
            back.solutions] == [(r.solver, r.for_state, r.moves, r.status, r.optimal, r.nodes)
                                for r in s.solutions]
    assert back.found[0].moves == moves("R U R' U'") and back.found[0].length == 4
    assert back.found[0].as_dict()["order"] == 6 and back.found_by == s.found_by
    assert (back.view, back.orientation) == ("3d", "BDL")
    assert back.table_sets == {"korf": "layers"}


def test_a_row_still_running_comes_back_stopped():
    s = Session()
    s.execute("R")
    s.solutions = [SolutionRow("fake", s.state, moves("R'"), status="search")]
    back = Session()
    restore(back, snapshot(s))
    assert back.solutions[0].status == "cancelled" and back.solutions[0].moves == moves("R'")
    assert "ended" in back.solutions[0].message


def test_the_kept_history_is_bounded():
    s = Session()
    for _ in range(MAX_UNDO + 300):
        s.execute("R")
    record = snapshot(s)
    assert len(record["history"]) == MAX_UNDO and record["cursor"] == MAX_UNDO - 1
    back = Session()
    restore(back, record)
    assert back.state == s.state


def test_a_session_too_large_for_the_file_keeps_its_newest_steps():
    s = Session()
    s.apply(moves("R U") * 40_000)                      # 80,000 moves: about 400 KB of text
    for _ in range(5):
        s.apply(moves("R U") * 40_000)
    text = json.dumps(snapshot(s))
    assert len(text) <= MAX_SESSION_BYTES
    back = Session()
    restore(back, json.loads(text))
    assert back.state == s.state


def test_a_fresh_session_never_replaces_the_kept_one(tmp_path):
    store = SessionStore(tmp_path / "session.json")
    s = Session()
    assert is_fresh(s) and store.save(s) == "" and not store.path.exists()
    s.execute("R")
    assert store.save(s) == "" and store.path.exists()
    record, problem = SessionStore(store.path).load()
    assert problem == "" and record["history"][-1]["moves"] == "R"


DAMAGED = {
    "garbage": b"\x00\x01 not json",
    "truncated": None,                  # a real session cut in the middle
    "list": b"[1, 2]",
    "old-format": json.dumps({"format": 0, "history": [], "cursor": 0}).encode(),
    "bad-facelets": json.dumps({"format": 1, "cursor": 0, "history": [
        {"facelets": "X" * 54, "puzzle": "3x3", "moves": "", "label": ""}]}).encode(),
    "cursor-past": json.dumps({"format": 1, "cursor": 3, "history": [
        {"facelets": "U" * 9 + "R" * 9 + "F" * 9 + "D" * 9 + "L" * 9 + "B" * 9}]}).encode(),
    "deep": b"[" * 200_000 + b"]" * 200_000,
    "huge": b" " * (MAX_SESSION_BYTES + 1),
}


@pytest.mark.parametrize("kind", [*DAMAGED, "fifo", "directory", "dev-zero"])
def test_a_damaged_session_is_set_aside_with_a_message(tmp_path, kind):
    path = tmp_path / "session.json"
    if kind == "truncated":
        s = busy_session()
        path.write_text(json.dumps(snapshot(s))[:500])
    elif kind == "fifo":
        os.mkfifo(path)                 # no writer: a plain read would wait for ever
    elif kind == "directory":
        path.mkdir()
    elif kind == "dev-zero":
        path.symlink_to("/dev/zero")
    else:
        path.write_bytes(DAMAGED[kind])
    record, problem = SessionStore(path).load()
    assert record is None
    assert problem.startswith("the last session could not be read (")
    aside = [p.name for p in tmp_path.iterdir() if p.name.startswith("session.json.damaged-")]
    assert len(aside) == 1 and problem.endswith(f"set aside as {aside[0]}")
    assert not path.exists() and "\n" not in problem


def test_a_session_whose_rows_do_not_hold_up_is_set_aside_and_the_session_kept(tmp_path):
    s = busy_session()
    record = snapshot(s)
    record["solutions"][0]["for"] = "nonsense"
    store = SessionStore(tmp_path / "session.json")
    store.path.write_text(json.dumps(record))
    loaded, problem = store.load()
    assert problem == "" and loaded is not None        # the position itself holds up
    fresh = Session()
    problem = store.restore(fresh, loaded)
    assert "set aside as session.json.damaged-" in problem and is_fresh(fresh)


# ---- the workbench ----------------------------------------------------------------------------

def workbench(tmp_path, restore_mode: str = "ask") -> CubeLabApp:
    settings_file = tmp_path / "settings.toml"
    settings_file.write_text(f'[workbench]\nrestore = "{restore_mode}"\n')
    return CubeLabApp(solvers=StandIn(step_seconds=0.01, improvements=0),
                      history=InputHistory(tmp_path / "history"), compare_time_limit=None,
                      settings=Settings.load(settings_file, environ={}),
                      store=SessionStore(tmp_path / "session.json"))



def message(app) -> str:
    box = app.query_one("#message")
    return "\n".join(box.render_line(y).text for y in range(box.size.height)).strip()


async def type_line(pilot, text: str) -> None:
    await pilot.press(*text, "enter")
    await pilot.pause()


def test_quit_and_start_again_offers_the_session_and_ctrl_r_brings_it_back(tmp_path):
    async def first():
        app = workbench(tmp_path)
        async with app.run_test(size=(100, 30)) as pilot:
            await type_line(pilot, "R U F'")
            await type_line(pilot, ":solve")
            panel = app.solver_panel
            await until(pilot, lambda: panel.runs and not panel.running and panel.settled,
                        "the solve")
            await type_line(pilot, "D")                  # the row is now of the old position
            await type_line(pilot, "B")
            await type_line(pilot, ":undo")              # B can be redone
            await type_line(pilot, ":view db")           # the 3-D view, D on top, B in front
            await pilot.press("ctrl+q")
        return app.session

    async def second():
        app = workbench(tmp_path)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: "Ctrl+R restores the last session" in message(app),
                        "the offer")
            assert "4 moves" in message(app) and "1 solver row" in message(app)
            assert app.session.moves == ()              # nothing yet
            await pilot.press("ctrl+r")
            await until(pilot, lambda: "restored the last session" in message(app),
                        "the restore")
            table = app.query_one("#solutions")
            assert "(old)" in str(table.get_row_at(0)[2])
            assert app.net.view == "3d" and app.session.orientation[:2] == "DB"
            await type_line(pilot, ":redo")
            assert app.session.moves == tuple(moves("R U F' D B"))
        return app.session

    before = asyncio.run(first())
    after = asyncio.run(second())
    assert [e.label for e in after.history.entries] == [e.label for e in before.history.entries]
    assert after.solutions[0].moves == before.solutions[0].moves


def test_restore_always_brings_it_back_at_once_and_an_untouched_start_keeps_it(tmp_path):
    store = SessionStore(tmp_path / "session.json")
    s = Session()
    s.execute("R U2")
    store.save(s)
    kept = store.path.read_text()

    async def start(mode: str):
        app = workbench(tmp_path, mode)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return app.session.state, message(app)
    state, said = asyncio.run(start("always"))
    assert state == alg_state("R U2") and said.startswith("restored the last session")
    state, said = asyncio.run(start("never"))
    assert state == alg_state("") and "restores" not in said
    assert store.path.read_text() == kept               # a fresh session replaced nothing


def test_a_damaged_session_at_start_is_a_message_and_set_aside(tmp_path):
    (tmp_path / "session.json").write_text('{"format": 1, "history": [')

    async def start():
        app = workbench(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return message(app)
    said = asyncio.run(start())
    assert said.startswith("the last session could not be read") and "set aside as" in said
    assert any(p.name.startswith("session.json.damaged-") for p in tmp_path.iterdir())


def test_restored_search_results_are_listed_and_apply(tmp_path):
    store = SessionStore(tmp_path / "session.json")
    store.save(busy_session())

    async def start():
        app = workbench(tmp_path, "always")
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            app.show_list("search")
            assert app.search_panel.table.row_count == 1
            assert app.search_panel.caption.startswith("only UF UR UB")
            before = app.session.state
            await type_line(pilot, ":apply 1")
            return app.session.puzzle.apply(before, moves("R U R' U'")), app.session.state
    expected, after = asyncio.run(start())
    assert after == expected


# ---- the REPL ---------------------------------------------------------------------------------

def test_the_repl_restores_the_last_session(fresh_dirs):
    store = SessionStore(fresh_dirs / "state" / "session.json")
    store.save(busy_session())
    done = subprocess.run([sys.executable, "-m", "cubelab.tui.cli", "repl", "--restore",
                           "--json"], input=":redo\n:apply 1\n", capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("cubelab: restored the last session (")
    records = [json.loads(line) for line in done.stdout.splitlines()]
    s = busy_session()
    s.redo()
    assert records[0]["message"] == "redid B"
    assert records[0]["facelets"] == s.puzzle.to_facelets(s.state)
    # the list on show came back too: :apply 1 takes the search result
    assert records[1]["message"].startswith("applied search result 1")
    # piped lines are a script's: the session kept is still the one restored
    assert SessionStore(store.path).load()[0]["cursor"] == s.history.cursor - 1


def test_a_session_kept_by_the_earlier_views_comes_back_in_3d():
    """A file written before the 3-D view could be turned says "front" or "back"."""
    for word, held in (("front", "UFR"), ("back", "DLB")):
        record = json.loads(json.dumps(snapshot(Session())))
        record["view"] = word
        del record["orientation"]
        back = Session()
        restore(back, record)
        assert (back.view, back.orientation) == ("3d", held)
