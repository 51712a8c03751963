"""The net renderable: its size, exact xterm-256 colours, automatic letters, the paint cursor."""

from __future__ import annotations

import io
import re

from rich.console import Console

from cubelab.cube.moves import alg_state
from cubelab.cube.colour_scheme import WESTERN
from cubelab.cube.net import HEIGHT, WIDTH, Net, net_position, step_cursor

XTERM_256 = {face: colour.xterm for face, colour in zip("URFDLB", WESTERN.colours)}
from cubelab.cube.pieces import facelet_index


def console(color_system="256", no_color=False) -> Console:
    return Console(file=io.StringIO(), color_system=color_system, no_color=no_color,
                   force_terminal=color_system is not None, width=80)


def render(net: Net, **options) -> tuple[list, str]:
    c = console(**options)
    segments = list(c.render(net))
    c.print(net)
    return segments, c.file.getvalue()


def strip_ansi(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def test_reports_its_own_width():
    c = console()
    m = Net().__rich_measure__(c, c.options)
    assert (m.minimum, m.maximum) == (WIDTH, WIDTH) == (35, 35)
    # without colour the letters stand apart on their own: no grid columns
    plain = console(color_system=None)
    m = Net().__rich_measure__(plain, plain.options)
    assert (m.minimum, m.maximum) == (24, 24)


def test_colour_draws_a_grid_between_stickers_at_every_scale():
    from cubelab.cube.net import net_size
    for scale in (1, 2):
        net = Net(alg_state("R"), scale=scale)
        c = console()
        lines = list(c.render_lines(net, c.options, pad=False))
        width, height = net_size(3, scale)
        assert len(lines) == height and {sum(len(s.text) for s in line) for line in lines} \
            == {width}
        row = lines[3 * scale + (3 if scale > 1 else 0)]     # the first row of L F R B
        # every sticker is followed by one unstyled cell: the grid's column
        stickers = [s for s in row if s.style and s.style.bgcolor]
        gaps = [s for s in row if s.text == " " and not (s.style and s.style.bgcolor)]
        assert len(stickers) == 12 and len(gaps) == 11
        assert all(len(s.text) == 2 * scale for s in stickers)
        if scale == 1:
            assert all(s.style.underline for s in stickers)   # the line between rows
        else:
            assert not "".join(s.text for s in lines[2]).strip()  # a blank line between rows


def test_plain_text_of_a_turn():
    lines = Net(alg_state("U")).plain_text().splitlines()
    assert len(lines) == HEIGHT
    assert lines[0] == "      U U U"
    assert lines[3] == "F F F R R R B B B L L L"


def test_exact_xterm_256_colours_and_no_letters_in_colour():
    segments, text = render(Net(alg_state("R")))
    backgrounds = {s.style.bgcolor.number for s in segments if s.style and s.style.bgcolor}
    assert backgrounds == set(XTERM_256.values()) == {231, 196, 40, 226, 208, 21}
    assert re.search(r"\x1b\[[0-9;]*38;5;16;48;5;231m", text)  # white sticker, dark letter colour
    assert "U" not in strip_ansi(text)


def test_letters_automatic_on_16_colours_and_no_color():
    for options in ({"color_system": "standard"}, {"no_color": True}, {"color_system": None}):
        _, text = render(Net(), **options)
        assert re.search(r"U  ?U  ?U", strip_ansi(text)), options
    _, text = render(Net(letters=False), color_system="standard")
    assert "U" not in strip_ansi(text)


def test_colour_scheme_letters_and_cursor():
    net = Net(letters=True, labels="colour", cursor=facelet_index("F5"))
    assert net.plain_text().splitlines()[0] == "      W W W"
    _, text = render(net, color_system=None)
    assert "G<" in text


def test_unpainted_stickers_show_as_question_marks():
    colours = [-1] * 54
    assert Net(colours=colours, letters=True).plain_text().splitlines()[0] == "      ? ? ?"


def test_cursor_steps_across_faces_round_the_band_but_not_round_a_column():
    u7, f1 = facelet_index("U7"), facelet_index("F1")
    assert step_cursor(u7, 1, 0) == f1
    assert step_cursor(facelet_index("B3"), 0, 1) == facelet_index("L1")
    # up and down stop at the ends of a column, as in an editor
    assert step_cursor(facelet_index("D9"), 1, 0) == facelet_index("D9")
    assert step_cursor(facelet_index("U1"), -1, 0) == facelet_index("U1")
    assert step_cursor(facelet_index("L1"), -1, 0) == facelet_index("L1")
    assert {net_position(i) for i in range(54)}.__len__() == 54


def test_the_same_net_draws_a_2x2_from_its_state():
    from cubelab.cube import pocket
    from cubelab.cube.net import net_size, side_of
    state = pocket.from_alg("R U").state
    net = Net(state, letters=True)
    c = console()
    m = net.__rich_measure__(c, c.options)
    assert (m.minimum, m.maximum) == (23, 23) and net_size(2) == (23, 6)
    assert net_size(2, grid=False) == (16, 6)
    assert net.plain_text().splitlines() == [
        "    U U", "    F F", "F D R R U B L L", "L L F D R R U B", "    D B", "    D B"]
    assert net.plain_text() == Net(colours=pocket.state_colours(state)).plain_text()
    assert side_of(24) == 2 and side_of(54) == 3
    # U3 (index 2) is above F1 (index 8); right of B2 (21) wraps round to L1 (16)
    assert step_cursor(2, 1, 0, 2) == 8 and step_cursor(21, 0, 1, 2) == 16
    assert step_cursor(0, -1, 0, 2) == 0
    assert {net_position(i, 2) for i in range(24)}.__len__() == 24


def test_the_2x2_net_in_colour_and_in_colour_letters():
    from cubelab.cube import pocket
    state = pocket.from_alg("R").state
    segments, text = render(Net(state))
    backgrounds = {s.style.bgcolor.number for s in segments if s.style and s.style.bgcolor}
    assert backgrounds == set(XTERM_256.values())
    assert "U" not in strip_ansi(text) and len(strip_ansi(text).splitlines()) == 6
    _, text = render(Net(state), color_system="standard")
    assert strip_ansi(text).splitlines()[0].rstrip() == "      U  F"    # with the grid
    lines = Net(state, letters=True, labels="colour").plain_text().splitlines()
    assert lines[0] == "    W G" and lines[2] == "O O G Y R R W B"
