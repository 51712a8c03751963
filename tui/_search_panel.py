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

    def start(self, request: SearchRequest) -> None:
        self.reset_columns()
        self._shown = 0
        self.session.record_found([], request)
        self.set_caption(request.describe())
        self.run = self.runner.search(request)
        self.start_polling()
        self.poll()

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

    def show_found(self) -> None:
        """List the session's search results as they are (brought back from the last
        session: no search runs)."""
        self.reset_columns()
        found = self.session.found
        for number, cls in enumerate(found, start=1):
            d = cls.as_dict()
            self.table.add_row(str(number), str(cls.length), d["moves"], d["corners"],
                               d["edges"], key=str(number - 1))
        self._shown = len(found)
        self.set_caption(self.session.found_by.get("caption", ""))
        self.query_one("#search-progress", Label).update(
            f"{len(found)} class{'es' if len(found) != 1 else ''} from the last session"
            if found else "no search yet: type :search N PREDICATE (:help lists them)")
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
        metric = self.session.found_by.get("metric", "htm").upper()
        text.append(f"  ({cls.length} {metric}; order {d['order']}, "
                    f"morph {d['morph']}; sequences {by_length})\n")
        text.append(f"corners {d['corner_cycles'] or '-'}   edges {d['edge_cycles'] or '-'}")
        return text
