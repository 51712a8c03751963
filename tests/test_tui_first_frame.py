"""The workbench's first frame holds only what it shows: the lists below the cube that start
hidden (search, solutions, FMC, gen) and their modules come just after it
(tui/_hidden_lists.py), with the same ids, and nothing a user, a restored session or a test
does meets them missing. Import and DOM checks only: bench/bench_cli_start.py measures the
seconds."""

from __future__ import annotations

import asyncio
import subprocess
import sys

from cubelab.solvers import StandIn
from cubelab.tui.app import CubeLabApp
from cubelab.tui.session_store import SessionStore
from test_session_restore import busy_session, workbench

LISTS = {"search": ("search", "#found"), "listed": ("solutions", "#listed-table"),
         "fmc": ("FMC", "#fmc-table"), "gen": ("gen", "#gen-table")}
"""The lists that start hidden: id -> (border title, their table)."""

_FIRST_FRAME = """
import asyncio, gc, sys
from pathlib import Path
import cubelab.tui.app
from cubelab.tui.app import CubeLabApp

LISTS = ("search", "listed", "fmc", "gen")
MODULES = ("cubelab.tui._search_panel", "cubelab.tui._listed_panel", "cubelab.tui._fmc_panel",
           "cubelab.tui._gen_panel", "cubelab.tui.fmc_session", "cubelab.tui.gen_session")
# loaded when a run, a settings file, a :scramble or a served page needs them
LATER = ("cubelab.solvers.protocol", "cubelab.solvers.results", "tomllib", "secrets",
         "textual.drivers.web_driver")


class Watched(CubeLabApp):
    CSS_PATH = str(Path(cubelab.tui.app.__file__).with_name("app.tcss"))

    def on_mount(self):
        # the app's first message (before the one that mounts the lists): the screen calls
        # first_frame right after its first refresh, before the lists' own wait for it ends
        self.call_later(lambda: self.screen.call_after_refresh(self.first_frame))
        super().on_mount()

    def first_frame(self):
        ids = {w.id for w in self.query("*")}
        print("frame-lists", *sorted(set(LISTS) & ids))
        print("frame-modules", *sorted(m for m in MODULES if m in sys.modules))
        print("frame-later", *sorted(m for m in LATER if m in sys.modules))
        print("frame-gc", gc.isenabled())
        print("frame-facts", self.query_one("#facts").border_title)
        self.framed.set()


async def first_screen():
    app = Watched()
    app.framed = asyncio.Event()
    async with app.run_test(size=(100, 30)) as pilot:
        await asyncio.wait_for(app.framed.wait(), 120)
        ids = {w.id for w in app.query("*")}
        print("started-lists", *sorted(set(LISTS) & ids))
        print("started-modules", *sorted(m for m in MODULES if m in sys.modules))
        print("started-gc", gc.isenabled(), gc.get_freeze_count() > 0)

gc.disable()                # as the program's first instruction does (entry.py)

asyncio.run(first_screen())
"""


def test_the_first_frame_has_no_hidden_list_and_the_start_has_them_all():
    run = subprocess.run([sys.executable, "-c", _FIRST_FRAME], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr
    lines = {w[0]: w[1:] for w in (line.split() for line in run.stdout.splitlines()) if w}
    assert lines["frame-facts"] == ["facts"]        # the first frame was the workbench's
    assert lines["frame-lists"] == [] and lines["frame-modules"] == []
    assert lines["frame-later"] == []
    # the garbage collector, off while the program starts, comes back after the first frame
    # (with what the start made frozen out of its way)
    assert lines["frame-gc"] == ["False"] and lines["started-gc"] == ["True", "True"]
    assert lines["started-lists"] == sorted(LISTS)  # run_test returns with them mounted
    assert len(lines["started-modules"]) == 6


def _app() -> CubeLabApp:
    return CubeLabApp(solvers=StandIn(step_seconds=0.01, improvements=0),
                      compare_time_limit=None)


async def _run(app: CubeLabApp, at_start) -> None:
    """Run `app` headless with `at_start(pilot)` as soon as the app is ready: before its
    queue has handled anything, so before the lists that start hidden are mounted."""
    await asyncio.wait_for(app.run_async(headless=True, size=(100, 30), auto_pilot=at_start),
                           120)     # a hang fails the test instead of the run


def test_after_the_start_the_lists_are_whole_hidden_and_titled():
    async def check():
        app = _app()
        async with app.run_test(size=(100, 30)):
            switcher = app.query_one("#lists")
            assert switcher.current == "solver"
            assert [w.id for w in switcher.children] == ["solver", *LISTS]
            for name, (title, table) in LISTS.items():
                panel = app.query_one(f"#{name}")
                assert not panel.display and panel.border_title == title
                assert panel.query_one(table).row_count == 0
            assert app.listed_panel is app.query_one("#listed")
    asyncio.run(check())


def test_a_key_pressed_before_the_lists_exist_reaches_them():
    seen = {}

    async def at_start(pilot):
        app = pilot.app
        seen["before"] = [w.id for w in app.query_one("#lists").children]
        await pilot.press("f7")             # F7: the next list, the solutions of a list solve
        await pilot.pause()
        seen["current"] = app.query_one("#lists").current
        seen["shown"] = app.query_one("#listed").display
        app.exit()

    asyncio.run(_run(_app(), at_start))
    assert seen["before"] == ["solver"]
    assert seen["current"] == "listed" and seen["shown"]


def test_a_list_asked_for_before_they_exist_is_the_one_mounted():
    seen = {}

    async def at_start(pilot):
        app = pilot.app
        panel = app.search_panel            # a test's run_before does this at once
        await pilot.pause()
        seen["same"] = panel is app.query_one("#search")
        seen["count"] = len(app.query("#search"))
        seen["rows"] = panel.table.row_count
        seen["title"] = panel.border_title
        app.exit()

    asyncio.run(_run(_app(), at_start))
    assert seen == {"same": True, "count": 1, "rows": 0, "title": "search"}


def test_an_app_told_to_end_before_it_painted_ends():
    async def at_start(pilot):
        pilot.app.exit()

    app = _app()
    asyncio.run(_run(app, at_start))
    assert app.return_code == 0


def test_a_session_restored_at_start_shows_its_list_once_the_lists_come(tmp_path):
    kept = busy_session()
    kept.listing = "search"
    SessionStore(tmp_path / "session.json").save(kept)

    async def check():
        app = workbench(tmp_path, "always")
        async with app.run_test(size=(100, 30)):
            assert app.query_one("#lists").current == "search"
            assert app.session.listing == "search"
            assert app.search_panel.table.row_count == 1
            assert app.search_panel.caption.startswith("only UF UR UB")
    asyncio.run(check())
