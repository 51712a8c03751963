"""The mouse: a click turns the face under it (shift: counter-clockwise), on the net and in
3-D; in paint mode the palette picks a colour and a click paints a sticker; a click on a
solver row selects it. (The keyboard does all of it too: the other tests use it.)"""

from dataclasses import replace

from textual.widgets import DataTable

from cubelab.cube.moves import alg_state
from cubelab.solvers import StandIn
from cubelab.tui._mouse import palette_slots, sticker_at
from cubelab.cube.net import Net

from helpers_apps import run_app as run_apps

NET_ORIGIN = (2, 1)
"""Where the net's content starts inside its box: the border, then one column of padding."""


class TwoFakes(StandIn):
    """Two stand-in solvers, so that the table has two rows to choose from."""

    def __init__(self):
        super().__init__()
        self.register(replace(self.describe("fake"), name="fake2"), type(self.solver))

    def get_solver(self, name: str, puzzle: str = "3x3", **options):
        return super().get_solver("fake" if name == "fake2" else name, puzzle, **options)


def run_app(tmp_path, body):
    run_apps(tmp_path, body, registry=TwoFakes())


def at(x, y):
    return (NET_ORIGIN[0] + x, NET_ORIGIN[1] + y)


def test_hit_testing_names_the_sticker_under_a_cell():
    net = Net()
    # in colour a sticker takes two cells and a grid column follows it: three columns each
    assert sticker_at(net, 12, 4) == 22         # F's centre (F5) on the net
    assert sticker_at(net, 13, 4) == 22         # both cells of a sticker
    assert sticker_at(net, 14, 4) is None       # the grid column after it
    assert sticker_at(net, 0, 0) is None        # the empty corner of the cross
    assert sticker_at(net, 9, 0) == 0 and sticker_at(net, 100, 0) is None
    assert palette_slots(3)[(36, 1)] == 1 and palette_slots(2)[(0, 6)] == 0
    big = Net(scale=2)                          # four cells by two lines, a grid line between
    assert sticker_at(big, 20, 12) == 22 and sticker_at(big, 20, 14) is None


def test_clicks_turn_faces_on_the_net_and_in_3d(tmp_path):
    async def body(app, pilot):
        await pilot.click("#net", offset=at(12, 4))         # F's centre
        await pilot.pause()
        assert app.session.state == alg_state("F")
        await pilot.click("#net", offset=at(21, 4), shift=True)     # R's centre, shifted
        await pilot.pause()
        assert app.session.state == alg_state("F R'")
        await pilot.press("f8")
        await pilot.pause()
        x, y = app.net._picture().sticker_centres()[22]      # F's centre in the 3-D view
        await pilot.click("#net", offset=at(x - 1, y))
        await pilot.pause()
        assert app.session.state == alg_state("F R' F")
        x, y = app.net._picture().sticker_centres()[4]       # U's centre, shifted
        await pilot.click("#net", offset=at(x - 1, y), shift=True)
        await pilot.pause()
        assert app.session.state == alg_state("F R' F U'")
    run_app(tmp_path, body)


def test_paint_mode_palette_and_clicks(tmp_path):
    async def body(app, pilot):
        await pilot.press("f3")
        await pilot.pause()
        assert app.session.painting is not None
        await pilot.click("#net", offset=at(36, 1))          # the palette's red swatch
        await pilot.pause()
        assert app.net.paint_colour == 1
        await pilot.click("#net", offset=at(9, 0))           # U1
        await pilot.pause()
        assert app.session.painting.colours[0] == 1
        await pilot.click("#net", offset=at(36, 3))          # yellow, then F1
        await pilot.click("#net", offset=at(9, 3))
        await pilot.pause()
        assert app.session.painting.colours[18] == 3
    run_app(tmp_path, body)


def test_a_click_selects_a_solver_row(tmp_path):
    async def body(app, pilot):
        await pilot.press(*"R U", "enter", *":compare", "enter")
        for _ in range(100):
            await pilot.pause(0.05)
            if not app.solver_panel.running:
                break
        table = app.solver_panel.query_one(DataTable)
        assert table.row_count >= 2
        await pilot.click(DataTable, offset=(3, 2))
        await pilot.pause()
        assert table.cursor_row == 1
    run_app(tmp_path, body)
