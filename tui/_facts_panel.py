"""The facts panel: the group facts of the position shown, and the move counts of its sequence."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from cubelab.cube.facts import facts
from cubelab.cube.notation import Move, metric_lengths
from cubelab.cube.state import CubeState


def facts_table(state: CubeState, moves: tuple[Move, ...] | list[Move] | None) -> Table:
    """Label/value rows, compact enough for 80x24: values wrap inside their column."""
    f = facts(state)
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold", no_wrap=True)
    table.add_column(overflow="fold")
    head = Text()
    head.append(f"{f.order}", style="bold")
    head.append(f"   parity {f.parity}   morph {f.morph}   centre {'yes' if f.in_centre else 'no'}")
    table.add_row("order", head)
    trace = "(" + ", ".join(str(t) for t in f.trace) + ")"
    if f.reachable:
        table.add_row("trace", Text(f"{trace} reachable", style="green"))
    else:
        table.add_row("trace", Text(f"{trace} unreachable: " + "; ".join(f.invariants), style="red"))
    table.add_row("corners", f.corner_cycles or "-")
    table.add_row("edges", f.edge_cycles or "-")
    table.add_row("3-cyc C", f.corner_3cycles or "-")
    table.add_row("3-cyc E", f.edge_3cycles or "-")
    if moves:
        n = metric_lengths(moves)
        table.add_row("moves", f"{n['htm']} HTM  {n['qtm']} QTM  {n['stm']} STM  {n['etm']} ETM")
    else:
        table.add_row("moves", Text("(no sequence)", style="dim"))
    return table


class FactsPanel(Static):
    """Always visible; `show` redraws it for a position and the moves that reached it."""

    def show(self, state: CubeState, moves) -> None:
        self.update(facts_table(state, moves))
