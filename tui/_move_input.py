"""The input line: moves or `:` commands, with history on up/down and completion of commands."""

from __future__ import annotations

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
    """An Input that walks the shared history with up and down and completes with Tab."""

    BINDINGS = [
        Binding("up", "history(-1)", "previous", show=False),
        Binding("down", "history(1)", "next", show=False),
        Binding("tab", "complete", "complete", show=False),
    ]
    """Up/down walk the history; Tab takes the suggestion (or moves focus on when there is none)."""

    def __init__(self, session: Session, history: InputHistory, **kwargs):
        super().__init__(suggester=CommandSuggester(session), **kwargs)
        self.session = session
        self.history = history
        self._walking = False

    def action_history(self, direction: int) -> None:
        text = self.history.previous(self.value) if direction < 0 else self.history.next()
        if text is None:
            return
        self._walking = True
        self.value = text
        self.cursor_position = len(text)
        self._walking = False

    def action_complete(self) -> None:
        # the suggester's own answer, asked afresh (the suggestion Input shows is its private)
        options = self.session.completions(self.value)
        if options and options[0] != self.value:
            self.value = options[0]
            self.cursor_position = len(self.value)
        else:
            self.screen.focus_next()

    def watch_value(self, value: str) -> None:
        # typing (not walking) starts a new walk from the newest entry
        if not self._walking:
            self.history.reset()
