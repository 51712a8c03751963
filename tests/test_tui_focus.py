"""Pilot tests of where the keys go: after a click on a face, on a row, on the facts, and after a
row is applied, the next line typed reaches the move line; and the focus can be seen (the net
says what its keys do; the line, the net and the panels light their edge)."""

from __future__ import annotations

from textual.widgets import DataTable

from cubelab.cube.moves import alg_state
from test_mouse import TwoFakes, at
from test_tui_app import make_app, pilot_test, type_line, wait_solvers  # noqa: F401
from helpers_apps import run_app


def test_after_a_click_on_a_face_typing_goes_to_the_line(tmp_path):
    async def body(app, pilot):
        await pilot.click("#net", offset=at(12, 4))          # F's centre: turns F
        await pilot.pause()
        assert app.session.state == alg_state("F")
        assert app.line.has_focus and not app.net.has_focus
        await type_line(pilot, ":reset")                     # not u, j, e, t... on the cube
        assert app.session.state.is_identity() and app.line.value == ""
        await pilot.press("tab")                             # the keyboard cube, by choice
        assert app.net.has_focus
        await pilot.click("#net", offset=at(12, 4))
        await pilot.pause()
        assert app.session.state == alg_state("F") and app.line.has_focus
    run_app(tmp_path, body)


def test_after_clicks_on_a_row_and_the_facts_typing_goes_to_the_line(tmp_path):
    async def body(app, pilot):
        await type_line(pilot, "R U")
        await type_line(pilot, ":compare")
        await wait_solvers(pilot, app)
        table = app.solver_panel.query_one(DataTable)
        await pilot.click(DataTable, offset=(3, 2))          # highlights the second row
        await pilot.pause()
        assert table.cursor_row == 1 and app.line.has_focus
        await pilot.click("#facts", offset=(5, 3))
        await pilot.pause()
        assert app.line.has_focus
        await pilot.click(DataTable, offset=(3, 2))          # again: applies it
        await pilot.pause()
        assert app.session.state.is_solved() and app.line.has_focus
        await type_line(pilot, "D")
        assert app.session.state == alg_state("D") and app.history.entries[-1] == "D"
    run_app(tmp_path, body, registry=TwoFakes())


@pilot_test
async def test_after_enter_on_a_row_typing_goes_to_the_line(make_app):
    app = make_app(step_seconds=0.01, improvements=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "R U F")
        await type_line(pilot, ":solve")
        await wait_solvers(pilot, app)
        await pilot.press("tab", "tab", "tab")               # line -> net -> facts -> table
        assert app.solver_panel.table.has_focus
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.state.is_solved() and app.line.has_focus
        await type_line(pilot, ":reset")
        assert app.history.entries[-1] == ":reset"
        await type_line(pilot, "R U F")
        app.solver_panel.table.focus()
        await pilot.press("p")                               # playback keeps the keys on the net
        assert app.net.has_focus and app.net.mode == "play"
        assert "step" in app.net.border_subtitle
        await pilot.press("escape")
        assert app.line.has_focus and app.net.border_subtitle == ""


@pilot_test
async def test_the_focus_shows_on_the_line_the_net_and_the_facts(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        line_bar = app.line.styles.border_left
        await pilot.press("tab")
        assert app.net.has_focus and "turn" in app.net.border_subtitle
        assert app.line.styles.border_left != line_bar      # the line's bar goes dim
        assert app.net.styles.border_top[1] != app.query_one("#facts").styles.border_top[1]
        await pilot.press("tab")
        facts = app.query_one("#facts")
        assert facts.has_focus and app.net.border_subtitle == ""
        assert facts.styles.border_top[1] != app.solver_panel.styles.border_top[1]
