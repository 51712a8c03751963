"""What the workbench takes from the settings file and keeps between runs, as a part of the app.

`Preferences` is a mixin of CubeLabApp: the theme (and keeping the one chosen in Ctrl+P), the
keys bound (Textual's keymap from bindings.py), the sticker size, the greeting that says what
is wrong with the settings or offers the last session, restoring and saving that session
(_session_keeper.py), and the rows of a previous position (Enter says so, a key clears them).
"""

from __future__ import annotations

from ._run_panel import RunPanel
from ._session_keeper import SessionKeeper
from .settings import Settings, SettingsError, set_value


class Preferences:
    """The settings' side of the workbench (mixed into CubeLabApp before textual's App)."""

    def take_settings(self, settings: Settings | None, store) -> None:
        """Keep `settings` (the defaults when None: tests) and the session `store` (None: no
        session is offered or kept)."""
        self.settings = settings if settings is not None else Settings.defaults()
        self.keymap = self.settings.keymap()
        """The keys bound (bindings.py): what Textual's keymap is set to, F1 and Ctrl+P show."""
        self.keeper = SessionKeeper(self, store, self.settings.get("workbench.restore"))
        self.session.default_solver = self.settings.solver("workbench")
        self.session.default_metric = self.settings.default_metric()
        from .look_commands import look_from_settings
        self.look_problems = look_from_settings(self.session, self.settings)

    def apply_settings(self) -> None:
        """On mount: the keys and the theme."""
        self.set_keymap(self.keymap.overrides)
        self.theme = self.settings.get("theme")

    def sticker_scale(self, width: int, height: int) -> int:
        """The net's sticker size for a terminal of width x height: the setting's, or auto
        (large stickers when the wide layout has the room)."""
        size = self.settings.get("sticker_size")
        if size == "small":
            return 1
        if size == "large":
            fits = (width >= 120 and height >= 36) or (width >= 70 and height >= 46)
            return 2 if fits else 1
        return 2 if width >= 120 and height >= 44 else 1

    def greet(self) -> None:
        """The first message: a bad setting (the first, and how to see the others), the kept
        session (offered or restored), or how to begin."""
        kept, problem = self.keeper.start()
        problems = self.settings.problems + [f"settings: {p}" for p in self.look_problems]
        if problems:
            more = (f" (and {len(problems) - 1} more: cubelab config validate)"
                    if len(problems) > 1 else "")
            self.say(problems[0] + more, error=True)
        elif kept:
            self.say(kept, error=problem)
        else:
            self.say(f"type moves and Enter · {self.keymap.shown('cubelab.help')} help · Tab to "
                     "the net for the keyboard cube")

    def watch_theme(self, theme: str) -> None:
        """A theme chosen (Ctrl+P's theme list) is kept in the settings file, if there is one."""
        path = self.settings.path
        if path is None or theme == self.settings.get("theme"):
            return
        try:
            set_value("theme", theme, path)
        except SettingsError as e:
            self.say(f"theme {theme} not kept: {e}", error=True)
            return
        self.settings = Settings.load(path)
        self.settings.keymap()          # the keys stay as they were bound at start

    def on_unmount(self) -> None:
        self.keeper.save()

    # ---- the kept session -------------------------------------------------------------------
    def action_restore(self) -> None:
        """Ctrl+R: bring back the session the start offers."""
        if self.solver_panel.running or self.search_panel.running:
            self.say("solvers or a search are running: Esc stops them, then restore",
                     error=True)
            return
        self.say(*self.keeper.restore())

    def show_restored(self) -> None:
        """Show the session just restored: its cube, position, rows, results and list."""
        self.solver_panel.forget_runs()
        self.with_lists(self._show_restored_lists)
        self.refresh_position()
        self.fit_layout()

    def _show_restored_lists(self) -> None:
        """The restored search results and FMC attempt, and the list the session showed (at
        start, once those lists are mounted: app.add_hidden_lists)."""
        self.search_panel.show_found()
        self.fmc_panel.refresh_rows()       # the FMC attempt kept: its chain line
        self.show_list({"search": "search", "fmc": "fmc"}.get(self.session.listing, "solver"))

    # ---- rows of a previous position ----------------------------------------------------------
    def on_run_panel_row_chosen(self, event: RunPanel.RowChosen) -> None:
        """Enter or P on a row of either list: :apply N and :play N then pick from it too; a
        solution found for another position says so (and how to get one for this)."""
        s = self.session
        s.listing = event.listing
        if event.listing == "solutions" and event.index < len(s.solutions) \
                and s.solutions[event.index].for_state != s.state:
            self.say(self.solver_panel.old_row_note(event.index, self.keymap))
            return
        self.handle(s.play_row(event.index) if event.play else s.apply_row(event.index))
        if s.playback is None:
            self.line.focus()       # the row is used: typing goes to the move line again

    def action_clear_old(self) -> None:
        """Ctrl+L: clear the solver rows of previous positions (as :clear does)."""
        self.handle(self.session.execute(":clear"))
