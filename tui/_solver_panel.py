"""The solver panel: solvers running in threads, their live counters, and the comparison table.

Each solver runs in its own daemon thread (its numba kernel releases the GIL), never on the UI
thread: importing it, building or loading its tables (with a progress bar, after asking when they
are missing) and searching. The thread only writes to its `SolverRun`; the panel reads those ten
times a second, so counters, streamed solutions and the end of a run all reach the screen from
one place. Solutions are too long for a column at 80x24, so the highlighted row's solution is
written out in full, wrapped, under the table.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Label, ProgressBar, Static

from cubelab.cube.notation import format_moves, metric_lengths

from ._build_offer import BuildOfferScreen
from .records import SolutionRow
from .session import Session

POLL_SECONDS = 0.1
COLUMNS = ("#", "solver", "status", "HTM", "QTM", "time", "nodes", "n/s", "bound", "opt")


@dataclass
class SolverRun:
    """One solver's thread and everything it reports (written by the thread, read by the UI)."""

    name: str
    row: int
    state: object                    # CubeState, or PocketState for the 2x2x2's solvers
    time_limit: float | None
    puzzle: str = "3x3"              # the puzzle the solver is asked for
    counters: object = None          # the shared counter array the search writes
    cancel: object = None            # the one-element flag Esc raises
    phase: str = "starting"          # starting | offer | tables | search | done
    progress: tuple[int, int] = (0, 0)
    note: str = ""                   # the last thing prepare() said it was doing
    found: list = field(default_factory=list)
    result: object = None
    error: str = ""
    search_started: float = 0.0
    finished_at: float = 0.0
    thread: threading.Thread | None = None
    abandoned: bool = False          # cancelled before its search: no longer waited for

    @property
    def active(self) -> bool:
        return self.phase != "done" and not self.abandoned

    def elapsed(self) -> float:
        if not self.search_started:
            return 0.0
        end = self.finished_at or time.perf_counter()
        return end - self.search_started


def describe_missing(absent: list) -> str | None:
    """What a solver still has to build before it can search (its missing_tables()), or None
    when nothing is missing."""
    if not absent:
        return None
    size = sum(s.expected_bytes or 0 for s in absent)
    return f"{len(absent)} table{'s' if len(absent) > 1 else ''}" + (
        f", about {size / 1e6:,.0f} MB" if size else "")


def _count(n: int) -> str:
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= size:
            return f"{n / size:.1f}{unit}"
    return str(int(n))


class SolverPanel(Vertical):
    """Starts solver runs, shows them side by side, and lets the user pick a solution."""

    BINDINGS = [
        Binding("p", "play_row", "play", show=False),
    ]
    """On the table: Enter applies the highlighted solution, P steps through it on the net."""

    class ApplyRow(Message):
        """The user chose a row to apply."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    class PlayRow(Message):
        """The user chose a row to step through."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    class Finished(Message):
        """Every run has ended (solved, cancelled, failed or skipped)."""

    def __init__(self, session: Session, registry, **kwargs):
        super().__init__(**kwargs)
        self.session = session
        self.registry = registry
        """Where solvers come from (solver_names(puzzle), get_solver(name, puzzle))."""
        self.runs: list[SolverRun] = []
        self._solvers: dict[tuple[str, str], object] = {}   # (puzzle, name) -> solver
        self._timer = None

    def compose(self) -> ComposeResult:
        yield Label("", id="solver-progress-label")
        yield ProgressBar(id="solver-progress", show_eta=False)
        table = DataTable(id="solutions", cursor_type="row", zebra_stripes=True)
        yield table
        yield Static("", id="solution-detail")

    def on_mount(self) -> None:
        self._rebuild_table()
        self._show_progress(None)

    # ---- starting and stopping -----------------------------------------------------------
    @property
    def running(self) -> bool:
        return any(run.active for run in self.runs)

    def start(self, names, compare: bool, time_limit: float | None = None) -> None:
        from cubelab.solvers.protocol import new_cancel, new_counters
        state = self.session.state
        puzzle = self.session.puzzle.name
        rows = self.session.solutions
        if compare or any(r.for_state != state for r in rows):
            rows.clear()
        self.runs = []
        for name in names:
            index = next((i for i, r in enumerate(rows) if r.solver == name), None)
            if index is None:
                rows.append(SolutionRow(name, state))
                index = len(rows) - 1
            else:
                rows[index] = SolutionRow(name, state)
            run = SolverRun(name, index, state, time_limit, puzzle, new_counters(), new_cancel())
            self.runs.append(run)
        self._rebuild_table()
        for run in self.runs:
            run.thread = threading.Thread(target=self._work, args=(run,), daemon=True,
                                          name=f"solver-{run.name}")
            run.thread.start()
        if self._timer is None:
            self._timer = self.set_interval(POLL_SECONDS, self.poll)

    def cancel(self) -> bool:
        """Raise every running solver's cancel flag; True if one was running."""
        any_running = False
        for run in self.runs:
            if run.active:
                any_running = True
                run.error = run.error or "cancelled"
                run.cancel[0] = 1
                # a search stops within milliseconds; loading or building a table may not
                # check the flag as often, and must not hold the panel hostage meanwhile
                if run.phase != "search":
                    run.abandoned = True
        return any_running

    def on_unmount(self) -> None:
        # give cancelled table builds a moment to remove their temporary files
        self.cancel()
        deadline = time.perf_counter() + 1.5
        for run in self.runs:
            if run.thread is not None:
                run.thread.join(max(0.0, deadline - time.perf_counter()))

    # ---- the worker thread ----------------------------------------------------------------
    def _work(self, run: SolverRun) -> None:
        from cubelab.solvers.protocol import SolverError
        try:
            key = (run.puzzle, run.name)
            solver = self._solvers.get(key)
            if solver is None:
                # one instance per solver for the whole session: its tables stay loaded
                solver = self._solvers[key] = self.registry.get_solver(run.name, run.puzzle)
            missing = describe_missing(solver.missing_tables())
            if missing is not None:
                run.phase = "offer"
                if not self._ask_build(run, missing):
                    run.error = run.error or "tables not built"
                    return
            if run.cancel[0]:
                return
            run.phase = "tables"
            solver.prepare(progress=lambda done, total: setattr(run, "progress", (done, total)),
                           cancel=run.cancel, log=lambda message: setattr(run, "note", str(message)))
            if run.cancel[0]:
                return
            run.phase = "search"
            run.search_started = time.perf_counter()
            run.result = solver.solve(run.state, time_limit=run.time_limit,
                                      on_solution=run.found.append, counters=run.counters,
                                      cancel=run.cancel)
        except SolverError as e:
            run.error = str(e)
        except KeyError as e:
            run.error = str(e.args[0]) if e.args else "unknown solver"
        except Exception as e:  # a broken solver must not take the workbench down
            run.error = f"{type(e).__name__}: {e}"
        finally:
            run.finished_at = time.perf_counter()
            run.phase = "done"

    def _ask_build(self, run: SolverRun, detail: str) -> bool:
        answer: list[bool] = []
        done = threading.Event()

        def reply(value: bool | None) -> None:
            answer.append(bool(value))
            done.set()

        def ask() -> None:
            self.app.push_screen(BuildOfferScreen(run.name, detail), callback=reply)

        try:
            self.app.call_from_thread(ask)
        except RuntimeError:
            return False
        while not done.wait(0.05):
            if run.cancel[0]:
                return False
        return answer[0]

    # ---- what the UI thread sees ----------------------------------------------------------
    def poll(self) -> None:
        """Copy every run's counters and solutions into its row; runs ten times a second."""
        table = self.query_one(DataTable)
        for run in self.runs:
            row = self.session.solutions[run.row] if run.row < len(self.session.solutions) else None
            if row is None or row.solver != run.name:
                continue
            self._update_row(run, row)
            for column, value in zip(COLUMNS, self._cells(run.row, row, run)):
                table.update_cell(str(run.row), column, value, update_width=True)
        self._show_detail()
        preparing = [r for r in self.runs if r.phase == "tables" and not r.abandoned]
        self._show_progress(preparing[0] if preparing else None)
        if self.runs and not self.running and self._timer is not None:
            self._timer.stop()
            self._timer = None
            self._rebuild_table()       # columns sized for the final values only
            self.post_message(self.Finished())

    def _update_row(self, run: SolverRun, row: SolutionRow) -> None:
        if run.abandoned:
            row.status, row.message = "cancelled", "cancelled before the search began"
            return
        counters = run.counters
        if counters is not None:
            row.nodes = int(counters[0])
        row.seconds = run.elapsed()
        if run.found:
            best = run.found[-1]
            row.moves = list(best.moves)
            row.solutions = len(run.found)
        if run.phase == "done":
            result = run.result
            if result is not None:
                if result.moves is not None:
                    row.moves = list(result.moves)
                row.nodes = int(result.nodes)
                row.seconds = float(result.seconds)
                row.optimal = bool(result.optimal)
                row.status = result.status
            else:
                row.status = "cancelled" if run.error == "cancelled" else (
                    "skipped" if run.error == "tables not built" else "error")
                row.message = run.error
        else:
            row.status = {"starting": "loading", "offer": "tables?", "tables": "tables",
                          "search": "search"}[run.phase]

    def _cells(self, index: int, row: SolutionRow, run: SolverRun | None):
        from cubelab.solvers.protocol import BOUND, NO_VALUE
        lengths = metric_lengths(row.moves) if row.moves is not None else None
        status = row.status
        if run is not None and run.active and run.phase == "tables" and run.progress[1]:
            status = f"tables {100 * run.progress[0] // run.progress[1]}%"
        style = {"solved": "green", "error": "red", "cancelled": "yellow"}.get(row.status, "")
        bound = ""
        rate = ""
        if run is not None and run.counters is not None and run.phase in ("search", "done"):
            b = int(run.counters[BOUND])
            bound = "" if b == NO_VALUE else str(b)
            if row.seconds > 0:
                rate = _count(row.nodes / row.seconds)
        return (
            str(index + 1), row.solver, Text(status, style=style),
            str(lengths["htm"]) if lengths else "", str(lengths["qtm"]) if lengths else "",
            f"{row.seconds:.2f}s" if row.seconds else "", _count(row.nodes) if row.nodes else "",
            rate, bound, ("yes" if row.optimal else "no") if row.status == "solved" else "",
        )

    def _rebuild_table(self) -> None:
        table = self.query_one(DataTable)
        cursor = table.cursor_row
        table.clear(columns=True)
        for name in COLUMNS:
            table.add_column(name, key=name)
        runs = {run.row: run for run in self.runs}
        for i, row in enumerate(self.session.solutions):
            table.add_row(*self._cells(i, row, runs.get(i)), key=str(i))
        if 0 <= cursor < table.row_count:
            table.move_cursor(row=cursor)
        self._show_detail()

    def _show_detail(self) -> None:
        """The highlighted row's whole solution (or why it has none), wrapped under the table."""
        detail = self.query_one("#solution-detail", Static)
        index = self._cursor_index()
        rows = self.session.solutions
        if index is None or index >= len(rows):
            detail.update("")
            detail.display = False
            return
        row = rows[index]
        text = Text()
        if row.moves is not None:
            # the count says how much is there when the text runs past the lines shown
            text.append(f"{index + 1} {row.solver} ({len(row.moves)} moves): ", style="bold")
            text.append(format_moves(row.moves) or "(already solved)")
        else:
            text.append(f"{index + 1} {row.solver}: ", style="bold")
            text.append(row.message or row.status, style="dim")
        detail.update(text)
        detail.display = True

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._show_detail()

    def refresh_rows(self) -> None:
        """Redraw the table from the session (after a position change marks rows stale)."""
        self._rebuild_table()

    def _show_progress(self, run: SolverRun | None) -> None:
        label = self.query_one("#solver-progress-label", Label)
        bar = self.query_one("#solver-progress", ProgressBar)
        label.display = bar.display = run is not None
        if run is not None:
            doing = run.note or "loading or building its tables"
            label.update(f"{run.name}: {doing} (the rest stays usable; Esc cancels)")
            done, total = run.progress
            # until the first report the bar pulses: loading may finish before any arrives
            bar.update(total=total or None, progress=done)

    # ---- choosing a row -------------------------------------------------------------------
    def _cursor_index(self) -> int | None:
        table = self.query_one(DataTable)
        if table.row_count == 0:
            return None
        return table.cursor_row

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.post_message(self.ApplyRow(event.cursor_row))

    def action_play_row(self) -> None:
        index = self._cursor_index()
        if index is not None:
            self.post_message(self.PlayRow(index))
