"""The net widget: draws the cube, and with focus it is a keyboard cube, a paint board or a player."""

from __future__ import annotations

from textual.binding import Binding
from textual.events import Click, Key, Paste
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from cubelab.cube import pieces, pocket
from cubelab.cube.net import Net, is_centre, side_of, step_cursor
from cubelab.cube.pieces import FACES
from cubelab.cube.puzzles import puzzle_of
from cubelab.cube.state import CubeState

from .keymap import CURSOR_KEYS, PAINT_KEYS, move_for_key


class NetView(Widget, can_focus=True):
    """Shows `state` (or the stickers being painted) as the coloured net, of whichever cube
    the state belongs to (a 3x3x3 CubeState or a 2x2x2 PocketState).

    Modes: "turn" (letter keys turn the cube, the csTimer/cubing.js map), "paint" (arrows move a
    cursor, colour keys paint) and "play" (left/right step through a solution). The widget only
    reports what was asked; the app changes the session.
    """

    BINDINGS = [
        Binding("enter", "commit", "use", show=False),
    ]
    """Enter keeps a painting or the position reached in playback."""

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
    """The palette's colour (face id) a click paints with; a colour key also picks it."""
    grey: reactive[frozenset] = reactive(frozenset())
    """Stickers drawn grey (the session's goal does not read them: `:goal`)."""
    view: reactive[str] = reactive("net")
    """net | front | back: the net, or the 3-D view (cubelab.cube.iso) from either side; paint
    mode always shows the net (its cursor moves over the net)."""

    class Turn(Message):
        """A move key was pressed on the keyboard cube, or a face clicked (`click`)."""

        def __init__(self, move: str, click: bool = False) -> None:
            super().__init__()
            self.move = move
            self.click = click

    class Paint(Message):
        """Sticker `index` was painted (face id; -1 blanks it; `everything` blanks all but the
        centres) and the cursor is now on `cursor`. The net has already drawn it: it keeps the
        painting itself while keys arrive, so a burst of keys never waits for the app."""

        def __init__(self, index: int, face: int, cursor: int, everything: bool = False) -> None:
            super().__init__()
            self.index = index
            self.face = face
            self.cursor = cursor
            self.everything = everything

    class Step(Message):
        """Playback moved by `delta` moves (a large value jumps to an end)."""

        def __init__(self, delta: int) -> None:
            super().__init__()
            self.delta = delta

    class Commit(Message):
        """Enter: use the painting, or keep the playback position."""

    def focus_on_click(self) -> bool:
        """A click turns a face and leaves the keys where they were (on the move line); only
        paint mode, which takes its colours from the keys, keeps the focus on the net."""
        return self.mode == "paint"

    def render(self) -> Net:
        if self.mode == "paint" and self.colours is not None:
            from ._mouse import PaintBoard
            net = Net(colours=self.colours, letters=self.letters, cursor=self.cursor,
                      scale=self.scale)
            return PaintBoard(net, self.paint_colour, bool(self.letters))
        return self._picture()

    def _picture(self):
        """The net or the 3-D view of the state (what a click outside paint mode hits)."""
        if self.view != "net":
            from cubelab.cube.iso import IsoView, fit_scale
            return IsoView(self.state, view=self.view, letters=self.letters,
                           scale=fit_scale(self.content_size.width, self.content_size.height))
        if self.grey:
            colours = [-1 if i in self.grey else c
                       for i, c in enumerate(puzzle_of(self.state).colours(self.state))]
            return Net(colours=colours, letters=self.letters, scale=self.scale)
        return Net(self.state, letters=self.letters, scale=self.scale)

    def watch_cursor(self) -> None:
        # the border names the sticker under the cursor, wherever the arrows take it
        title = str(self.border_title or "")
        if self.mode == "paint" and " · paint " in title:
            self.border_title = title.split(" · paint ")[0] + f" · paint {self.sticker_name()}"

    def watch_view(self) -> None:
        self._fit()

    def watch_mode(self) -> None:
        self._fit()
        self._show_keys(self.has_focus)

    HINTS = {"turn": "keys turn it · Esc: to the line",
             "paint": "Enter uses it · Esc leaves",
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

    def fit_iso(self, room: tuple[int, int] | None = None) -> None:
        """Size the box for the 3-D view in a terminal of `room` (width, height; else the
        app's size); nothing to do for the net."""
        if self.mode == "paint" or self.view == "net":
            return
        from cubelab.cube.iso import fit_scale, size
        width, height = room if room is not None else self.app.size
        # leave the facts panel and the lists their share of a large screen
        scale = fit_scale(width // 2 - 4, height - 14)
        width, height = size(scale)
        self.styles.width, self.styles.height = max(28, width + 4), max(11, height + 2)

    def action_commit(self) -> None:
        if self.mode in ("paint", "play"):
            self.post_message(self.Commit())

    def on_key(self, event: Key) -> None:
        handled = {"turn": self._turn_key, "paint": self._paint_key, "play": self._play_key}
        if handled[self.mode](event):
            event.stop()
            event.prevent_default()

    def _turn_key(self, event: Key) -> bool:
        if not event.is_printable:
            return False
        move = move_for_key(event.character)
        if move is None:
            return False
        self.post_message(self.Turn(move))
        return True

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
            face = PAINT_KEYS.get((event.character or "").lower())
            if face is None:
                return False
            self.paint_next(face)
        return True

    def paint_next(self, face: int) -> None:
        """Paint the sticker under the cursor and step to the next in the paint order (the
        facelet order U1..U9 R1.. B9). A centre never changes: its key is taken and skipped,
        so a whole facelet string typed or pasted lands sticker for sticker."""
        self.paint_colour = face            # the palette follows the colour keys
        after = min(self.cursor + 1, len(self.colours) - 1)
        self._set(self.cursor, face, after)

    def _set(self, index: int, face: int, cursor: int) -> None:
        n = side_of(len(self.colours))
        if not is_centre(index, n):
            colours = list(self.colours)
            colours[index] = face
            self.colours = tuple(colours)
        self.cursor = cursor
        self.post_message(self.Paint(index, self.colours[index], cursor))

    def on_paste(self, event: Paste) -> None:
        """A pasted facelet string (or part of one) paints sticker after sticker."""
        if self.mode != "paint" or self.colours is None:
            return
        event.stop()
        for character in event.text:
            face = PAINT_KEYS.get(character.lower())
            if face is not None:
                self.paint_next(face)

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
