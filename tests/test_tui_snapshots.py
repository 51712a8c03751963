"""Snapshots of the workbench's main screens at 80x24 and at a wide size (pytest-textual-snapshot).

Update them after a deliberate change of the look with `pytest tests/test_tui_snapshots.py
--snapshot-update`, and look at the report before committing.
"""

from __future__ import annotations

import pytest

from cubelab.solvers import StandIn
from cubelab.tui.runner import SearchRun
from cubelab.tui.app import CubeLabApp
from cubelab.tui.history import InputHistory


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    return CubeLabApp(solvers=StandIn(step_seconds=0.01),
                      history=InputHistory(tmp_path / "history"), compare_time_limit=None)


def steady(pilot) -> None:
    """No blinking cursor and no moves turning (a snapshot must not depend on when it is
    taken), and colour without letters, as on a 256-colour terminal (the headless test
    console counts as 16 colours)."""
    pilot.app.line.cursor_blink = False
    pilot.app.net.letters = False
    pilot.app.net.animate_allowed = False


def test_moves_preview_80x24(snap_compare, app):
    assert snap_compare(app, press=[*"[R, U]3 y"], terminal_size=(80, 24), run_before=steady)


def test_error_at_column_80x24(snap_compare, app):
    assert snap_compare(app, press=[*"R U2 (F Q"], terminal_size=(80, 24), run_before=steady)


def test_paint_mode_with_letters_80x24(snap_compare, app):
    assert snap_compare(app, press=["f2", "f3", "g", "down", "down", "o"], terminal_size=(80, 24),
                        run_before=steady)


def test_a_painted_masked_position_keeps_its_grey_stickers_80x24(snap_compare, app):
    # U1-U3 painted grey (unknown), the picture kept, then R: the grey stickers travel
    assert snap_compare(app, press=["f3", "asterisk", "asterisk", "asterisk", "enter",
                                    "R", "enter"], terminal_size=(80, 24), run_before=steady)


def test_help_80x24(snap_compare, app):
    assert snap_compare(app, press=["f1"], terminal_size=(80, 24), run_before=steady)


async def _solve_and_freeze(pilot) -> None:
    """Solve with the fake solver, then pin the run's time and node counts (they vary)."""
    app = pilot.app
    steady(pilot)
    await pilot.press(*"R U F'", "enter", *":solve", "enter")
    for _ in range(200):
        await pilot.pause(0.05)
        if app.solver_panel.runs and not app.solver_panel.running and app.solver_panel.settled:
            break
    for row in app.session.solutions:
        row.seconds, row.nodes = 0.25, 12345
    app.solver_panel.refresh_rows()
    await pilot.pause()


def test_solved_wide_140x36(snap_compare, app):
    assert snap_compare(app, run_before=_solve_and_freeze, terminal_size=(140, 36))


def test_solved_80x24(snap_compare, app):
    assert snap_compare(app, run_before=_solve_and_freeze, terminal_size=(80, 24))


def test_pocket_cube_80x24(snap_compare, app):
    """The 2x2x2 after F4: its net centred in the same box, its facts, its solvers' table."""
    assert snap_compare(app, press=[*"R U R' F", "enter", "f4"], terminal_size=(80, 24),
                        run_before=steady)


LAST_LAYER_UP_TO_7 = ("R U B U' B' R'", "U R U B U' B' R'", "U R B U B' U' R'",
                      "U2 R U B U' B' R'", "R U R' U R U2 R'", "R U' L' U R' U' L",
                      "R B U B' U' R'")
"""Sequences shaped like the classes `:search 7 ll` lists (the look is what is tested here; the
Pilot tests run the real search)."""


class InstantSearch(SearchRun):
    """A search run that 'finds' LAST_LAYER_UP_TO_7 at once, without numba or timing."""

    def _work(self) -> None:
        from cubelab.cube.moves import alg_state
        from cubelab.cube.notation import metric_lengths, parse_moves
        from cubelab.cube.symmetry import morph
        from cubelab.solvers.algsearch import AlgClass, SearchResult
        for text in LAST_LAYER_UP_TO_7:
            moves = parse_moves(text)
            length = metric_lengths(moves)["htm"]
            effect = alg_state(text)
            self._found(AlgClass(moves, length, effect, morph(effect), {length: 16}))
        self.result = SearchResult(self.request.predicate, "htm", self.request.max_length,
                                   list(self.classes), 16 * len(self.classes), 0.25, "done",
                                   self.request.max_length)


async def _search(pilot) -> None:
    app = pilot.app
    steady(pilot)
    await pilot.press(*":search 7 ll", "enter")
    for _ in range(100):
        await pilot.pause(0.05)
        if not app.search_panel.running and app.search_panel.settled:
            break
    await pilot.pause()


def test_search_results_80x24(snap_compare, app, monkeypatch):
    monkeypatch.setattr("cubelab.tui.runner.SearchRun", InstantSearch)
    assert snap_compare(app, run_before=_search, terminal_size=(80, 24))


def test_large_net_and_playback_160x48(snap_compare, app):
    """A large terminal: larger stickers with their grid, and the applied sequence with the
    playback cursor in it."""
    async def play(pilot) -> None:
        await _solve_and_freeze(pilot)
        await pilot.press(*":play", "enter", "right")
        await pilot.pause()
    assert snap_compare(app, run_before=play, terminal_size=(160, 48))


def test_an_error_far_along_the_line_wraps_80x24(snap_compare, app):
    assert snap_compare(app, press=[*"R U R' U' F2 D L' B2 U' R F D2 L B' R2 U F' D' Q"],
                        terminal_size=(80, 24), run_before=steady)


def test_pattern_with_its_symmetry_80x24(snap_compare, app):
    assert snap_compare(app, press=[*":pattern cube-in-a-cube", "enter"], terminal_size=(80, 24),
                        run_before=steady)


def test_a_long_answer_in_its_pane_80x24(snap_compare, app):
    """:patterns opens whole in the output pane over the workbench."""
    assert snap_compare(app, press=[*":patterns", "enter"], terminal_size=(80, 24),
                        run_before=steady)


def test_the_focus_on_the_net_shows_80x24(snap_compare, app):
    """Tab to the keyboard cube: the net's edge lights up and says what its keys do; the
    move line's bar goes dim."""
    assert snap_compare(app, press=[*"R U", "tab"], terminal_size=(80, 24), run_before=steady)


def test_cancelling_a_build_asks_first_80x24(snap_compare, tmp_path, monkeypatch):
    """F9 while tables are built: the question, over the progress bar."""
    monkeypatch.delenv("NO_COLOR", raising=False)
    # the bar's time left and the machine's load vary from run to run: fixed words here
    from cubelab.tui import build_progress
    monkeypatch.setattr(build_progress, "busy", lambda load: "")
    monkeypatch.setattr(build_progress, "duration", lambda seconds: "about a minute")
    monkeypatch.setattr(build_progress, "so_far", lambda seconds: "a moment")
    app = CubeLabApp(solvers=StandIn(tables_built=False, build_steps=1, build_seconds=60),
                     history=InputHistory(tmp_path / "history"), compare_time_limit=None)

    async def ask(pilot) -> None:
        steady(pilot)
        await pilot.press("f5")
        for _ in range(400):
            await pilot.pause(0.05)
            if pilot.app.screen.__class__.__name__ == "BuildOfferScreen":
                break
        await pilot.press("y")
        for _ in range(400):
            await pilot.pause(0.05)
            if pilot.app.solver_panel.building:
                break
        await pilot.press("f9")
        await pilot.pause()
    assert snap_compare(app, run_before=ask, terminal_size=(80, 24))


def test_a_row_longer_than_its_space_says_so_80x24(snap_compare, app):
    """A CFOP solution's steps under the table: what fits, a scroll bar, and the sign."""
    from test_tui_layout import show_cfop_row

    async def show(pilot) -> None:
        steady(pilot)
        show_cfop_row(pilot.app)
        await pilot.pause()
    assert snap_compare(app, run_before=show, terminal_size=(80, 24))


def test_3d_view_80x24(snap_compare, app):
    """The cube in 3-D in the net's box: a cabinet view, its stickers apart, the memo below."""
    assert snap_compare(app, press=[*"R U R' F2 D", "enter", "f8"], terminal_size=(80, 24),
                        run_before=steady)


def test_3d_view_turned_japanese_140x36(snap_compare, app):
    """A large screen: the isometric view, turned to show D (two presses of up on the net),
    in the Japanese colour scheme (D blue)."""
    assert snap_compare(app, press=[*":scheme japanese", "enter", *"R U R' F2 D", "enter",
                                    "f8", "tab", "up", "up"],
                        terminal_size=(140, 36), run_before=steady)


FMC_SCRAMBLE = "R' U' F D2 L2 F R2 U2 R2 B D2 L B2 D' B' L2 U' R' D' F' U2 R' U' F"


async def _fmc_steps(pilot) -> None:
    """An EO applied, then a DR step's candidates listed (the real step search: milliseconds
    once its small tables are made in the test's data folder)."""
    from helpers_apps import until
    app = pilot.app
    steady(pilot)
    panel = app.fmc_panel
    await pilot.press(*FMC_SCRAMBLE, "enter")
    await pilot.press(*":fmc eo --axis fb -n 3", "enter")
    await until(pilot, lambda: panel.settled and not panel.running, "the EO candidates")
    await pilot.press(*":fmc apply 1", "enter")
    await pilot.press(*":fmc dr --axis ud --niss never -n 3", "enter")
    await until(pilot, lambda: panel.settled and not panel.running, "the DR candidates")
    await pilot.pause()


def test_fmc_steps_with_the_chain_80x24(snap_compare, app):
    assert snap_compare(app, run_before=_fmc_steps, terminal_size=(80, 24))


async def _gen_cases(pilot) -> None:
    """Two PLL cases generated in <R,U> (two algs each), the second row highlighted; the
    seconds and nodes of each case are pinned (they vary with the machine and the tables)."""
    from helpers_apps import until
    app = pilot.app
    steady(pilot)
    panel = app.gen_panel
    await pilot.press(*':gen pll --moves RU --cases "Ua,Ub" -n 2', "enter")
    await until(pilot, lambda: panel.run is not None and panel.settled
                and not panel.run.active, "the end of the generation")
    for row in app.session.gen.rows:
        row.record["seconds"], row.record["nodes"] = 0.25, 1234
    app.query_one("#gen-table").focus()
    await pilot.press("down")
    await pilot.pause()


def test_gen_cases_and_their_algs_80x24(snap_compare, app, monkeypatch):
    from cubelab.tables.goals import plan
    monkeypatch.setattr(plan, "BALL_NODES", 150_000)
    assert snap_compare(app, run_before=_gen_cases, terminal_size=(80, 24))
