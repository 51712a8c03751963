"""The offer to build a solver's missing tables: a small modal that answers yes or no."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label


class BuildOfferScreen(ModalScreen[bool]):
    """Asks whether to build the tables a solver needs; dismisses with True to build."""

    BINDINGS = [
        Binding("y", "answer(True)", "build"),
        Binding("n,escape", "answer(False)", "not now"),
    ]
    """Y builds, N or Esc declines."""

    def __init__(self, solver: str, detail: str = ""):
        super().__init__()
        self.solver = solver
        self.detail = detail

    def compose(self) -> ComposeResult:
        with Vertical(id="offer"):
            detail = f" ({self.detail})" if self.detail else ""
            yield Label(f"The tables of {self.solver} are not built yet{detail}.")
            yield Label("Build them now? It runs in the background with a progress bar; "
                        "the workbench stays usable.")
            with Horizontal(id="offer-buttons"):
                yield Button("Build (y)", id="build", variant="primary")
                yield Button("Not now (n)", id="skip")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "build")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)
