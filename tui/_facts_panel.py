"""The facts panel: the group facts of the position shown, and its move sequence with counts.

Rows are label and value; a value made of several facts or cycles wraps between them, never
inside one, so a label always stays beside its value and two never run together, whatever the
panel's width.
"""

from __future__ import annotations

import re

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from cubelab.cube.alg import Move
from cubelab.cube.letters import MemoOptions, memo
from cubelab.cube.notation import format_moves

_CYCLE = re.compile(r"\([^()]*\)\S*")
_NO_3CYCLES = "none: odd permutation"


class Items:
    """Short texts laid out in a row with `gap` spaces between them, wrapping between items,
    never inside one (Rich would break at any space, parting a label from its value); an item
    wider than the column is folded on its own lines."""

    def __init__(self, items, gap: int = 1):
        self.items = [item if isinstance(item, Text) else Text(item) for item in items]
        self.gap = gap

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        if not self.items:
            return Measurement(0, 0)
        widths = [i.cell_len for i in self.items]
        return Measurement(max(widths), sum(widths) + self.gap * (len(widths) - 1))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        lines: list[Text] = []
        line = Text()
        for item in self.items:
            if line.cell_len and line.cell_len + self.gap + item.cell_len > options.max_width:
                lines.append(line)
                line = Text()
            if line.cell_len:
                line.append(" " * self.gap)
            line.append_text(item)
        lines.append(line)
        yield Text("\n", end="").join(lines) if len(lines) > 1 else lines[0]


class Cycles(Items):
    """A list of cycles such as '(UFR DRF)+ (UBL URB)-' that wraps between cycles, so each
    cycle stays readable on its line; any other text stays as it is."""

    def __init__(self, text: str):
        found = _CYCLE.findall(text) if text.startswith("(") else []
        super().__init__(found or [Text(text, overflow="fold")])


def _three_cycles(text: str):
    if not text:
        return "-"
    return _NO_3CYCLES if text.startswith("odd permutation") else Cycles(text)


def _grid() -> Table:
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold", no_wrap=True)
    table.add_column(overflow="fold")
    return table


def _trace_row(table: Table, trace: str, reachable: bool, invariants) -> None:
    if reachable:
        table.add_row("trace", Text(f"{trace} reachable", style="green"))
    else:
        table.add_row("trace", Text(f"{trace} unreachable: " + "; ".join(invariants), style="red"))


def _head(order: int, parity: str, morph: int, centre: bool) -> Items:
    """The order, then 'parity even', 'morph 96', 'centre no': each label stays with its
    value, three spaces apart, wrapping between them."""
    return Items([Text(f"{order}", style="bold"), f"parity {parity}", f"morph {morph}",
                  f"centre {'yes' if centre else 'no'}"], gap=3)


def _memo_row(table: Table, state, options: MemoOptions | None) -> None:
    """The blindfold memo in letters: pairs of letters, twists and flips, parity."""
    if options is None:
        return
    # each part ('corners JK LM', 'twists UBL cw (E)', ...) starts a line if it does not fit
    # after the one before; a part longer than the column wraps between its letter pairs
    parts = memo(state, options).text().split(" · ")
    table.add_row("memo", Items(parts, gap=3))


def sequence_text(moves, pending=()) -> Text:
    """The applied sequence, wrapped between moves; in playback the moves still to come follow
    a marker, dimmed, so the cursor's place shows."""
    text = Text(format_moves(moves))
    if pending:
        text.append(" ▸ " if moves else "▸ ", style="bold reverse")
        text.append(format_moves(pending), style="dim")
    return text


def facts_table(puzzle, state, moves: tuple[Move, ...] | list[Move] | None,
                pending=(), memo: MemoOptions | None = None, goal=None) -> Table:
    """Label/value rows of the position's facts on `puzzle` (its one record shape: a 2x2x2's
    has no edges and no symmetry), compact enough for 80x24: the short rows first, then the
    cycle lists, which wrap between cycles inside their column, and with `memo` the blindfold
    memo. `pending`: playback's moves still to come; `goal`: the position against the
    session's goal (a GoalView: `:goal`)."""
    f = puzzle.facts(state)
    table = _grid()
    note = goal.completion_note() if goal is not None else None
    if note:        # a picture with grey stickers: the facts below are of the one it was read as
        table.add_row("facts", Text(note, style="yellow"))
    table.add_row("order", _head(f["order"], f["parity"], f["morph"], f["in_centre"]))
    _trace_row(table, "(" + ", ".join(str(t) for t in f["trace"]) + ")", f["reachable"],
               f["invariants"])
    if goal is not None:
        table.add_row("goal", Text(goal.line(), style="green" if goal.met else "yellow"))
    if moves:
        table.add_row("moves", puzzle.length_text(moves))
    else:
        table.add_row("moves", Text("(no sequence)", style="dim"))
    if moves or pending:
        table.add_row("seq", sequence_text(moves or (), pending))
    table.add_row("corners", Cycles(f["corner_cycles"]) if f["corner_cycles"] else "-")
    if "edge_3cycles" in f:
        table.add_row("edges", Cycles(f["edge_cycles"]) if f["edge_cycles"] else "-")
        _memo_row(table, state, memo)
        table.add_row("3-cyc C", _three_cycles(f["corner_3cycles"]))
        table.add_row("3-cyc E", _three_cycles(f["edge_3cycles"]))
    else:
        _memo_row(table, state, memo)
        table.add_row("3-cycles", _three_cycles(f["corner_3cycles"]))
    if "symmetry" in f:
        table.add_row("sym", f"{f['symmetry']} ({f['symmetry_order']}/48)   "
                             f"antisymmetry {f['antisymmetry_order']}")
    return table


class FactsPanel(VerticalScroll):
    """Always visible; `show` redraws it for a position (of either cube) and its moves. When
    the facts run past the panel, its bottom edge says so; with focus (Tab) the arrows and page
    keys scroll them. A click (the wheel scrolls) leaves the keys on the move line."""

    FOCUS_ON_CLICK = False

    def compose(self) -> ComposeResult:
        yield Static(id="facts-body")

    def show(self, puzzle, state, moves, pending=(), memo: MemoOptions | None = None,
             goal=None) -> None:
        """Redraw for a position of `puzzle` (the session's cube) and its moves; with `memo`
        (letter scheme and buffers) its memo too, and with a `goal` view where it stands
        against the session's goal."""
        self.query_one("#facts-body", Static).update(
            facts_table(puzzle, state, moves, pending, memo, goal))
        self.call_after_refresh(self._mark_overflow)

    def _mark_overflow(self) -> None:
        below = round(self.max_scroll_y - self.scroll_y)
        self.border_subtitle = f"↓ {below} more lines (Tab here, ↑↓ scroll)" if below > 0 else ""

    def on_resize(self) -> None:
        self.call_after_refresh(self._mark_overflow)

    def watch_scroll_y(self, old: float, new: float) -> None:
        super().watch_scroll_y(old, new)
        self._mark_overflow()
