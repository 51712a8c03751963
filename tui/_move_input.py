"""The input line: moves or `:` commands, with history on up/down and completion of commands.

Every key the line receives is handled when it arrives, in the order typed: Enter runs the line
at once (through the `submit` callback the app gives), before the keys typed after it are read.
Textual's Input instead resolves its key bindings (Enter, Backspace, the arrows...) only after
the key has bubbled up to the app, and posts Enter's Submitted message to be handled later
still: keys that follow quickly (a fast typist over SSH, tmux send-keys, a paste) were already
inserted by then, so `:reset` Enter `R U` ran `:resetR U`. A paste of several lines runs each
line as if typed, in order.
"""

from __future__ import annotations

from typing import Callable

from textual import events
from textual.binding import Binding
from textual.suggester import Suggester
from textual.widgets import Input

from .history import InputHistory
from .session import Session


class CommandSuggester(Suggester):
    """Suggests the completion of a `:` command line (accepted with the right arrow or Tab)."""

    def __init__(self, session: Session):
        super().__init__(use_cache=False, case_sensitive=True)
        self.session = session

    async def get_suggestion(self, value: str) -> str | None:
        options = self.session.completions(value)
        return options[0] if options else None


class MoveInput(Input):
    """An Input that walks the shared history with up and down, completes with Tab, and runs
    each line the moment its Enter arrives (see the module docstring)."""

    BINDINGS = [
        Binding("up", "history(-1)", "previous", show=False),
        Binding("down", "history(1)", "next", show=False),
        Binding("tab", "complete", "complete", show=False),
    ]
    """Up/down walk the history; Tab takes the suggestion (or moves focus on when there is none)."""

    def __init__(self, session: Session, history: InputHistory,
                 submit: Callable[[str], None], **kwargs):
        # a click that brings focus back must not select what is being typed (typing would
        # replace it); the app selects the line itself after an error
        super().__init__(suggester=CommandSuggester(session), select_on_focus=False, **kwargs)
        self.session = session
        self.history = history
        self.submit = submit
        """submit(line): run the line; it leaves the line cleared, or selected after an error."""
        self._walking = False

    # ---- keys in the order typed --------------------------------------------------------
    async def on_key(self, event: events.Key) -> None:
        """Runs before Input's own handler: the line's bindings act now, not after the keys
        queued behind this one; Esc empties a line that has text (else it goes on to the app:
        stop a search, leave paint mode...)."""
        if event.is_printable:
            return                          # Input inserts it (or replaces the selection)
        if event.key == "escape":
            if self.value:
                self._done_with(event)
                self.value = ""
            return
        active = self.screen.active_bindings.get(event.key)
        if active is None or active.node is not self or not active.enabled:
            return                          # the app's key (F5, Ctrl+Z...): let it bubble up
        if await self.app.run_action(active.binding.action, self):
            self._done_with(event)

    @staticmethod
    def _done_with(event: events.Key) -> None:
        event.stop()                # the app must not run the binding a second time
        event.prevent_default()     # nor Input's own key handler

    async def action_submit(self) -> None:
        self.submit(self.value)

    def on_paste(self, event: events.Paste) -> None:
        """Each pasted line as if typed and entered; the text after the last line break stays
        on the line (Input itself keeps only the first line of a paste)."""
        self._done_with(event)
        lines = event.text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        for number, text in enumerate(lines):
            self._type(text)
            if number < len(lines) - 1:
                self.submit(self.value)

    def _type(self, text: str) -> None:
        """Insert `text` at the cursor, replacing the selection if there is one."""
        if not text:
            return
        selection = self.selection
        if selection.is_empty:
            self.insert_text_at_cursor(text)
        else:
            self.replace(text, *selection)

    # ---- history and completion ----------------------------------------------------------
    def action_history(self, direction: int) -> None:
        text = self.history.previous(self.value) if direction < 0 else self.history.next()
        if text is None:
            return
        self._walking = True
        self.value = text
        self.cursor_position = len(text)
        self._walking = False

    def action_complete(self) -> None:
        # asked of the session now, not read from the suggester's worker (which may lag)
        options = self.session.completions(self.value) if self.value else []
        if options and options[0] != self.value:
            self.value = options[0]
            self.cursor_position = len(self.value)
        else:
            self.screen.focus_next()

    def watch_value(self, value: str) -> None:
        # typing (not walking) starts a new walk from the newest entry
        if not self._walking:
            self.history.reset()
