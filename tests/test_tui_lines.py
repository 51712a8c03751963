"""Pilot tests of the move line under a burst of keys: each line runs as typed and in order,
whatever follows its Enter before the app has read it (a fast typist over SSH, tmux send-keys,
a paste), and a line that fails stays selected so that typing replaces it."""

from __future__ import annotations

from textual import events

from cubelab.cube.moves import alg_state
from test_tui_app import make_app, message, pilot_test, type_line, wait_for  # noqa: F401

KEY_NAMES = {"\n": "enter", " ": "space", "\b": "backspace", "\x1b": "escape"}


def burst(app, text: str) -> None:
    """Queue every key of `text` on the app at once, as the terminal driver does when a burst
    arrives in one read: nothing is handled before the last key is queued. \\n is Enter,
    \\b Backspace, \\x1b Esc."""
    for ch in text:
        name = KEY_NAMES.get(ch, ch)
        app.post_message(events.Key(name, ch if ch not in "\b\x1b" else None))


async def settle(pilot, app, entries: int) -> None:
    """Until `entries` lines have reached the history and the queues are empty."""
    await wait_for(pilot, lambda: len(app.history.entries) >= entries, tries=400)
    await pilot.pause()


@pilot_test
async def test_lines_sent_in_one_burst_run_each_as_typed_in_order(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        burst(app, "R U\n:reset\nF\n")
        await settle(pilot, app, 3)
        assert app.history.entries[-3:] == ["R U", ":reset", "F"]
        assert app.session.state == alg_state("F") and app.line.value == ""
        assert "unknown" not in message(app)


@pilot_test
async def test_editing_keys_in_a_burst_act_where_they_were_typed(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        # Backspace twice after "U2" takes "U2" back before "D F" is typed (Backspace
        # handled late would take back what came after it)
        burst(app, "R U2\b\bD F\n")
        await settle(pilot, app, 1)
        assert app.history.entries[-1] == "R D F"
        assert app.session.state == alg_state("R D F")
        burst(app, "L B\x1bD\n")                        # Esc empties the line, D stays
        await settle(pilot, app, 2)
        assert app.history.entries[-1] == "D"


@pilot_test
async def test_a_pasted_block_runs_line_by_line_and_keeps_the_unfinished_last(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.line.post_message(events.Paste("R U\r\n:reset\nF2\nD"))
        await settle(pilot, app, 3)
        assert app.history.entries[-3:] == ["R U", ":reset", "F2"]
        assert app.session.state == alg_state("F2")
        assert app.line.value == "D" and "preview: 1 move" in message(app)


@pilot_test
async def test_a_line_in_error_stays_selected_and_typing_replaces_it(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, ":resett")
        assert "unknown command :resett" in message(app)
        assert app.line.value == ":resett" and app.line.selected_text == ":resett"
        await type_line(pilot, "R U")                    # replaces the failed line
        assert app.history.entries[-1] == "R U" and app.session.state == alg_state("R U")
        await type_line(pilot, "R Q")
        await pilot.press("end", "backspace", "F", "enter")   # or mend it
        await pilot.pause()
        assert app.session.state == alg_state("R U R F")
        burst(app, ":nope\nD\n")                         # the same at full speed
        await settle(pilot, app, 5)
        assert app.history.entries[-2:] == [":nope", "D"]
        assert app.session.state == alg_state("R U R F D")
