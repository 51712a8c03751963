"""The F1 help screen: commands, keys of the workbench, and the keyboard cube's map."""

from __future__ import annotations

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from .keymap import keymap_rows
from .session import COMMANDS

KEYS = (
    ("F1", "this help"),
    ("F2", "sticker letters on/off"),
    ("F3", "paint mode (on the net)"),
    ("F5 / F6", "solve / compare solvers"),
    ("Ctrl+Z / Ctrl+Y", "undo / redo"),
    ("Esc", "cancel solvers, leave paint or playback, clear the line"),
    ("Tab / Shift+Tab", "complete a command, or move focus: line, net, table"),
    ("Up / Down", "input history (shared with `cubelab repl`)"),
    ("Enter on a row", "apply that solution; P steps through it on the net"),
    ("Left / Right", "playback: step back / forward; Enter keeps, Esc leaves"),
    ("Ctrl+P", "command palette"),
    ("Ctrl+Q", "quit"),
)


def help_renderable() -> Table:
    outer = Table.grid(padding=(0, 3))
    outer.add_column()
    outer.add_column()
    commands = Table(title="commands (type in the line)", show_header=False, box=None)
    for name, (args, what) in COMMANDS.items():
        commands.add_row(f":{name} {args}".rstrip(), what)
    keys = Table(title="keys", show_header=False, box=None)
    for key, what in KEYS:
        keys.add_row(key, what)
    cube = Table(title="keyboard cube (focus the net)", show_header=False, box=None)
    for key, move in keymap_rows():
        cube.add_row(key, move)
    outer.add_row(commands, cube)
    outer.add_row(keys, "")
    return outer


class HelpScreen(ModalScreen[None]):
    """Everything the workbench understands, on one scrollable page."""

    BINDINGS = [Binding("escape,f1,q", "dismiss", "close")]
    """Esc, F1 or Q closes the help."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(help_renderable())
