"""The facts panel's layout: labels never run into each other or part from their values, at
any width (the head row 'order 1260   parity even   morph 96   centre no' wraps between
facts), and the memo row; at 80x24 in the workbench with a long order."""

import io
import re

import pytest
from rich.console import Console

from cubelab.cube.letters import MemoOptions
from cubelab.cube.moves import alg_state
from cubelab.cube.notation import parse_moves
from cubelab.cube.puzzles import PUZZLES
from cubelab.tui._facts_panel import facts_table

from helpers_apps import run_app

LONG_ORDER = "U2 L D' B D'"
"""A position of order 1260."""
LABELS = {"parity": r"(even|odd)", "morph": r"\d+", "centre": r"(yes|no)"}


def rendered(alg: str, width: int) -> list[str]:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(facts_table(PUZZLES["3x3"], alg_state(alg), parse_moves(alg), memo=MemoOptions()))
    return console.file.getvalue().splitlines()


def check_head(lines: list[str], order: int) -> None:
    text = "\n".join(lines)
    assert re.match(rf"order\s+{order}(\s{{3}}|\s*$)", lines[0]), lines[0]
    assert not re.search(r"\d[A-Za-z]", text.split("trace")[0])     # nothing runs together
    for label, value in LABELS.items():
        assert re.search(rf"\b{label} {value}\b", text), (label, lines[:3])


@pytest.mark.parametrize("alg, order", [("", 1), ("L R2 U2 F'", 132), (LONG_ORDER, 1260)])
def test_head_labels_keep_their_values_at_every_width(alg, order):
    for width in range(20, 72):
        check_head(rendered(alg, width), order)


def test_the_memo_row_wraps_between_its_parts():
    for width in (30, 34, 44, 80):
        lines = rendered("R", width)
        at = next(i for i, line in enumerate(lines) if line.startswith("memo"))
        row = [lines[at][8:].strip()]
        for line in lines[at + 1:]:
            if not line.startswith(" " * 8):
                break
            row.append(line[8:].strip())
        for part in ("corners KW Q", "edges BJ VT B", "parity"):
            assert any(part in line for line in row), (width, row)


def body_lines(app) -> list[str]:
    """The facts panel's lines of text, as drawn in its column."""
    body = app.query_one("#facts-body")
    return [body.render_line(y).text.rstrip() for y in range(body.size.height)]


def test_the_facts_line_at_80x24_with_a_long_order(tmp_path):
    async def body(app, pilot):
        await pilot.press(*LONG_ORDER, "enter")
        await pilot.pause()
        assert app.query_one("#facts-body").size.width < 40      # the narrow panel of 80x24
        lines = body_lines(app)
        assert lines[0].startswith("order   1260   parity even"), lines[:2]
        check_head(lines, 1260)
    run_app(tmp_path, body)
