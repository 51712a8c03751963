"""Pilot tests of Esc and F9 while tables are built: Esc empties the line first and never stops a
build (it still stops searches: test_tui_app.py); F9 asks, N keeps the build going, Y cancels
it."""

from __future__ import annotations

from cubelab.tui._confirm_screen import ConfirmScreen
from test_tui_app import (make_app, message, pilot_test, type_line, wait_for,  # noqa: F401
                          wait_offer)


async def start_slow_build(pilot, app) -> None:
    """Solve with the fake solver whose pretend tables take a while, and say yes to them."""
    await type_line(pilot, "U")
    await pilot.press("f5")
    await wait_offer(pilot, app)
    await pilot.press("y")
    runs = app.solver_panel.runs
    await wait_for(pilot, lambda: runs[0].phase == "tables", tries=400)
    assert runs[0].phase == "tables" and runs[0].active


@pilot_test
async def test_escape_empties_the_line_and_leaves_a_table_build_alone(make_app):
    app = make_app(tables_built=False, build_steps=4, build_seconds=30)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_slow_build(pilot, app)
        run = app.solver_panel.runs[0]
        await type_line(pilot, "R U", enter=False)
        await pilot.press("escape")                          # the line first
        assert app.line.value == "" and run.active and not run.cancel[0]
        await pilot.press("escape")                          # an empty line: the build goes on
        assert run.active and not run.cancel[0]
        assert "build" in message(app) and "F9 cancels it" in message(app)
        await type_line(pilot, ":solve")                     # no second run meanwhile
        assert "F9 cancels it" in message(app)
        run.stop()                                           # (the test's own clean-up)


@pilot_test
async def test_f9_asks_before_it_cancels_a_build(make_app):
    app = make_app(tables_built=False, build_steps=4, build_seconds=30)
    async with app.run_test(size=(80, 24)) as pilot:
        assert not app.active_bindings.get("f9")             # no build: no F9 in the footer
        await start_slow_build(pilot, app)
        await pilot.pause(0.3)
        assert app.active_bindings["f9"].binding.description == "stop build"
        run = app.solver_panel.runs[0]
        await pilot.press("f9")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "Cancel the fake tables build (" in app.screen.question
        await pilot.press("n")                               # keep building
        assert not isinstance(app.screen, ConfirmScreen) and run.active and not run.cancel[0]
        assert app.line.has_focus and "goes on" in message(app)
        await pilot.press("f9")
        await pilot.pause()
        await pilot.press("escape")                          # Esc in the question is a no too
        assert run.active and not run.cancel[0]
        await pilot.press("f9")
        await pilot.pause()
        await pilot.press("y")
        assert run.cancel[0] and app.line.has_focus
        await wait_for(pilot, lambda: app.session.solutions[0].status == "cancelled")
        assert app.session.solutions[0].status == "cancelled"
        assert "tables already built stay on disk" in message(app)
