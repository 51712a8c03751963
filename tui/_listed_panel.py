"""The solutions panel: a list solve's solutions, filling while the search runs.

`:solve --goal cross --all` (or `-n N`, `--within K`) asks the goal solver for a list. The
solver panel runs it as any solve (its row keeps the counters, the status and the best); this
panel follows the same run and adds a row for each solution as the search streams it (its
length, its cost in the metric asked, its finger-trick cost, its AUF turns), so the first ones
can be looked at, applied or played while the search goes on. When the search ends the rows
take the solver's ranking (cost, then finger-trick cost); a cancel keeps the rows found so far.
Enter on a row applies it, P steps through it on the net (the solver rows' keys).
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.message import Message
from textual.widgets import Label

from cubelab.cube.metrics import Metric
from cubelab.cube.notation import format_moves
from cubelab.solvers.protocol import BOUND, NO_VALUE, NODES

from ._run_panel import RunPanel
from .goal_text import listed
from .runner import SolverRun

IDLE = "no list yet: :solve --goal NAME --all (or -n N, --within K) lists solutions here"


class ListedPanel(RunPanel):
    """Follows one list solve and shows its solutions as they come."""

    LISTING = "listed"
    COLUMNS = ("#", "len", "cost", "fingers", "AUF", "found", "solution")
    TABLE_ID, DETAIL_ID = "listed-table", "listed-detail"

    class Finished(Message):
        """The list solve followed has ended (its rows ranked, or kept as found on a cancel)."""

    def __init__(self, session, runner, **kwargs):
        super().__init__(session, runner, **kwargs)
        self.run: SolverRun | None = None
        self.about = ""
        """The goal, move set and metric of the list (from the solve's options)."""
        self._taken = 0     # how many of the run's streamed solutions are rows already

    def heading(self) -> ComposeResult:
        yield Label(IDLE, id="listed-progress")

    def on_mount(self) -> None:
        self.reset_columns()
        self.show_detail(None)

    def follow(self, run: SolverRun, about: str) -> None:
        """Show the solutions of `run` (a list solve just started) as they are found."""
        self.run, self.about, self._taken = run, about, 0
        s = self.session
        s.listed, s.listed_for = [], s.state
        self.reset_columns()
        self.set_caption(about)
        self.start_polling()
        self.poll()

    def poll(self) -> None:
        """Add the solutions found since the last poll; at the end, rank them."""
        run = self.run
        if run is None:
            return
        s = self.session
        ended = not run.active      # read first: every solution found before the end is in
        if not ended:
            taken, self._taken = self._taken, len(run.found)
            for item in listed(run.found[taken:self._taken]):
                s.listed.append(item)
                self._add(len(s.listed) - 1, item)
        else:
            detail = run.result.detail if run.result is not None else None
            cursor = self.cursor_index()
            at = s.listed[cursor].text if cursor is not None and cursor < len(s.listed) else None
            s.listed = listed(run.found, detail)
            self._rebuild(at)
        self._progress(ended)
        self.refresh_detail()
        if ended and self.stop_polling():
            self.report_end(self.Finished())

    def _cells(self, index: int, item) -> tuple:
        record = item.record
        metric = Metric(self._metric()).value
        length = record.get("length", {}).get(metric, len(item.moves))
        cost = record.get("metric_cost", length)
        cells = (str(index + 1), str(length), f"{cost:g}", f"{record.get('cost', 0.0):.1f}",
                 item.auf or "-", f"{item.seconds:.2f}s" if item.seconds else "",
                 item.text or "(none needed)")
        if self.session.listed_for != self.session.state:
            return tuple(Text(c, style="dim") for c in cells)
        return cells

    def _metric(self) -> str:
        if self.run is not None and self.run.result is not None:
            return self.run.result.metric
        return str((self.run.options if self.run is not None else {}).get("metric", "htm"))

    def _add(self, index: int, item) -> None:
        self.table.add_row(*self._cells(index, item), key=str(index))

    def _rebuild(self, keep: str | None = None) -> None:
        """Draw every row again (ranked, or dimmed for another position); the cursor stays on
        the solution it was on."""
        table = self.reset_columns()
        rows = self.session.listed
        for i, item in enumerate(rows):
            self._add(i, item)
        at = next((i for i, item in enumerate(rows) if item.text == keep), None)
        if at is not None:
            table.move_cursor(row=at)

    def refresh_rows(self) -> None:
        """After a change of position: the rows go dim (:apply refuses them on another one)."""
        at = self.cursor_index()
        rows = self.session.listed
        self._rebuild(rows[at].text if at is not None and at < len(rows) else None)
        self.refresh_detail()

    def _progress(self, ended: bool) -> None:
        label = self.query_one("#listed-progress", Label)
        run = self.run
        count = len(self.session.listed)
        found = f"{count} solution{'s' if count != 1 else ''}"
        if not ended:
            if run.phase != "search":
                label.update(f"{self.about} · preparing its tables… · Esc stops")
                return
            bound = int(run.counters[BOUND])
            depth = "" if bound == NO_VALUE else f" · length {bound}"
            label.update(f"{found} so far{depth} · {int(run.counters[NODES]):,} nodes · "
                         f"{run.elapsed():.1f}s · Esc stops (the rows found stay)")
            return
        label.update(Text(self.summary(), style="red" if run.error and not count else ""))

    def summary(self) -> str:
        """How the list solve ended, for the panel and the message line."""
        run = self.run
        count = len(self.session.listed)
        found = f"{count} solution{'s' if count != 1 else ''}"
        if run is None:
            return IDLE
        result = run.result
        if result is None:
            return f"{found}: {run.error or 'stopped'}" if count else (run.error or "stopped")
        detail = result.detail
        if detail.get("truncated"):
            return f"{found}, truncated at the solution limit"
        if result.status in ("cancelled", "time limit"):
            how = "cancelled" if result.status == "cancelled" else "time limit"
            return f"{how}: {found} found so far (not all)"
        if not count:
            return str(detail.get("message") or result.status)
        return f"{found}, complete · Enter on a row applies it, P plays it"

    def detail(self, index: int) -> Text | None:
        """The solution written out: moves with their AUF, lengths in each metric, costs."""
        rows = self.session.listed
        if not 0 <= index < len(rows):
            return None
        item = rows[index]
        record = item.record
        text = Text()
        if self.session.listed_for != self.session.state:
            text.append("for another position (:apply refuses it) ", style="dim italic")
        text.append(f"{index + 1} ", style="bold")
        text.append(item.text or "(none needed)", style="bold")
        lengths = record.get("length", {})
        text.append("  (" + ", ".join(f"{v} {k.upper()}" for k, v in lengths.items())
                    + f"; finger-trick cost {record.get('cost', 0.0):.1f}")
        if record.get("goal"):
            text.append(f"; meets {record['goal']}")
        text.append(")")
        if item.auf:
            text.append(f"\nwith AUF {item.auf}: applies {format_moves(item.moves)}")
        return text

    def on_unmount(self) -> None:
        self.stop_polling()
