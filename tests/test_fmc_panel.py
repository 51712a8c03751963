"""The FMC step panel (issue 35, "The workbench"): `:fmc start`, a step's candidates listed
while its search runs, one applied (the position is the one niss.py says the step leaves, NISS
included), the chain with its step labels on screen, a second step, undo back, the inverse
side on a key; the same commands in the REPL. The step search is held after its first
candidate (solve_step's on_solution wrapped) so the test sees that row while the run is still
going, on any machine, however loaded."""

from __future__ import annotations

import asyncio
import io
import threading

import pytest

from cubelab.cube.goal_catalog import resolve_goal
from cubelab.cube.moves import alg_state
from cubelab.solvers import StandIn
from cubelab.solvers.fmc import niss
from cubelab.solvers.fmc.niss import StepSolution, solve_step
from cubelab.cube.facelets import to_facelets
from cubelab.tui._output_screen import OutputScreen
from cubelab.tui.app import CubeLabApp
from cubelab.tui.history import InputHistory
from helpers_apps import until

SCRAMBLE = "R' U' F D2 L2 F R2 U2 R2 B D2 L B2 D' B' L2 U' R' D' F' U2 R' U' F"


def _met(goal: str, state) -> bool:
    return any(g.is_met(state) for g in resolve_goal(goal, state))


@pytest.fixture
def held(monkeypatch):
    """The step search, held after its first candidate until `release` is set."""
    release = threading.Event()
    first = threading.Event()
    real = niss.solve_step

    def wrapped(*args, on_solution=None, **kwargs):
        def told(solution):
            on_solution(solution)
            first.set()
            release.wait(120)
        return real(*args, on_solution=told if on_solution else None, **kwargs)
    monkeypatch.setattr(niss, "solve_step", wrapped)
    return first, release


def _answer(app) -> str:
    """The answer of the last line: the message line, or the output pane a long one opens."""
    if isinstance(app.screen, OutputScreen):
        return app.screen.text.plain
    return app.query_one("#message").render().plain


def _shown(app, *ids) -> str:
    return "\n".join(w.render_line(y).text for w in (app.query_one(i) for i in ids)
                     for y in range(w.size.height))


async def _line(pilot, text: str) -> None:
    await pilot.press(*text, "enter")


def test_a_step_streams_applies_and_undoes_in_the_workbench(tmp_path, held):
    first, release = held
    scramble = alg_state(SCRAMBLE)

    async def main():
        app = CubeLabApp(solvers=StandIn(), history=InputHistory(tmp_path / "h"),
                         compare_time_limit=None)
        async with app.run_test(size=(110, 36)) as pilot:
            s = app.session
            await _line(pilot, SCRAMBLE)
            await _line(pilot, ":fmc start")
            assert s.fmc is not None and s.fmc.scramble == scramble
            assert app.query_one("#lists").current == "fmc"
            await _line(pilot, ":fmc eo --axis fb --niss always -n 3")
            panel = app.fmc_panel
            await until(pilot, lambda: len(s.fmc.candidates) >= 1, "the first candidate's row")
            run = panel.run
            # a row on show while the search is held mid-way: the candidates stream
            assert run.active and len(s.fmc.candidates) == 1
            await until(pilot, lambda: "1 candidate so far" in _shown(app, "#fmc-progress"),
                        "the count while searching")
            assert "EO fb" in _shown(app, "#fmc-table")
            release.set()
            await until(pilot, lambda: panel.settled and not run.active, "the end of the step")
            expected = solve_step(scramble, "eo:fb", "all", "always", n=3)
            assert [c.solution for c in s.fmc.candidates] == expected.solutions
            assert "3 candidates" in _shown(app, "#fmc-progress")
            # Enter on the first row applies it: the position the step leaves, B' P A
            app.query_one("#fmc-table").focus()
            await pilot.press("enter")
            best = expected.solutions[0]
            await until(pilot, lambda: len(s.fmc.chain.steps) == 1, "the EO applied")
            assert s.state == best.after(scramble) and _met("eo:fb", s.state)
            assert app.net.state == s.state
            chain_line = _shown(app, "#fmc-chain")
            assert "EO fb" in chain_line and best.text.split(" ^")[0] in chain_line
            # a DR after it (normal side only), the second candidate applied by number
            await _line(pilot, ":fmc dr --axis ud --niss never -n 2")
            await until(pilot, lambda: panel.settled and not panel.run.active
                        and len(s.fmc.candidates) == 2, "the DR candidates")
            after_eo = s.state
            second = s.fmc.candidates[1]
            dr = solve_step(after_eo, "dr:ud", "eo-fb", "never", n=2)
            assert {c.solution.text for c in s.fmc.candidates} == \
                {x.text for x in dr.solutions}
            await _line(pilot, ":fmc apply 2")
            assert s.state == second.solution.after(after_eo) and _met("dr:ud", s.state)
            labels = _shown(app, "#fmc-chain")
            assert "EO fb" in labels and "DR ud" in labels
            await _line(pilot, ":fmc")         # the steps with their labels, FMC notation
            assert "// DR ud" in _answer(app) and "// EO fb" in _answer(app)
            if isinstance(app.screen, OutputScreen):
                await pilot.press("escape")
            # undo goes back to the position after the EO, the chain loses its DR
            await _line(pilot, ":fmc undo")
            assert s.state == after_eo and len(s.fmc.chain.steps) == 1
            assert "DR" not in _shown(app, "#fmc-chain")
            # F10: the inverse side on the net, again: the normal side
            await pilot.press("f10")
            await until(pilot, lambda: app.net.state == after_eo.inverse(), "the inverse side")
            assert "inverse" in app.net.border_title
            await pilot.press("f10")
            await until(pilot, lambda: app.net.state == after_eo, "the normal side again")
            # bad input: one message, the workbench goes on
            for bad, words in ((":fmc htr", "follows a DR"), (":fmc eo --niss sometimes",
                                                              "unknown mode"),
                               (":fmc apply 9", "candidate"), (":fmc dr --axis fb",
                                                                "cannot follow")):
                await _line(pilot, bad)
                said = app.query_one("#message").render().plain
                assert words in said, (bad, said)
                app.line.value = ""
            await _line(pilot, ":fmc done")
            assert s.fmc is None and s.state == after_eo
    asyncio.run(main())


def test_esc_stops_a_step_and_the_rows_found_stay(tmp_path, held):
    first, release = held

    async def main():
        app = CubeLabApp(solvers=StandIn(), history=InputHistory(tmp_path / "h"),
                         compare_time_limit=None)
        async with app.run_test(size=(100, 30)) as pilot:
            s = app.session
            await _line(pilot, SCRAMBLE)
            await _line(pilot, ":fmc eo --niss always -n 5")       # starts FMC by itself
            await until(pilot, lambda: s.fmc is not None and len(s.fmc.candidates) >= 1,
                        "the first candidate")
            await pilot.press("escape")
            release.set()
            run = app.fmc_panel.run
            await until(pilot, lambda: app.fmc_panel.settled and not run.active, "the stop")
            assert run.status == "cancelled" and len(s.fmc.candidates) >= 1
            assert "cancelled" in _shown(app, "#fmc-progress")
            await _line(pilot, ":fmc apply 1")
            assert len(s.fmc.chain.steps) == 1 and _met(
                f"eo:{s.fmc.chain.steps[0].choice.axis}", s.state)
    asyncio.run(main())


def test_the_repl_runs_the_same_steps():
    from rich.console import Console
    from cubelab.tui.repl import Repl
    repl = Repl(Console(file=io.StringIO(), width=100), json_mode=True, registry=StandIn(),
                show_net=False)
    scramble = alg_state(SCRAMBLE)
    records = [repl.handle(i, line) for i, line in enumerate(
        [SCRAMBLE, ":fmc start", ":fmc eo --axis ud -n 2", ":fmc apply 1", ":fmc inverse",
         ":fmc dr --niss never -n 1", ":fmc apply 1", ":fmc undo", ":fmc", ":fmc bogus",
         ":facelets UBUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBUBBBBBBB", ":fmc start",
         ":fmc eo -n"], 1)]
    eo = records[2]["fmc"]
    expected = solve_step(scramble, "eo:ud", "all", "always", n=2)
    assert [c["moves"] for c in eo["candidates"]] == [x.text for x in expected.solutions]
    after = expected.solutions[0].after(scramble)
    assert records[3]["fmc_chain"]["steps"][0]["step"] == "EO ud"
    # the inverse side's facts: the facelets of the inverse position
    assert records[4]["fmc_chain"]["side"] == "inverse"
    assert records[4]["facelets"] == to_facelets(after.inverse())
    dr = records[5]["fmc"]["candidates"][0]
    assert dr["step"].startswith("DR") and records[6]["fmc_chain"]["total"] >= dr["length"]
    # :fmc undo: back after the EO (the inverse side still on show)
    assert [s["step"] for s in records[7]["fmc_chain"]["steps"]] == ["EO ud"]
    assert records[7]["facelets"] == to_facelets(after.inverse())
    assert "// EO ud" in records[8]["message"]
    assert "unknown :fmc" in records[9]["error"]
    assert "edge flipped" in records[11]["error"]           # an unreachable position
    assert "needs a value" in records[12]["error"] and repl.failures == 3


def test_a_session_left_on_the_fmc_list_is_kept_and_restored(tmp_path):
    from cubelab.tui.session import Session
    from cubelab.tui.session_store import SessionStore
    session = Session(StandIn())
    session.execute(SCRAMBLE)
    assert not session.execute(":fmc start").error
    session.listing = "fmc"             # the FMC panel on show when the workbench quits
    store = SessionStore(tmp_path / "session.json")
    assert not store.save(session)
    record, problem = store.load()
    again = Session(StandIn())
    assert record is not None and not store.restore(again, record)
    assert again.state == session.state and again.listing == "fmc"
    assert again.fmc is not None and again.fmc.scramble == session.fmc.scramble


def test_the_sessions_undo_and_redo_walk_the_fmc_steps():
    from rich.console import Console
    from cubelab.tui.repl import Repl
    repl = Repl(Console(file=io.StringIO(), width=100), json_mode=True, registry=StandIn(),
                show_net=False)
    records = [repl.handle(i, line) for i, line in enumerate(
        [SCRAMBLE, ":fmc eo --axis fb -n 1", ":fmc apply 1", ":undo", ":fmc", ":redo",
         ":fmc dr --axis ud --niss never -n 1", "R", ":fmc apply 1", ":fmc back",
         ":fmc apply 1"], 1)]
    fmc = repl.session.fmc
    assert records[3]["fmc_chain"]["steps"] == []            # Ctrl+Z: back at the scramble
    assert "no step yet" in records[4]["message"]
    assert [s["step"] for s in records[5]["fmc_chain"]["steps"]] == ["EO fb"]   # redo
    assert "not the FMC chain's" in records[8]["error"]      # a move typed since: refused
    assert "error" not in records[9] and "error" not in records[10]
    assert [s.choice.label for s in fmc.chain.steps] == ["EO fb", "DR ud"]
    assert _met("dr:ud", repl.session.state) and repl.session.state == fmc.position


def test_p_on_an_fmc_row_plays_it_and_enter_applies_the_step(tmp_path):
    """P on a candidate's row steps through its moves on the net from the chain's position;
    Enter then applies the whole step (the chain grows, as Enter on the row does). A candidate
    found all on the inverse scramble has nothing to play on the normal side: one line says
    so and nothing changes."""
    scramble = alg_state(SCRAMBLE)

    async def main():
        app = CubeLabApp(solvers=StandIn(), history=InputHistory(tmp_path / "h"),
                         compare_time_limit=None)
        async with app.run_test(size=(110, 36)) as pilot:
            s = app.session
            await _line(pilot, SCRAMBLE)
            await _line(pilot, ":fmc eo --axis fb --niss never -n 3")
            await until(pilot, lambda: s.fmc is not None and app.fmc_panel.settled
                        and not app.fmc_panel.run.active and len(s.fmc.candidates) == 3,
                        "the EO candidates")
            table = app.query_one("#fmc-table")
            table.focus()
            await pilot.press("down", "p")
            await until(pilot, lambda: s.playback is not None, "the playback")
            second = s.fmc.candidates[1]
            assert s.playback.moves == list(second.solution.normal)
            assert app.net.state == scramble and "playing EO fb" in _answer(app)
            app.net.focus()
            await pilot.press(*["right"] * len(second.solution.normal))
            await until(pilot, lambda: app.net.state == second.solution.after(scramble),
                        "the net at the end of the candidate")
            await pilot.press("enter")
            await until(pilot, lambda: len(s.fmc.chain.steps) == 1, "the step applied")
            assert s.playback is None and s.state == second.solution.after(scramble)
            assert s.fmc.chain.steps[0].solution == second.solution
            # a DR found on the inverse scramble only: nothing on this side to play
            after = s.state
            await _line(pilot, ":fmc dr --axis ud --niss before -n 1")
            await until(pilot, lambda: app.fmc_panel.settled and not app.fmc_panel.run.active
                        and len(s.fmc.candidates) == 1, "the DR candidate")
            app.query_one("#fmc-table").focus()
            await pilot.press("p")
            await until(pilot, lambda: "no moves on the normal side" in _answer(app),
                        "the one-line refusal")
            assert s.playback is None and s.state == after

    asyncio.run(main())


def test_the_fmc_attempt_round_trips_through_the_session_file(tmp_path):
    """The steps applied (their labels, moves on each side, cases) and the step the attempt is
    at come back with --restore's store; a damaged step is refused, never trusted."""
    from rich.console import Console
    from cubelab.tui.repl import Repl
    from cubelab.tui.session import Session
    from cubelab.tui.session_store import SessionStore
    repl = Repl(Console(file=io.StringIO(), width=100), json_mode=True, registry=StandIn(),
                show_net=False)
    for i, line in enumerate([SCRAMBLE, ":fmc eo --axis fb -n 1", ":fmc apply 1",
                              ":fmc dr --axis ud --niss always -n 1", ":fmc apply 1"], 1):
        assert "error" not in repl.handle(i, line)
    session = repl.session
    store = SessionStore(tmp_path / "session.json")
    assert not store.save(session)
    record, problem = store.load()
    again = Session(StandIn())
    assert record is not None and not store.restore(again, record)
    old, new = session.fmc, again.fmc
    assert [s.choice.label for s in new.chain.steps] == ["EO fb", "DR ud"]
    assert [s.solution for s in new.chain.steps] == [s.solution for s in old.chain.steps]
    assert [s.case for s in new.chain.steps] == [s.case for s in old.chain.steps]
    assert new.position == old.position == again.state and new.at == old.at == 2
    assert new.scramble_moves == old.scramble_moves
    assert not again.execute(":fmc undo").error and len(again.fmc.chain.steps) == 1
    # a step whose moves no longer reach its goal: the file is set aside, nothing restored
    record["fmc"]["steps"][1]["normal"] = "R"
    record["fmc"]["steps"][1]["inverse"] = ""
    third = Session(StandIn())
    assert store.restore(third, record) and third.fmc is None
