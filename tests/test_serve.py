"""`cubelab --serve` as a browser meets it: a real server on a free local port, a page that
connects, types and reads the screen back (helpers_serve.Page speaks the page script's
protocol), and every way a page can go (closed, its browser killed, its network silent, the
server stopped) ending the app process it started. The app processes are the server's
children; each test waits on the event it checks, with room for a loaded machine."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

pytest.importorskip("textual_serve")
aiohttp = pytest.importorskip("aiohttp")

from helpers_serve import (CUBELAB, Page, drawn, free_port, listening, start_client,  # noqa: E402
                           start_server)
from reliability.helpers import alive, children_of  # noqa: E402

from cubelab.tui import serve  # noqa: E402

if not os.path.isdir("/proc"):
    pytest.skip("needs /proc to see the server's children", allow_module_level=True)

STARTUP = 120.0
"""Seconds a workbench may take to draw itself on a loaded machine."""

ENDS = 2 * serve.QUIT_SECONDS + 10
"""Seconds an app may take to end after its page went: asked to quit, terminated after
QUIT_SECONDS, killed after as long again; and room for a loaded machine."""


def _wait_until(condition, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


def _apps(server: subprocess.Popen) -> list[int]:
    return [pid for pid in children_of(server.pid) if alive(pid)]


@pytest.fixture
def server(tmp_path):
    port = free_port()
    proc = start_server(port, cwd=tmp_path)
    try:
        assert _wait_until(lambda: listening(port) or proc.poll() is not None, 60), \
            "the server did not start"
        assert proc.poll() is None, proc.stderr.read().decode()
        yield proc, port
    finally:
        apps = _apps(proc)
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for pid in apps:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def _one_app(proc) -> int:
    assert _wait_until(lambda: len(_apps(proc)) == 1, 30), _apps(proc)
    return _apps(proc)[0]


def test_a_page_types_a_move_and_reads_the_facts(server):
    proc, port = server

    async def visit() -> str:
        async with aiohttp.ClientSession() as session:
            page = await Page(port, 100, 30).open(session)
            assert await page.wait_for(drawn, STARTUP), page.screen.text()
            await page.type("R U\r")
            assert await page.wait_for(
                lambda text: any("order" in line and " 105 " in line
                                 for line in text.splitlines()), 60), page.screen.text()
            await page.ws.close()
            return page.screen.text()

    screen = asyncio.run(visit())
    assert "R U" in screen              # the sequence the facts describe


@pytest.mark.parametrize("when", ["at once", "once drawn"])
def test_a_closed_page_ends_its_app_and_frees_its_place(server, when):
    """"at once": the page goes before the app has drawn (a quick visit); Textual never
    completes an exit asked for while its screen mounts, so the app's own watch ends it."""
    proc, port = server

    async def visit() -> None:
        async with aiohttp.ClientSession() as session:
            page = await Page(port, 120, 40).open(session)
            await page.resize(120, 44)      # the page script fitting the terminal to the tab
            app = _one_app(proc)
            if when == "once drawn":
                assert await page.wait_for(drawn, STARTUP)
            await page.ws.close()
            closed = time.monotonic()
            assert await asyncio.to_thread(_wait_until, lambda: not alive(app), ENDS), \
                f"the app ran on {ENDS} s after its page closed"
            print(f"app ended {time.monotonic() - closed:.1f} s after its page closed")

    # each visit's place is given back (quick visits are what used to keep theirs)
    for _ in range(serve.MAX_SESSIONS + 1 if when == "at once" else 1):
        asyncio.run(visit())
    assert proc.poll() is None          # the server itself stays up for the next visitor


@pytest.mark.parametrize("how", ["killed", "silent"])
def test_a_page_whose_browser_went_ends_its_app(server, how):
    """"killed": the browser's process dies (its connection closes); "silent": it stops
    answering without closing anything, as when the network drops: the websocket's heartbeat
    notices within one and a half intervals."""
    proc, port = server
    client = start_client(port)
    try:
        assert client.stdout.readline().strip() == "drawn"
        app = _one_app(proc)
        client.send_signal(signal.SIGKILL if how == "killed" else signal.SIGSTOP)
        limit = ENDS + (0 if how == "killed" else 1.5 * serve.HEARTBEAT_SECONDS)
        assert _wait_until(lambda: not alive(app), limit), \
            f"the app ran on {limit} s after its browser went"
    finally:
        client.kill()
        client.send_signal(signal.SIGCONT)
        client.wait()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL],
                         ids=lambda sig: sig.name)
def test_stopping_the_server_ends_every_app(server, sig):
    """SIGTERM and Ctrl-C end the open sessions as closed pages would, and the server exits;
    a server killed outright leaves its apps to notice their pipes closing."""
    proc, port = server

    async def open_pages_then_stop() -> list[int]:
        async with aiohttp.ClientSession() as session:
            pages = [await Page(port).open(session) for _ in range(serve.MAX_SESSIONS)]
            for page in pages:
                assert await page.wait_for(drawn, STARTUP)
            apps = _apps(proc)
            assert len(apps) == serve.MAX_SESSIONS
            proc.send_signal(sig)
            if sig != signal.SIGKILL:
                for page in pages:
                    assert await page.wait_closed(ENDS), "a page stayed open"
            return apps

    apps = asyncio.run(open_pages_then_stop())
    assert proc.wait(ENDS) in (-signal.SIGKILL if sig == signal.SIGKILL else 0, 128 + sig)
    assert _wait_until(lambda: not any(alive(pid) for pid in apps), ENDS), \
        "app processes outlived their server"


def test_an_app_that_will_not_quit_is_terminated_then_killed(tmp_path, monkeypatch):
    """The server's own guarantee, whatever the app does: one that ignores quit, its closed
    input and SIGTERM is killed once the page has gone."""
    from aiohttp.test_utils import TestServer
    monkeypatch.setattr(serve, "QUIT_SECONDS", 1.0)
    stubborn = tmp_path / "stubborn.py"
    pid_file = tmp_path / "pid"
    stubborn.write_text(
        "import os, signal, sys, time\n"
        "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        f"open({str(pid_file)!r}, 'w').write(str(os.getpid()))\n"
        "print('__GANGLION__', flush=True)\n"
        "while True:\n"
        "    time.sleep(1)\n")

    async def scenario() -> None:
        port = free_port()
        server = serve.make_server(port)
        server.argv = [sys.executable, str(stubborn)]
        test_server = TestServer(await server._make_app(), host="localhost", port=port)
        await test_server.start_server()
        try:
            async with aiohttp.ClientSession() as session:
                page = await Page(port).open(session)
                await asyncio.to_thread(_wait_until, pid_file.exists, 30)
                pid = int(pid_file.read_text())
                await page.ws.close()
                assert await asyncio.to_thread(_wait_until, lambda: not alive(pid), 20)
                assert server.sessions == 0
        finally:
            await test_server.close()

    asyncio.run(scenario())


def test_a_served_app_told_to_quit_while_starting_ends(tmp_path):
    """The app's own guarantee, with no server: quit and a resize sent before it has drawn,
    then its input closed. Textual alone would never end (nor answer SIGTERM)."""
    env = {**os.environ, "TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver",
           "COLUMNS": "120", "ROWS": "40"}
    app = subprocess.Popen(CUBELAB, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, env=env, cwd=tmp_path)
    try:
        app.stdin.write(serve.meta_packet({"type": "resize", "width": 80, "height": 24})
                        + serve.meta_packet({"type": "quit"}))
        app.stdin.close()
        reader = threading.Thread(target=app.stdout.read)     # a server reads all it writes
        reader.start()
        app.wait(STARTUP)
        reader.join()
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()
