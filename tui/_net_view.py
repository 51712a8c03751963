"""The net widget: draws the cube, and with focus it is a keyboard cube, a paint board or a player.

The cube is drawn as the net or in 3-D (cube/iso.py), in the session's colour scheme. In 3-D
the arrows (or a drag of the mouse, or its wheel) turn the picture a quarter turn, so any
three faces come to view, and a move typed or turned is shown turning in a few frames unless
animation is off: by the user's choice, when served to a browser, or by itself when the
frames come late (a slow link or a busy machine).
"""

from __future__ import annotations

import time

from textual.events import Click, Key, MouseDown, MouseMove, MouseScrollDown, MouseScrollUp, \
    MouseUp, Paste
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from cubelab.cube import pieces, pocket
from cubelab.cube.colour_scheme import WESTERN, ColourScheme
from cubelab.cube.net import Net, is_centre, side_of, step_cursor
from cubelab.cube.notation import invert_moves
from cubelab.cube.pieces import FACES
from cubelab.cube.puzzles import puzzle_of
from cubelab.cube.state import CubeState

from .bindings import BINDINGS as ALL_BINDINGS, binding
from .keymap import CURSOR_KEYS, GREY, GREY_KEYS

FRAME_SECONDS = 1 / 30
"""The time between two pictures of a turning move."""
ANIMATED_MOVES = 4
"""A change of at most this many moves is shown turning; a longer one is drawn at once."""
VIEW_KEYS = {"left": "left", "right": "right", "up": "up", "down": "down"}
"""Arrow key -> how the 3-D picture turns (turn mode; paint and playback keep their arrows)."""


class NetView(Widget, can_focus=True):
    """Shows `state` (or the stickers being painted) as the coloured net, of whichever cube
    the state belongs to (a 3x3x3 CubeState or a 2x2x2 PocketState).

    Modes: "turn" (letter keys turn the cube, the csTimer/cubing.js map), "paint" (arrows move a
    cursor, colour keys paint) and "play" (left/right step through a solution). The widget only
    reports what was asked; the app changes the session.
    """

    BINDINGS = [
        binding("cubelab.net.commit", "commit", "use"),
        *(binding(i, f"turn({i.removeprefix('cubelab.cube.')!r})", b.what)
          for i, b in ALL_BINDINGS.items() if i.startswith("cubelab.cube.")),
    ]
    """Enter keeps a painting or the position reached in playback; in turn mode the letter keys
    turn the cube (the cubing.js map unless the settings remap them: bindings.py)."""

    state: reactive[object] = reactive(CubeState.identity, layout=False)
    """The position drawn (outside paint mode)."""
    letters: reactive[bool] = reactive(False)
    """Draw sticker letters (the app decides: toggle, or automatic on poor colour terminals)."""
    mode: reactive[str] = reactive("turn")
    """turn | paint | play."""
    colours: reactive[tuple[int, ...] | None] = reactive(None)
    """The stickers being painted (paint mode)."""
    cursor: reactive[int] = reactive(0)
    """The sticker under the paint cursor."""
    scale: reactive[int] = reactive(1)
    """Sticker size: 1 (two cells by one line) or 2 (four by two); the app picks it for the
    terminal's size."""
    paint_colour: reactive[int] = reactive(0)
    """The palette's colour (face id, or GREY: -1) a click paints with; a colour key also
    picks it."""
    grey: reactive[frozenset] = reactive(frozenset())
    """Stickers drawn grey (the session's goal does not read them: `:goal`; or they are grey
    in a masked position painted with grey stickers)."""
    view: reactive[str] = reactive("net")
    """net | 3d: the net, or the 3-D view (cubelab.cube.iso) held as `orientation`; paint mode
    always shows the net (its cursor moves over the net)."""
    orientation: reactive[str] = reactive("UFR")
    """How the 3-D view holds the cube: the faces on top, in front and on the right."""
    scheme: reactive[ColourScheme] = reactive(WESTERN)
    """The colour scheme of every picture (the app sets the session's)."""
    animate: reactive[bool] = reactive(True)
    """Show moves turning in the 3-D view (the session's choice)."""
    served: bool = False
    """Shown through a browser (--serve): no animation, every frame would cross the link."""
    animate_allowed: bool = True
    """False once the frames could not keep up (for the rest of the session)."""
    lag_limit: float = 4 * FRAME_SECONDS
    """A frame this much later than the one before means the frames cannot keep up."""

    class Turn(Message):
        """A move key was pressed on the keyboard cube, or a face clicked (`click`)."""

        def __init__(self, move: str, click: bool = False) -> None:
            super().__init__()
            self.move = move
            self.click = click

    class Paint(Message):
        """Sticker `index` was painted (face id; -1 greys it: unknown; `everything` greys all
        but the centres) and the cursor is now on `cursor`. The net has already drawn it: it keeps the
        painting itself while keys arrive, so a burst of keys never waits for the app."""

        def __init__(self, index: int, face: int, cursor: int, everything: bool = False,
                     colours: tuple | None = None) -> None:
            super().__init__()
            self.index = index
            self.face = face
            self.cursor = cursor
            self.everything = everything
            self.colours = colours
            """Every sticker as the net now has it, after a paste (one message for all)."""

    class Step(Message):
        """Playback moved by `delta` moves (a large value jumps to an end)."""

        def __init__(self, delta: int) -> None:
            super().__init__()
            self.delta = delta

    class Commit(Message):
        """Enter: use the painting, or keep the playback position."""

    class Orient(Message):
        """The 3-D picture was turned (arrows, drag or wheel) to hold the cube `orientation`."""

        def __init__(self, orientation: str) -> None:
            super().__init__()
            self.orientation = orientation

    class AnimationOff(Message):
        """Frames came too late twice: animation turned itself off for the session."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._moves: tuple = ()
        self._frames: list = []
        self._frame = None                  # (colours, turn) drawn now, while a move turns
        self._frame_state = None            # the position that frame shows (its layer turning)
        self._timer = None
        self._last_tick = 0.0
        self._lagged = 0
        self._asked_animate = True          # what the session last asked for
        self._drag = None                   # (x, y) where a drag on the 3-D view last turned it
        self._dragged = False
        self.frames_drawn = 0
        """Pictures of turning moves drawn so far (what shows that a move was animated)."""

    def set_look(self, view: str, orientation: str, scheme: ColourScheme,
                 animate: bool) -> None:
        """Take how the session wants the cube drawn (animation asked for again after it
        turned itself off gets another try)."""
        if animate and not self._asked_animate:
            self.animate_allowed, self._lagged = True, 0
        self._asked_animate = animate
        self.view, self.orientation, self.scheme = view, orientation, scheme
        self.animate = animate and self.animate_allowed
        if not self.animate:
            self._finish()

    def show(self, state, moves=()) -> None:
        """Draw `state`, reached by `moves` (the whole sequence so far). In the 3-D view, a few
        moves added since the last picture turn in a few frames, and moves taken back (undo,
        playback stepping back) turn back."""
        before, before_moves = self.state, self._moves
        self._moves = tuple(moves)
        frames = self._plan(before, before_moves, state, self._moves)
        self.state = state
        if frames:
            self._frames = frames
            self._last_tick = time.monotonic()
            if self._timer is None:
                self._timer = self.set_interval(FRAME_SECONDS, self._tick)
            self._tick(first=True)

    def _plan(self, before, old, after, new) -> list:
        if not (self.animate and not self.served and self.view == "3d"
                and self.mode in ("turn", "play") and type(before) is type(after)):
            return []
        if 0 < len(new) - len(old) <= ANIMATED_MOVES and new[:len(old)] == old:
            moves = new[len(old):]
        elif 0 < len(old) - len(new) <= ANIMATED_MOVES and old[:len(new)] == new:
            moves = tuple(invert_moves(old[len(new):]))
        else:
            return []
        from cubelab.cube.layer_turns import move_frames
        try:
            puzzle = puzzle_of(before)
            if puzzle.apply(before, moves) != after:
                return []
            frames, state = [], before
            for move in moves:      # each frame with the position it shows, for grey stickers
                moved = puzzle.apply(state, [move])
                frames += [(colours, turn, state if turn is not None else moved)
                           for colours, turn in move_frames(state, [move])]
                state = moved
            return frames
        except ValueError:
            return []

    def _tick(self, first: bool = False) -> None:
        now = time.monotonic()
        late = not first and now - self._last_tick > self.lag_limit
        self._last_tick = now
        if late and self._frames:
            self._lagged += 1
            self._frames = []
            if self._lagged >= 2:
                self.animate_allowed = self.animate = False
                self.post_message(self.AnimationOff())
        if self._frames:
            colours, turn, self._frame_state = self._frames.pop(0)
            self._frame = (colours, turn)
            self.frames_drawn += 1
            self.refresh()
        else:
            self._finish()

    def _finish(self) -> None:
        """Stop turning: draw the position itself."""
        self._frames = []
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self._frame is not None:
            self._frame = None
            self.refresh()

    @property
    def turning(self) -> bool:
        """Whether a move is being shown turning."""
        return self._frame is not None

    def focus_on_click(self) -> bool:
        """A click turns a face and leaves the keys where they were (on the move line); only
        paint mode, which takes its colours from the keys, keeps the focus on the net."""
        return self.mode == "paint"

    def render(self) -> Net:
        if self.mode == "paint" and self.colours is not None:
            from ._mouse import PaintBoard
            net = Net(colours=self.colours, letters=self.letters, cursor=self.cursor,
                      scale=self.scale, scheme=self.scheme)
            return PaintBoard(net, self.paint_colour, bool(self.letters))
        return self._picture()

    def _picture(self):
        """The net or the 3-D view of the state (what a click outside paint mode hits)."""
        if self.view == "3d":
            from cubelab.cube.iso import IsoView
            colours, turn = self._frame if self._frame is not None else (None, None)
            if self.grey:       # grey stickers stay grey in 3-D too, turning ones included
                colours = self._greyed() if colours is None else self._greyed_frame(colours)
            return IsoView(self.state, colours=colours, orientation=self.orientation,
                           scheme=self.scheme, letters=self.letters, turn=turn,
                           width=self.content_size.width, height=self.content_size.height)
        if self.grey:       # :goal (issue 34): the stickers the goal does not read are grey
            return Net(colours=self._greyed(), letters=self.letters, scale=self.scale,
                       scheme=self.scheme)
        return Net(self.state, letters=self.letters, scale=self.scale, scheme=self.scheme)

    def _greyed(self) -> list[int]:
        """The state's stickers with those of `grey` grey (-1)."""
        return [-1 if i in self.grey else c
                for i, c in enumerate(puzzle_of(self.state).colours(self.state))]

    def _greyed_frame(self, colours: list[int]) -> list[int]:
        """A frame of a turning move with the stickers grey that end grey: the ones on the
        pieces (and their faces) that `grey` names in the position reached, wherever the frame
        shows them (a masked position's grey stickers travel with their pieces)."""
        from cubelab.cube.state import CubeState
        shown = self._frame_state
        if not (isinstance(shown, CubeState) and isinstance(self.state, CubeState)):
            return [-1 if i in self.grey else c for i, c in enumerate(colours)]
        from cubelab.cube.masked_facelets import sticker_owners
        final = sticker_owners(self.state)
        hidden = {int(final[i]) for i in self.grey}
        return [-1 if int(o) in hidden else c for o, c in zip(sticker_owners(shown), colours)]

    def watch_cursor(self) -> None:
        # the border names the sticker under the cursor, wherever the arrows take it
        title = str(self.border_title or "")
        if self.mode == "paint" and " · paint " in title:
            self.border_title = title.split(" · paint ")[0] + f" · paint {self.sticker_name()}"

    def watch_view(self) -> None:
        self._finish()
        self._fit()

    def watch_mode(self) -> None:
        self._fit()
        self._show_keys(self.has_focus)

    HINTS = {"turn": "keys turn it · Esc: to the line",
             "paint": "*: grey · Enter: use · Esc: leave",
             "play": "←→ step · Enter keeps · Esc leaves"}
    """What the keys do here, on the bottom edge while the net has them."""

    def _show_keys(self, focused: bool) -> None:
        self.border_subtitle = self.HINTS.get(self.mode, "") if focused else ""

    # (these run before Widget's own handlers, which set has_focus)
    def on_focus(self) -> None:
        self._show_keys(True)

    def on_blur(self) -> None:
        self._show_keys(False)

    def _fit(self) -> None:
        """The box's size: the app's fit_layout sizes it for the net (two columns more for the
        3x3x3's paint palette); the 3-D view takes as much as a large terminal spares."""
        fit = getattr(self.app, "fit_layout", None)
        if fit is not None:
            fit()
        else:
            self.fit_iso()

    def fit_iso(self, room: tuple[int, int] | None = None) -> int | None:
        """Size the box for the 3-D view in a terminal of `room` (width, height; else the
        app's size); nothing to do for the net: the net's box on a small screen, and on a
        large one as much as the facts and the lists can spare (half the width, all the
        height but the facts' dozen lines). Returns the box's width when it wants more than
        the net's (the app widens the column holding it)."""
        if self.mode == "paint" or self.view == "net":
            return None
        from cubelab.cube.projections import fit_size
        width, height = room if room is not None else self.app.size
        if width < 120:
            return None
        width, height = fit_size(width // 2 - 4, height - 14)
        box = max(self.styles.width.value if self.styles.width else 0, width + 4)
        self.styles.width = box
        self.styles.height = max(11, height + 2)
        return int(box)

    def action_commit(self) -> None:
        if self.mode in ("paint", "play"):
            self.post_message(self.Commit())

    def on_key(self, event: Key) -> None:
        handled = {"turn": self._view_key, "paint": self._paint_key,
                   "play": self._play_key}.get(self.mode)
        if handled is not None and handled(event):
            event.stop()
            event.prevent_default()

    def _view_key(self, event: Key) -> bool:
        """Turn mode: in 3-D the arrows turn the picture (the cube's own keys are bindings)."""
        if self.view == "3d" and event.key in VIEW_KEYS:
            self.turn_view(VIEW_KEYS[event.key])
            return True
        return False

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        # the keyboard cube's keys turn it only in turn mode (paint mode takes the letters
        # as colours, and playback leaves them alone)
        return self.mode == "turn" if action == "turn" else True

    def action_turn(self, move: str) -> None:
        """A key of the keyboard cube (turn mode)."""
        self.post_message(self.Turn(move))

    def on_click(self, event: Click) -> None:
        """A click on a sticker: paint it (paint mode: a palette cell picks the colour), or turn
        its face (shift: counter-clockwise); playback ignores clicks."""
        from ._mouse import palette_slots, sticker_at
        at = event.get_content_offset(self)
        if at is None or self.mode == "play":
            return
        if self.mode == "paint" and self.colours is not None:
            n = side_of(len(self.colours))
            face = palette_slots(n, self.scale).get((at.x, at.y))
            if face is not None:
                self.paint_colour = face
                return
            index = sticker_at(Net(colours=self.colours, scale=self.scale), at.x, at.y)
            if index is not None:
                self._set(index, self.paint_colour, index)
            return
        if self._dragged:
            self._dragged = False           # the end of a drag that turned the picture
            return
        picture = self._picture()
        index = sticker_at(picture, at.x, at.y)
        if index is not None:
            face = FACES[index // (len(picture.colours) // 6)]
            self.post_message(self.Turn(face + ("'" if event.shift else ""), click=True))

    def _paint_key(self, event: Key) -> bool:
        if self.colours is None:
            return False
        n = side_of(len(self.colours))
        per_face = n * n
        key, cursor = event.key, self.cursor
        face_start = cursor - cursor % per_face
        jumps = {"home": face_start, "end": face_start + per_face - 1,
                 "ctrl+home": 0, "ctrl+end": len(self.colours) - 1}
        if key in CURSOR_KEYS:
            self.cursor = step_cursor(cursor, *CURSOR_KEYS[key], n)
        elif key in jumps:
            self.cursor = jumps[key]
        elif key == "backspace":
            # as in an editor: back one sticker and blank it (a centre is only stepped over)
            if cursor > 0:
                self._set(cursor - 1, -1, cursor - 1)
        elif key == "delete":
            self._set(cursor, -1, cursor)
        elif key == "ctrl+u":
            colours = tuple(c if is_centre(i, n) else -1 for i, c in enumerate(self.colours))
            self.colours = colours
            self.post_message(self.Paint(-1, -1, self.cursor, everything=True))
        else:
            face = self._paint_value(event.character)
            if face is None:
                return False
            self.paint_next(face)
        return True

    def _paint_value(self, character: str | None) -> int | None:
        """The value a typed character paints: a colour's face id, GREY (-1) for the grey
        keys (`*`, `?`, 0: unknown, as in masked facelets), None for another character."""
        if character in GREY_KEYS:
            return GREY
        return self.scheme.paint_keys().get((character or "").lower())

    def paint_next(self, face: int, tell: bool = True) -> None:
        """Paint the sticker under the cursor and step to the next in the paint order (the
        facelet order U1..U9 R1.. B9). A centre never changes: its key is taken and skipped,
        so a whole facelet string typed or pasted lands sticker for sticker. `tell`: post the
        Paint message (a paste posts one for all its stickers)."""
        self.paint_colour = face            # the palette follows the colour keys
        after = min(self.cursor + 1, len(self.colours) - 1)
        self._set(self.cursor, face, after, tell=tell)

    def _set(self, index: int, face: int, cursor: int, tell: bool = True) -> None:
        n = side_of(len(self.colours))
        if not is_centre(index, n):
            colours = list(self.colours)
            colours[index] = face
            self.colours = tuple(colours)
        self.cursor = cursor
        if tell:
            self.post_message(self.Paint(index, self.colours[index], cursor))

    def on_paste(self, event: Paste) -> None:
        """A pasted facelet string (or part of one) paints sticker after sticker."""
        if self.mode != "paint" or self.colours is None:
            return
        event.stop()
        painted = False
        for character in event.text:
            face = self._paint_value(character)
            if face is not None:
                self.paint_next(face, tell=False)
                painted = True
        if painted:     # one message for the whole paste: the app reads the picture once
            self.post_message(self.Paint(-1, -1, self.cursor, colours=self.colours))

    def sticker_name(self) -> str:
        """The sticker under the paint cursor and its place in the order: 'U5 (5/54)'."""
        n = side_of(len(self.colours)) if self.colours is not None else 3
        total = 6 * n * n
        name = (pieces if n == 3 else pocket).facelet_name(self.cursor)
        return f"{name} ({self.cursor + 1}/{total})"

    def _play_key(self, event: Key) -> bool:
        steps = {"right": 1, "left": -1, "space": 1, "home": -10**6, "end": 10**6}
        if event.key not in steps:
            return False
        self.post_message(self.Step(steps[event.key]))
        return True

    # ---- turning the 3-D picture ------------------------------------------------------------
    def turn_view(self, how: str) -> None:
        """Turn the 3-D picture a quarter turn (left, right, up, down) or over to the other
        side; the app makes it the session's."""
        from cubelab.cube.holding import turned
        self.post_message(self.Orient(turned(self.orientation, how)))

    def on_mouse_down(self, event: MouseDown) -> None:
        if self.view == "3d" and self.mode == "turn":
            self._drag = (event.screen_x, event.screen_y)
            self._dragged = False
            self.capture_mouse()

    def on_mouse_move(self, event: MouseMove) -> None:
        """Dragging across the 3-D view turns the picture, a quarter turn every few cells."""
        if self._drag is None or not event.button:
            return
        dx, dy = event.screen_x - self._drag[0], event.screen_y - self._drag[1]
        if abs(dx) >= 6 or abs(dy) >= 3:
            if abs(dx) * 1 >= abs(dy) * 2:
                self.turn_view("right" if dx > 0 else "left")
            else:
                self.turn_view("down" if dy > 0 else "up")
            self._drag = (event.screen_x, event.screen_y)
            self._dragged = True

    def on_mouse_up(self, event: MouseUp) -> None:
        if self._drag is not None:
            self._drag = None
            self.release_mouse()

    def on_mouse_scroll_down(self, event: MouseScrollDown) -> None:
        if self.view == "3d" and self.mode == "turn":
            event.stop()
            self.turn_view("right")

    def on_mouse_scroll_up(self, event: MouseScrollUp) -> None:
        if self.view == "3d" and self.mode == "turn":
            event.stop()
            self.turn_view("left")
