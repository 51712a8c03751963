"""The message line under the move line: what a command answered, or what the line being typed
would do; an answer longer than the message area opens whole in the output pane instead."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

MESSAGE_LINES = 3
"""The most lines the message area shows (#message in app.tcss): a longer answer opens whole
in the output pane (_output_screen.py) instead of being cut."""


class MessageLine(Static):
    """Says one message at a time (see `say`)."""

    def __init__(self, **kwargs):
        super().__init__("", **kwargs)
        self.typing = False
        """The message describes the line being typed (it goes when the line is emptied)."""

    def say(self, text: str, error: bool = False, column: int = 0, typing: bool = False,
            source: str = "") -> None:
        """Show `text` (red for an error; a caret under `column` of the line for a notation
        error). `typing`: it describes the line being typed. An answer longer than the area
        opens in the output pane titled `source` (the line it answers), and this line says so."""
        self.typing = typing
        message = Text()
        if column:
            message.append(" " * column + "^ ", style="bold red")
        message.append(text, style="red" if error else "dim")
        lines = self.lines(message)
        if not typing and lines > MESSAGE_LINES:
            self.app.show_output(Text(text, style="red" if error else ""), source)
            message = Text(f"{source or 'the answer'}: {lines} lines, shown in the pane "
                           "(Esc or q closes it)", style="red" if error else "dim")
        self.update(message)

    def lines(self, message: Text) -> int:
        """How many lines `message` takes wrapped to this line's width."""
        width = self.size.width or self.app.size.width
        return len(message.wrap(self.app.console, max(1, width)))
