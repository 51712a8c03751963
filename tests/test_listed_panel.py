"""The workbench's solutions panel (issue 34): a list solve (`:solve --goal X --all`, `-n N`,
`--within K`) fills it while the goal search runs, row by row (length, cost, finger-trick
cost, AUF), a row is applied or played as the solver rows are, and a cancel keeps the rows
found so far. The search is held after its first solution (the goal solver's `find` wrapped)
so the test sees that row while the run is still going, on any machine, however loaded."""

from __future__ import annotations

import asyncio
import threading

import pytest

from cubelab.cube.goal_catalog import resolve_goal
from cubelab.cube.moves import alg_state, apply_moves
from cubelab.solvers import REGISTRY
from cubelab.solvers.goals import solver as goal_solver
from cubelab.tui._build_offer import BuildOfferScreen
from cubelab.tui.app import CubeLabApp
from cubelab.tui.history import InputHistory
from helpers_apps import until

SCRAMBLE = "R U F' L2 D B"


@pytest.fixture
def held(monkeypatch):
    """The goal search, held after its first solution until `release` is set."""
    release = threading.Event()
    first = threading.Event()
    real = goal_solver.find

    def find(*args, on_solution=None, **kwargs):
        def told(solution):
            on_solution(solution)
            first.set()
            release.wait(120)
        return real(*args, on_solution=told if on_solution else None, **kwargs)
    monkeypatch.setattr(goal_solver, "find", find)
    return first, release


async def _start(pilot, app, line: str) -> None:
    await pilot.press(*SCRAMBLE, "enter")
    await pilot.press(*line, "enter")

    def offered() -> bool:
        if isinstance(app.screen, BuildOfferScreen):
            app.screen.action_answer(True)      # build the goal's tables (small: a cross)
        return bool(app.session.listed)
    await until(pilot, offered, "the first solution's row")


def _panel_text(app) -> str:
    """The panel's progress line and its table as shown."""
    shown = [app.query_one("#listed-progress"), app.query_one("#listed-table")]
    return "\n".join(w.render_line(y).text for w in shown for y in range(w.size.height))


def test_rows_come_while_the_search_runs_and_each_applies(tmp_path, held):
    first, release = held

    async def main():
        app = CubeLabApp(solvers=REGISTRY, history=InputHistory(tmp_path / "h"),
                         compare_time_limit=None)
        async with app.run_test(size=(100, 30)) as pilot:
            await _start(pilot, app, ":solve --goal cross --within 1")
            run = app.listed_panel.run
            # one row on show while the search is held mid-way: it streams
            assert run.active and len(app.session.listed) == 1
            assert app.query_one("#lists").current == "listed"
            await until(pilot, lambda: "1 solution so far" in _panel_text(app), "the count")
            assert "1 solution so far" in _panel_text(app)
            row = app.session.listed[0]
            assert row.record["length"]["htm"] == len(row.moves) == 4
            release.set()
            await until(pilot, lambda: app.listed_panel.settled and not run.active,
                        "the end of the list solve")
            listed = app.session.listed
            # ranked as the solver ranks them: every optimal cross, then one move more
            assert [r.text for r in listed] == [s["solution"]
                                                for s in run.result.detail["solutions"]]
            lengths = [r.record["length"]["htm"] for r in listed]
            assert lengths == sorted(lengths) and set(lengths) == {4, 5}
            assert "complete" in _panel_text(app)
            message = app.query_one("#message").render_line(0).text
            assert f"{len(listed)} solutions, complete" in message
            # a row played, then applied (Enter on the table), as a solver row is
            table = app.query_one("#listed-table")
            table.focus()
            await pilot.press("down", "down")
            third = listed[2]
            await pilot.press("p")
            await pilot.pause()
            assert app.session.playback is not None
            assert list(app.session.playback.moves) == list(third.moves)
            await pilot.press("escape")
            await pilot.pause()
            table.focus()
            await pilot.press("enter")
            await pilot.pause()
            state = apply_moves(alg_state(SCRAMBLE), list(third.moves))
            assert app.session.state == state
            assert resolve_goal("cross")[0].is_met(state)
            # the rows now belong to the position before: dimmed and refused
            assert app.session.execute(":apply 1").error
    asyncio.run(main())


def test_a_cancel_keeps_the_rows_found_so_far(tmp_path, held):
    first, release = held

    async def main():
        app = CubeLabApp(solvers=REGISTRY, history=InputHistory(tmp_path / "h"),
                         compare_time_limit=None)
        async with app.run_test(size=(80, 24)) as pilot:
            await _start(pilot, app, ":solve --goal cross --all")
            run = app.listed_panel.run
            app.line.focus()
            await pilot.press("escape")             # Esc on an empty line stops the solvers
            release.set()
            await until(pilot, lambda: app.listed_panel.settled and not run.active,
                        "the end of the cancelled list solve")
            assert run.result is not None and run.result.status == "cancelled"
            listed = app.session.listed
            assert listed and all(r.record["length"]["htm"] == 4 for r in listed)
            assert "cancelled: " in _panel_text(app) and "found so far" in _panel_text(app)
            out = app.session.execute(":apply 1")
            assert not out.error
            assert resolve_goal("cross")[0].is_met(app.session.state)
    asyncio.run(main())


def test_f7_goes_through_the_three_lists(tmp_path):
    async def main():
        from cubelab.solvers import StandIn
        app = CubeLabApp(solvers=StandIn(), history=InputHistory(tmp_path / "h"),
                         compare_time_limit=None)
        async with app.run_test(size=(80, 24)) as pilot:
            seen = []
            for _ in range(3):
                await pilot.press("f7")
                await pilot.pause()
                seen.append((app.query_one("#lists").current, app.session.listing))
            assert seen == [("listed", "listed"), ("search", "search"),
                            ("solver", "solutions")]
            assert app.session.execute(":apply 1").error
    asyncio.run(main())
