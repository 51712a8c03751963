"""The solver panel: solver runs side by side, their live counters, and the comparison table.

Each solver runs in its own thread (runner.SolverRun: its numba kernel releases the GIL), never
on the UI thread: importing it, building or loading its tables (with a progress bar, after
asking when they are missing) and searching. The panel reads the runs ten times a second, so
counters, streamed solutions and the end of a run all reach the screen from one place. Solutions
are too long for a column at 80x24, so the highlighted row's solution is written out in full,
wrapped, under the table.
"""

from __future__ import annotations

import time

from rich.text import Text
from textual.app import ComposeResult
from textual.message import Message
from textual.widgets import Label, ProgressBar

from cubelab.cube.notation import format_moves, metric_lengths

from ._build_offer import offer_build
from ._run_panel import RunPanel
from .records import SolutionRow
from .runner import SolverRun


def _count(n: int) -> str:
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= size:
            return f"{n / size:.1f}{unit}"
    return str(int(n))


class SolverPanel(RunPanel):
    """Starts solver runs, shows them side by side, and lets the user pick a solution."""

    LISTING = "solutions"
    COLUMNS = ("#", "solver", "status", "HTM", "QTM", "time", "nodes", "n/s", "bound", "opt")
    TABLE_ID, DETAIL_ID = "solutions", "solution-detail"

    class Finished(Message):
        """Every run has ended (solved, cancelled, failed or skipped)."""

    def __init__(self, session, runner, **kwargs):
        super().__init__(session, runner, **kwargs)
        self._runs: list[tuple[int, SolverRun]] = []     # (row of the table, its run)
        self._row_of: dict[SolverRun, SolutionRow] = {}  # each run's row, which it follows
        self._was_building = False

    def heading(self) -> ComposeResult:
        yield Label("", id="solver-progress-label")
        yield ProgressBar(id="solver-progress", show_eta=False)

    def on_mount(self) -> None:
        self._rebuild_table()
        self._show_progress(None)

    # ---- starting and stopping -----------------------------------------------------------
    @property
    def runs(self) -> list[SolverRun]:
        return [run for _, run in self._runs]

    @property
    def running(self) -> bool:
        return any(run.active for run in self.runs)

    def start(self, names, compare: bool, cap: float | None = None, target=None,
              options: dict | None = None) -> None:
        """Run `names` on the position, to solved or to `target` (the rows then hold moves that
        take the position there; solvers/target.py), made with `options` (as :solve read
        them). `cap`: seconds of search each gets at most; each solver otherwise stops by its
        own default rule."""
        s = self.session
        rows = s.open_rows(names, keep=not compare)
        # the solvers' modules load with the first run, not with the first frame
        from cubelab.solvers.target import relative_state
        state = s.solve_position() if target is None else relative_state(s.state, target)
        self._runs = [(row, self.runner.solve(name, s.puzzle.name, state, cap=cap,
                                              ask_build=self._ask_build,
                                              options=s.solver_options(name, options)))
                      for name, row in zip(names, rows)]
        self._row_of = {run: s.solutions[row] for row, run in self._runs}
        self._rebuild_table()
        self.start_polling()

    def _ask_build(self, run: SolverRun, detail: str) -> bool:
        return offer_build(self.app, run, detail)

    def cancel(self) -> bool:
        """Stop every running solver, table builds included; True if one was running."""
        return any([run.stop() for run in self.runs])

    @staticmethod
    def is_building(run: SolverRun) -> bool:
        """The run is preparing tables it had to build, and has not finished building them
        (loading tables that were there, compiling, searching: not a build)."""
        build = run.build
        return (run.active and run.phase == "tables" and build is not None
                and (build.building or build.fraction < 1.0))

    @property
    def building(self) -> list[SolverRun]:
        """The runs building tables now: Esc leaves them alone (F9 asks, then cancels)."""
        return [run for run in self.runs if self.is_building(run)]

    def stop_searches(self) -> bool:
        """Stop every run except those building tables (a build throws away work when
        stopped: only a key that says so stops it); True if one was running."""
        return any([run.stop() for run in self.runs if not self.is_building(run)])

    def cancel_builds(self) -> list[SolverRun]:
        """Stop the runs building tables; the ones stopped."""
        return [run for run in self.building if run.stop()]

    def describe_builds(self) -> str:
        """'the korf.layers build (54 %)': the table builds under way, for a message."""
        parts = []
        for run in self.building:
            what = run.build.current or f"{run.name} tables"
            parts.append(f"the {what} build ({int(100 * run.build.fraction)} %)")
        return " and ".join(parts) or "no table build"

    def ask_to_cancel_builds(self) -> None:
        """Ask whether to cancel the table builds under way (F9), and do it on yes: the tables
        finished stay on disk, and a large one's checkpoint (tables/checkpoint.py) too."""
        app = self.app
        if not self.building:
            app.say("no table build is running")
            return
        from ._confirm_screen import ConfirmScreen
        what = self.describe_builds()

        def answer(yes: bool | None) -> None:
            app.line.focus()
            if not yes:
                app.say(f"{what} goes on")
            elif self.cancel_builds():
                app.say(f"cancelling {what}… (the tables already built stay on disk)")
            else:
                app.say("the build had already ended")

        app.push_screen(ConfirmScreen(
            f"Cancel {what}?",
            "The tables already built stay on disk, and a large table keeps the levels it "
            "has checkpointed: the next build goes on from there.",
            yes="Cancel the build", no="Keep building"), callback=answer)

    def on_unmount(self) -> None:
        # give cancelled table builds a moment to remove their temporary files
        self.cancel()
        deadline = time.perf_counter() + 1.5
        for run in self.runs:
            run.done.wait(max(0.0, deadline - time.perf_counter()))

    # ---- what the UI thread sees ----------------------------------------------------------
    def poll(self) -> None:
        """Copy every run's counters and solutions into its row; runs ten times a second."""
        table = self.table
        rows = self.session.solutions
        # read before the rows are filled: a run ending after its row was filled would
        # otherwise be reported with the status it had a moment before ("search")
        ended = self._runs and not self.running
        for index, run in self._runs:
            row = rows[index] if index < len(rows) else None
            if row is None or row.solver != run.name:
                continue                # the rows went with a switch of puzzle
            run.fill(row)
            for column, value in zip(self.COLUMNS, self._cells(index, row, run)):
                table.update_cell(str(index), column, value, update_width=True)
        self.refresh_detail()
        preparing = [r for r in self.runs if r.phase == "tables" and not r.abandoned]
        self._show_progress(preparing[0] if preparing else None)
        building = bool(self.building)
        if building != self._was_building:
            self._was_building = building
            self.app.refresh_bindings()         # F9 shows in the footer while a build runs
        if ended and self.stop_polling():
            self._rebuild_table()       # columns sized for the final values only
            self.report_end(self.Finished())

    def _cells(self, index: int, row: SolutionRow, run: SolverRun | None):
        lengths = metric_lengths(row.moves) if row.moves is not None else None
        status = row.status
        if run is not None and run.active and run.phase == "tables" and run.build is not None:
            status = f"tables {int(100 * run.build.fraction)}%"
        style = {"solved": "green", "error": "red", "cancelled": "yellow"}.get(row.status, "")
        stale = row.for_state != self.session.state
        if stale:
            # found for the position before the last change: :apply refuses it
            status, style = f"{status} (old)", "dim"
        bound = ""
        rate = ""
        if run is not None and run.phase in ("search", "done"):
            from cubelab.solvers.protocol import BOUND, NO_VALUE
            b = int(run.counters[BOUND])
            bound = "" if b == NO_VALUE else str(b)
            if row.seconds > 0:
                rate = _count(row.nodes / row.seconds)
        cells = (
            str(index + 1), row.solver, Text(status, style=style),
            str(lengths["htm"]) if lengths else "", str(lengths["qtm"]) if lengths else "",
            f"{row.seconds:.2f}s" if row.seconds else "", _count(row.nodes) if row.nodes else "",
            rate, bound, self._optimal_in(row, run) if row.moves is not None else "",
        )
        if stale:
            return tuple(c if isinstance(c, Text) else Text(c, style="dim") for c in cells)
        return cells

    def _optimal_in(self, row: SolutionRow, run: SolverRun | None) -> str:
        """The opt column of a solved row: the metric its solution is proven optimal in (HTM,
        QTM), or no."""
        if not row.optimal:
            return "no"
        if run is not None and run.result is not None:
            return run.result.metric.upper()
        try:
            return "/".join(m.title for m in self.session.registry.describe(row.solver).metrics)
        except KeyError:        # a solver of a test's own registry
            return "yes"

    def _rebuild_table(self) -> None:
        cursor = self.table.cursor_row
        table = self.reset_columns()
        runs = dict(self._runs)
        for i, row in enumerate(self.session.solutions):
            table.add_row(*self._cells(i, row, runs.get(i)), key=str(i))
        if 0 <= cursor < table.row_count:
            table.move_cursor(row=cursor)
        self.refresh_detail()

    def detail(self, index: int) -> Text | None:
        """The row's whole solution (or why it has none)."""
        rows = self.session.solutions
        if index >= len(rows):
            return None
        row = rows[index]
        text = Text()
        if row.for_state != self.session.state:
            keys = getattr(self.app, "keymap", None)
            solve, clear = ((keys.shown("cubelab.solve"), keys.shown("cubelab.clear_old"))
                            if keys is not None else ("F5", "Ctrl+L"))
            text.append(f"for the previous position (:apply refuses it; {solve} solves this "
                        f"one, {clear} clears old rows) ", style="dim italic")
        if row.moves is not None:
            # the count says how much is there when the text runs past the lines shown
            text.append(f"{index + 1} {row.solver} ({len(row.moves)} moves): ", style="bold")
            text.append(format_moves(row.moves) or "(already solved)")
            for line in row.step_lines:    # a human method: how it is held, each step's line
                text.append("\n" + line)
        else:
            text.append(f"{index + 1} {row.solver}: ", style="bold")
            text.append(row.message or row.status, style="dim")
        return text

    def summary(self) -> tuple[str, bool]:
        """How the runs ended, for the message line: the best solution, or why there is none
        (and whether that is an error)."""
        rows = self.session.solutions
        found = [r for r in rows if r.moves is not None]
        cancelled = any(r.status == "cancelled" for r in rows)
        if found:
            best = min(found, key=lambda r: len(r.moves))
            opt = ", optimal" if best.optimal else ""
            head = ("cancelled · best so far" if cancelled else "best") + \
                f": {best.solver}, {len(best.moves)} moves{opt}"
            if rows[0].for_state != self.session.state:
                return head + " · for the previous position (F5 solves this one)", False
            return head + " · Enter on a row applies it, P plays it", False
        if cancelled:
            early = any(r.message == "cancelled before the search began" for r in rows)
            return ("cancelled before any solution was found"
                    + (" (the tables already built stay on disk)" if early else "")), False
        failed = [r for r in rows if r.message]
        # a solver's limit ("too deep for bfs") is a status; only a failure is red
        return (failed[0].message if failed else "no solution",
                not failed or failed[0].status == "error")

    def refresh_rows(self) -> None:
        """Redraw the table from the session (after a position change marks rows stale, or
        :clear took the old ones away: each run follows its row)."""
        rows = self.session.solutions
        at = {id(row): i for i, row in enumerate(rows)}
        self._runs = [(at[id(self._row_of[run])], run) for _, run in self._runs
                      if run in self._row_of and id(self._row_of[run]) in at]
        self._rebuild_table()

    def forget_runs(self) -> None:
        """Show the session's rows as they are, with no run behind them (a session brought
        back from the last run)."""
        self.cancel()
        self.stop_polling()
        self._runs, self._row_of = [], {}
        self._rebuild_table()

    def old_row_note(self, index: int, keymap) -> str:
        """What Enter on row `index`, found for another position, says: which position (how
        far back in the undo history, when it is there) and what to do."""
        row = self.session.solutions[index]
        history = self.session.history
        back = next((history.cursor - k for k in range(history.cursor - 1, -1, -1)
                     if history.entries[k].state == row.for_state), None)
        where = (f"the position {back} undo step{'s' if back != 1 else ''} back" if back
                 else "another position")
        return (f"row {index + 1} ({row.solver}) was found for {where}, not this one: "
                f"{keymap.shown('cubelab.solve')} solves this one, "
                f"{keymap.shown('cubelab.clear_old')} clears the old rows")

    def _show_progress(self, run: SolverRun | None) -> None:
        label = self.query_one("#solver-progress-label", Label)
        bar = self.query_one("#solver-progress", ProgressBar)
        label.display = bar.display = run is not None
        if run is None:
            return
        build = run.build
        if self.is_building(run):
            # one bar over every table the solver builds, not one per table
            label.update(f"{run.name}: {build.line()} (the rest stays usable; F9 cancels)")
            bar.update(total=1000, progress=int(1000 * build.fraction))
            return
        doing = run.note or "loading its tables"
        label.update(f"{run.name}: {doing} (the rest stays usable; Esc cancels)")
        # loading (or compiling) reports no fractions: the bar pulses
        bar.update(total=None, progress=0)
