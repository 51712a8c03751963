"""What the solver and search panels share: a table to pick rows from, a detail line, polling.

A panel shows one of the session's lists (`LISTING`: "solutions" or "search") as a DataTable
with the highlighted row written out in full under it (a column would need scrolling at 80x24).
When even that space is too small (a CFOP solution's steps at 80x24), the panel's bottom edge
says so, and V on the table or a click on the text opens it whole in the output pane.
Enter on a row asks the app to apply it, P to step through it on the net: one `RowChosen`
message for both panels. While runs are under way the panel's `poll` runs ten times a second.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import DataTable, Static

from .bindings import binding
from .runner import POLL_SECONDS, Runner
from .session import Session


class RowTable(DataTable):
    """The panels' table: a click highlights a row (a second click chooses it) and leaves the
    keys on the move line; Tab reaches the table for the arrows and Enter."""

    FOCUS_ON_CLICK = False

    BINDINGS = [
        binding("cubelab.rows.down", "cursor_down", "next row"),
        binding("cubelab.rows.up", "cursor_up", "row before"),
        binding("cubelab.rows.first", "scroll_top", "first row"),
        binding("cubelab.rows.last", "scroll_bottom", "last row"),
    ]
    """DataTable's own moves, with ids so that the settings can add keys (vim's j, k, g, G)."""


class RunPanel(Vertical):
    """A list of the session fed by background runs; subclasses say how to start and poll."""

    BINDINGS = [
        binding("cubelab.rows.play", "play_row", "play"),
        binding("cubelab.rows.view", "view_row", "view"),
    ]
    """On the table: Enter applies the highlighted row, P steps through it on the net, V shows
    it whole in the output pane."""

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
        self.caption = ""
        self._cut = ""
        self._detail_of: int | None = None     # the row whose text is shown

    def compose(self) -> ComposeResult:
        yield from self.heading()
        yield RowTable(id=self.TABLE_ID, cursor_type="row", zebra_stripes=True)
        # the wheel scrolls the text; Tab skips it (V shows it whole in the output pane)
        with VerticalScroll(id=f"{self.DETAIL_ID}-box", classes="row-detail", can_focus=False):
            yield Static("", id=self.DETAIL_ID)

    def heading(self) -> ComposeResult:
        """What stands above the table (progress, mostly)."""
        yield from ()

    # ---- the run followed (panels of one run at a time; the solver panel has several) -----
    run = None
    """The run the rows come from (a runner.Run), or None before the first."""

    @property
    def running(self) -> bool:
        return self.run is not None and self.run.active

    def cancel(self) -> bool:
        """Stop the run; True if one was running."""
        return self.run is not None and self.run.stop()

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

    @property
    def detail_area(self) -> VerticalScroll:
        """The box under the table holding the highlighted row's text."""
        return self.query_one(f"#{self.DETAIL_ID}-box", VerticalScroll)

    def show_detail(self, text: Text | None) -> None:
        """Spell out the highlighted row under the table (None hides the line)."""
        self.query_one(f"#{self.DETAIL_ID}", Static).update(text if text is not None else "")
        self.detail_area.display = text is not None
        self.call_after_refresh(self._mark_cut)

    def _mark_cut(self) -> None:
        """The bottom edge says when the row's text runs past its space, and how to see it."""
        box = self.detail_area
        hidden = round(box.max_scroll_y) if box.display else 0
        self._cut = (f"row text: {hidden} more line{'s' if hidden != 1 else ''} "
                     "(V or a click shows it)") if hidden > 0 else ""
        self.border_subtitle = " · ".join(filter(None, (self.caption, self._cut)))

    def set_caption(self, caption: str) -> None:
        """What the panel's bottom edge says besides the sign of a row's text cut short."""
        self.caption = caption
        self._mark_cut()

    def on_resize(self) -> None:
        self.call_after_refresh(self._mark_cut)

    def detail(self, index: int) -> Text | None:
        """The highlighted row `index` written out (None when there is nothing to show)."""
        raise NotImplementedError

    def refresh_detail(self) -> None:
        index = self.cursor_index()
        if index != self._detail_of:            # another row: its text from the top
            self._detail_of = index
            self.detail_area.scroll_home(animate=False)
        self.show_detail(None if index is None else self.detail(index))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self.refresh_detail()

    # ---- choosing a row ---------------------------------------------------------------------
    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.post_message(self.RowChosen(self.LISTING, event.cursor_row, play=False))

    def action_view_row(self) -> None:
        """The highlighted row's whole text in the output pane."""
        index = self.cursor_index()
        text = None if index is None else self.detail(index)
        if text is not None:
            self.app.show_output(text, f"{self.border_title} · row {index + 1}")

    def on_click(self, event: events.Click) -> None:
        if event.widget is not None and self.detail_area in (event.widget,
                                                              *event.widget.ancestors):
            self.action_view_row()

    def action_play_row(self) -> None:
        index = self.cursor_index()
        if index is not None:
            self.post_message(self.RowChosen(self.LISTING, index, play=True))
