"""Grey stickers in paint mode (issue 34): `*`, `?`, 0 or the palette's grey swatch paint a
sticker unknown; a picture with grey stickers is a masked position that Enter keeps as the
session's position (its grey stickers drawn grey and travelling with their pieces), that
`:solve` gives to the goal solver, and a picture no position shows is refused with the words
`cubelab solve --facelets` uses."""

from __future__ import annotations

import asyncio

from cubelab.cube.facelets import FaceletError
from cubelab.cube.masked_facelets import masked_text, read_colours, read_masked
from cubelab.cube.moves import apply_moves
from cubelab.cube.notation import parse
from cubelab.solvers import REGISTRY
from cubelab.tui._build_offer import BuildOfferScreen
from cubelab.tui.app import CubeLabApp
from cubelab.tui.history import InputHistory
from cubelab.tui.session import Session
from helpers_apps import until

F2L_CASE = "*U*UUUUU***URRRRRR**UFFFFFF***DDDDDD***LLLLLL**UBBBBBB"
"""An F2L-and-more picture (the U layer's stickers grey but for the U centre's colour)."""


NO_POSITION = "LUUUUUUU*" + "RRRRRRRRR" + "FFFFFFFFF" + "DDDDDDDDD" + "LLLLLLLLL" \
    + "BB*BBBBBB"
"""A picture no position shows (U1 shows L beside a U sticker and B's grey)."""


def _paint(session: Session, text: str) -> None:
    session.execute(":paint")
    session.painting.colours = [int(c) for c in read_colours(text)]


def test_a_grey_painting_is_a_masked_position_that_moves_carry():
    s = Session(REGISTRY)
    s.execute("R U R' U'")
    _paint(s, F2L_CASE)
    usable, text = s.painting.verdict()
    assert usable and "15 grey stickers" in text
    out = s.finish_painting()
    assert not out.error and "masked position" in out.message
    assert s.mask is not None and masked_text(s.mask.colours) == F2L_CASE
    before = s.goal_view()
    assert len(before.grey) == 15 and not before.met and before.label.endswith("(15 grey)")
    painted = s.state
    s.execute("R U R'")
    moved = s.goal_view()
    assert len(moved.grey) == 15 and moved.grey != before.grey
    # the grey stickers went where the moves took their pieces: each sticker still shown
    # shows the colour the moves brought there, and the picture reads again
    assert s.mask.state == apply_moves(painted, parse("R U R'").flatten()) == s.state
    assert all(c == -1 for i, c in enumerate(s.mask.colours) if i in moved.grey)
    read_masked(masked_text(s.mask.colours))
    s.execute("R U' R'")
    assert masked_text(s.mask.colours) == F2L_CASE
    # :paint again starts from the picture, grey included
    s.execute(":paint")
    assert masked_text(s.painting.colours) == F2L_CASE
    s.painting = None
    assert s.execute(":solve").request.solvers == ("goal",)
    korf = s.execute(":solve korf")
    assert korf.error and korf.message == ("solver korf solves whole positions: grey stickers "
                                           "(* or ?) are solved by goal")
    assert s.execute(":solve --to R").error
    s.execute(":reset")
    assert s.mask is None


def test_the_facts_of_a_picture_that_hides_pieces_say_they_are_one_completions():
    import io

    from rich.console import Console

    from cubelab.tui._facts_panel import facts_table
    from cubelab.tui.repl import Repl
    s = Session(REGISTRY)
    _paint(s, F2L_CASE)
    s.finish_painting()
    console = Console(width=100, record=True, file=io.StringIO())
    console.print(facts_table(s.puzzle, s.state, s.moves, goal=s.goal_view()))
    said = "of one completion: its 15 grey stickers could hide another position"
    assert f"facts   {said}" in console.export_text()
    repl = Repl(console=Console(width=100, record=True, file=io.StringIO()), show_net=False)
    repl.session = s
    record = repl.handle(1, "U")
    assert record["goal"]["facts"] == said
    assert f"facts        {said}" in repl.console.export_text()
    s.execute(":reset")
    assert s.goal_view() is None


def test_a_picture_no_position_shows_gets_the_command_lines_words():
    s = Session(REGISTRY)
    text = NO_POSITION
    try:
        read_masked(text)
        raise AssertionError("the picture was read")
    except FaceletError as e:
        expected = str(e)
    _paint(s, text)
    usable, said = s.painting.verdict()
    assert not usable and said.endswith(expected)
    out = s.finish_painting()
    assert out.error and out.message.endswith(expected) and s.mask is None


def _screen(widget) -> str:
    return "\n".join(widget.render_line(y).text for y in range(widget.size.height))


def test_the_workbench_paints_grey_keeps_the_picture_and_solves_what_it_shows(tmp_path):
    async def main():
        app = CubeLabApp(solvers=REGISTRY, history=InputHistory(tmp_path / "h"),
                         compare_time_limit=None)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("f3")
            await until(pilot, lambda: app.net.mode == "paint", "paint mode")
            assert "*: grey" in str(app.net.border_subtitle)
            assert "masked" not in str(app.net.border_title)
            # U1: grey by key, U3 by the palette's grey swatch (its last) and a click
            await pilot.press("asterisk")
            assert app.session.painting.colours[0] == -1 and app.net.cursor == 1
            assert "1 grey sticker (unknown)" in _screen(app.query_one("#message"))
            from cubelab.tui._mouse import palette_slots
            (x, y), = [at for at, v in palette_slots(3, app.net.scale).items()
                       if v == -1 and at[0] % 2 == 0][:1]
            await pilot.click("#net", offset=(x + 2, y + 1))
            assert app.net.paint_colour == -1
            await pilot.press("right", "question_mark")     # U3 grey, by `?`
            assert app.session.painting.colours[2] == -1
            await pilot.press("enter")
            await until(pilot, lambda: app.net.mode == "turn", "leaving paint mode")
            assert app.session.mask is not None
            assert app.net.grey == frozenset({0, 2})
            assert "masked, 2 grey" in str(app.net.border_title)
            assert "masked position: 2 grey stickers" in _screen(app.query_one("#message"))
            facts = _screen(app.query_one("#facts-body"))
            assert "stickers shown (2 grey) met" in facts
            assert "of one completion" not in facts     # two corners' third stickers: known
            # a move: the grey stickers go with their pieces, the picture is not solved now
            await pilot.press(*"U", "enter")
            await pilot.pause()
            grey = app.net.grey
            assert len(grey) == 2 and grey != frozenset({0, 2})
            colours = app.net.render().colours
            assert all(colours[i] == -1 for i in grey)
            await pilot.press(*":solve --moves U", "enter")
            for _ in range(4000):
                await pilot.pause(0.05)
                if isinstance(app.screen, BuildOfferScreen):
                    await pilot.press("y")
                rows = app.session.solutions
                if rows and rows[0].status == "solved" and not app.solver_panel.running:
                    break
            row = app.session.solutions[0]
            assert row.solver == "goal" and row.moves is not None and len(row.moves) == 1
            await pilot.press(*":apply 1", "enter")
            await pilot.pause()
            assert app.session.goal_view().met and app.net.grey == frozenset({0, 2})
            await pilot.press(*":view 3d", "enter")         # grey in the 3-D view too
            await pilot.pause()
            assert sum(1 for c in app.net.render().colours if c < 0) == 2
    asyncio.run(main())


def test_a_masked_position_outlives_the_program():
    from cubelab.tui.session_store import restore, snapshot
    s = Session(REGISTRY)
    _paint(s, F2L_CASE)
    s.finish_painting()
    s.execute("R")
    grey = s.goal_view().grey
    again = Session(REGISTRY)
    restore(again, snapshot(s))
    assert again.mask is not None and again.goal_view().grey == grey
    assert masked_text(again.mask.colours) == masked_text(s.mask.colours)
    assert again.execute(":solve").request.solvers == ("goal",)
    again.execute(":undo")
    assert masked_text(again.mask.colours) == F2L_CASE


def test_facelets_with_grey_stickers_make_the_same_masked_position():
    s = Session(REGISTRY)
    out = s.execute(":facelets " + F2L_CASE)
    assert not out.error and out.message.startswith("masked position: 15 grey stickers")
    assert masked_text(s.mask.colours) == F2L_CASE
    bad = s.execute(":facelets " + NO_POSITION)
    try:
        read_masked(NO_POSITION)
    except FaceletError as e:
        assert bad.error and bad.message == str(e)
    else:
        raise AssertionError("the picture was read")
    from cubelab.tui.repl import Repl
    import io
    from rich.console import Console
    repl = Repl(console=Console(file=io.StringIO(), width=100), show_net=False)
    repl.handle(1, ":facelets " + F2L_CASE)
    record = repl.handle(2, ":solve --moves RU --auf pre --all")
    (solved,) = record["solutions"]
    listed = solved["detail"]["solutions"] if "detail" in solved else solved["solutions"]
    assert listed and all(len(s_["auf"]) == 2 for s_ in listed)


def test_a_pasted_masked_facelet_string_paints_it_and_is_read_once(tmp_path, monkeypatch):
    from textual import events
    from cubelab.tui.records import Painting
    reads = []
    verdict = Painting.verdict
    monkeypatch.setattr(Painting, "verdict", lambda self: reads.append(1) or verdict(self))

    async def main():
        app = CubeLabApp(solvers=REGISTRY, history=InputHistory(tmp_path / "h"),
                         compare_time_limit=None)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("f3")
            await until(pilot, lambda: app.net.mode == "paint", "paint mode")
            reads.clear()
            app.net.post_message(events.Paste(F2L_CASE))
            await until(pilot, lambda: masked_text(app.session.painting.colours) == F2L_CASE,
                        "the paste painted")
            assert app.net.colours == tuple(app.session.painting.colours)
            # one Paint message for the paste (its verdict read by the message line and the
            # facts), not one per sticker
            assert app.net.cursor == 53 and len(reads) <= 2
            assert "15 grey stickers (unknown)" in _screen(app.query_one("#message"))
    asyncio.run(main())
