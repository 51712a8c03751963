"""Colour schemes: Western by default, Japanese, or any six colours; the net, the 3-D view
(test_iso_view.py reads its stickers back), the SVG picture and paint mode follow the scheme,
and facelet letters stay URFDLB whatever it is."""

import io
import xml.etree.ElementTree as ET

import pytest
from rich.console import Console

from cubelab.cube.colour_scheme import JAPANESE, WESTERN, letter_colour, scheme_from_text
from cubelab.cube.facelets import to_facelets
from cubelab.cube.moves import alg_state
from cubelab.cube.net import Net
from cubelab.cube.net_svg import net_svg
from cubelab.cube.puzzles import PUZZLES
from cubelab.tui.session import Session

from helpers_apps import run_app


def names(scheme):
    return dict(zip("URFDLB", (c.name for c in scheme.colours)))


def test_the_two_standard_schemes():
    assert names(WESTERN) == {"U": "white", "R": "red", "F": "green", "D": "yellow",
                              "L": "orange", "B": "blue"}
    # the Japanese scheme: white opposite blue, green opposite yellow, red opposite orange
    assert names(JAPANESE) == {"U": "white", "R": "red", "F": "green", "D": "blue",
                               "L": "orange", "B": "yellow"}
    assert [c.xterm for c in WESTERN.colours] == [231, 196, 40, 226, 208, 21]
    assert letter_colour(231) == 16 and letter_colour(21) == 231     # dark on white, light on blue


def test_schemes_users_type():
    assert scheme_from_text("Japanese") is JAPANESE
    custom = scheme_from_text("white red green #102030 orange purple")
    assert custom.colours[3].hex == "#102030" and custom.colours[5].name == "purple"
    assert names(scheme_from_text("D=blue B=yellow")) == names(JAPANESE)
    for bad, says in (("white red green", "six colours"), ("white red green mauve x y", "mauve"),
                      ("Q=red", "face letter"), ("white white green yellow orange blue",
                                                 "must differ")):
        with pytest.raises(ValueError, match=says):
            scheme_from_text(bad)


def test_paint_keys_follow_the_scheme():
    assert WESTERN.paint_keys()["b"] == 5 and WESTERN.paint_keys()["y"] == 3
    keys = JAPANESE.paint_keys()
    assert keys["b"] == 3 and keys["y"] == 5          # blue is on D, yellow on B
    assert keys["u"] == 0 and keys["d"] == 3 and keys["6"] == 5
    # two colours sharing an initial give up their keys; the face letters stand in
    grey_green = scheme_from_text("white red green grey orange blue")
    assert grey_green.keys()[2] == grey_green.keys()[3] == ""
    assert "g" not in grey_green.paint_keys() and grey_green.letter(3) == "D"


def backgrounds(renderable, width=80) -> set[int]:
    console = Console(file=io.StringIO(), color_system="256", force_terminal=True, width=width)
    return {s.style.bgcolor.number for s in console.render(renderable)
            if s.style and s.style.bgcolor}


def test_the_net_and_the_svg_follow_the_scheme():
    assert backgrounds(Net(scheme=JAPANESE)) == {231, 196, 40, 21, 208, 226}
    japanese_d = Console(file=io.StringIO(), color_system="256", force_terminal=True, width=80)
    lines = japanese_d.render_lines(Net(scheme=JAPANESE), pad=False)
    d_row = [s for s in lines[6] if s.style and s.style.bgcolor]
    assert {s.style.bgcolor.number for s in d_row} == {21}          # D is blue
    assert Net(alg_state("R"), letters=True, labels="colour", scheme=JAPANESE) \
        .plain_text().splitlines()[8] == "      B B Y"
    svg = ET.fromstring(net_svg(alg_state(""), scheme=JAPANESE))
    fills = [r.get("fill") for r in svg.iter("{http://www.w3.org/2000/svg}rect")]
    assert fills[27:36] == [JAPANESE.colours[3].hex] * 9 and fills[45] == JAPANESE.colours[5].hex


def test_scheme_command_and_svg_in_a_session(tmp_path):
    s = Session(saves_dir=tmp_path)
    assert "western: U white" in s.execute(":scheme").message
    assert not s.execute(":scheme japanese").error and s.scheme is JAPANESE
    assert s.execute(":scheme white red").error and s.scheme is JAPANESE
    s.execute(":svg " + str(tmp_path / "cube.svg"))
    assert JAPANESE.colours[3].hex in (tmp_path / "cube.svg").read_text()
    assert "B" in s.execute(":paint").message.split(":")[1].split("(")[0]


def test_paint_mode_paints_in_the_scheme_and_facelets_stay_urfdlb(tmp_path):
    target = alg_state("R")
    keys = JAPANESE.keys()

    async def body(app, pilot):
        await pilot.press(*":scheme japanese", "enter", "f3")
        await pilot.pause()
        assert 21 in backgrounds(app.net.render())      # the painting is drawn in the scheme
        await pilot.press("b")                          # blue: D's colour in this scheme
        await pilot.pause()
        assert app.session.painting.colours[0] == 3
        await pilot.press("ctrl+home")
        # the position R, painted by the colours a cuber with a Japanese cube sees
        await pilot.press(*(keys[c] for c in PUZZLES["3x3"].colours(target)), "enter")
        await pilot.pause()
        assert app.session.state == target
        assert app.session.puzzle.to_facelets(app.session.state) == to_facelets(target)
        assert set(to_facelets(target)) == set("URFDLB")
        await pilot.press(*":scheme western", "enter", "f3", "b")
        await pilot.pause()
        assert app.session.painting.colours[0] == 5     # blue is B's in the Western scheme
    run_app(tmp_path, body)
