"""Pilot tests of the layout and of long answers: one resize gives the layout of the new size;
an answer longer than the message area opens whole in a pane (Esc or Q closes it, the keys go
back to the line), a short one stays on the message line; a row's text that does not fit under
the table says so and opens whole with V."""

from __future__ import annotations

import html
import re

from cubelab.cube.notation import parse_moves
from cubelab.cube.patterns import PATTERNS
from cubelab.tui._help_screen import HelpScreen
from cubelab.tui._output_screen import OutputScreen
from cubelab.tui.records import SolutionRow
from test_tui_app import make_app, message, pilot_test, screen_text, type_line  # noqa: F401


def screen_lines(app) -> list[str]:
    """The text of the whole screen, line by line (read from its SVG screenshot)."""
    lines: dict[int, str] = {}
    for number, text in re.findall(r'<text [^>]*clip-path="url\(#terminal-\d+-line-(\d+)\)">'
                                   r'([^<]*)</text>', app.export_screenshot()):
        lines[int(number)] = lines.get(int(number), "") + html.unescape(text).replace("\xa0", " ")
    return [lines.get(n, "") for n in range(max(lines, default=-1) + 1)]


def visible(widget) -> bool:
    """The widget is on show with some room (not squeezed to nothing or off the screen)."""
    region = widget.region
    screen = widget.screen.region
    return widget.display and region.height > 2 and screen.contains_region(region)


@pilot_test
async def test_one_resize_gives_the_layout_of_the_new_size(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "R U")
        assert app.net.scale == 1
        await pilot.resize_terminal(160, 48)
        await pilot.pause()
        assert app.net.scale == 2                             # the large net at once
        facts = app.query_one("#facts")
        assert visible(facts) and facts.region.y > app.net.region.bottom - 1
        assert "2 HTM" in screen_text(app.query_one("#facts-body"))
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert app.net.scale == 1 and visible(facts) and facts.region.y == 0


async def pane_text(pilot, app) -> str:
    await pilot.pause()
    assert isinstance(app.screen, OutputScreen)
    return str(app.screen.text)


@pilot_test
async def test_a_long_answer_opens_in_a_pane_and_a_short_one_stays_on_the_line(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, ":patterns")
        text = await pane_text(pilot, app)
        assert all(p.name in text and p.alg in text for p in PATTERNS)   # every one, whole
        assert app.screen.query_one("#output").border_title == ":patterns"
        assert ":patterns:" in message(app) and "shown in the pane" in message(app)
        await pilot.press("q")
        assert not isinstance(app.screen, OutputScreen) and app.line.has_focus
        await type_line(pilot, ":tables")                     # 3 lines, wrapped to 5 at 80
        text = await pane_text(pilot, app)
        assert text.count("\n") == 2 and "korf-qtm" in text
        await pilot.press("escape")
        assert app.line.has_focus
        await type_line(pilot, ":case UF UR UB")
        assert not isinstance(app.screen, OutputScreen)
        assert "position set" in message(app)
        await type_line(pilot, ":help")                       # the help screen, alone
        assert isinstance(app.screen, HelpScreen) and len(app.screen_stack) == 2
        await pilot.press("escape")
        await pilot.resize_terminal(240, 40)                  # where :tables fits the line
        await pilot.pause()
        await type_line(pilot, ":tables")
        assert not isinstance(app.screen, OutputScreen)
        assert "korf-qtm" in message(app)


CFOP = ("D R' F D' L2 B U2 R U' R' U L U L' U2 F U F' R U R' U' R U2 R' U' R U R' U2 F R U R' "
        "U' F' R U R' U' R' F R2 U' R' U' R U R' F' U2")
STEPS = (("cross", 6), ("F2L 1", 4), ("F2L 2", 6), ("F2L 3", 8), ("F2L 4", 10), ("OLL 45", 6),
         ("PLL T", 10), ("AUF", 1))


def show_cfop_row(app) -> None:
    """A CFOP row as the runner fills it: the solution, its named steps and their lines."""
    s = app.session
    words, lines = CFOP.split(), []
    for name, n in STEPS:
        lines.append(f"  {name:<22} {n:>2}  {' '.join(words[:n])}")
        words = words[n:]
    s.solutions.append(SolutionRow("cfop", s.state, parse_moves(CFOP), 0.5, 1000, False,
                                   "solved", steps=STEPS, step_lines=tuple(lines)))
    app.solver_panel.refresh_rows()


@pilot_test
async def test_a_cfop_row_shows_every_step_when_there_is_room(make_app):
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        show_cfop_row(app)
        await pilot.pause()
        shown = "\n".join(screen_lines(app))
        for name, _ in STEPS:
            assert name in shown
        assert not app.solver_panel.border_subtitle


@pilot_test
async def test_a_row_too_long_for_its_space_says_so_and_opens_whole(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        show_cfop_row(app)
        await pilot.pause()
        assert "more lines" in app.solver_panel.border_subtitle
        app.solver_panel.table.focus()
        await pilot.press("v")
        text = await pane_text(pilot, app)
        assert all(name in text for name, _ in STEPS) and CFOP.split()[-1] in text
        await pilot.press("escape")
        assert app.line.has_focus
        await pilot.click("#solution-detail-box", offset=(3, 1))     # or a click on it
        await pane_text(pilot, app)
