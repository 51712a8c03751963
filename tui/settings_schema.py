"""The settings a user can set, in one table: key, type, allowed values, default and help.

`SCHEMA` is the one place a setting is declared; the loader (settings.py), `cubelab config`
and the template a fresh settings file starts from all read it. A key is dotted by its TOML
table (`workbench.time_limit` is `time_limit` under `[workbench]`); its environment variable
is CUBELAB_ and the key in capitals with `_` for `.` and `-` (CUBELAB_WORKBENCH_TIME_LIMIT).
`check(setting, value)` turns a value read from the file or the environment into the value
the program uses, or says in one line what is wrong with it. The choices that come from the
solver registry and the table sets are asked of `registry_choices` (one small function, so
solvers declaring their own options can take its place).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

KINDS = ("choice", "bool", "seconds", "count", "text", "colours", "letters", "corner", "edge")


@dataclass(frozen=True)
class Setting:
    """One setting: its dotted key, its kind (KINDS), its default and what it is for."""

    key: str
    kind: str
    default: object
    help: str
    choices: tuple[str, ...] | Callable[[], list[str]] = ()
    """The allowed words of a choice (or a function giving them, asked only when needed)."""
    low: float = 0
    high: float = 0
    """The range of a count (inclusive) or of seconds (0 < s <= high; 0 itself: no limit)."""

    @property
    def table(self) -> str:
        """The TOML table the key lives in ("" at the top of the file)."""
        return self.key.rpartition(".")[0]

    @property
    def name(self) -> str:
        """The key within its table."""
        return self.key.rpartition(".")[2]

    @property
    def env(self) -> str:
        """The environment variable that overrides the file."""
        return "CUBELAB_" + self.key.upper().replace(".", "_").replace("-", "_")

    def allowed(self) -> list[str]:
        """The words a choice takes."""
        return list(self.choices() if callable(self.choices) else self.choices)

    def describe_allowed(self) -> str:
        """What values the setting takes, for the help and error lines."""
        if self.kind == "choice":
            return " | ".join(f'"{c}"' for c in self.allowed())
        if self.kind == "bool":
            return "true | false"
        if self.kind == "seconds":
            return f"seconds from 0 (no limit) to {self.high:,.0f}"
        if self.kind == "count":
            return f"a whole number from {self.low:,.0f} to {self.high:,.0f}"
        if self.kind == "colours":
            return "six colours for U R F D L B (names such as \"white\" or \"#ff8000\")"
        if self.kind == "letters":
            return "24 different letters, one per sticker in Speffz order"
        if self.kind == "corner":
            return "a corner, such as \"UFR\""
        if self.kind == "edge":
            return "an edge, such as \"UF\""
        return f"text of at most {self.high:,.0f} characters"


# ---------------------------------------------------------------- choices from elsewhere

def themes() -> list[str]:
    """Textual's themes."""
    from textual.theme import BUILTIN_THEMES
    return list(BUILTIN_THEMES)


def registry_choices(what: str) -> list[str]:
    """The words a setting naming a solver ("solver") or a solver's table set (the solver's
    name) may take, asked of the solver registry and its declared table sets ("" always: the
    default)."""
    from cubelab.solvers import REGISTRY
    if what == "solver":
        from cubelab.cube.puzzles import PUZZLES
        return [""] + [n for p in PUZZLES for n in REGISTRY.solver_names(p)]
    from .table_sets import set_rows
    return [""] + [r.name for r in set_rows(REGISTRY) if r.solver == what]


def _table_settings() -> tuple:
    """A `tables.SOLVER` setting for each solver that declares a choice of table sets (the
    declarations are read, no solver is loaded)."""
    from cubelab.solvers import REGISTRY
    solvers = dict.fromkeys(solver for solver, _ in REGISTRY.table_sets())
    return tuple(
        Setting(f"tables.{solver}", "choice", "",
                f"the table set {solver} reads (\"\": its default; names and sizes: cubelab "
                "tables status)", choices=lambda solver=solver: registry_choices(solver))
        for solver in solvers)


SPEFFZ = "ABCDEFGHIJKLMNOPQRSTUVWX"
"""Speffz: the stickers lettered A to X, face by face (U L F R B D), clockwise from the
top-left sticker of each face, corners and edges alike."""

SCHEMA: tuple[Setting, ...] = (
    Setting("theme", "choice", "textual-dark",
            "the workbench's colours (a Textual theme; choosing one in Ctrl+P's theme list "
            "saves it here)", choices=themes),
    Setting("sticker_size", "choice", "auto",
            "the net's stickers: auto (large when the terminal has the room), small, or large "
            "(whenever the net fits)", choices=("auto", "small", "large")),
    Setting("animation", "bool", True,
            "animate a move on the 3-D view in a few frames (off: the cube just changes)"),
    Setting("metric", "choice", "htm",
            "the metric :solve, :compare, :search and `cubelab solve` count in when none is "
            "named (htm: each solver in its own, as when none is named)",
            choices=("htm", "qtm")),
    Setting("colours.scheme", "choice", "western",
            "the cube's colours: western (white U, green F, red R), japanese (blue opposite "
            "white), or custom (the six colours below); facelet letters stay URFDLB",
            choices=("western", "japanese", "custom")),
    Setting("colours.custom", "colours",
            ("white", "red", "green", "yellow", "orange", "blue"),
            "the colours of U R F D L B when scheme is custom"),
    Setting("letters.scheme", "choice", "speffz",
            "the blindfolded letter scheme: speffz, or custom (the letters below)",
            choices=("speffz", "custom")),
    Setting("letters.corners", "letters", SPEFFZ,
            "the corner stickers' letters when scheme is custom (U L F R B D, clockwise "
            "from each face's top-left)"),
    Setting("letters.edges", "letters", SPEFFZ,
            "the edge stickers' letters when scheme is custom (U L F R B D, clockwise from "
            "each face's top)"),
    Setting("letters.corner_buffer", "corner", "UFR", "the corner buffer of the memo"),
    Setting("letters.edge_buffer", "edge", "UF", "the edge buffer of the memo"),
    Setting("workbench.solver", "choice", "",
            "the solver :solve and F5 run (\"\": the fastest installed)",
            choices=lambda: registry_choices("solver")),
    Setting("workbench.time_limit", "seconds", 0.0,
            "seconds of search :solve and F5 give a solver (0: until it is done or Esc)",
            high=86400),
    Setting("workbench.compare_time_limit", "seconds", 30.0,
            "seconds of search each solver gets at most in :compare and F6", high=86400),
    Setting("workbench.restore", "choice", "ask",
            "the last session on start: ask (Ctrl+R restores it), always, or never",
            choices=("ask", "always", "never")),
    Setting("repl.solver", "choice", "",
            "the solver :solve runs in `cubelab repl` (\"\": the fastest installed)",
            choices=lambda: registry_choices("solver")),
    Setting("repl.time_limit", "seconds", 10.0,
            "seconds of search each solver gets at most in the REPL (0: until it is done or "
            "Ctrl-C)", high=86400),
    Setting("repl.prompt", "text", "cube> ", "the REPL's prompt", high=40),
    Setting("repl.history_size", "count", 1000,
            "how many lines of input history the REPL offers (Up, Ctrl-R)", low=0,
            high=1_000_000),
    Setting("repl.restore", "bool", False,
            "start the REPL with the last session, as `cubelab repl --restore` does"),
    Setting("solve.solver", "choice", "",
            "the solver `cubelab solve` runs (\"\": the two-phase solver)",
            choices=lambda: registry_choices("solver")),
    Setting("solve.time_limit", "seconds", 0.0,
            "seconds of search `cubelab solve` gives a solver (0: its own stopping rule)",
            high=86400),
    *_table_settings(),
    Setting("keys.preset", "choice", "default",
            "the workbench's keys: default, or vim (j/k, g/G in the lists and panes); any key "
            "below remaps one binding: \"cubelab.solve\" = \"f5,ctrl+s\"",
            choices=("default", "vim")),
)
"""Every setting, in the order `cubelab config show` and a new settings file list them."""

BY_KEY: dict[str, Setting] = {s.key: s for s in SCHEMA}

TABLES = tuple(dict.fromkeys(s.table for s in SCHEMA if s.table))
"""The TOML tables of the file, in order ([keys] also holds the bindings)."""


# ---------------------------------------------------------------- checking a value

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def from_env(setting: Setting, text: str) -> object:
    """A value as an environment variable spells it (text), in the type the file would have
    (text is taken as it is: a prompt may end in a space)."""
    if setting.kind == "text":
        return text
    text = text.strip()
    if setting.kind == "bool":
        low = text.lower()
        return True if low in _TRUE else False if low in _FALSE else text
    if setting.kind in ("seconds", "count"):
        try:
            return int(text)
        except ValueError:
            try:
                return float(text)
            except ValueError:
                return text
    if setting.kind == "colours":
        return [part.strip() for part in text.split(",")]
    return text


def check(setting: Setting, value: object) -> tuple[object, str]:
    """(the value to use, "") for a good value, or (None, what is wrong) in a few words."""
    kind = setting.kind
    if kind == "bool":
        if isinstance(value, bool):
            return value, ""
        return None, "must be true or false"
    if kind in ("seconds", "count"):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None, f"must be a number: {setting.describe_allowed()}"
        if kind == "count":
            if not isinstance(value, int) or not setting.low <= value <= setting.high:
                return None, f"must be {setting.describe_allowed()}"
            return value, ""
        if value != value or not 0 <= value <= setting.high:     # NaN, negative, too long
            return None, f"must be {setting.describe_allowed()}"
        return float(value), ""
    if kind == "colours":
        return _colours(value)
    if not isinstance(value, str):
        return None, "must be text in quotes"
    if kind == "choice":
        try:
            allowed = setting.allowed()
        except Exception as e:          # a registry that cannot be read says why
            return None, f"cannot be checked ({type(e).__name__}: {e})"
        if value in allowed:
            return value, ""
        lowered = value.lower()
        if lowered in allowed:
            return lowered, ""
        return None, f"must be one of {', '.join(repr(a) for a in allowed if a)}"
    if kind == "letters":
        letters = value.strip()
        if len(letters) != 24 or any(c.isspace() for c in letters):
            return None, "must be 24 letters, one per sticker"
        if len(set(letters)) != 24:
            twice = sorted({c for c in letters if letters.count(c) > 1})
            return None, f"gives {', '.join(twice)} to two stickers"
        return letters, ""
    if kind in ("corner", "edge"):
        from cubelab.cube.pieces import corner_slot, edge_slot
        try:
            (corner_slot if kind == "corner" else edge_slot)(value)
        except KeyError:
            return None, f"must be {setting.describe_allowed()}"
        return value.upper(), ""
    if len(value) > setting.high or any(not c.isprintable() for c in value):
        return None, f"must be printable {setting.describe_allowed()}"
    return value, ""


def _colours(value) -> tuple[object, str]:
    if not isinstance(value, (list, tuple)) or len(value) != 6 \
            or not all(isinstance(c, str) for c in value):
        return None, "must be a list of six colours for U R F D L B"
    for colour in value:
        if not is_colour(colour):
            return None, f"{colour!r} is not a colour (a name such as \"orange\" or \"#ff8000\")"
    return tuple(value), ""


def is_colour(text: str) -> bool:
    """A colour Textual (CSS names, #rgb, rgb(...)) or Rich (its names, colorN) can draw."""
    from rich.color import Color as RichColor, ColorParseError
    from textual.color import Color
    try:
        Color.parse(text)
        return True
    except Exception:
        pass
    try:
        RichColor.parse(text)
        return True
    except ColorParseError:
        return False


def format_value(value: object) -> str:
    """A value as TOML writes it (the flat types of the schema only)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(format_value(v) for v in value) + "]"
    text = str(value)
    escaped = "".join(_ESCAPES.get(c, c if c.isprintable() else f"\\u{ord(c):04x}")
                      for c in text)
    return f'"{escaped}"'


_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def format_key(name: str) -> str:
    """A key as TOML writes it: bare when it can be, else quoted."""
    if name and all(c.isalnum() and c.isascii() or c in "_-" for c in name):
        return name
    return format_value(name)
