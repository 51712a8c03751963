"""Solver rows of a previous position (issue 39): they stay, marked old; Enter on one says which
position it is for and what to do; Ctrl+L (or :clear) takes them away, not while solvers run."""

from __future__ import annotations

import asyncio

from cubelab.cube.moves import alg_state
from cubelab.solvers import StandIn
from cubelab.tui.app import CubeLabApp
from cubelab.tui.history import InputHistory
from cubelab.tui.records import SolutionRow
from cubelab.tui.session import Session
from helpers_apps import until


def message(app) -> str:
    box = app.query_one("#message")
    return " ".join(box.render_line(y).text.strip() for y in range(box.size.height)).strip()


async def type_line(pilot, text: str) -> None:
    await pilot.press(*text, "enter")
    await pilot.pause()


def test_enter_on_an_old_row_says_whose_it_is_and_ctrl_l_clears_it(tmp_path):
    app = CubeLabApp(solvers=StandIn(step_seconds=0.01, improvements=0),
                     history=InputHistory(tmp_path / "h"), compare_time_limit=None)

    async def body():
        async with app.run_test(size=(100, 30)) as pilot:
            panel = app.solver_panel
            await type_line(pilot, "R U F")
            await pilot.press("f5")
            await until(pilot, lambda: panel.runs and not panel.running and panel.settled,
                        "the solve")
            await type_line(pilot, "D")
            await type_line(pilot, "L")
            table = app.query_one("#solutions")
            assert "solved (old)" in str(table.get_row_at(0)[2])     # kept, marked old
            table.focus()
            await pilot.pause()
            await pilot.press("enter")
            await until(pilot, lambda: "was found for" in message(app), "the answer")
            assert message(app) == ("row 1 (fake) was found for the position 2 undo steps "
                                    "back, not this one: F5 solves this one, Ctrl+L clears "
                                    "the old rows")
            assert app.session.state == alg_state("R U F D L")          # nothing applied
            await pilot.press("p")                                      # nor played
            assert app.session.playback is None
            await pilot.press("ctrl+l")
            await until(pilot, lambda: not app.session.solutions, "the clearing")
            assert table.row_count == 0
            assert message(app) == "cleared 1 solver row of previous positions"
            await pilot.press("ctrl+l")
            await until(pilot, lambda: "no solver rows" in message(app), "the second answer")
    asyncio.run(body())


def test_a_row_of_a_position_no_longer_in_the_history_says_another_position():
    s = Session()
    s.execute("R")
    s.solutions = [SolutionRow("fake", s.state, [], status="solved")]
    s.execute(":reset")
    s.execute(":undo")
    s.execute("U")                              # R is behind; the row's position is not
    s.solutions[0].for_state = alg_state("F")
    outcome = s.apply_row(0)
    assert outcome.error and "another position" in outcome.message


def test_clear_keeps_the_rows_of_this_position_and_waits_for_running_solvers():
    s = Session()
    s.execute("R")
    old = SolutionRow("fake", s.state, [], status="solved")
    s.execute("U")
    mine = SolutionRow("fake", s.state, [], status="solved")
    s.solutions = [old, mine]
    running = SolutionRow("other", s.state, status="search")
    s.solutions.append(running)
    outcome = s.execute(":clear")
    assert outcome.error and "still running" in outcome.message and len(s.solutions) == 3
    running.status = "cancelled"
    outcome = s.execute(":clear")
    assert not outcome.error and s.solutions == [mine, running]
    assert outcome.message == "cleared 1 solver row of previous positions"


def test_a_run_follows_its_row_when_old_rows_go(tmp_path):
    """After :clear the rows move up: each run still writes into its own row."""
    app = CubeLabApp(solvers=StandIn(step_seconds=0.01, improvements=0),
                     history=InputHistory(tmp_path / "h"), compare_time_limit=None)

    async def body():
        async with app.run_test(size=(100, 30)) as pilot:
            panel = app.solver_panel
            await type_line(pilot, "R")
            stale = SolutionRow("old", alg_state("F"), [], status="solved")
            await type_line(pilot, ":solve")
            await until(pilot, lambda: panel.runs and not panel.running and panel.settled,
                        "the solve")
            app.session.solutions.insert(0, stale)       # an old row above the solver's
            panel._runs = [(1, run) for _, run in panel._runs]
            panel.refresh_rows()
            await type_line(pilot, ":clear")
            assert [r.solver for r in app.session.solutions] == ["fake"]
            assert [index for index, _ in panel._runs] == [0]
            table = app.query_one("#solutions")
            assert table.row_count == 1 and "solved" in str(table.get_row_at(0)[2])
    asyncio.run(body())
