"""The 3-D view: every visible sticker drawn where it belongs, from the front and the back, for
either cube, fitting 80x24 and growing with the terminal; F8 and :view switch it in the
workbench, and it follows the moves."""

import pytest
from hypothesis import given, strategies as st

from cubelab.cube.iso import IsoView, fit_scale, size
from cubelab.cube.moves import alg_state
from cubelab.cube.pieces import FACES
from cubelab.cube.puzzles import PUZZLES

from helpers_apps import run_app


def shown(view: IsoView) -> set[int]:
    return {i for line in view.grid() for i in line if i is not None}


@pytest.mark.parametrize("puzzle", ["3x3", "2x2"])
@pytest.mark.parametrize("scale", [1, 2, 3])
def test_each_view_draws_exactly_three_faces_every_sticker(puzzle, scale):
    p = PUZZLES[puzzle]
    per_face = 9 if puzzle == "3x3" else 4
    state = p.identity()
    for view, faces in (("front", "UFR"), ("back", "DLB")):
        iso = IsoView(state, view=view, scale=scale)
        expected = {FACES.index(f) * per_face + k for f in faces for k in range(per_face)}
        assert shown(iso) == expected
        text = iso.plain_text()
        assert set(text) - {" ", "\n"} == set(faces)


@given(st.lists(st.sampled_from("U U' R R2 F' D L' B2".split()), max_size=10))
def test_the_view_shows_the_stickers_of_the_state(moves):
    state = alg_state(" ".join(moves))
    colours = PUZZLES["3x3"].colours(state)
    for view in ("front", "back"):
        iso = IsoView(state, view=view)
        for line, text in zip(iso.grid(), iso.plain_text().splitlines()):
            for i, ch in zip(line, text):
                if i is not None:
                    assert ch == FACES[colours[i]]


def test_an_r_turn_seen_from_the_front_and_from_the_back():
    front = IsoView(alg_state("R")).plain_text().splitlines()
    # F's right column now shows D's colour; U's right column F's
    assert front[4].rstrip().endswith("DDDDRRRRRR") and "F" in front[0]
    back = IsoView(alg_state("R"), view="back").plain_text().splitlines()
    # from the back, D's far row (beside R) shows B's colour, B's far column U's
    assert back[0].strip().startswith("BBBB") and back[4].rstrip().endswith("UU")


def test_the_view_fits_the_net_box_at_80x24_and_grows():
    assert size(1)[0] <= 26 and size(1)[1] <= 9
    assert fit_scale(26, 9) == 1
    assert fit_scale(80, 40) >= 2 and size(fit_scale(80, 40))[0] <= 80
    with pytest.raises(ValueError):
        IsoView(view="sideways")


def net_text(app) -> str:
    net = app.net
    return "\n".join(net.render_line(y).text for y in range(net.size.height))


def test_f8_and_view_switch_the_workbench(tmp_path):
    async def body(app, pilot):
        await pilot.press("f8")
        await pilot.pause()
        assert app.net.view == "front" and app.session.view == "front"
        await pilot.press(*"R", "enter")
        await pilot.pause()
        assert app.net.state == alg_state("R") and net_text(app).strip()
        await pilot.press(*":view back", "enter")
        await pilot.pause()
        assert app.net.view == "back"
        await pilot.press(*":view bogus", "enter")
        await pilot.pause()
        assert app.net.view == "back" and "net, 3d, back" in str(app.query_one("#message").render())
        app.line.value = ""       # an error leaves the line to be mended
        await pilot.press(*":view net", "enter")
        await pilot.pause()
        assert app.net.view == "net"
    run_app(tmp_path, body)


def test_the_3d_view_uses_a_large_terminal(tmp_path):
    async def body(app, pilot):
        small = app.net.size
        await pilot.press("f8")
        await pilot.pause()
        assert app.net.size.width > small.width and app.net.size.height > small.height
    run_app(tmp_path, body, size=(160, 50))
