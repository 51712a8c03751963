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
from cubelab.solvers import StandIn
from cubelab.tui._build_offer import BuildOfferScreen
from cubelab.tui._help_screen import HelpScreen
from cubelab.tui.app import CubeLabApp
from cubelab.tui.history import InputHistory, read_entries
from cubelab.tui.session import scramble_moves
from helpers_apps import WAIT, run_from_palette, until
from helpers_timing import within
from helpers_search import search_kernels  # noqa: F401  (a fixture)


def pilot_test(body):
    """Run an async test body in its own event loop (no asyncio plugin is assumed)."""
    @functools.wraps(body)
    def run(*args, **kwargs):
        asyncio.run(body(*args, **kwargs))
    return run


@pytest.fixture
def make_app(tmp_path):
    def make(**fake_options):
        registry = StandIn(**fake_options)
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


async def wait_solvers(pilot, app, seconds: float = WAIT) -> None:
    """Until every run has ended and the app has put the outcome on the message line (at
    most `seconds`)."""
    panel = app.solver_panel
    await until(pilot, lambda: not (panel.running or (panel.runs and not panel.settled)),
                "the end of the solvers", seconds)


async def solve_and_play(pilot, app, position: str) -> list:
    """Enter position, solve it, wait for the solvers and start the playback; the moves of the
    first solution."""
    await type_line(pilot, position)
    await type_line(pilot, ":solve")
    await wait_solvers(pilot, app)
    moves = app.session.solutions[0].moves
    await type_line(pilot, ":play")
    return moves


async def wait_for(pilot, condition, tries: int | None = None) -> None:
    """Pause until `condition()` holds (the callers assert it after: this only bounds the wait,
    generously, in time rather than in pauses, which a loaded machine stretches)."""
    try:
        await until(pilot, condition, "the condition",
                    WAIT if tries is None else max(WAIT, 0.2 * tries))
    except AssertionError:
        return


async def wait_offer(pilot, app) -> None:
    """Until the solver's thread has asked whether to build its tables."""
    await wait_for(pilot, lambda: isinstance(app.screen, BuildOfferScreen))
    assert isinstance(app.screen, BuildOfferScreen)


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
        facts_text = screen_text(app.query_one("#facts-body"))
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
        await pilot.press("ctrl+u")                      # blank every sticker but the centres
        assert "48 stickers grey: every corner and edge sticker is grey" in message(app)
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
        await wait_for(pilot, lambda: any(r.phase == "search" for r in app.solver_panel.runs))
        assert app.solver_panel.running
        await type_line(pilot, "F", enter=False)
        await pilot.press("escape")                      # the line's text goes first...
        assert app.solver_panel.running and app.line.value == ""
        await pilot.press("escape")                      # ...then the search
        await wait_solvers(pilot, app, within(5))       # not the 30 s the search would take
        assert app.session.solutions[0].status == "cancelled"
        assert app.session.state == alg_state("R U")
        assert "cancelled" in message(app) and "no solution" not in message(app)


@pilot_test
async def test_playback_steps_through_a_solution(make_app):
    app = make_app(step_seconds=0.01, improvements=0)
    async with app.run_test(size=(80, 24)) as pilot:
        moves = await solve_and_play(pilot, app, "R U F")
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
        await wait_offer(pilot, app)
        await pilot.press("y")
        await wait_solvers(pilot, app)
        assert not app.registry.solver.missing_tables()
        assert app.session.solutions[0].status == "solved"


@pilot_test
async def test_declining_the_tables_skips_the_solver(make_app):
    app = make_app(tables_built=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "U")
        await pilot.press("f5")
        await wait_offer(pilot, app)
        await pilot.press("n")
        await wait_solvers(pilot, app)
        assert app.session.solutions[0].status == "skipped"
        assert app.registry.solver.missing_tables()


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
        await run_from_palette(pilot, ":invert", ":invert")
        await until(pilot, lambda: app.session.entry.label == ":invert", ":invert running")


# ---- the 2x2x2 --------------------------------------------------------------------------------

from cubelab.cube import pocket  # noqa: E402
from cubelab.solvers.protocol import BOUND  # noqa: E402


@pilot_test
async def test_f4_switches_to_the_2x2_and_undo_switches_back(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "R U")
        await pilot.press("f4")
        assert app.session.puzzle.name == "2x2"
        assert app.net.state == pocket.from_alg("R U").state
        assert len(app.net.render().colours) == 24
        assert app.net.has_class("-pocket")
        facts = screen_text(app.query_one("#facts-body"))
        assert "3-cycles" in facts and "edges" not in facts and "2 HTM  2 QTM" in facts
        assert "2x2x2" in app.query_one("#facts").border_title
        await type_line(pilot, "M")                      # no middle layer on a 2x2x2
        assert "no middle layer" in message(app) and len(app.session.moves) == 2
        app.net.focus()
        await pilot.press("i")                           # the keyboard cube turns R
        assert app.session.state == pocket.from_alg("R U R").state
        await pilot.press("ctrl+z", "ctrl+z")
        assert app.session.puzzle.name == "3x3" and app.session.state == alg_state("R U")
        assert len(app.net.render().colours) == 54 and not app.net.has_class("-pocket")


@pilot_test
async def test_paint_mode_on_the_2x2(make_app):
    app = make_app()
    target = pocket.from_alg("U R'").state
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, ":puzzle 2x2")
        await pilot.press("f3", "ctrl+u")
        assert "24 stickers grey: the 2x2x2 is entered whole" in message(app)
        await pilot.press(*(COLOUR_OF_FACE[FACES[c]].lower() for c in pocket.state_colours(target)))
        assert "valid position" in message(app)
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.state == target and app.net.mode == "turn"


@pilot_test
async def test_the_2x2_is_solved_optimally_with_the_pocket_solver(tmp_path):
    app = CubeLabApp(solvers=StandIn(), history=InputHistory(tmp_path / "history"),
                     compare_time_limit=None, puzzle="2x2")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "R U F' R2")
        await type_line(pilot, ":solve")
        for _ in range(1200):                            # the first run builds the table
            await pilot.pause(0.05)
            if isinstance(app.screen, BuildOfferScreen):
                await pilot.press("y")
            if app.session.solutions and app.session.solutions[0].status == "solved":
                break
        await wait_solvers(pilot, app)
        row = app.session.solutions[0]
        assert row.solver == "pocket-htm" and row.optimal and len(row.moves) == 4
        assert "1 pocket-htm (4 moves): " in screen_text(app.query_one("#solution-detail"))
        app.query_one("#solutions").focus()
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.state.is_rotation()


# ---- :search ----------------------------------------------------------------------------------

async def wait_search(pilot, app, limit: float = 90.0) -> None:
    panel = app.search_panel
    waited = 0.0
    while panel.running or not panel.settled:
        await pilot.pause(0.05)
        waited += 0.05
        assert waited < limit, "the search did not finish"
    await pilot.pause()


@pilot_test
async def test_search_streams_results_then_applies_and_plays_them(make_app, search_kernels):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, ":search 7 ll")
        assert app.query_one("#lists").current == "search"
        await wait_search(pilot, app)
        found = app.session.found
        table = app.query_one("#found")
        assert found and table.row_count == len(found)
        assert all(c.length <= 7 for c in found) and found[0].length == 6      # R U B U' B' R'
        assert "classes found" in message(app)
        assert found[0].moves[0].family in "URFDLB"
        table.focus()
        await pilot.press("down", "enter")
        await pilot.pause()
        effect = apply_moves(CubeState.identity(), found[1].moves)
        assert app.session.state == effect
        for slot in range(4, 8):                         # only the U layer changed
            assert effect.cp[slot] == slot and effect.co[slot] == 0
        await pilot.press("ctrl+z")
        table.focus()
        await pilot.press("p")
        assert app.net.mode == "play" and app.session.playback.moves == list(found[1].moves)
        await pilot.press("escape")
        await pilot.press("f7")                          # back to the solver table
        assert app.query_one("#lists").current == "solver"
        assert app.session.listing == "solutions"


@pilot_test
async def test_escape_stops_a_long_search(make_app, search_kernels):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, ":search 12 ll")
        panel = app.search_panel
        # a fresh install compiles first
        await wait_for(pilot, lambda: panel.run.counters[BOUND] >= 9, tries=1800)
        await pilot.press("escape")
        await wait_search(pilot, app, limit=5)
        assert panel.run.result.status == "cancelled" and panel.run.result.lengths_done < 12
        assert message(app).startswith("cancelled after length")
        assert "cancelled" in screen_text(app.query_one("#search-progress"))
