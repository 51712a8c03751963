"""What rich's Console would write for `cubelab facts`, decided without importing rich.console.

rich.console costs ~15-20 ms to import (its themes, markup, emoji table, log renderer): a tenth
of the command. `terminal(stream)` makes the two decisions rich's `Console()` makes about a
stream, the way rich (15) makes them: whether it shows colour (the stream is a terminal, or
FORCE_COLOR / TTY_COMPATIBLE say so; TERM and COLORTERM give 256 colours or truecolor;
NO_COLOR), and its width (COLUMNS, else the first of stdin, stdout, stderr that is a terminal,
else 80). It answers None, and the caller prints through rich, wherever rich's decision or
its writing is not that plain: on Windows, under Jupyter or IDLE, on a 16-colour terminal
(rich maps the xterm colours to the nearest of 16), with TTY_INTERACTIVE or JUPYTER_* set.
`unchanged` then says whether text lines print as they are (rich would wrap or crop lines
wider than the terminal, expand tabs, drop control characters, replace :emoji: codes).
tests/test_plain_terminal.py compares the bytes with the installed rich's own for terminals of
every kind, so a rich that decides otherwise fails there rather than changing the output.
"""

from __future__ import annotations

import builtins
import os
import re
import sys
from dataclasses import dataclass

_NARROW = frozenset("·σ")
"""The characters beyond ASCII that the facts text holds, one cell wide (as rich counts)."""

_EMOJI_CODE = re.compile(r":\S*:")
"""What rich's emoji replacement could act on (`:smile:`)."""


@dataclass(frozen=True)
class Terminal:
    """What rich decides about a stream: `colour` (256 colours or truecolor, NO_COLOR not set)
    and `width` in cells."""

    colour: bool
    width: int


def terminal(stream, environ=os.environ) -> Terminal | None:
    """The decisions of rich's `Console()` for `stream`, or None where only rich can make them."""
    if (sys.platform == "win32" or hasattr(builtins, "get_ipython")
            or getattr(sys.stdin, "__module__", "").startswith("idlelib")
            or "TTY_INTERACTIVE" in environ
            or any(name.startswith("JUPYTER_") for name in environ)):
        return None
    no_color = environ.get("NO_COLOR")
    if no_color == "":
        return None                 # rich 13 read an empty NO_COLOR as set, newer ones do not
    is_terminal = _is_terminal(stream, environ)
    dumb = is_terminal and environ.get("TERM", "").lower() in ("dumb", "unknown")
    colour = False
    if is_terminal and not dumb:
        colourterm = environ.get("COLORTERM", "").strip().lower()
        kind = environ.get("TERM", "").strip().lower().rpartition("-")[2]
        if colourterm not in ("truecolor", "24bit") and kind not in ("256color", "kitty"):
            return None             # 16 colours: rich's nearest-colour mapping
        colour = no_color is None
    return Terminal(colour, _width(environ, dumb))


def _is_terminal(stream, environ) -> bool:
    compatible = environ.get("TTY_COMPATIBLE", "")
    if compatible in ("0", "1"):
        return compatible == "1"
    force = environ.get("FORCE_COLOR")
    if force is not None:
        return force != ""
    isatty = getattr(stream, "isatty", None)
    try:
        return False if isatty is None else isatty()
    except ValueError:              # a closed stream
        return False


def _width(environ, dumb: bool) -> int:
    columns = environ.get("COLUMNS", "")
    lines = environ.get("LINES", "")
    if columns.isdigit() and (lines.isdigit() or not dumb):
        return int(columns)         # (a dumb terminal is 80 wide unless both are given)
    if dumb:
        return 80
    width = None
    for fd, stream in enumerate((sys.__stdin__, sys.__stdout__, sys.__stderr__)):
        try:
            fd = stream.fileno()
        except Exception:           # rich falls back to 0, 1, 2 alike
            pass
        try:
            width = os.get_terminal_size(fd)[0]
            break
        except (AttributeError, ValueError, OSError):
            continue
    return width or 80


def unchanged(text: str, width: int) -> bool:
    """Whether rich prints these lines as they are at `width` (each fits; nothing it would
    expand, drop or replace)."""
    return (all(len(line) <= width for line in text.split("\n"))
            and all((c.isascii() and c.isprintable()) or c in _NARROW
                    for c in text.replace("\n", ""))
            and not _EMOJI_CODE.search(text))
