"""Pilot tests of the workbench: typing, errors, undo/redo, scramble, keyboard cube, paint mode,
solving with the fake solver (start, cancel, apply, playback, tables offer), history, saves."""

from __future__ import annotations

import asyncio
import functools

import pytest

from cubelab.cube.facelets import state_colours
from cubelab.cube.moves import alg_state, apply_moves
from cubelab.cube.pieces import COLOUR_OF_FACE, FACES
from cubelab.cube.state import CubeState
from cubelab.solvers.fake import FakeRegistry
from cubelab.tui._build_offer import BuildOfferScreen
from cubelab.tui._help_screen import HelpScreen
from cubelab.tui.app import CubeLabApp
from cubelab.tui.history import InputHistory, read_entries
from cubelab.tui.session import scramble_moves


def pilot_test(body):
    """Run an async test body in its own event loop (no asyncio plugin is assumed)."""
    @functools.wraps(body)
    def run(*args, **kwargs):
        asyncio.run(body(*args, **kwargs))
    return run


@pytest.fixture
def make_app(tmp_path):
    def make(**fake_options):
        registry = FakeRegistry(**fake_options)
        history = InputHistory(tmp_path / "history")
        return CubeLabApp(solvers=registry, history=history, compare_time_limit=None)
    return make


def screen_text(widget) -> str:
    """What a widget shows, as plain text lines."""
    return "\n".join(widget.render_line(y).text for y in range(widget.size.height))


def message(app) -> str:
    return screen_text(app.query_one("#message"))


async def type_line(pilot, text: str, enter: bool = True) -> None:
    await pilot.press(*text)
    if enter:
        await pilot.press("enter")
    await pilot.pause()


async def wait_solvers(pilot, app, limit: float = 10.0) -> None:
    waited = 0.0
    while app.solver_panel.running or (app.solver_panel.runs and app.solver_panel._timer):
        await pilot.pause(0.05)
        waited += 0.05
        assert waited < limit, "solvers did not finish"


@pilot_test
async def test_typing_previews_then_applies(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "R U R' U'", enter=False)
        assert app.session.state.is_identity()          # only a preview so far
        assert app.net.state == alg_state("R U R' U'")
        assert "preview: 4 moves" in message(app)
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.state == alg_state("R U R' U'")
        assert app.line.value == ""
        facts_text = screen_text(app.query_one("#facts"))
        assert "order   6" in facts_text and "4 HTM" in facts_text


@pilot_test
async def test_notation_error_is_shown_at_its_column(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "R Q", enter=False)
        text = message(app)
        assert "unknown move 'Q'" in text
        assert text.index("^") == 3                      # under column 3 (after the padding)
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.state.is_identity()
        assert app.line.value == "R Q"                   # kept, to be fixed


@pilot_test
async def test_undo_and_redo(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "R U")
        await type_line(pilot, "F2")
        assert app.session.state == alg_state("R U F2")
        await pilot.press("ctrl+z")
        assert app.session.state == alg_state("R U")
        await pilot.press("ctrl+z")
        assert app.session.state.is_identity()
        await pilot.press("ctrl+y")
        assert app.session.state == alg_state("R U")
        await type_line(pilot, ":redo")
        assert app.session.state == alg_state("R U F2")
        assert app.net.state == app.session.state


@pilot_test
async def test_scramble_with_seed(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, ":scramble 7")
        expected = apply_moves(CubeState.identity(), scramble_moves(7))
        assert app.session.state == expected
        assert len(app.session.moves) == 20
        assert "seed 7" in message(app)


@pilot_test
async def test_keyboard_cube_on_the_focused_net(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.net.focus()
        await pilot.press("i", "j", "k", "f", "semicolon")
        assert app.session.state == alg_state("R U R' U' y")
        await pilot.press("ctrl+z")
        assert app.session.state == alg_state("R U R' U'")


@pilot_test
async def test_paint_mode_enters_a_position(make_app):
    app = make_app()
    target = alg_state("U R")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f3")
        assert app.net.mode == "paint" and app.net.has_focus
        await pilot.press("delete")                      # blank every sticker but the centres
        assert "48 stickers not painted yet" in message(app)
        assert app.net.cursor == 0
        await pilot.press(*(COLOUR_OF_FACE[FACES[c]].lower() for c in state_colours(target)))
        assert "valid position" in message(app)
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.state == target
        assert app.net.mode == "turn"


@pilot_test
async def test_paint_mode_says_what_is_wrong(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f3", "g")                     # a green sticker on U1
        assert "appears 8 times (expected 9)" in message(app)
        await pilot.press("enter")
        assert app.session.painting is not None          # not usable: stays in paint mode
        await pilot.press("left", "w")                   # repaint U1 white: solved again
        assert "valid position" in message(app)
        await pilot.press("escape")
        assert app.session.painting is None and app.net.mode == "turn"


@pilot_test
async def test_solve_streams_solutions_and_applies_the_chosen_row(make_app):
    app = make_app(step_seconds=0.02)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "R U R' F")
        await type_line(pilot, ":solve")
        await wait_solvers(pilot, app)
        row = app.session.solutions[0]
        assert row.status == "solved" and row.optimal and row.solutions == 3
        assert apply_moves(app.session.state, row.moves).is_solved()
        table = app.query_one("#solutions")
        table.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.state.is_solved()
        await pilot.press("ctrl+z")
        assert app.session.state == alg_state("R U R' F")


@pilot_test
async def test_escape_cancels_a_running_solver(make_app):
    app = make_app(step_seconds=30)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "R U")
        await pilot.press("f5")
        for _ in range(100):
            await pilot.pause(0.05)
            if app.solver_panel.runs and app.solver_panel.runs[0].phase == "search":
                break
        assert app.solver_panel.running
        await pilot.press("escape")
        await wait_solvers(pilot, app, limit=5)
        assert app.session.solutions[0].status == "cancelled"
        assert app.session.state == alg_state("R U")


@pilot_test
async def test_playback_steps_through_a_solution(make_app):
    app = make_app(step_seconds=0.01, improvements=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "R U F")
        await type_line(pilot, ":solve")
        await wait_solvers(pilot, app)
        moves = app.session.solutions[0].moves
        await type_line(pilot, ":play")
        assert app.net.mode == "play" and app.net.has_focus
        await pilot.press("right", "right", "left", "right")
        assert app.net.state == apply_moves(alg_state("R U F"), moves[:2])
        assert app.session.state == alg_state("R U F")   # stepping changes nothing yet
        await pilot.press("enter")
        assert app.session.state == apply_moves(alg_state("R U F"), moves[:2])


@pilot_test
async def test_missing_tables_are_offered_and_built(make_app):
    app = make_app(tables_built=False, build_steps=4, step_seconds=0.01)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "U")
        await type_line(pilot, ":solve fake")
        for _ in range(100):
            await pilot.pause(0.05)
            if isinstance(app.screen, BuildOfferScreen):
                break
        assert isinstance(app.screen, BuildOfferScreen)
        await pilot.press("y")
        await wait_solvers(pilot, app)
        assert app.registry.solver.tables_ready()
        assert app.session.solutions[0].status == "solved"


@pilot_test
async def test_declining_the_tables_skips_the_solver(make_app):
    app = make_app(tables_built=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "U")
        await pilot.press("f5")
        for _ in range(100):
            await pilot.pause(0.05)
            if isinstance(app.screen, BuildOfferScreen):
                break
        await pilot.press("n")
        await wait_solvers(pilot, app)
        assert app.session.solutions[0].status == "skipped"
        assert not app.registry.solver.tables_ready()


@pilot_test
async def test_history_is_persisted_and_walked_with_up(make_app, tmp_path):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "R U")
        await type_line(pilot, ":reset")
        await pilot.press("up")
        assert app.line.value == ":reset"
        await pilot.press("up")
        assert app.line.value == "R U"
        await pilot.press("down", "down")
        assert app.line.value == ""
    assert read_entries(tmp_path / "history") == ["R U", ":reset"]


@pilot_test
async def test_tab_completes_commands(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, ":scr", enter=False)
        await pilot.pause(0.1)                           # the suggester runs in a worker
        await pilot.press("tab")
        assert app.line.value == ":scramble"


@pilot_test
async def test_help_screen_and_save_load(make_app, fresh_dirs):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)
        await type_line(pilot, "[R, U]")
        await type_line(pilot, ":save sexy")
        await type_line(pilot, ":reset")
        await type_line(pilot, ":load sexy")
        assert app.session.state == alg_state("[R, U]")
        assert len(app.session.moves) == 4


@pilot_test
async def test_letters_are_automatic_without_colour(make_app, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.net.letters
        await pilot.press("f2")
        assert not app.net.letters


@pilot_test
async def test_command_palette_runs_session_commands(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*":invert")
        await pilot.pause(0.3)                           # the palette searches in a worker
        await pilot.press("enter")
        await pilot.pause(0.3)
        assert app.session.entry.label == ":invert"


@pilot_test
async def test_escape_during_a_slow_table_build_frees_the_panel(make_app):
    app = make_app(tables_built=False, build_steps=2, build_seconds=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "U")
        await pilot.press("f5")
        for _ in range(100):
            await pilot.pause(0.05)
            if isinstance(app.screen, BuildOfferScreen):
                break
        await pilot.press("y")
        for _ in range(100):
            await pilot.pause(0.05)
            if app.solver_panel.runs[0].phase == "tables":
                break
        await pilot.press("escape")
        assert not app.solver_panel.running              # the build thread may still be stopping
        for _ in range(100):
            await pilot.pause(0.05)
            if app.session.solutions[0].status == "cancelled":
                break
        assert app.session.solutions[0].status == "cancelled"
