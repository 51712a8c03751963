"""The search panel: an algorithm search running in a thread, its progress, and what it finds.

Results stream into the table, one row per class of effects (shortest first), while the search
goes on; Esc stops it. The highlighted row is spelled out under the table (sequence, cycles,
order, morph). Enter applies a row's sequence to the position, P steps through it on the net.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Label, Static

from ._search_run import SearchRun
from .records import SearchRequest
from .session import Session

POLL_SECONDS = 0.1
COLUMNS = ("#", "len", "sequence", "corners", "edges")


class SearchPanel(Vertical):
    """Runs one search at a time and lists its classes as they arrive."""

    BINDINGS = [
        Binding("p", "play_row", "play", show=False),
    ]
    """On the table: Enter applies the highlighted sequence, P steps through it on the net."""

    class ApplyRow(Message):
        """The user chose a result to apply."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    class PlayRow(Message):
        """The user chose a result to step through."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    class Finished(Message):
        """The search ended (complete, cancelled or failed); `summary` says how."""

        def __init__(self, summary: str, error: bool, complete: bool) -> None:
            super().__init__()
            self.summary = summary
            self.error = error
            self.complete = complete

    def __init__(self, session: Session, **kwargs):
        super().__init__(**kwargs)
        self.session = session
        self.run: SearchRun | None = None
        self._shown = 0
        self._timer = None

    def compose(self) -> ComposeResult:
        yield Label("no search yet: type :search N PREDICATE (:help lists them)",
                    id="search-progress")
        yield DataTable(id="found", cursor_type="row", zebra_stripes=True)
        yield Static("", id="found-detail")

    def on_mount(self) -> None:
        self._reset_table()
        self.query_one("#found-detail").display = False

    @property
    def running(self) -> bool:
        return self.run is not None and self.run.active

    def _reset_table(self) -> None:
        table = self.query_one(DataTable)
        table.clear(columns=True)
        for name in COLUMNS:
            table.add_column(name, key=name)
        self._shown = 0

    def start(self, request: SearchRequest) -> None:
        self._reset_table()
        self.session.record_found([])
        self.border_subtitle = request.describe()
        self.run = SearchRun(request).start()
        if self._timer is None:
            self._timer = self.set_interval(POLL_SECONDS, self.poll)
        self.poll()

    def cancel(self) -> bool:
        """Stop a running search; True if one was running."""
        return self.run is not None and self.run.stop()

    def on_unmount(self) -> None:
        if self.run is not None and self.run.stop():
            self.run.done.wait(1.0)

    def poll(self) -> None:
        """Add the classes found since the last poll; runs ten times a second."""
        run = self.run
        if run is None:
            return
        finished = not run.active       # read first: classes found before the end are all in
        found = run.classes[:]
        table = self.query_one(DataTable)
        for cls in found[self._shown:]:
            self._shown += 1
            d = cls.as_dict()
            table.add_row(str(self._shown), str(cls.length), d["moves"], d["corners"],
                          d["edges"], key=str(self._shown - 1))
        if len(found) != len(self.session.found) or self.session.listing != "search":
            self.session.record_found(found)
        if not finished:
            self.query_one("#search-progress", Label).update(run.progress() + " · Esc stops")
        else:
            self.show_summary()
            if self._timer is not None:
                self._timer.stop()
                self._timer = None
                complete = run.result is not None and run.result.status == "done"
                self.post_message(self.Finished(run.summary(), bool(run.error), complete))
        self._show_detail()

    def show_summary(self) -> None:
        """The line above the table says how the finished search ended."""
        run = self.run
        self.query_one("#search-progress", Label).update(
            Text(run.summary(), style="red" if run.error else ""))

    def _show_detail(self) -> None:
        detail = self.query_one("#found-detail", Static)
        table = self.query_one(DataTable)
        found = self.session.found
        index = table.cursor_row if table.row_count else None
        if index is None or not 0 <= index < len(found):
            detail.display = False
            return
        cls = found[index]
        d = cls.as_dict()
        text = Text()
        text.append(f"{index + 1} ", style="bold")
        text.append(d["moves"], style="bold")
        by_length = ", ".join(f"{n} at {k}" for k, n in d["sequences"].items())
        text.append(f"  ({cls.length} {self.run.request.metric.upper()}; order {d['order']}, "
                    f"morph {d['morph']}; sequences {by_length})\n")
        text.append(f"corners {d['corner_cycles'] or '-'}   edges {d['edge_cycles'] or '-'}")
        detail.update(text)
        detail.display = True

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._show_detail()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.post_message(self.ApplyRow(event.cursor_row))

    def action_play_row(self) -> None:
        table = self.query_one(DataTable)
        if table.row_count:
            self.post_message(self.PlayRow(table.cursor_row))
