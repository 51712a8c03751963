"""Snapshots of the workbench's main screens at 80x24 and at a wide size (pytest-textual-snapshot).

Update them after a deliberate change of the look with `pytest tests/test_tui_snapshots.py
--snapshot-update`, and look at the report before committing.
"""

from __future__ import annotations

import pytest

from cubelab.solvers.fake import FakeRegistry
from cubelab.tui.app import CubeLabApp
from cubelab.tui.history import InputHistory


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    return CubeLabApp(solvers=FakeRegistry(step_seconds=0.01),
                      history=InputHistory(tmp_path / "history"), compare_time_limit=None)


def steady(pilot) -> None:
    """No blinking cursor (a snapshot must not depend on when it is taken), and colour without
    letters, as on a 256-colour terminal (the headless test console counts as 16 colours)."""
    pilot.app.line.cursor_blink = False
    pilot.app.net.letters = False


def test_moves_preview_80x24(snap_compare, app):
    assert snap_compare(app, press=[*"[R, U]3 y"], terminal_size=(80, 24), run_before=steady)


def test_error_at_column_80x24(snap_compare, app):
    assert snap_compare(app, press=[*"R U2 (F Q"], terminal_size=(80, 24), run_before=steady)


def test_paint_mode_with_letters_80x24(snap_compare, app):
    assert snap_compare(app, press=["f2", "f3", "g", "down", "down", "o"], terminal_size=(80, 24),
                        run_before=steady)


def test_help_80x24(snap_compare, app):
    assert snap_compare(app, press=["f1"], terminal_size=(80, 24), run_before=steady)


async def _solve_and_freeze(pilot) -> None:
    """Solve with the fake solver, then pin the run's time and node counts (they vary)."""
    app = pilot.app
    steady(pilot)
    await pilot.press(*"R U F'", "enter", *":solve", "enter")
    for _ in range(200):
        await pilot.pause(0.05)
        if app.solver_panel.runs and not app.solver_panel.running and not app.solver_panel._timer:
            break
    for row in app.session.solutions:
        row.seconds, row.nodes = 0.25, 12345
    app.solver_panel.refresh_rows()
    await pilot.pause()


def test_solved_wide_140x36(snap_compare, app):
    assert snap_compare(app, run_before=_solve_and_freeze, terminal_size=(140, 36))


def test_solved_80x24(snap_compare, app):
    assert snap_compare(app, run_before=_solve_and_freeze, terminal_size=(80, 24))
