"""The F1 help screen: commands, keys of the workbench, and the keyboard cube's map."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from .keymap import keymap_rows
from .commands import COMMANDS
from .help_text import HELP_NOTES

KEYS = (
    ("F1", "this help"),
    ("F2", "sticker letters on/off"),
    ("F3", "paint mode (on the net)"),
    ("F4", "switch between the 3x3x3 and the 2x2x2 (:puzzle)"),
    ("F5 / F6", "solve / compare solvers"),
    ("F7", "show the solver table or the search results"),
    ("F8", "the net, the cube in 3-D (U F R), its back (D L B), in turn (:view)"),
    ("Ctrl+Z / Ctrl+Y", "undo / redo"),
    ("Esc", "clear the line; on an empty line: stop the solvers' searches and :search, "
            "leave paint mode or playback (a table build goes on)"),
    ("F9", "cancel a table build (asks first; the tables built stay, a large one's "
           "checkpoint too)"),
    ("Tab / Shift+Tab", "complete a command, or move focus: line, net, facts, table"),
    ("Up / Down", "input history (shared with `cubelab repl`)"),
    ("Enter on a row", "apply that solution or sequence; P steps through it on the net; V "
                       "shows its whole text"),
    ("Left / Right", "playback: step back / forward; Enter keeps, Esc leaves"),
    ("Home / End", "playback: to the start / end (a CFOP solution: step by step)"),
    ("Mouse", "click a face of the net or the 3-D view to turn it, shift-click: "
              "counter-clockwise; in paint mode click a palette colour, then stickers; click a "
              "row to select it, again to apply it; the keys stay on the move line"),
    ("Long answers", "a command's answer longer than the message line opens in a pane: "
                     "arrows scroll it, Esc or Q closes it"),
    ("Ctrl+P", "command palette"),
    ("Ctrl+Q", "quit"),
)


def help_renderable(solvers: dict[str, list] | None = None) -> Group:
    """The help page; `solvers` maps a cube's title to the declarations of the solvers :solve
    takes on it (solvers/description.py: names, summaries, options)."""
    commands = Table(title="commands (type them in the line; moves need no colon)",
                     show_header=False, box=None, title_justify="left")
    # Text, not str: Rich would read "[seed]" or "[auf]" as markup and drop it
    for name, (args, what) in COMMANDS.items():
        commands.add_row(Text(f":{name} {args}".rstrip()), Text(what))
    keys = Table(title="keys", show_header=False, box=None, title_justify="left")
    for key, what in KEYS:
        keys.add_row(Text(key), Text(what))
    cube = Table(title="keyboard cube (Tab to the net, then type)", show_header=False, box=None,
                 title_justify="left")
    pairs = [f"{k:5} {m}" for k, m in keymap_rows()]
    per_row = 4
    for i in range(0, len(pairs), per_row):
        cube.add_row(*(Text(p) for p in pairs[i:i + per_row]))
    notes = Text("\n\n".join(HELP_NOTES))
    parts = [commands, Text("")]
    if solvers:
        names = Table(title="solvers (:solve NAME, :compare NAME...)", show_header=False,
                      box=None, title_justify="left")
        for title, which in solvers.items():
            names.add_row(Text(title), Text(", ".join(d.name for d in which)))
            for d in which:
                flags = " ".join(o.flag + ("" if o.switch else f" {o.metavar or 'VALUE'}")
                                 for o in d.user_options)
                names.add_row(Text(""), Text(f"{d.name}: {d.summary}"
                                             + (f" [{flags}]" if flags else "")))
        parts += [names, Text("")]
    parts += [goals_table(), Text("")]
    return Group(*parts, notes, Text(""), keys, Text(""), cube)


def goals_table() -> Table:
    """The named goals (`:goal NAME`, `:solve goal --goal NAME`) and the move sets."""
    from .goals_cmd import goal_rows, goal_usage, moveset_rows
    table = Table(title="goals (:goal NAME; :solve goal --goal NAME --moves SET; NAME:any tries "
                        "each face/slot)", show_header=False, box=None, title_justify="left")
    for row in goal_rows():
        table.add_row(Text(goal_usage(row)), Text(row["about"]))
    table.add_row(Text("move sets"), Text(", ".join(f"{r['name']} ({r['moves']})"
                                                  for r in moveset_rows())))
    return table


class HelpScreen(ModalScreen[None]):
    """Everything the workbench understands, on one scrollable page."""

    BINDINGS = [Binding("escape,f1,q", "dismiss", "close")]
    """Esc, F1 or Q closes the help."""

    def __init__(self, solvers: dict[str, list[str]] | None = None):
        super().__init__()
        self.solvers = solvers

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(help_renderable(self.solvers))
