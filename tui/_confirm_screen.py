"""A yes/no question in a small modal: Y answers yes; N or Esc, no.

The workbench asks before it throws work away (cancelling a table build); the answer comes back
through push_screen's callback.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label


class ConfirmScreen(ModalScreen[bool]):
    """Asks `question` (with `detail` under it); dismisses with True for yes."""

    BINDINGS = [
        Binding("y", "answer(True)", "yes"),
        Binding("n,escape", "answer(False)", "no"),
    ]
    """Y says yes; N or Esc says no (Esc never does the harmful thing)."""

    def __init__(self, question: str, detail: str = "", yes: str = "Yes", no: str = "No"):
        super().__init__()
        self.question = question
        self.detail = detail
        self.yes = yes
        self.no = no

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Label(self.question, id="confirm-question")
            if self.detail:
                yield Label(self.detail, id="confirm-detail")
            with Horizontal(id="confirm-buttons"):
                yield Button(f"{self.yes} (y)", id="yes", variant="error")
                yield Button(f"{self.no} (n)", id="no", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()      # Enter keeps what is there

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)
