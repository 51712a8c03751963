"""Pilot tests of keys and focus: every key of a burst lands in paint mode, a pasted facelet string
paints the cube, editor keys in paint mode, and focus back on the move line after Enter and Esc."""

from __future__ import annotations

from textual import events

from cubelab.cube.facelets import state_colours, to_facelets
from cubelab.cube.moves import alg_state
from cubelab.cube.pieces import FACES, facelet_index
from helpers_apps import until
from test_tui_app import (make_app, message, pilot_test, solve_and_play, type_line,  # noqa: F401
                          wait_solvers)


def burst(widget, text: str) -> None:
    """Queue every key of `text` at once, as a terminal delivers a fast typist or tmux
    send-keys: nothing is handled before the last key is queued."""
    for ch in text:
        widget.post_message(events.Key(ch, ch))


@pilot_test
async def test_a_burst_of_keys_paints_one_sticker_each(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f3")
        burst(app.net, "ggggg")
        await pilot.pause()
        green = FACES.index("F")
        painted = app.session.painting.colours
        assert painted[:5] == [green] * 4 + [FACES.index("U")]   # U5 is a centre: it stays
        assert app.net.cursor == 5 and app.session.painting.cursor == 5
        assert tuple(painted) == app.net.colours


async def paint_all(pilot, app, target, deliver) -> None:
    """Paint mode from a cleared net, deliver(net, facelets of target), and check the net shows
    target."""
    await pilot.press("f3", "ctrl+u")
    deliver(app.net, to_facelets(target))
    await pilot.pause()
    assert list(app.session.painting.colours) == list(state_colours(target))


@pilot_test
async def test_a_typed_facelet_string_paints_the_whole_cube(make_app):
    app = make_app()
    target = alg_state("R U F' D2 L")
    async with app.run_test(size=(80, 24)) as pilot:
        await paint_all(pilot, app, target, burst)
        assert "valid position" in message(app)
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.state == target
        assert app.line.has_focus                         # typing goes to the line again


@pilot_test
async def test_a_pasted_facelet_string_paints_the_whole_cube(make_app):
    app = make_app()
    target = alg_state("B' L2 U R")
    async with app.run_test(size=(80, 24)) as pilot:
        await paint_all(pilot, app, target,
                        lambda net, text: net.post_message(events.Paste(text + "\n")))


@pilot_test
async def test_editor_keys_in_paint_mode(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f3", "g", "g")
        assert app.net.cursor == 2
        await pilot.press("backspace")                   # back one and blank it
        assert app.net.cursor == 1 and app.session.painting.colours[1] == -1
        await pilot.press("home")
        assert app.net.cursor == 0
        await pilot.press("delete")                      # blank under the cursor, stay
        assert app.net.cursor == 0 and app.session.painting.colours[0] == -1
        await pilot.press("end")
        assert app.net.cursor == facelet_index("U9")
        await pilot.press("ctrl+end")
        assert app.net.cursor == 53
        await pilot.press("ctrl+home", "up", "up")       # a column does not wrap round
        assert app.net.cursor == facelet_index("U1")
        assert "paint U1 (1/54)" in app.net.border_title
        await pilot.press("right", "down", "o")          # the centre U5 is not paintable
        assert app.session.painting.colours[facelet_index("U5")] == FACES.index("U")
        assert "U6" in app.net.border_title


@pilot_test
async def test_enter_in_playback_returns_focus_to_the_line(make_app):
    app = make_app(step_seconds=0.01, improvements=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await solve_and_play(pilot, app, "R U F")
        assert app.net.has_focus
        await pilot.press("right", "enter")
        await pilot.pause()
        assert app.line.has_focus
        await type_line(pilot, ":reset")                 # letters go to the line, not the cube
        assert app.session.state.is_identity()


@pilot_test
async def test_escape_always_returns_to_the_line(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("tab")
        assert app.net.has_focus
        await pilot.press("escape")
        assert app.line.has_focus


@pilot_test
async def test_rows_of_the_previous_position_are_marked(make_app):
    app = make_app(step_seconds=0.01, improvements=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await type_line(pilot, "R U F")
        await pilot.press("f5")
        await wait_solvers(pilot, app)
        await type_line(pilot, "D")
        table = app.query_one("#solutions")
        assert "(old)" in str(table.get_row_at(0)[2])

        def detail() -> str:
            box = app.query_one("#solution-detail")
            return "\n".join(box.render_line(y).text for y in range(2))
        await until(pilot, lambda: "previous position" in detail(), "the old row's detail")
        await type_line(pilot, ":apply 1")
        assert "another position" in message(app)


@pilot_test
async def test_facts_that_run_past_the_panel_say_so_and_scroll(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "R U R' U' F2 D L' B2 U' R")
        facts = app.query_one("#facts")
        await until(pilot, lambda: "more lines" in facts.border_subtitle, "the sign")
        facts.focus()
        for _ in range(10):
            await pilot.press("down")
        await until(pilot, lambda: facts.scroll_y > 0 and facts.border_subtitle == "",
                    "the scroll")
