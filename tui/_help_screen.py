"""The F1 help screen: commands, keys of the workbench, and the keyboard cube's map.

The keys are the ones actually bound (bindings.py: the defaults, the preset and the user's
[keys] of the settings file), so a remapped key shows where the user put it.
"""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from .bindings import KeyMap, binding, resolve
from .keymap import KEY_MOVES
from .commands import COMMANDS
from .help_text import HELP_NOTES

KEYS = (
    (("cubelab.help",), "this help"),
    (("cubelab.letters",), "sticker letters on/off"),
    (("cubelab.paint",), "paint mode (on the net)"),
    ("Paint mode", "colour keys (the colours' initials, U R F D L B, 1-6) paint a sticker and "
                   "step on; * ? or 0 paints it grey (unknown, as `*` in --facelets; the "
                   "palette's last swatch too): a picture with grey stickers is a masked "
                   "position, :solve solves what it shows; Backspace / Delete grey a sticker, "
                   "Ctrl+U greys all but the centres; Enter uses it"),
    (("cubelab.puzzle",), "switch between the 3x3x3 and the 2x2x2 (:puzzle)"),
    (("cubelab.solve", "cubelab.compare"), "solve / compare solvers"),
    (("cubelab.lists",), "show the solver table, the solutions of a list solve (:solve --goal "
                         "X --all, -n N, --within K: they fill in as the search finds them) "
                         ", the search results or a :gen's cases, in turn"),
    (("cubelab.view",), "the net, the cube in 3-D as last held (U F R at first), its other side, "
                        "in turn (:view)"),
    ("Arrows on the 3-D view", "turn the picture a quarter turn (up twice: D on top); a drag "
                               "or the wheel does too (:view left|right|up|down|over)"),
    (("cubelab.undo", "cubelab.redo"), "undo / redo"),
    (("cubelab.cancel",), "clear the line; on an empty line: stop the solvers' searches and "
                          ":search, leave paint mode or playback (a table build goes on)"),
    (("cubelab.cancel_build",), "cancel a table build (asks first; the tables built stay, a "
                                "large one's checkpoint too)"),
    (("cubelab.clear_old",), "clear the solver rows of previous positions (:clear)"),
    (("cubelab.restore",), "restore the last session, while the start offers it"),
    (("cubelab.screenshot",), "save the screen as SVG (:screenshot)"),
    (("cubelab.line.complete",), "complete a command, or move focus: line, net, facts, table"),
    ("Shift+Tab", "move focus back"),
    (("cubelab.line.previous", "cubelab.line.next"), "input history (shared with `cubelab "
                                                     "repl`)"),
    (("cubelab.rows.down", "cubelab.rows.up"), "on a table: the next row / the row before"),
    ("Enter on a row", "apply that solution (a list solve's: with its AUF turns) or sequence; "
                       "{cubelab.rows.play} steps through it "
                       "on the net; {cubelab.rows.view} shows its whole text"),
    ("Left / Right", "playback: step back / forward; Enter keeps, Esc leaves"),
    ("Home / End", "playback: to the start / end (a CFOP solution: step by step)"),
    ("Mouse", "click a face of the net or the 3-D view to turn it, shift-click: "
              "counter-clockwise; in paint mode click a palette colour, then stickers; click a "
              "row to select it, again to apply it; the keys stay on the move line"),
    ("Long answers", "a command's answer longer than the message line opens in a pane: "
                     "arrows scroll it, Esc or Q closes it"),
    (("cubelab.palette",), "command palette"),
    (("cubelab.quit",), "quit (the session is kept: the next start offers it back)"),
)
"""The keys table of the help: binding ids (their keys as bound) or a key's name, and what
it does ({id} in the text: that binding's keys)."""


def _keys_cell(keys, keymap: KeyMap) -> str:
    if isinstance(keys, str):
        return keys
    return " / ".join(keymap.shown(k) for k in keys)


def _what(text: str, keymap: KeyMap) -> str:
    for binding_id in keymap.keys:
        text = text.replace("{" + binding_id + "}", keymap.shown(binding_id))
    return text


def cube_rows(keymap: KeyMap) -> list[tuple[str, str]]:
    """(keys, move) for the keyboard cube as bound, in the cubing.js map's order."""
    moves = dict.fromkeys(KEY_MOVES.values())
    return [(keymap.shown(f"cubelab.cube.{m}", fold_case=True), m) for m in moves]


def help_renderable(solvers: dict[str, list] | None = None,
                    keymap: KeyMap | None = None) -> Group:
    """The help page; `solvers` maps a cube's title to the declarations of the solvers :solve
    takes on it (solvers/description.py: names, summaries, options), `keymap` the keys bound
    (the defaults when not given)."""
    keymap = keymap or resolve()
    commands = Table(title="commands (type them in the line; moves need no colon)",
                     show_header=False, box=None, title_justify="left")
    # Text, not str: Rich would read "[seed]" or "[auf]" as markup and drop it
    for name, (args, what) in COMMANDS.items():
        commands.add_row(Text(f":{name} {args}".rstrip()), Text(what))
    keys = Table(title="keys", show_header=False, box=None, title_justify="left")
    for key, what in KEYS:
        keys.add_row(Text(_keys_cell(key, keymap)), Text(_what(what, keymap)))
    cube = Table(title="keyboard cube (Tab to the net, then type)", show_header=False, box=None,
                 title_justify="left")
    pairs = [f"{k:5} {m}" for k, m in cube_rows(keymap)]
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
    from .goals_cmd import case_set_rows
    table.add_row(Text("case sets"), Text("; ".join(f"{r['name']}: {r['about']}"
                                                    for r in case_set_rows())
                                          + " (:gen SET --moves RUF lists each case's algs)"))
    return table


class HelpScreen(ModalScreen[None]):
    """Everything the workbench understands, on one scrollable page."""

    BINDINGS = [
        binding("cubelab.help.close", "dismiss", "close", show=True),
        binding("cubelab.pane.down", "scroll(1)", "down"),
        binding("cubelab.pane.up", "scroll(-1)", "up"),
    ]
    """Esc, F1 or Q closes the help; the arrows (and j/k in the vim preset) scroll it."""

    def __init__(self, solvers: dict[str, list] | None = None,
                 keymap: KeyMap | None = None):
        super().__init__()
        self.solvers = solvers
        self.keymap = keymap

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(help_renderable(self.solvers, self.keymap))

    def action_scroll(self, lines: int) -> None:
        """A line down (1) or up (-1): the keys the page's own arrows do, for a preset's."""
        self.query_one("#help", VerticalScroll).scroll_relative(y=lines, animate=False)
