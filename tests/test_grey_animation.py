"""A masked position's grey stickers stay grey while a move turns in the 3-D view (issue 34):
every frame of the turn shows the grey stickers grey where the frame has them, not the
colours of the completion the picture was read as."""

from __future__ import annotations

from helpers_apps import run_app

GREY_U_BACK_ROW = "***UUUUUU" + "R" * 9 + "F" * 9 + "D" * 9 + "L" * 9 + "B" * 9
"""U1-U3 grey: the back row of the U face (ULB's, UB's and UBR's U stickers)."""


def test_grey_stickers_stay_grey_while_a_move_turns(tmp_path):
    async def body(app, pilot):
        net = app.net
        net.lag_limit = 1e9                  # a busy machine must not turn animation off here
        await pilot.press(*f":facelets {GREY_U_BACK_ROW}", "enter", "f8")
        await pilot.pause()
        assert app.session.mask is not None and net.view == "3d"
        frames = []
        real_picture = net._picture

        def picture():
            drawn = real_picture()
            if net.turning:
                frames.append((net._frame[1], drawn.colours))
            return drawn
        net._picture = picture                # (render() calls the instance's _picture)
        await pilot.press("R")                # typed: the preview turns R
        for _ in range(400):
            if frames and not net.turning:
                break
            await pilot.pause(0.02)
        assert not net.turning
        turning = [colours for turn, colours in frames if turn is not None]
        assert turning, "no frame of R was drawn turning"
        for colours in turning:
            # the position before R, its layer caught turning: U1-U3 grey, nothing else
            assert {i for i, c in enumerate(colours) if c < 0} == {0, 1, 2}
        # at rest on R: the three grey stickers are where R took them (UBR's U sticker to B)
        rest = real_picture().colours
        assert sum(1 for c in rest if c < 0) == 3
        assert {i for i, c in enumerate(rest) if c < 0} == set(net.grey)
    run_app(tmp_path, body)
