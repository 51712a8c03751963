"""The solver panel's poll on a loaded machine (issue 39): a run that ends between the moment
its row is filled and the moment the panel asks whether runs are left is still reported with
its final status (once seen as 'search' where 'solved' was expected)."""

from __future__ import annotations

import asyncio

from cubelab.solvers import StandIn
from cubelab.tui.app import CubeLabApp
from cubelab.tui.history import InputHistory
from cubelab.tui.runner import SolverRun
from helpers_apps import until


def test_a_run_ending_right_after_its_row_was_filled_is_reported_solved(tmp_path, monkeypatch):
    fill = SolverRun.fill
    held = []

    def fill_then_end(run, row):
        """Fill the row; the first time the search is seen, let the run end just after (what
        a busy machine does to the UI thread between two statements)."""
        fill(run, row)
        if run.phase == "search" and not held:
            held.append(run)
            assert run.done.wait(120), "the fake solve did not end"

    monkeypatch.setattr(SolverRun, "fill", fill_then_end)
    # long enough in its search for a poll to see it there (0.05 s could end between polls)
    app = CubeLabApp(solvers=StandIn(step_seconds=1.0, improvements=0),
                     history=InputHistory(tmp_path / "h"), compare_time_limit=None)

    async def body():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press(*"R U", "enter", *":solve", "enter")
            panel = app.solver_panel
            await until(pilot, lambda: held and panel.runs and not panel.running
                        and panel.settled, "the end of the solve")
            assert app.session.solutions[0].status == "solved"
            assert "solved" in str(app.query_one("#solutions").get_row_at(0)[2])
    asyncio.run(body())
