"""`cubelab --serve`: a page that closes, however early, ends the app process it started.

A real server on a free local port and a real websocket client (aiohttp, which textual-serve
itself runs on) stand in for the browser; the app processes are the server's children."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

pytest.importorskip("textual_serve")
aiohttp = pytest.importorskip("aiohttp")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def _children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (Linux /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry))
    return found


def _wait_until(condition, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.2)
    return condition()


@pytest.fixture
def server():
    if not os.path.isdir("/proc"):
        pytest.skip("needs /proc to see the server's children")
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "cubelab.tui.cli", "--serve", "--port",
                             str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def listening() -> bool:
            with socket.socket() as s:
                return s.connect_ex(("localhost", port)) == 0
        assert _wait_until(listening, 30), "the server did not start"
        yield proc, port
    finally:
        for child in _children(proc.pid):
            os.kill(child, signal.SIGKILL)
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


async def _visit(port: int, stay: float) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(f"http://localhost:{port}/ws?width=80&height=24",
                                      origin=f"http://localhost:{port}") as ws:
            end = time.monotonic() + stay
            while time.monotonic() < end:
                try:
                    await asyncio.wait_for(ws.receive(), timeout=0.2)
                except asyncio.TimeoutError:
                    pass


@pytest.mark.parametrize("stay", [0.0, 0.5, 6.0])
def test_a_closed_page_ends_its_app_process(server, stay):
    proc, port = server
    asyncio.run(_visit(port, stay))
    assert _wait_until(lambda: not _children(proc.pid), 20), \
        f"app processes left running: {_children(proc.pid)}"
    assert proc.poll() is None          # the server itself stays up for the next visitor


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_apps_end_when_the_server_is_stopped_under_an_open_page(server):
    proc, port = server

    async def hold_open_then_stop_the_server() -> list[int]:
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(f"http://localhost:{port}/ws",
                                          origin=f"http://localhost:{port}") as ws:
                for _ in range(30):
                    try:
                        await asyncio.wait_for(ws.receive(), timeout=0.2)
                    except asyncio.TimeoutError:
                        pass
                apps = _children(proc.pid)
                proc.send_signal(signal.SIGTERM)
                proc.wait(10)
                return apps

    apps = asyncio.run(hold_open_then_stop_the_server())
    assert apps, "no app process was started"
    assert _wait_until(lambda: not any(_alive(pid) for pid in apps), 20), \
        "app processes outlived their server"
