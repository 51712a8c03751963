"""The FMC panel: the steps applied so far, and the candidates of the step being searched.

Its first line is the chain (each step's label and moves, FMC notation, and the running
total); below, `:fmc eo` (dr, htr, fin) fills the table as the step search keeps candidates
(label, the step's length, the running total with the cancellations at the join, the moves
with `^( )` for the inverse side, the case the step leaves), then, when it ends, the ranked
best. Enter on a row (or `:fmc apply K`) makes it the next step; Esc stops the search, the
rows found so far stay. The session side is fmc_session.py and fmc_commands.py.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.message import Message
from textual.widgets import Label

from ._run_panel import RunPanel
from .fmc_session import FmcStepRequest, FmcStepRun

IDLE = "no FMC step yet: :fmc start, then :fmc eo (dr, htr, fin) lists candidates here"


class FmcPanel(RunPanel):
    """Follows one step search at a time and lists its candidates as they come."""

    LISTING = "fmc"
    COLUMNS = ("#", "step", "len", "total", "moves", "leaves")
    TABLE_ID, DETAIL_ID = "fmc-table", "fmc-detail"

    class Finished(Message):
        """The step search followed has ended (its candidates ranked, or kept on a cancel)."""

    def __init__(self, session, runner, **kwargs):
        super().__init__(session, runner, **kwargs)
        self.run: FmcStepRun | None = None
        self._taken = 0

    def heading(self) -> ComposeResult:
        yield Label("", id="fmc-chain")
        yield Label(IDLE, id="fmc-progress")

    def on_mount(self) -> None:
        self.reset_columns()
        self.show_detail(None)
        self.show_chain()

    def start(self, request: FmcStepRequest) -> None:
        self.run = FmcStepRun(request=request).start()
        self._taken = 0
        self.reset_columns()
        self.set_caption(request.describe())
        self.show_chain()
        self.start_polling()
        self.poll()

    def on_unmount(self) -> None:
        if self.cancel():
            self.run.done.wait(1.0)

    def _mine(self) -> bool:
        """The session's candidates are still the ones of the run followed (not a later step
        applied, nor FMC left)."""
        fmc = self.session.fmc
        return fmc is not None and self.run is not None and \
            fmc.candidates_for is self.run.request.chain

    def poll(self) -> None:
        run = self.run
        if run is None:
            return
        ended = not run.active          # read first: every candidate found before the end is in
        fmc = self.session.fmc
        if not self._mine():
            # a candidate applied, :fmc undo or done meanwhile: this search answers nothing now
            run.stop()
            if ended:
                self.stop_polling()
            return
        if not ended:
            taken, self._taken = self._taken, len(run.found)
            for item in run.found[taken:self._taken]:
                fmc.candidates.append(item)
                self._add(len(fmc.candidates) - 1, item)
        else:
            cursor = self.cursor_index()
            at = fmc.candidates[cursor] if cursor is not None and \
                cursor < len(fmc.candidates) else None
            fmc.candidates = list(run.ranked if run.ranked is not None else run.found)
            self._rebuild(at)
        progress = self.query_one("#fmc-progress", Label)
        if not ended:
            progress.update(run.progress() + " · Esc stops (the rows found stay)")
        else:
            progress.update(Text(run.summary(), style="red" if run.ranked is None
                                 and run.error != "cancelled" else ""))
        self.refresh_detail()
        if ended and self.stop_polling():
            self.report_end(self.Finished())

    def summary(self) -> str:
        return self.run.summary() if self.run is not None else IDLE

    def _cells(self, index: int, item) -> tuple:
        return (str(index + 1), item.label, str(item.solution.length), str(item.total),
                item.text, item.case or "-")

    def _add(self, index: int, item) -> None:
        self.table.add_row(*self._cells(index, item), key=str(index))

    def _rebuild(self, keep=None) -> None:
        table = self.reset_columns()
        fmc = self.session.fmc
        rows = fmc.candidates if fmc is not None else []
        for i, item in enumerate(rows):
            self._add(i, item)
        if keep is not None:
            at = next((i for i, item in enumerate(rows)
                       if (item.label, item.text) == (keep.label, keep.text)), None)
            if at is not None:
                table.move_cursor(row=at)

    def show_chain(self) -> None:
        """The steps applied so far (or how to begin) on the panel's first line."""
        fmc = self.session.fmc
        label = self.query_one("#fmc-chain", Label)
        if fmc is None:
            label.update("")
            label.display = False
            return
        label.display = True
        text = Text(fmc.one_line(), style="bold")
        if fmc.inverse_view:
            text.append("  [inverse side]", style="italic")
        label.update(text)

    def refresh_rows(self) -> None:
        """After a change (a step applied or undone, FMC left): the chain line, and the rows
        of a step no longer current go."""
        self.show_chain()
        if self.session.fmc is None or not self._mine():
            if self.table.row_count:
                self.reset_columns()
            if not self.running:
                self.query_one("#fmc-progress", Label).update(
                    IDLE if self.session.fmc is None else
                    ":fmc eo (dr, htr, fin) lists the next step's candidates")
        self.refresh_detail()

    def detail(self, index: int) -> Text | None:
        fmc = self.session.fmc
        if fmc is None or not 0 <= index < len(fmc.candidates):
            return None
        item = fmc.candidates[index]
        step = item.chain.steps[-1]
        text = Text()
        text.append(f"{index + 1} ", style="bold")
        text.append(item.text, style="bold")
        text.append(f"  // {item.label} ({item.solution.length}/{item.total})")
        if step.case:
            text.append(f"  leaves {step.case}")
        text.append(f"\nmove set {item.choice.moveset}; " +
                    ("inverse side in ^( )" if item.solution.inverse else "normal side only"))
        return text
