"""The Textual workbench: the net, the move line, the facts and the solvers on one screen.

`run_app()` is what `cubelab` runs with no sub-command. The app owns one `Session` (positions,
undo/redo, the `:` commands) and shows it; solvers come from a registry with
`solver_names(puzzle)` and `get_solver(name, puzzle)` (cubelab.solvers.REGISTRY unless a test
passes another), imported only when used, so the first screen paints before any solver module,
table or numba is loaded; one `Runner` (runner.py) runs them and the search in the background.
Below the cube, one list at a time: the solvers' comparison table or the results of `:search`
(F7 switches; all but the solvers' are mounted just after the first frame: _hidden_lists.py).
The look, the keys and the session kept between runs follow the settings file
(settings.py; `run_app` reads it, a test passes its own or none: the defaults).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Iterable

from rich.text import Text
from textual.app import App, ComposeResult, SystemCommand
from textual.containers import Container, Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Footer, Input

from cubelab.cube.puzzles import DEFAULT_PUZZLE

from ._facts_panel import FactsPanel
from ._help_screen import HelpScreen
from ._hidden_lists import HiddenLists
from ._message_line import MessageLine
from ._move_input import MoveInput
from ._net_view import NetView
from ._prefs import Preferences
from ._solver_panel import SolverPanel
from .bindings import binding
from .commands import COMMANDS
from .fmc_commands import shown as fmc_shown
from .goal_text import is_list_solve, list_caption
from .history import InputHistory
from .records import (HelpRequest, Outcome, PaintRequest, ScreenshotRequest, SearchRequest,
                      SolveRequest)
from .runner import Runner
from .session import Session

if TYPE_CHECKING:
    from ._fmc_panel import FmcPanel
    from .fmc_session import FmcStepRequest
    from .gen_session import GenRequest
    from ._gen_panel import GenPanel
    from ._listed_panel import ListedPanel
    from ._search_panel import SearchPanel

COMPARE_TIME_LIMIT = 30.0
"""Seconds of search each solver gets at most in :compare (each stops sooner by its own rule:
Kociemba's within about a second; a plain :solve runs until it is done or cancelled)."""


class CubeLabApp(HiddenLists, Preferences, App):
    """The cubelab workbench."""

    CSS_PATH = "app.tcss"
    TITLE = "cubelab"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]

    BINDINGS = [
        binding("cubelab.help", "help", "help", show=True),
        binding("cubelab.letters", "letters", "abc", show=True),
        binding("cubelab.paint", "paint", "paint", show=True),
        binding("cubelab.puzzle", "puzzle", "cube", show=True),
        binding("cubelab.solve", "solve", "solve", show=True),
        binding("cubelab.compare", "compare", "compare", show=True),
        binding("cubelab.lists", "lists", "list", show=True),
        binding("cubelab.view", "view", "3d"),
        binding("cubelab.fmc_inverse", "fmc_inverse", "FMC inverse"),
        binding("cubelab.undo", "undo", "undo"),
        binding("cubelab.redo", "redo", "redo"),
        binding("cubelab.cancel", "cancel", "stop", show=True),
        binding("cubelab.cancel_build", "cancel_build", "stop build", show=True),
        binding("cubelab.clear_old", "clear_old", "clear old rows"),
        binding("cubelab.restore", "restore", "restore session"),
        binding("cubelab.screenshot", "screenshot", "screenshot"),
        binding("cubelab.palette", "command_palette", "palette", priority=True),
        binding("cubelab.quit", "quit", "quit", priority=True),
    ]
    """Function keys and control keys only: letters belong to the move line and the keyboard
    cube. Undo and redo stay out of the footer (room at 80 columns); F1 lists them. F9 shows
    only while a table build runs (check_action). Each has an id (bindings.py), so the
    settings file can remap it; Ctrl+P and Ctrl+Q are declared here to have one too."""

    def __init__(self, solvers=None, history: InputHistory | None = None,
                 compare_time_limit: float | None = COMPARE_TIME_LIMIT, *,
                 puzzle: str = "3x3", tables: dict[str, str] | None = None,
                 settings=None, store=None, solve_time_limit: float | None = None):
        super().__init__()
        if solvers is None:
            from cubelab.solvers import REGISTRY as solvers
        self.registry = solvers
        self.runner = Runner(solvers)
        self.session = Session(solvers, puzzle=puzzle, table_sets=tables)
        self.history = history if history is not None else InputHistory()
        self.compare_time_limit = compare_time_limit
        self.solve_time_limit = solve_time_limit
        """Seconds of search :solve gives a solver (None: until it is done or Esc)."""
        self.take_settings(settings, store)
        self._auto_letters = False
        self._puzzle_shown = None

    # ---- layout ---------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Container(id="workspace"):
            with Vertical(id="cube-area"):
                with Horizontal(id="top"):
                    yield NetView(id="net")
                    yield FactsPanel(id="facts")
            with ContentSwitcher(id="lists", initial="solver"):
                # the other lists join it once the first screen is painted (HiddenLists)
                yield SolverPanel(self.session, self.runner, id="solver")
        yield MoveInput(self.session, self.history, self.submit_line, id="line",
                        placeholder="moves (R U R' U', [R, U]3 ...) or :help")
        yield MessageLine(id="message")
        yield Footer(compact=True)

    # the widgets the app talks to, each found by its type (the lists that start hidden:
    # HiddenLists)
    net = property(lambda self: self.query_one(NetView))
    line = property(lambda self: self.query_one(MoveInput))
    solver_panel = property(lambda self: self.query_one(SolverPanel))

    def fit_layout(self, size=None) -> None:
        """Size the net for the terminal (`size`, else the app's): larger stickers when the
        wide layout has the room, the box always sized for the 3x3x3 so switching cubes does
        not move the layout."""
        from cubelab.cube.net import net_size
        width, height = size if size is not None else self.size
        # the session's choice (:stickers), else the settings' (or auto)
        scale = self.session.sticker_size or self.sticker_scale(width, height)
        net = self.net
        net.scale = scale
        w3, h3 = net_size(3, scale)
        w2, h2 = net_size(2, scale)
        palette = 2 if net.mode == "paint" and not net.has_class("-pocket") else 0
        net.styles.width = w3 + 4 + palette          # padding and border (and the palette)
        net.styles.height = h3 + 2
        if net.has_class("-pocket") and (net.view == "net" or net.mode == "paint"):
            net.styles.padding = ((h3 - h2) // 2, 1 + (w3 - w2) // 2)
        else:
            net.styles.padding = (0, 1)
        wide = width >= 120
        self.query_one("#top").styles.height = "1fr" if wide else h3 + 2
        self.query_one("#facts").styles.height = "1fr" if wide else h3 + 2
        wants = net.fit_iso((width, height))   # the 3-D view of a large screen widens its column
        self.query_one("#cube-area").styles.width = max(65, wants) if wide and wants else None

    def on_resize(self, event) -> None:
        # the event's size: the app's own may still be the old one while the event is handled
        self.fit_layout(event.size)

    def on_mount(self) -> None:
        self.apply_settings()
        # orange and red are one colour on 16-colour terminals, and NO_COLOR has none at all
        self._auto_letters = self.no_color or self.console.color_system in (None, "standard")
        self.net.letters = self._auto_letters
        self.query_one("#facts").border_title = "facts"
        self.solver_panel.border_title = "solvers"
        self.keep_hidden_lists()
        self.fit_layout()
        self.refresh_position()
        self.greet()
        self.line.focus()
        if served(self):
            self.net.served = True              # no animation: every frame crosses the link

    # ---- showing the session --------------------------------------------------------------
    def refresh_position(self, preview=None) -> None:
        """Draw the net and the facts for the session (or for a preview of the typed line)."""
        s = self.session
        net = self.net
        net.set_look(s.view, s.orientation, s.scheme, s.animate)
        self._follow_puzzle()
        name = "net" if s.puzzle is DEFAULT_PUZZLE else f"net {s.puzzle.title}"
        if s.painting is not None:
            if net.mode != "paint":
                # entering paint mode; from now on the net keeps the painting as keys arrive
                # and the session follows its messages (taking it back would lose keys)
                net.colours = tuple(s.painting.colours)
                net.cursor = s.painting.cursor
                net.mode = "paint"
            net.border_title = f"{name} · paint {net.sticker_name()}"
            if s.painting.verdict()[0]:
                self.query_one(FactsPanel).show(s.puzzle, s.painting.state(), (),
                                                memo=s.memo_options)
            return
        pending = ()
        if preview is not None:
            state, moves, title = preview.state, s.moves + preview.moves, f"{name} · preview"
        elif s.playback is not None:
            pb = s.playback
            state, moves = pb.state, s.moves + tuple(pb.moves[:pb.index])
            pending = tuple(pb.moves[pb.index:])
            title = f"{name} · play {pb.index}/{len(pb.moves)}"
        else:
            state, moves, title = s.state, s.moves, name
            # :fmc inverse: the inverse side of the FMC position (the inverse scramble)
            state, moves, inverse = fmc_shown(s, state, moves)
            if inverse:
                title += " · FMC inverse"
        net.mode = "play" if s.playback is not None else "turn"
        net.show(state, moves)
        goal = s.goal_view(state)       # :goal (issue 34): met or not; the net greys the rest
        net.grey = goal.grey if goal is not None else frozenset()
        if s.mask is not None:      # painted with grey stickers: a masked position
            title += f" · masked, {len(goal.grey)} grey"
        elif goal is not None:
            title += f" · goal {goal.text}"
        net.border_title = title
        self.query_one(FactsPanel).show(s.puzzle, state, moves, pending, memo=s.memo_options,
                                        goal=goal)

    def _follow_puzzle(self) -> None:
        """After a switch of cube (a command, undo or redo): the old cube's solver runs stop
        and their rows go (the session dropped them), and the panels say which cube is held."""
        puzzle = self.session.puzzle
        if puzzle is self._puzzle_shown:
            return
        first = self._puzzle_shown is None
        self._puzzle_shown = puzzle
        # the box is sized for the default cube's net: a smaller net sits in its middle
        self.net.set_class(puzzle is not DEFAULT_PUZZLE, "-pocket")
        self.fit_layout()
        facts = self.query_one("#facts")
        facts.border_title = "facts" if puzzle is DEFAULT_PUZZLE else f"facts · {puzzle.title}"
        if not first:
            self.solver_panel.cancel()
            self.solver_panel.refresh_rows()
            self.with_lists(lambda: self.listed_panel.refresh_rows())

    def say(self, text: str, error: bool = False, column: int = 0, typing: bool = False,
            source: str = "") -> None:
        """The message line under the input (see MessageLine.say)."""
        self.query_one(MessageLine).say(text, error, column, typing, source)

    def show_output(self, text: Text | str, title: str = "") -> None:
        """Open `text` in the output pane; the keys come back to the move line when it closes."""
        from ._output_screen import OutputScreen
        self.push_screen(OutputScreen(text, title), callback=lambda _: self.line.focus())

    def handle(self, outcome: Outcome, source: str = "") -> None:
        """Show what executing a line (`source`, if typed) did, and start what it asks for."""
        from .fmc_session import FmcStepRequest     # (their modules: after the first frame)
        from .gen_session import GenRequest
        request = outcome.request
        if isinstance(request, HelpRequest):
            self.say("the help is open (Esc, F1 or q closes it)")   # its text is for the REPL
        elif outcome.message or outcome.error:
            self.say(outcome.message, outcome.error, outcome.column, source=source)
        if outcome.changed or outcome.rows:
            self.solver_panel.refresh_rows()    # rows of the previous position go dim
            self.listed_panel.refresh_rows()
            self.fmc_panel.refresh_rows()
        if source.strip().lower().startswith(":fm") and self.session.fmc is not None \
                and not isinstance(request, FmcStepRequest):
            self.show_list("fmc")               # an :fmc command: its panel comes to show
        if isinstance(request, SolveRequest):
            self.start_solvers(request)
        elif isinstance(request, SearchRequest):
            self.start_search(request)
        elif isinstance(request, FmcStepRequest):
            self.start_fmc_step(request)
        elif isinstance(request, GenRequest):
            self.start_gen(request)
        elif isinstance(request, HelpRequest):
            self.action_help()
        elif isinstance(request, PaintRequest):
            self.enter_paint()
        elif isinstance(request, ScreenshotRequest):
            self.action_screenshot(request.path)
        elif self.session.playback is not None:
            self.net.focus()
        self.refresh_position()

    # ---- the move line --------------------------------------------------------------------
    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input is not self.line or event.value != self.line.value:
            # a change already overtaken (the line was run, or typed on): the newest one follows
            return
        value = event.value
        preview = self.session.preview(value)
        if preview is None:
            names = [c for c in self.session.completions(value.split(" ")[0])]
            hints = "  ".join(f"{n} {COMMANDS[n[1:]][0]}".rstrip() for n in names[:6])
            if len(names) == 1 and names[0] in (":solve", ":compare"):
                hints += " · solvers: " + ", ".join(self.session.solver_names())
            self.say(hints or "unknown command (:help lists them)", error=not hints, typing=True)
            self.refresh_position()
        elif preview.error:
            self.say(preview.error, error=True, column=preview.column, typing=True)
            self.refresh_position()
        elif preview.moves:
            n = len(preview.moves)
            self.say(f"preview: {n} move{'s' if n != 1 else ''} · Enter applies", typing=True)
            self.refresh_position(preview)
        else:
            # an emptied line takes its own preview message along, not the outcome of a command
            if self.query_one(MessageLine).typing:
                self.say("")
            self.refresh_position()

    def submit_line(self, value: str) -> None:
        """Run a line of the move line (its Enter, as it arrives): the line is cleared, or
        after an error kept and selected, so it can be mended, or replaced by typing anew."""
        self.history.append(value)
        outcome = self.session.execute(value)
        if outcome.error:
            self.line.select_all()
        else:
            self.line.value = ""
        self.handle(outcome, source=value)

    # ---- the keyboard cube, paint mode and playback on the net ----------------------------
    def on_net_view_turn(self, event: NetView.Turn) -> None:
        outcome = self.session.turn(event.move)
        self.say(outcome.message, outcome.error)
        self.solver_panel.refresh_rows()
        self.listed_panel.refresh_rows()
        self.refresh_position()
        if event.click:
            self.line.focus()       # after a click the keys go to the move line

    def enter_paint(self) -> None:
        self.net.focus()
        self._say_verdict()
        self.refresh_position()

    def _say_verdict(self) -> None:
        usable, message = self.session.painting.verdict()
        self.say("paint · " + message, error=not usable)

    def on_net_view_paint(self, event: NetView.Paint) -> None:
        painting = self.session.painting
        if painting is None:
            return
        if event.everything:
            painting.clear()
        elif event.colours is not None:     # a paste: every sticker at once
            painting.colours = list(event.colours)
        else:
            painting.colours[event.index] = event.face
        painting.cursor = event.cursor
        self._say_verdict()
        self.refresh_position()

    def on_net_view_orient(self, event: NetView.Orient) -> None:
        """The 3-D picture was turned on the net (arrows, drag, wheel): as :view would."""
        self.handle(self.session.execute(f":view {event.orientation}"))

    def on_net_view_animation_off(self, event: NetView.AnimationOff) -> None:
        self.session.animate = False
        self.say("animation off: its frames came too late (:animate on tries again)")

    def on_net_view_step(self, event: NetView.Step) -> None:
        if self.session.step(event.delta):
            self.say(self.session.playback.describe())
            self.refresh_position()

    def on_net_view_commit(self, event: NetView.Commit) -> None:
        if self.session.painting is not None:
            self.session.painting.cursor = self.net.cursor
            outcome = self.session.finish_painting()
        elif self.session.playback is not None:
            outcome = self.session.keep_playback()
        else:
            return
        self.handle(outcome)
        if self.session.painting is None and self.session.playback is None:
            self.line.focus()       # typing goes to the move line again, not to the cube
        self.refresh_position()

    # ---- solvers ----------------------------------------------------------------------------
    def start_solvers(self, request: SolveRequest) -> None:
        panel = self.solver_panel
        if panel.running:
            self.say(f"{panel.describe_builds()} is under way (F9 cancels it)" if panel.building
                     else "solvers are still running (Esc cancels them)", error=True)
            return
        cap = self.compare_time_limit if request.compare else self.solve_time_limit
        self.show_list("solver")
        panel.start(request.solvers, request.compare, cap=cap, target=request.target,
                    options=request.options)
        if not request.compare and len(panel.runs) == 1 and is_list_solve(request.options):
            # a list of solutions (--all, -n, --within): its own panel fills as they come
            run = panel.runs[0]
            shown = "the stickers shown" if self.session.mask is not None else "solved"
            self.listed_panel.follow(run, list_caption(run.options, shown))
            self.show_list("listed")

    def start_search(self, request: SearchRequest) -> None:
        panel = self.search_panel
        if panel.running:
            self.say("a search is still running (Esc stops it)", error=True)
            return
        self.show_list("search")
        panel.start(request)

    def start_fmc_step(self, request: FmcStepRequest) -> None:
        self._start_anew(self.fmc_panel, "fmc", request)

    def _start_anew(self, panel, listing: str, request) -> None:
        """Start `request` in `panel`, shown; the run asked now replaces one still running."""
        if panel.running:
            panel.cancel()
        self.show_list(listing)
        panel.start(request)

    def on_fmc_panel_finished(self, event: FmcPanel.Finished) -> None:
        panel = self.fmc_panel
        panel.reported()
        run = panel.run
        self.say(panel.summary(), error=run.ranked is None and run.error != "cancelled")

    def start_gen(self, request: GenRequest) -> None:
        self._start_anew(self.gen_panel, "gen", request)

    def on_gen_panel_finished(self, event: GenPanel.Finished) -> None:
        panel = self.gen_panel
        panel.reported()
        run = panel.run
        self.say(panel.summary(), error=bool(run.error) and run.error != "cancelled")

    LISTS = {"solver": "solutions", "listed": "listed", "search": "search", "fmc": "fmc",
             "gen": "gen"}
    """The lists below the cube (their panels' ids, in F7's order) -> the session's listing."""

    def show_list(self, which: str) -> None:
        """Show the solver table ("solver"), a list solve's solutions ("listed") or the search
        results ("search") below the cube; :apply N and :play N then pick from that list."""
        self.query_one("#lists", ContentSwitcher).current = which
        self.session.listing = self.LISTS[which]

    def on_search_panel_finished(self, event: SearchPanel.Finished) -> None:
        self.search_panel.reported()
        run = event.run
        found = len(self.session.found)
        if run.error or not found or not run.complete:
            self.say(run.summary(), error=bool(run.error))
        else:
            self.say(f"{found} class{'es' if found != 1 else ''} found · Enter on a row "
                     "applies it, P plays it")

    def on_solver_panel_finished(self, event: SolverPanel.Finished) -> None:
        panel = self.solver_panel
        panel.reported()
        if self.listed_panel.run in panel.runs:
            return                      # a list solve: its panel says how it ended
        if self.session.solutions:      # (the rows go with a switch of puzzle)
            self.say(*panel.summary())

    def on_listed_panel_finished(self, event: ListedPanel.Finished) -> None:
        panel = self.listed_panel
        panel.reported()
        run = panel.run
        self.say(panel.summary(), error=bool(run.error) and not self.session.listed
                 and run.error != "cancelled")

    # ---- actions ----------------------------------------------------------------------------
    def prefill(self, text: str) -> None:
        """Put the start of a command on the move line for the user to finish."""
        self.line.value = text
        self.line.cursor_position = len(text)
        self.line.focus()

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            from cubelab.cube.puzzles import PUZZLES
            solvers = {p.title: self.registry.descriptions(p.name) for p in PUZZLES.values()}
            self.push_screen(HelpScreen({t: d for t, d in solvers.items() if d}, self.keymap))

    def action_view(self) -> None:
        """F8: the net, the 3-D view as last held (U F R at first), its other side, in turn."""
        self.handle(self.session.execute(":view"))

    def action_letters(self) -> None:
        self.net.letters = not self.net.letters

    def action_paint(self) -> None:
        if self.session.painting is None:
            self.handle(self.session.execute(":paint"))

    def action_solve(self) -> None:
        self.handle(self.session.execute(":solve"))

    def action_compare(self) -> None:
        self.handle(self.session.execute(":compare"))

    def action_puzzle(self) -> None:
        self.session.painting = None
        self.handle(self.session.execute(":puzzle"))

    def action_lists(self) -> None:
        current = self.query_one("#lists", ContentSwitcher).current
        # the FMC panel joins the round while an FMC attempt is under way, the gen panel
        # once a :gen has run
        order = [k for k in self.LISTS if (k != "fmc" or self.session.fmc is not None)
                 and (k != "gen" or self.session.gen is not None)]
        following = order[(order.index(current) + 1) % len(order)] if current in order \
            else order[0]
        self.show_list(following)
        self.say({"solver": "solvers", "listed": "solutions of the last list solve",
                  "search": "search results", "fmc": "FMC steps and candidates",
                  "gen": "the cases and algs of the last :gen"}[following])

    def action_fmc_inverse(self) -> None:
        """F10: the FMC position's inverse side, or its normal side again (:fmc inverse)."""
        self.handle(self.session.execute(":fmc inverse"), source=":fmc inverse")

    def action_undo(self) -> None:
        self.session.painting = None
        self.handle(self.session.execute(":undo"))

    def action_redo(self) -> None:
        self.session.painting = None
        self.handle(self.session.execute(":redo"))

    def action_cancel(self) -> None:
        """Esc: empty the line first (the line does it itself when it has the keys); then stop
        the solvers' searches and :search, then leave paint mode or playback. A table build
        goes on: stopping it throws work away, so only F9 does, after asking."""
        s = self.session
        if self.line.value:
            self.line.value = ""
            self.line.focus()
            return
        stopped = [what for what, stop in (("solvers", self.solver_panel.stop_searches),
                                           ("the search", self.search_panel.cancel),
                                           ("the FMC step", self.fmc_panel.cancel),
                                           ("the case generation", self.gen_panel.cancel))
                   if stop()]
        panel = self.solver_panel
        goes_on = f"{panel.describe_builds()} goes on (F9 cancels it)" if panel.building else ""
        if stopped:
            self.say(" · ".join(filter(None, (f"cancelling {' and '.join(stopped)}…", goes_on))))
        elif s.painting is not None:
            s.painting = None
            self.say("left paint mode (nothing changed)")
            self.refresh_position()
        elif s.playback is not None:
            s.playback = None
            self.say("left playback")
            self.refresh_position()
        elif goes_on:
            self.say(goes_on)
        self.line.focus()           # Esc always brings typing back to the move line

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "cancel_build":
            return bool(self.solver_panel.building)     # F9 shows only while one runs
        return True

    def action_cancel_build(self) -> None:
        """F9: cancel the table builds under way, once the user says yes."""
        self.solver_panel.ask_to_cancel_builds()

    def action_screenshot(self, path: str | None = None) -> None:
        """Save the whole screen as SVG: to `path`, or a dated file in the current directory."""
        from .share import screenshot_place
        try:
            folder, name = screenshot_place(path)
            written = self.save_screenshot(filename=name, path=folder)
        except OSError as e:
            self.say(f"cannot save the screenshot: {e.strerror}", error=True)
            return
        self.say(f"screenshot saved: {written}")

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        from ._palette import palette_commands
        yield from palette_commands(self)


def served(app: App) -> bool:
    """Whether `app` runs for a browser page (`cubelab --serve`: Textual's web driver). The
    driver's module is looked up, not imported: Textual has imported it when it chose that
    driver, and a terminal's start does without it (~2 ms)."""
    web = sys.modules.get("textual.drivers.web_driver")
    return web is not None and issubclass(app.driver_class, web.WebDriver)


def run_app(serve: bool = False, port: int = 8000, puzzle: str = "3x3",
            tables: dict[str, str] | None = None) -> int:
    """Run the workbench in this terminal, or serve it to a browser on localhost; `tables`:
    the table set chosen for a solver (solver -> set), as :tables would."""
    if serve:
        from .serve import serve as serve_app   # the origin check and session limit live there
        return serve_app(port, puzzle, tables)
    from .session_store import SessionStore
    from .settings import current
    settings = current()
    tables = {**settings.table_sets(), **(tables or {})}
    app = CubeLabApp(puzzle=puzzle, tables=tables, settings=settings, store=SessionStore(),
                     compare_time_limit=settings.get("workbench.compare_time_limit") or None,
                     solve_time_limit=settings.time_limit("workbench"))
    if served(app):                 # started by `cubelab --serve` for a page
        from .serve import end_with_server
        end_with_server(app)
    app.run()
    return 0


if __name__ == "__main__":
    sys.exit(run_app())
