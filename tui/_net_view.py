"""The net widget: draws the cube, and with focus it is a keyboard cube, a paint board or a player."""

from __future__ import annotations

from textual.binding import Binding
from textual.events import Key
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from cubelab.cube.net import Net, side_of, step_cursor
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
    view: reactive[str] = reactive("net")
    """net | front | back: the net, or the 3-D view (cubelab.cube.iso) from either side; paint
    mode always shows the net (its cursor moves over the net)."""

    class Turn(Message):
        """A move key was pressed on the keyboard cube."""

        def __init__(self, move: str) -> None:
            super().__init__()
            self.move = move

    class Paint(Message):
        """A sticker was painted (face id; -1 blanks it, and `everything` blanks all)."""

        def __init__(self, index: int, face: int, everything: bool = False) -> None:
            super().__init__()
            self.index = index
            self.face = face
            self.everything = everything

    class Step(Message):
        """Playback moved by `delta` moves (a large value jumps to an end)."""

        def __init__(self, delta: int) -> None:
            super().__init__()
            self.delta = delta

    class Commit(Message):
        """Enter: use the painting, or keep the playback position."""

    def render(self) -> Net:
        if self.mode == "paint" and self.colours is not None:
            return Net(colours=self.colours, letters=self.letters, cursor=self.cursor)
        if self.view != "net":
            from cubelab.cube.iso import IsoView, fit_scale
            return IsoView(self.state, view=self.view, letters=self.letters,
                           scale=fit_scale(self.content_size.width, self.content_size.height))
        return Net(self.state, letters=self.letters)

    def watch_view(self, view: str) -> None:
        """The 3-D view grows with a large terminal (the net keeps the stylesheet's size)."""
        from cubelab.cube.iso import fit_scale, size
        if view == "net":
            self.styles.width = self.styles.height = None
            return
        room = self.app.size
        # leave the facts panel and the lists their share of a large screen
        scale = fit_scale(room.width // 2 - 4, room.height - 14)
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

    def _paint_key(self, event: Key) -> bool:
        if event.key in CURSOR_KEYS:
            side = side_of(len(self.colours)) if self.colours is not None else 3
            self.cursor = step_cursor(self.cursor, *CURSOR_KEYS[event.key], side)
            return True
        if event.key == "backspace":
            self.post_message(self.Paint(self.cursor, -1))
            return True
        if event.key == "delete":
            self.post_message(self.Paint(self.cursor, -1, everything=True))
            return True
        face = PAINT_KEYS.get((event.character or "").lower())
        if face is None:
            return False
        self.post_message(self.Paint(self.cursor, face))
        return True

    def _play_key(self, event: Key) -> bool:
        steps = {"right": 1, "left": -1, "space": 1, "home": -10**6, "end": 10**6}
        if event.key not in steps:
            return False
        self.post_message(self.Step(steps[event.key]))
        return True
