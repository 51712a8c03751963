"""The gen panel: `:gen SET ...` searching a case set in the background, a row per alg.

Each case's algs arrive as the case ends (the case's name on its first row, the alg, its cost
in the metric asked, whether the best is proven optimal, its AUF turns), under a progress line
(the case at work, its search length, nodes, time · Esc stops). Enter on a row sets its case up
on the cube (the inverse of the row's alg from solved: one undo step), P plays the row's alg on
the net from that case, which ends solved; `:apply N` and `:play N` pick the same rows. Esc
stops the run, the rows of the cases ended stay. The session side is gen_session.py and
gen_commands.py.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.message import Message
from textual.widgets import Label

from cubelab.cube.notation import format_moves

from ._run_panel import RunPanel
from .gen_session import GenRequest, GenRun, rows_of

IDLE = "no generation yet: :gen pll --moves RUF (oll, coll, zbll, ocll) lists a set's algs here"


class GenPanel(RunPanel):
    """Follows one generation run and lists its cases' algs as the cases end."""

    LISTING = "gen"
    COLUMNS = ("#", "case", "len", "alg", "AUF", "opt")
    TABLE_ID, DETAIL_ID = "gen-table", "gen-detail"

    class Finished(Message):
        """The generation followed has ended (every case, a cancel, or an error)."""

    def __init__(self, session, runner, **kwargs):
        super().__init__(session, runner, **kwargs)
        self.run: GenRun | None = None
        self._taken = 0     # the run's records already rows

    def heading(self) -> ComposeResult:
        yield Label(IDLE, id="gen-progress")

    def on_mount(self) -> None:
        self.reset_columns()
        self.show_detail(None)

    def start(self, request: GenRequest) -> None:
        self.run = GenRun(request=request).start()
        self._taken = 0
        self.reset_columns()
        self.set_caption(request.describe())
        self.start_polling()
        self.poll()

    def on_unmount(self) -> None:
        if self.cancel():
            self.run.done.wait(1.0)

    def poll(self) -> None:
        run = self.run
        if run is None:
            return
        ended = not run.active          # read first: every case ended before the end is in
        gen = self.session.gen
        taken, self._taken = self._taken, len(run.records)
        for row in rows_of(run.records[taken:self._taken]):
            if gen is not None:
                gen.rows.append(row)
                self._add(len(gen.rows) - 1, row)
        progress = self.query_one("#gen-progress", Label)
        if not ended:
            progress.update(run.progress() + " · Esc stops (the cases done stay)")
        else:
            failed = bool(run.error) and run.error != "cancelled"
            progress.update(Text(run.summary(), style="red" if failed else ""))
        self.refresh_detail()
        if ended and self.stop_polling():
            self.report_end(self.Finished())

    def summary(self) -> str:
        return self.run.summary() if self.run is not None else IDLE

    def _metric(self) -> str:
        gen = self.session.gen
        return gen.metric if gen is not None else "htm"

    def _add(self, index: int, row) -> None:
        record = row.record
        opt = "yes" if record.get("optimal") and row.rank == 0 else ""
        alg = row.text or "(none needed)" if row.alg is not None else f"- ({record['status']})"
        self.table.add_row(str(index + 1), row.case if row.rank == 0 else "",
                           row.length(self._metric()), alg, row.auf or "-", opt,
                           key=str(index))

    def refresh_rows(self) -> None:
        """The rows set cases up from any position: nothing goes dim; the detail follows."""
        self.refresh_detail()

    def detail(self, index: int) -> Text | None:
        gen = self.session.gen
        if gen is None or not 0 <= index < len(gen.rows):
            return None
        row = gen.rows[index]
        record = row.record
        text = Text()
        text.append(f"{index + 1} {row.case} ", style="bold")
        if row.alg is None:
            text.append(f"no alg found ({record['status']})")
            return text
        auf = (row.alg.get("auf") or {})
        # the AUF turns in brackets around the alg, as alg sheets write them
        text.append(" ".join(filter(None, (auf.get("pre") and f"({auf['pre']})",
                                           row.text or "(none needed)",
                                           auf.get("post") and f"({auf['post']})"))),
                    style="bold")
        lengths = row.alg.get("length", {})
        text.append("  (" + ", ".join(f"{v} {k.upper()}" for k, v in lengths.items())
                    + f"; fingers {row.alg.get('cost', 0.0):.1f}"
                    + ("; optimal" if record.get("optimal") and row.rank == 0 else "") + ")")
        text.append(f"\nsetup {format_moves(row.setup) or '(solved)'} · {record['nodes']:,} "
                    f"nodes, {record['seconds']:.2f}s")
        return text
