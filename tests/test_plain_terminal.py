"""`cubelab facts` writes the net and the facts without rich.console where the terminal lets it
(tui/plain_terminal.py): the bytes must be rich's own, for every kind of terminal, and rich
must still print where its decisions are not plain (16 colours, narrow terminals, text it would
wrap or change)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from cubelab.cube.facts_report import format_facts
from cubelab.cube.letters import MemoOptions, letter_scheme_from_text
from cubelab.cube.net import Net
from cubelab.cube.puzzles import PUZZLES
from cubelab.tui import facts_cmd
from cubelab.tui.plain_terminal import _NARROW, terminal

_ENV_NAMES = ("TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE",
              "TTY_INTERACTIVE", "COLUMNS", "LINES")


class _Stream(io.StringIO):
    def __init__(self, tty: bool):
        super().__init__()
        self.tty = tty

    def isatty(self):
        return self.tty


TERMINALS = [
    # (environment, a terminal?, written without rich?)
    ({"TERM": "xterm-256color", "COLUMNS": "100"}, True, True),
    ({"TERM": "xterm-256color", "COLORTERM": "truecolor", "COLUMNS": "80"}, True, True),
    ({"TERM": "xterm", "COLORTERM": "24bit", "COLUMNS": "80"}, True, True),
    ({"TERM": "xterm-kitty", "COLUMNS": "120", "LINES": "40"}, True, True),
    ({"TERM": "xterm-256color", "NO_COLOR": "1", "COLUMNS": "90"}, True, True),
    ({"TERM": "xterm-256color", "COLUMNS": "100"}, False, True),          # a pipe
    ({"TERM": "xterm-256color", "COLUMNS": "100", "FORCE_COLOR": "1"}, False, True),
    ({"TERM": "xterm-256color", "COLUMNS": "100", "TTY_COMPATIBLE": "1"}, False, True),
    ({"TERM": "xterm-256color", "COLUMNS": "100", "TTY_COMPATIBLE": "0"}, True, True),
    ({"TERM": "xterm-256color", "COLUMNS": "100", "FORCE_COLOR": ""}, True, True),
    ({"TERM": "dumb", "COLUMNS": "100"}, True, True),                      # 80 wide
    ({"TERM": "dumb", "COLUMNS": "100", "LINES": "30"}, True, True),
    ({"TERM": "xterm-256color", "COLUMNS": "30"}, True, True),             # facts wrap: rich
    ({"TERM": "xterm-256color", "COLUMNS": "20"}, False, True),            # net cropped: rich
    ({"TERM": "xterm", "COLUMNS": "100"}, True, False),                    # 16 colours
    ({"TERM": "xterm-16color", "COLUMNS": "100"}, True, False),
    ({"TERM": "xterm-256color", "NO_COLOR": "", "COLUMNS": "100"}, True, False),
    ({"TERM": "xterm-256color", "TTY_INTERACTIVE": "1", "COLUMNS": "100"}, True, False),
]

POSITIONS = [("3x3", "R U R' U'", "speffz"), ("3x3", "", "speffz"),
             ("3x3", "F2 B2 R2 L2 U2 D2", "speffz"),                # symmetric: σ in the text
             ("3x3", "R U2 D' B D'", "abcdefghijklmnopqrstuvwx"),
             ("3x3", "R U F", "αβγδεζηθικλμνξοπρστυφχψω"),          # letters rich counts itself
             ("2x2", "R U R' F2", "speffz")]


def _printed(monkeypatch, environ: dict, tty: bool, puzzle: str, alg: str, letters: str,
             through_rich: bool) -> str:
    for name in _ENV_NAMES:
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    stream = _Stream(tty)
    monkeypatch.setattr("sys.stdout", stream)
    p = PUZZLES[puzzle]
    position = p.from_alg(alg)
    options = MemoOptions(letter_scheme_from_text(letters), "UFR", "UF")
    text = format_facts(p.facts_record(position, False, options))
    if through_rich:                    # what facts_cmd printed before plain_terminal.py
        console = Console()
        console.print(Net(position.state))
        console.print(text, highlight=False, markup=False)
    else:
        facts_cmd._print_net_and_facts(position, text)
    return stream.getvalue()


@pytest.mark.parametrize("puzzle, alg, letters", POSITIONS)
@pytest.mark.parametrize("environ, tty, plain", TERMINALS)
def test_facts_print_byte_for_byte_as_rich_does(monkeypatch, environ, tty, plain, puzzle, alg,
                                                letters):
    ours = _printed(monkeypatch, environ, tty, puzzle, alg, letters, False)
    assert (terminal(_Stream(tty)) is not None) == plain
    assert ours == _printed(monkeypatch, environ, tty, puzzle, alg, letters, True)
    assert "order" in ours


def test_the_characters_taken_as_narrow_are_one_cell_for_rich():
    from rich.cells import cell_len
    assert all(cell_len(c) == 1 for c in _NARROW)
