"""The search panel: an algorithm search running in a thread, its progress, and what it finds.

Results stream into the table, one row per class of effects (shortest first), while the search
goes on; Esc stops it. The highlighted row is spelled out under the table (sequence, cycles,
order, morph). Enter applies a row's sequence to the position, P steps through it on the net.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.message import Message
from textual.widgets import Label

from ._run_panel import RunPanel
from .records import SearchRequest
from .runner import SearchRun


class SearchPanel(RunPanel):
    """Runs one search at a time and lists its classes as they arrive."""

    LISTING = "search"
    COLUMNS = ("#", "len", "sequence", "corners", "edges")
    TABLE_ID, DETAIL_ID = "found", "found-detail"

    class Finished(Message):
        """The search `run` ended (complete, cancelled or failed: its summary() says how)."""

        def __init__(self, run: SearchRun) -> None:
            super().__init__()
            self.run = run

    def __init__(self, session, runner, **kwargs):
        super().__init__(session, runner, **kwargs)
        self.run: SearchRun | None = None
        self._shown = 0

    def heading(self) -> ComposeResult:
        yield Label("no search yet: type :search N PREDICATE (:help lists them)",
                    id="search-progress")

    def on_mount(self) -> None:
        self.reset_columns()
        self.show_detail(None)

    @property
    def running(self) -> bool:
        return self.run is not None and self.run.active

    def start(self, request: SearchRequest) -> None:
        self.reset_columns()
        self._shown = 0
        self.session.record_found([])
        self.set_caption(request.describe())
        self.run = self.runner.search(request)
        self.start_polling()
        self.poll()

    def cancel(self) -> bool:
        """Stop a running search; True if one was running."""
        return self.run is not None and self.run.stop()

    def on_unmount(self) -> None:
        if self.cancel():
            self.run.done.wait(1.0)

    def poll(self) -> None:
        """Add the classes found since the last poll; runs ten times a second."""
        run = self.run
        if run is None:
            return
        finished = not run.active       # read first: classes found before the end are all in
        found = run.classes[:]
        table = self.table
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
            self.query_one("#search-progress", Label).update(
                Text(run.summary(), style="red" if run.error else ""))
            if self.stop_polling():
                self.report_end(self.Finished(run))
        self.refresh_detail()

    def detail(self, index: int) -> Text | None:
        """The class's sequence, length, order, morph, sequences by length and cycles."""
        found = self.session.found
        if not 0 <= index < len(found):
            return None
        cls = found[index]
        d = cls.as_dict()
        text = Text()
        text.append(f"{index + 1} ", style="bold")
        text.append(d["moves"], style="bold")
        by_length = ", ".join(f"{n} at {k}" for k, n in d["sequences"].items())
        text.append(f"  ({cls.length} {self.run.request.metric.upper()}; order {d['order']}, "
                    f"morph {d['morph']}; sequences {by_length})\n")
        text.append(f"corners {d['corner_cycles'] or '-'}   edges {d['edge_cycles'] or '-'}")
        return text
