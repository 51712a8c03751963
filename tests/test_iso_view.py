"""The 3-D view: every sticker in view drawn in its colour where it belongs, for every way of
holding either cube, at every size; a grid between stickers; turning the picture; moves
shown turning; F8, :view, the arrows and the mouse in the workbench."""

import io
import random

import pytest
from rich.console import Console
from textual.events import MouseScrollUp

from cubelab.cube.alg import Move
from cubelab.cube.colour_scheme import JAPANESE, WESTERN
from cubelab.cube.holding import orientation_named, orientations, other_side, turned
from cubelab.cube.iso import BODY, IsoView
from cubelab.cube.layer_turns import move_frames, move_turn
from cubelab.cube.moves import alg_state
from cubelab.cube.pieces import FACES
from cubelab.cube.projections import fit_size
from cubelab.cube.puzzles import PUZZLES, puzzle_of

from helpers_apps import run_app

SIZES = ((35, 9), (40, 14), (48, 20), (70, 34))
"""The box at 80x24, and larger boxes: the cabinet view, then the isometric one."""


def cells(view: IsoView) -> list[list[tuple[int | None, int | None]]]:
    """What a 256-colour terminal shows in each cell, read back from the segments: the
    xterm colours of its upper and lower halves (None: the terminal's background)."""
    console = Console(file=io.StringIO(), color_system="256", force_terminal=True,
                      width=view.width, legacy_windows=False)
    out = []
    for line in console.render_lines(view, console.options, pad=False):
        row = []
        for segment in line:
            style = segment.style
            fg = style.color.number if style and style.color else None
            bg = style.bgcolor.number if style and style.bgcolor else None
            for ch in segment.text:
                if ch == "▀":
                    row.append((fg, bg))
                elif ch == "▄":
                    row.append((bg, fg))
                else:                      # a blank cell, or a letter on its sticker
                    row.append((bg, bg))
        out.append(row)
    return out


def check_stickers_read_back(state, orientation, size, scheme=WESTERN):
    colours = puzzle_of(state).colours(state)
    per_face = len(colours) // 6
    view = IsoView(state, orientation=orientation, width=size[0], height=size[1],
                   scheme=scheme)
    shown = cells(view)
    centres = view.sticker_centres()
    expected = {FACES.index(f) * per_face + k for f in orientation for k in range(per_face)}
    assert set(centres) == expected                   # the three faces, every sticker
    assert len(set(centres.values())) == len(expected)   # each in a cell of its own
    for index, (x, y) in centres.items():
        want = scheme.colour(colours[index]).xterm
        upper, lower = shown[y][x]
        assert want in (upper, lower), (orientation, size, index)
        assert {upper, lower} <= {want, BODY}, (orientation, size, index)
    return view, shown


@pytest.mark.parametrize("size", SIZES)
def test_every_sticker_reads_back_in_its_colour_for_every_holding(size):
    rng = random.Random(size[1])
    for orientation in orientations():
        state = PUZZLES["3x3"].random(rng.randrange(10**6))
        check_stickers_read_back(state, orientation, size)


def test_the_2x2_and_the_japanese_scheme_read_back_too():
    rng = random.Random(7)
    for orientation in ("UFR", "DLB", "BUR", "LDF"):
        for size in ((35, 9), (60, 30)):
            check_stickers_read_back(PUZZLES["2x2"].random(rng.randrange(10**6)), orientation,
                                     size)
            check_stickers_read_back(PUZZLES["3x3"].random(rng.randrange(10**6)), orientation,
                                     size, JAPANESE)


@pytest.mark.parametrize("size", SIZES)
def test_the_faces_lie_where_a_cuber_expects_them(size):
    """Held UFR: U above F and R, F on the left, R on the right; on each face the stickers
    run as the facelet diagram reads them (rows down, columns across: for U from the back,
    for R from the front)."""
    view = IsoView(alg_state(""), width=size[0], height=size[1])
    centres = view.sticker_centres()

    def face(letter):
        return {k: centres[FACES.index(letter) * 9 + k] for k in range(9)}
    u, f, r = face("U"), face("F"), face("R")

    def mean(points, axis):
        return sum(p[axis] for p in points.values()) / 9
    assert mean(u, 1) < mean(f, 1) and mean(u, 1) < mean(r, 1)
    assert mean(f, 0) < mean(u, 0) < mean(r, 0)
    for stickers in (u, f, r):
        for row in range(3):
            xs = [stickers[3 * row + col][0] for col in range(3)]
            assert xs == sorted(xs) and len(set(xs)) == 3          # columns run across
        for col in range(3):
            ys = [stickers[3 * row + col][1] for row in range(3)]
            assert ys == sorted(ys)                                  # rows run down
    # a grid: between two stickers of a face runs the plastic's colour
    shown = cells(view)
    (x0, y0), (x1, _) = f[3], f[5]
    between = [c for x in range(x0, x1 + 1) for c in shown[y0][x]]
    assert between.count(BODY) >= 2


def test_a_grid_line_separates_every_pair_of_neighbours():
    """Walking from each sticker's centre to its neighbour's on the same face crosses the
    plastic's colour: the lines between stickers are never lost, at any size."""
    for size in SIZES:
        view = IsoView(alg_state(""), width=size[0], height=size[1])
        raster, centres = view.raster(), view.sticker_centres()
        for face in "UFR":
            base = FACES.index(face) * 9
            for a, b in ((0, 1), (1, 2), (0, 3), (3, 6), (4, 5), (4, 7)):
                (xa, ya), (xb, yb) = centres[base + a], centres[base + b]
                steps = 8 * max(abs(xb - xa), 2 * abs(yb - ya), 1)
                # from one centre to the other in pixels (two a cell, one above the other)
                path = {int(raster[int(2 * ya + 1 + 2 * (yb - ya) * t / steps),
                                   int(xa + 0.5 + (xb - xa) * t / steps)])
                        for t in range(steps + 1)}
                assert -1 in path, (size, face, a, b)


def test_holdings_and_picture_turns():
    assert len(orientations()) == 24 and orientations()[0] == "UFR"
    assert orientation_named("front") == "UFR" and orientation_named("back") == "DLB"
    assert orientation_named("db") == orientation_named("DBR") == "DBR"
    with pytest.raises(ValueError):
        orientation_named("UD")
    assert other_side("UFR") == "DLB" and other_side("DLB") == "UFR"
    assert turned("UFR", "right") == "ULF" and turned("UFR", "up") == "FDR"
    for o in orientations():
        assert turned(turned(o, "left"), "right") == o
        assert turned(turned(o, "up"), "down") == o
        assert set(other_side(o)) == set("URFDLB") - set(o)
        assert IsoView(orientation=o, width=40, height=14).faces_in_view() == "".join(
            f for f in FACES if f in o)
    # left and up reach every holding
    seen, frontier = {"UFR"}, ["UFR"]
    while frontier:
        o = frontier.pop()
        for how in ("left", "up"):
            if turned(o, how) not in seen:
                seen.add(turned(o, how))
                frontier.append(turned(o, how))
    assert seen == set(orientations())
    with pytest.raises(ValueError):
        IsoView(orientation="sideways")


def test_the_picture_keeps_its_proportions_and_fits():
    for width, height in ((35, 9), (56, 26), (76, 34), (106, 46)):
        w, h = fit_size(width, height)
        assert w <= width and h <= height
        # a cube's outline is about as wide as tall (a cell is about twice as tall as wide)
        assert 0.75 <= w / (2 * h) <= 1.35, (width, height, w, h)
    assert fit_size(106, 46)[1] >= 40            # a large terminal gets a large cube


def test_a_move_turns_in_frames_and_ends_on_its_position():
    state = alg_state("F")
    frames = move_frames(state, [Move("R", 1), Move("U", 2)], steps=4)
    turns = [t for _, t in frames]
    assert len(frames) == 4 + 6 and turns[3] is None and turns[-1] is None
    assert frames[-1][0] == PUZZLES["3x3"].colours(alg_state("F R U2"))
    angles = [abs(t.angle) for t in turns[:3]]
    assert angles == sorted(angles) and 0 < angles[0] and angles[-1] < 3.1416 / 2
    # a picture caught part way still shows every sticker that does not move
    colours, turn = frames[1]
    view = IsoView(colours=colours, turn=turn, width=48, height=20)
    assert turn.face == "R" and turn.depths == (1.0,)
    still = {i for i in view.sticker_centres() if i // 9 in (0, 2) and i % 3 != 2}
    assert {0, 1, 3, 4, 6, 7} <= {i for i in still if i < 9}
    # the layers each move family turns, on either cube
    assert move_turn(Move("M", 1)).depths == (0.0,) and move_turn(Move("x", 1)).depths == (
        1.0, 0.0, -1.0)
    assert move_turn(Move("Rw", 1), 2).depths == (-0.5, 0.5)


def test_letters_stand_on_the_stickers_without_colour():
    view = IsoView(alg_state("R"), width=48, height=20)
    plain = Console(file=io.StringIO(), color_system=None, width=48)
    plain.print(view)
    text = plain.file.getvalue()
    assert set(text) - {" ", "\n"} == set("UFRD")       # R brought D's colour to the front
    lettered = Console(file=io.StringIO(), color_system="standard", force_terminal=True,
                       width=48)
    lettered.print(view)
    assert "U" in lettered.file.getvalue() and "D" in lettered.file.getvalue()


def net_text(app) -> str:
    net = app.net
    return "\n".join(net.render_line(y).text for y in range(net.size.height))


def test_f8_view_and_arrows_turn_the_workbench_view(tmp_path):
    async def body(app, pilot):
        await pilot.press("f8")
        await pilot.pause()
        assert app.net.view == "3d" and app.session.orientation == "UFR"
        await pilot.press("f8")
        await pilot.pause()
        assert app.session.orientation == "DLB"
        await pilot.press("f8")
        await pilot.pause()
        assert app.net.view == "net"
        await pilot.press(*":view ub", "enter")
        await pilot.pause()
        assert (app.session.view, app.session.orientation) == ("3d", "UBL")
        await pilot.press(*":view left", "enter")
        await pilot.pause()
        assert app.session.orientation == turned("UBL", "left")
        await pilot.press(*":view bogus", "enter")
        await pilot.pause()
        assert "two faces" in str(app.query_one("#message").render())
        app.line.value = ""
        await pilot.press(*":view front", "enter", "tab")       # Tab: to the net
        await pilot.pause()
        assert app.net.has_focus
        await pilot.press("right")
        await pilot.pause()
        assert app.session.orientation == "ULF"
        assert app.net._picture().faces_in_view() == "UFL"
        await pilot.press("up", "up")                              # over the top: D in view
        await pilot.pause()
        assert app.session.orientation[0] == "D"
        await pilot.press("i")                                     # the keyboard cube still turns
        await pilot.pause()
        assert app.session.state == alg_state("R")
    run_app(tmp_path, body)


def test_dragging_or_the_wheel_turns_the_3d_view(tmp_path):
    async def body(app, pilot):
        await pilot.press("f8")
        await pilot.pause()
        x, y = app.net._picture().sticker_centres()[22]
        await pilot.mouse_down("#net", offset=(x + 1, y + 1))
        await pilot.hover("#net", offset=(x + 9, y + 1))
        await pilot.mouse_up("#net", offset=(x + 9, y + 1))
        await pilot.pause()
        assert app.session.orientation == "ULF"
        assert app.session.state == alg_state("")      # a drag is no click on a sticker
        await pilot._post_mouse_events([MouseScrollUp], "#net", offset=(x + 1, y + 1))
        await pilot.pause()
        assert app.session.orientation == "UFR"
    run_app(tmp_path, body)


def test_the_3d_view_uses_a_large_terminal(tmp_path):
    async def body(app, pilot):
        small = app.net.size
        await pilot.press("f8")
        await pilot.pause()
        assert app.net.size.width > small.width and app.net.size.height > small.height
        picture = app.net._picture()
        assert picture.height >= 20 and picture.projection.sticker >= 8
    run_app(tmp_path, body, size=(160, 50))


async def settle(pilot, app):
    """Wait (on the event, not a fixed time) until no move is shown turning."""
    for _ in range(400):
        if not app.net.turning:
            return
        await pilot.pause(0.02)
    raise AssertionError("the move never stopped turning")


def test_a_typed_move_turns_in_the_3d_view_unless_animation_is_off(tmp_path):
    async def body(app, pilot):
        net = app.net
        net.lag_limit = 1e9                  # a busy machine must not turn animation off here
        await pilot.press("f8", "R")         # typed: the preview turns the move
        assert net.frames_drawn >= 1         # the first frame is drawn at once
        await settle(pilot, app)
        assert net._picture().colours == PUZZLES["3x3"].colours(alg_state("R"))
        drawn = net.frames_drawn
        await pilot.press("enter")           # applying what the preview showed: no new turn
        await settle(pilot, app)
        assert net.frames_drawn == drawn and app.session.state == alg_state("R")
        await pilot.press(*":undo", "enter")
        assert net.frames_drawn > drawn      # taken back, the move turns back
        await settle(pilot, app)
        await pilot.press("tab", "j")        # the keyboard cube: U
        assert net.frames_drawn > drawn + 1 and app.session.state == alg_state("U")
        await settle(pilot, app)
        await pilot.press("escape", *":animate off", "enter", "tab")
        drawn = net.frames_drawn
        await pilot.press("j")
        assert net.frames_drawn == drawn and app.session.state == alg_state("U2")
        await pilot.press("escape", *":animate on", "enter")
        drawn = net.frames_drawn
        await pilot.press(*":scramble 1", "enter")
        assert net.frames_drawn == drawn     # twenty moves at once: drawn at once
    run_app(tmp_path, body)


def test_animation_turns_itself_off_when_frames_come_late(tmp_path):
    async def body(app, pilot):
        app.net.lag_limit = 0.0              # every frame is late
        await pilot.press("f8", "tab")
        for key in "ij":                     # R and U on the keyboard cube
            await pilot.press(key)
            await settle(pilot, app)
        await pilot.pause()
        assert not app.session.animate
        assert "animation off" in str(app.query_one("#message").render())
        app.net.lag_limit = 1e9
        await pilot.press("escape", *":animate on", "enter", "tab")
        drawn = app.net.frames_drawn
        await pilot.press("k")                                  # asked again: R' turns
        assert app.net.frames_drawn > drawn and app.net.animate
        await settle(pilot, app)
    run_app(tmp_path, body)


def test_no_animation_when_served(tmp_path):
    async def body(app, pilot):
        app.net.served = True
        await pilot.press("f8", *"R", "enter")
        assert app.net.frames_drawn == 0
    run_app(tmp_path, body)
