"""What the solver and search panels share: a table to pick rows from, a detail line, polling.

A panel shows one of the session's lists (`LISTING`: "solutions" or "search") as a DataTable
with the highlighted row written out in full under it (a column would need scrolling at 80x24).
Enter on a row asks the app to apply it, P to step through it on the net: one `RowChosen`
message for both panels. While runs are under way the panel's `poll` runs ten times a second.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Static

from .runner import POLL_SECONDS, Runner
from .session import Session


class RunPanel(Vertical):
    """A list of the session fed by background runs; subclasses say how to start and poll."""

    BINDINGS = [
        Binding("p", "play_row", "play", show=False),
    ]
    """On the table: Enter applies the highlighted row, P steps through it on the net."""

    LISTING = ""
    """Which list of the session the rows are ("solutions" or "search")."""
    COLUMNS: tuple[str, ...] = ()
    TABLE_ID = ""
    DETAIL_ID = ""
    """The ids of the table and of the Static under it that spells out the highlighted row."""

    class RowChosen(Message):
        """The user chose row `index` of `listing`: to step through it (`play`) or apply it."""

        def __init__(self, listing: str, index: int, play: bool) -> None:
            super().__init__()
            self.listing = listing
            self.index = index
            self.play = play

    def __init__(self, session: Session, runner: Runner, **kwargs):
        super().__init__(**kwargs)
        self.session = session
        self.runner = runner
        self._timer = None
        # True from posting the end of the runs until the app has said how they ended: the
        # message passes through several queues, and whoever waits on the outcome waits on this
        self.unreported = False

    def compose(self) -> ComposeResult:
        yield from self.heading()
        yield DataTable(id=self.TABLE_ID, cursor_type="row", zebra_stripes=True)
        yield Static("", id=self.DETAIL_ID)

    def heading(self) -> ComposeResult:
        """What stands above the table (progress, mostly)."""
        yield from ()

    # ---- polling ----------------------------------------------------------------------------
    @property
    def polling(self) -> bool:
        """Runs are being followed (until the poll that sees them all ended)."""
        return self._timer is not None

    def start_polling(self) -> None:
        if self._timer is None:
            self._timer = self.set_interval(POLL_SECONDS, self.poll)

    def stop_polling(self) -> bool:
        """Stop following; True if the panel was (the caller then reports the end once)."""
        if self._timer is None:
            return False
        self._timer.stop()
        self._timer = None
        return True

    def report_end(self, message: Message) -> None:
        """Tell the app the runs have ended; it calls `reported` once it has said so."""
        self.unreported = True
        self.post_message(message)

    def reported(self) -> None:
        self.unreported = False

    @property
    def settled(self) -> bool:
        """Nothing is under way: no run is followed and the end, if any, has been reported."""
        return not self.polling and not self.unreported

    def poll(self) -> None:
        raise NotImplementedError

    # ---- the table and the detail line --------------------------------------------------------
    @property
    def table(self) -> DataTable:
        return self.query_one(DataTable)

    def reset_columns(self) -> DataTable:
        """Empty the table, columns included (they size themselves to what is added next)."""
        table = self.table
        table.clear(columns=True)
        for name in self.COLUMNS:
            table.add_column(name, key=name)
        return table

    def cursor_index(self) -> int | None:
        table = self.table
        return table.cursor_row if table.row_count else None

    def show_detail(self, text: Text | None) -> None:
        """Spell out the highlighted row under the table (None hides the line)."""
        detail = self.query_one(f"#{self.DETAIL_ID}", Static)
        detail.update(text if text is not None else "")
        detail.display = text is not None

    def detail(self, index: int) -> Text | None:
        """The highlighted row `index` written out (None when there is nothing to show)."""
        raise NotImplementedError

    def refresh_detail(self) -> None:
        index = self.cursor_index()
        self.show_detail(None if index is None else self.detail(index))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self.refresh_detail()

    # ---- choosing a row ---------------------------------------------------------------------
    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.post_message(self.RowChosen(self.LISTING, event.cursor_row, play=False))

    def action_play_row(self) -> None:
        index = self.cursor_index()
        if index is not None:
            self.post_message(self.RowChosen(self.LISTING, index, play=True))
