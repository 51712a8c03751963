"""The output pane: what a command says that is longer than the message line, on a scrollable page.

The message area under the move line holds a few lines; a longer text (`:patterns`, `:tables`,
a solution spelled out step by step) opens here instead, whole, over the workbench. Esc or Q
closes it and the keys go back to the move line.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static


class OutputScreen(ModalScreen[None]):
    """A text too long for the message line, scrollable; `title` says where it comes from."""

    BINDINGS = [Binding("escape,q", "dismiss", "close")]
    """Esc or Q closes the pane (the arrows, PgUp/PgDn, Home/End and the wheel scroll it)."""

    def __init__(self, text: str | Text, title: str = ""):
        super().__init__()
        self.text = text if isinstance(text, Text) else Text(text)
        self.title = title

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="output") as pane:
            pane.border_title = self.title
            pane.border_subtitle = "Esc or q closes · ↑↓ PgUp PgDn scroll"
            yield Static(self.text, id="output-text")
