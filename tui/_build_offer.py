"""The offer to build a solver's missing tables: a small modal that answers yes or no.

A solver run asks from its own thread (`offer_build` is the runner's `ask_build` hook): the
modal opens on the UI thread and the run waits for the answer, or for its cancel flag.
"""

from __future__ import annotations

import threading

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label

from .bindings import binding


class BuildOfferScreen(ModalScreen[bool]):
    """Asks whether to build the tables a solver needs; dismisses with True to build."""

    BINDINGS = [
        binding("cubelab.answer.yes", "answer(True)", "build", show=True),
        binding("cubelab.answer.no", "answer(False)", "not now", show=True),
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


def offer_build(app, run, detail: str) -> bool:
    """Ask on `app`'s screen whether to build the tables of `run` (a runner.SolverRun), from the
    run's thread; False when the app is gone or the run is cancelled while the modal is up."""
    answer: list[bool] = []
    done = threading.Event()

    def reply(value: bool | None) -> None:
        answer.append(bool(value))
        done.set()

    def ask() -> None:
        app.push_screen(BuildOfferScreen(run.name, detail), callback=reply)

    try:
        app.call_from_thread(ask)
    except RuntimeError:
        return False
    while not done.wait(0.05):
        if run.cancel[0]:
            return False
    return answer[0]
