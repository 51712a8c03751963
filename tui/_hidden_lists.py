"""The lists below the cube that nobody sees at first, mounted once the first frame is out.

Below the cube the workbench shows one list at a time (a ContentSwitcher, F7 goes round):
the solvers' table, and the search results, a list solve's solutions, the FMC steps and the
:gen cases. Only the solvers' shows at start; the other four (21 widgets, and the modules
behind them) cost ~20 ms of the first frame, so `HiddenLists` (a mixin of CubeLabApp) mounts
them just after it, with the same ids, before the app handles anything else: the keys,
clicks and commands that arrive meanwhile wait in the app's queue, so none meets a missing
or half-made panel, and `run_test` returns its pilot with the lists whole. Code that runs
before that (a session restored as the app mounts) hands its work to `with_lists`; asking
for a panel earlier still (a test, before the app's queue runs) mounts them at once. The
garbage collector, off since the program's first instruction (entry.py), comes back then.
"""

from __future__ import annotations

import asyncio
import gc
from typing import Callable

FIRST_FRAME_WAIT = 0.5
"""Seconds the lists wait for the first frame at most: an app told to end before it painted
(or failing) paints no more, and its exit waits in the app's queue behind them."""

HIDDEN_LISTS = (("search", "search"), ("listed", "solutions"), ("fmc", "FMC"), ("gen", "gen"))
"""The lists that start hidden: (id, border title)."""


class HiddenLists:
    """The lists that start hidden, as a part of the app (mixed into CubeLabApp before
    Textual's App); the app calls `keep_hidden_lists` on mount."""

    lists_switcher = None
    """The ContentSwitcher of the lists below the cube (set by the app on mount)."""
    lists_mounting = None
    """The AwaitMount of the lists that start hidden, once their mounting has begun."""
    hidden_lists_mounted = False
    """The lists that start hidden are mounted, their own widgets too."""

    def keep_hidden_lists(self) -> None:
        """On mount: the lists come after the first frame, as the app's first message."""
        from textual.widgets import ContentSwitcher
        self.lists_switcher = self.query_one("#lists", ContentSwitcher)
        self.lists_waiting: list[Callable[[], None]] = []
        self.call_later(self.add_hidden_lists)

    def hidden_lists(self):
        """Mount the lists that start hidden if that has not begun: they are in the DOM at
        once (queries find them); their own widgets come once the returned AwaitMount is
        awaited (add_hidden_lists, in the app's queue)."""
        if self.lists_mounting is None:
            from ._fmc_panel import FmcPanel
            from ._gen_panel import GenPanel
            from ._listed_panel import ListedPanel
            from ._search_panel import SearchPanel
            kinds = {"search": SearchPanel, "listed": ListedPanel, "fmc": FmcPanel,
                     "gen": GenPanel}
            panels = []
            for name, title in HIDDEN_LISTS:
                panel = kinds[name](self.session, self.runner, id=name)
                panel.border_title = title
                panel.display = False       # the switcher shows one list at a time
                panels.append(panel)
            self.lists_mounting = self.lists_switcher.mount_all(panels)
        return self.lists_mounting

    async def add_hidden_lists(self) -> None:
        """Once the first frame is on the terminal, mount the lists and run what waited for
        them; the app's queue waits meanwhile. The garbage collector comes back after them."""
        try:
            await asyncio.wait_for(self.screen.wait_for_refresh(), FIRST_FRAME_WAIT)
        except asyncio.TimeoutError:
            pass        # an app ending before it painted: the lists now, the exit after
        await self.hidden_lists()
        self.hidden_lists_mounted = True
        if not gc.isenabled():
            # the program's start (entry.py) turned the collector off while the modules load;
            # the workbench's first frame and lists are made without it too, and what they
            # made is set aside for good (as cli.py does for the other commands)
            gc.freeze()
            gc.enable()
        waiting, self.lists_waiting = self.lists_waiting, []
        for callback in waiting:
            callback()

    def with_lists(self, callback: Callable[[], None]) -> None:
        """Run `callback` (it uses the lists that start hidden) now, or once they are
        mounted if the start has not mounted them yet."""
        if self.hidden_lists_mounted:
            callback()
        else:
            self.lists_waiting.append(callback)

    def hidden_list(self, name: str):
        """The list `name` of HIDDEN_LISTS (mounted now if it was not yet)."""
        self.hidden_lists()
        return self.lists_switcher.get_child_by_id(name)

    search_panel = property(lambda self: self.hidden_list("search"))
    listed_panel = property(lambda self: self.hidden_list("listed"))
    fmc_panel = property(lambda self: self.hidden_list("fmc"))
    gen_panel = property(lambda self: self.hidden_list("gen"))
