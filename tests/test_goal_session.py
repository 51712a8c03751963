"""`:goal NAME` in the session, the REPL and the workbench: the goal kept until `:goal off`,
each position read against it (met or what is missing; `:any` names the one met), the net
greying the stickers it does not read, the facts saying it, `:solve goal` solving towards it,
completion, F1 and the palette listing the goals."""

from __future__ import annotations

import asyncio
import io

from rich.console import Console

from cubelab.cube.goal_catalog import resolve_goal
from cubelab.cube.moves import alg_state
from cubelab.solvers import REGISTRY, StandIn
from cubelab.tui._facts_panel import facts_table
from cubelab.tui.app import CubeLabApp
from cubelab.tui.history import InputHistory
from cubelab.tui.session import Session


def _text(renderable, width: int = 100) -> str:
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def test_the_goal_is_kept_and_each_position_read_against_it():
    s = Session(REGISTRY)
    assert s.goal_view() is None
    out = s.execute(":goal cross")
    assert not out.error and out.message == "goal cross:D met" and s.goal == "cross"
    s.execute("R U F'")
    view = s.goal_view()
    assert not view.met and set(view.missing) == set(resolve_goal("cross")[0].unmet(s.state))
    assert view.line().startswith("cross:D not met: ")
    # the stickers it reads are the four cross edges' and the centres that count: others grey
    (goal,) = resolve_goal("cross", s.state)
    assert view.grey == frozenset(range(54)) - set(goal.stickers(s.state))
    assert 8 <= 54 - len(view.grey) <= 14
    s.execute("F U' R'")
    assert s.goal_view().met
    assert s.execute(":goal off").message == "goal cleared" and s.goal_view() is None


def test_any_names_the_goal_met_and_greys_by_it():
    s = Session(REGISTRY)
    s.execute(":goal cross:any")
    view = s.goal_view()
    assert view.met and view.label.startswith("cross:") and view.label != "cross:any"
    one = 54 - len(view.grey)
    s.execute("R U F' L2 D B")
    view = s.goal_view()
    met = [g.name for g in resolve_goal("cross:any", s.state) if g.is_met(s.state)]
    assert not met and not view.met and view.label == "cross:any"
    assert 54 - len(view.grey) > one       # none met: what any of the six reads is shown


def test_bad_goals_and_the_other_cube_are_refused():
    s = Session(REGISTRY)
    bad = s.execute(":goal crss")
    assert bad.error and "did you mean cross" in bad.message and s.goal is None
    bad = s.execute(":goal UF UQ")
    assert bad.error and bad.column == len(":goal ") + 4      # under UQ
    s.execute(":puzzle 2x2")
    assert s.execute(":goal cross").error
    assert s.goal_view() is None


def test_solve_goal_takes_the_session_goal_and_completion_offers_goals():
    s = Session(REGISTRY)
    s.execute(":goal f2l-pair:FR")
    out = s.execute(":solve goal --moves RUF")
    assert out.request.solvers == ("goal",)
    assert out.request.options == {"goal": "f2l-pair:FR", "moves": "RUF"}
    assert s.execute(":solve goal --goal cross").request.options["goal"] == "cross"
    assert ":goal cross:U" in s.completions(":goal cr")
    assert ":goal f2l-pair:BL" in s.completions(":goal f2l-p")


def test_the_facts_say_it_and_the_repl_prints_it():
    s = Session(REGISTRY)
    s.execute(":goal cross")
    s.execute("R")
    table = facts_table(s.puzzle, s.state, s.moves, goal=s.goal_view())
    assert "goal    cross:D not met: DR" in _text(table)
    from cubelab.tui.repl import Repl
    console = Console(width=100, record=True, file=io.StringIO())
    repl = Repl(console=console, show_net=False)
    repl.handle(1, ":goal cross")
    record = repl.handle(2, "R")
    assert record["goal"]["met"] is False and record["goal"]["label"] == "cross:D"
    assert "goal         cross:D not met: DR" in console.export_text()


def test_help_and_palette_list_the_goals():
    from cubelab.tui._help_screen import help_renderable
    text = _text(help_renderable(), width=160)
    assert "cross[:FACE]" in text and "f2l-pair[:SLOT]" in text and "2gen (R,U)" in text


def test_the_workbench_greys_the_net_and_says_it_in_the_facts(tmp_path):
    async def main():
        app = CubeLabApp(solvers=StandIn(), history=InputHistory(tmp_path / "h"),
                         compare_time_limit=None)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press(*":goal cross", "enter")
            await pilot.pause()
            assert app.session.goal == "cross"
            assert app.net.grey and len(app.net.grey) < 54
            body = app.query_one("#facts-body")
            text = "\n".join(body.render_line(y).text for y in range(body.size.height))
            assert "cross:D met" in text
            await pilot.press(*"R", "enter")
            await pilot.pause()
            text = "\n".join(body.render_line(y).text for y in range(body.size.height))
            assert "cross:D not met" in text
            names = [c.title for c in app.get_system_commands(app.screen)]
            assert ":goal cross" in names and ":goal oll" in names
            await pilot.press(*":goal off", "enter")
            await pilot.pause()
            assert not app.net.grey
    asyncio.run(main())
