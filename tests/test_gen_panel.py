"""`:gen` in the workbench (issue 34): the gen panel fills case by case while the run goes on,
Enter on a row sets its case up (the inverse of the row's alg from solved: for a PLL case's
best alg, the case's own position), P plays the row's alg on the net and the cube ends solved,
Esc stops a run and keeps the cases done, bad input is one line. The run is held after its
first case (the engine's `generate` wrapped), so the test sees the running panel whatever the
machine's load."""

from __future__ import annotations

import asyncio
import threading

import pytest

from cubelab.cube.facelets import parse_facelets
from cubelab.cube.state import CubeState
from cubelab.solvers.goals import generate as generate_module
from cubelab.tables.goals import plan
from cubelab.tui.app import CubeLabApp
from cubelab.tui.history import InputHistory
from helpers_apps import until

GEN = ':gen pll --moves RU --cases "Ua,Ub"'


@pytest.fixture(autouse=True)
def small_tables(monkeypatch):
    monkeypatch.setattr(plan, "BALL_NODES", 150_000)


@pytest.fixture
def held(monkeypatch):
    """`generate`, held after its first case until `release` is set."""
    release = threading.Event()
    real = generate_module.generate

    def generate(*args, on_case=None, **kwargs):
        def told(record):
            on_case(record)
            release.wait(120)
        return real(*args, on_case=told, **kwargs)
    monkeypatch.setattr(generate_module, "generate", generate)
    return release


def _text(app, *ids: str) -> str:
    shown = [app.query_one(f"#{i}") for i in ids]
    return "\n".join(w.render_line(y).text for w in shown for y in range(w.size.height))


def _message(app) -> str:
    return app.query_one("#message").render_line(0).text


def test_rows_fill_case_by_case_and_enter_sets_up_p_plays(tmp_path, held):
    async def main():
        app = CubeLabApp(history=InputHistory(tmp_path / "h"), compare_time_limit=None)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press(*GEN, "enter")
            panel = app.gen_panel
            await until(pilot, lambda: app.session.gen is not None and app.session.gen.rows,
                        "the first case's row")
            run = panel.run
            # held after the first case: its row is on show while the second is searched
            assert run.active and [r.case for r in app.session.gen.rows] == ["Ua"]
            assert app.query_one("#lists").current == "gen"
            await until(pilot, lambda: "case 2/2 (Ub)" in _text(app, "gen-progress"),
                        "the progress line on the second case")
            assert "Ua" in _text(app, "gen-table")
            held.set()
            await until(pilot, lambda: panel.settled and not run.active, "the end of the run")
            rows = app.session.gen.rows
            assert [r.case for r in rows] == ["Ua", "Ub"]
            assert all(r.record["optimal"] and r.length("htm") == "11" for r in rows)
            assert "2 cases done" in _text(app, "gen-progress")
            assert "2 cases done" in _message(app)
            # Enter on Ub's row: the case is set up (one undo step)
            table = app.query_one("#gen-table")
            table.focus()
            await pilot.press("down", "enter")
            await pilot.pause()
            ub = rows[1]
            assert app.session.state == parse_facelets(ub.record["facelets"])
            assert app.session.state == ub.state()
            assert "case Ub set up" in _message(app)
            # P plays the row's alg on the net, from the case: it ends solved
            table.focus()
            await pilot.press("p")
            await until(pilot, lambda: app.session.playback is not None, "the playback")
            assert list(app.session.playback.moves) == list(ub.moves)
            await pilot.press("end", "enter")
            await until(pilot, lambda: app.session.playback is None, "the playback kept")
            assert app.session.state == CubeState.identity()
            # :apply N picks the same rows
            assert not app.session.execute(":apply 1").error
            assert app.session.state == parse_facelets(rows[0].record["facelets"])
    asyncio.run(main())


def test_p_on_a_row_sets_its_case_up_first(tmp_path):
    async def main():
        app = CubeLabApp(history=InputHistory(tmp_path / "h"), compare_time_limit=None)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press(*"R U R' F", "enter")
            await pilot.press(*':gen pll --moves RU --cases Ua -n 2', "enter")
            panel = app.gen_panel
            await until(pilot, lambda: panel.run is not None and panel.settled
                        and not panel.run.active, "the end of the run")
            rows = app.session.gen.rows
            assert [r.case for r in rows] == ["Ua", "Ua"] and rows[0].text != rows[1].text
            second = rows[1]
            app.query_one("#gen-table").focus()
            await pilot.press("down", "p")
            await until(pilot, lambda: app.session.playback is not None, "the playback")
            assert app.session.state == second.state()     # the case, from its own alg
            await pilot.press("end", "enter")
            await until(pilot, lambda: app.session.playback is None, "the playback kept")
            assert app.session.state == CubeState.identity()
    asyncio.run(main())


def test_esc_stops_and_keeps_the_cases_done(tmp_path, held):
    async def main():
        app = CubeLabApp(history=InputHistory(tmp_path / "h"), compare_time_limit=None)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press(*GEN, "enter")
            panel = app.gen_panel
            await until(pilot, lambda: app.session.gen is not None and app.session.gen.rows,
                        "the first case's row")
            run = panel.run
            app.line.focus()
            await pilot.press("escape")
            held.set()
            await until(pilot, lambda: panel.settled and not run.active, "the end of the run")
            assert [r.case for r in app.session.gen.rows] == ["Ua"]
            assert "cancelled: 1 of 2 cases done" in _text(app, "gen-progress")
            assert not app.session.execute(":apply 1").error
    asyncio.run(main())


BAD = [
    (":gen xyz", ":gen: unknown case set 'xyz'"),
    (":gen pll --metric foo", ":gen: argument --metric: invalid choice: 'foo'"),
    (":gen pll --moves RQ", ":gen: --moves:"),
    (":gen pll --cases Zz", ":gen: --cases: no case 'Zz'"),
    (":gen pll --output f", ":gen: --output is for the command line"),
    (":gen pll --all --within 1", ":gen: give --all or --within, not both"),
]


def test_bad_input_is_one_line(tmp_path):
    async def main():
        app = CubeLabApp(history=InputHistory(tmp_path / "h"), compare_time_limit=None)
        async with app.run_test(size=(100, 24)) as pilot:
            for line, says in BAD:
                app.line.value = ""
                await pilot.press(*line, "enter")
                await until(pilot, lambda: _message(app).startswith(says), f"{says!r}")
                assert app.gen_panel.run is None
    asyncio.run(main())


def test_the_palette_and_f1_list_gen_and_the_case_sets(tmp_path):
    from helpers_apps import run_from_palette
    from cubelab.tui._help_screen import help_renderable
    from rich.console import Console

    async def main():
        app = CubeLabApp(history=InputHistory(tmp_path / "h"), compare_time_limit=None)
        async with app.run_test(size=(100, 30)) as pilot:
            await run_from_palette(pilot, ":gen oll", ":gen oll")
            assert app.line.value == ":gen oll --moves "      # to finish: the move set
    asyncio.run(main())
    console = Console(width=200, record=True, file=open("/dev/null", "w"))
    console.print(help_renderable(None, None))
    shown = console.export_text()
    assert ":gen SET [options]" in shown
    assert "case sets" in shown and "pll: PLL: the 21 permutations" in shown
