"""A browser page for `cubelab --serve`, in Python: it opens the websocket as textual-serve's page
script does and keeps the screen the app draws, read back through a small terminal.

The page script (textual_serve/static/js/textual.js) connects to the URL the page names in
`data-session-websocket-url`, with `?width=W&height=H`; on open it sends ["resize", {width,
height}] and a ping; keys go as ["stdin", text]; the app's output arrives as binary messages
(terminal escape sequences), which `Terminal` turns back into rows of text.
"""

from __future__ import annotations

import asyncio
import codecs
import json
import os
import re
import socket
import subprocess
import sys
import time

import aiohttp

CUBELAB = [sys.executable, "-m", "cubelab.tui.cli"]


class Terminal:
    """Just enough of a terminal to read what a Textual app drew: cursor moves, text, and the
    sequences to ignore (colours, modes, titles). Each cell holds one character."""

    TOKEN = re.compile(
        r"\x1b\[([0-9;?<>=]*)[ -/$]*([@-~])"        # CSI: parameters, final byte
        r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"       # OSC ... BEL or ST
        r"|\x1b[()][0-9A-Za-z]|\x1b[=>78cDEHMNOZ]"  # charsets, keypad, save/restore...
        r"|([\r\n\x08])"
        r"|([^\x1b\r\n\x08]+)")

    def __init__(self, width: int, height: int):
        self.width, self.height = width, height
        self.rows = [[" "] * width for _ in range(height)]
        self.x = self.y = 0
        self._decode = codecs.getincrementaldecoder("utf-8")().decode
        self._rest = ""

    def feed(self, data: bytes) -> None:
        text = self._rest + self._decode(data)
        pos = 0
        while pos < len(text):
            match = self.TOKEN.match(text, pos)
            if match is None:       # an escape sequence we do not know, or one cut in two
                if len(text) - pos < 32:
                    break           # by the message's end: the next message completes it
                pos += 1
                continue
            pos = match.end()
            params, final, control, chars = match.groups()
            if final in ("H", "f"):
                row, _, col = (params or "").partition(";")
                self.y, self.x = int(row or 1) - 1, int(col or 1) - 1
            elif final == "J" and params == "2":
                self.rows = [[" "] * self.width for _ in range(self.height)]
            elif control == "\r":
                self.x = 0
            elif control == "\n":
                self.y += 1
            elif control == "\x08":
                self.x = max(0, self.x - 1)
            elif chars:
                for ch in chars:
                    if 0 <= self.y < self.height and 0 <= self.x < self.width:
                        self.rows[self.y][self.x] = ch
                    self.x += 1
        self._rest = text[pos:]

    def text(self) -> str:
        return "\n".join("".join(row).rstrip() for row in self.rows)


class Page:
    """One browser tab on the server at `port`."""

    def __init__(self, port: int, width: int = 100, height: int = 30):
        self.port, self.width, self.height = port, width, height
        self.screen = Terminal(width, height)
        self.closed = False

    async def open(self, session: aiohttp.ClientSession) -> "Page":
        origin = f"http://localhost:{self.port}"
        html = await (await session.get(origin + "/")).text()
        url = re.search(r'data-session-websocket-url="([^"]+)"', html).group(1)
        self.ws = await session.ws_connect(f"{url}?width={self.width}&height={self.height}",
                                           origin=origin)
        await self.ws.send_str(json.dumps(["resize", {"width": self.width,
                                                      "height": self.height}]))
        await self.ws.send_str(json.dumps(["ping", str(int(time.time() * 1000))]))
        return self

    async def resize(self, width: int, height: int) -> None:
        """What the page script sends when the browser window changes (or the terminal is
        first fitted to it: often not the size the websocket was opened with)."""
        self.width, self.height = width, height
        self.screen = Terminal(width, height)
        await self.ws.send_str(json.dumps(["resize", {"width": width, "height": height}]))

    async def type(self, text: str) -> None:
        await self.ws.send_str(json.dumps(["stdin", text]))

    async def wait_for(self, seen, timeout: float) -> bool:
        """Read the app's output until seen(screen text) holds (True), the websocket closes
        or `timeout` seconds pass (False)."""
        end = time.monotonic() + timeout
        while not seen(self.screen.text()):
            left = end - time.monotonic()
            if left <= 0 or self.closed:
                return False
            try:
                message = await asyncio.wait_for(self.ws.receive(), min(left, 1.0))
            except asyncio.TimeoutError:
                continue
            if message.type == aiohttp.WSMsgType.BINARY:
                self.screen.feed(message.data)
            elif message.type != aiohttp.WSMsgType.TEXT:
                self.closed = True
        return True

    async def wait_closed(self, timeout: float) -> bool:
        await self.wait_for(lambda text: False, timeout)
        return self.closed


def drawn(text: str) -> bool:
    """The workbench has drawn its move line."""
    return "moves (R U" in text


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("localhost", port)) == 0


def start_server(port: int, cwd) -> subprocess.Popen:
    """`cubelab --serve` in `cwd`; its stderr (and its apps') in cwd/server.err."""
    with open(os.path.join(cwd, "server.err"), "wb") as err:
        return subprocess.Popen(CUBELAB + ["--serve", "--port", str(port)], cwd=cwd,
                                stdout=subprocess.DEVNULL, stderr=err)


CLIENT = """
import asyncio, sys, aiohttp
from helpers_serve import Page, drawn
async def main():
    async with aiohttp.ClientSession() as session:
        page = await (Page(int(sys.argv[1]))).open(session)
        assert await page.wait_for(drawn, 120)
        print("drawn", flush=True)
        await asyncio.sleep(600)
asyncio.run(main())
"""


def start_client(port: int) -> subprocess.Popen:
    """A browser in a process of its own (to be killed, or stopped): prints "drawn" once the
    workbench has drawn itself."""
    here = os.path.dirname(os.path.abspath(__file__))
    env = {**os.environ, "PYTHONPATH": here + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.Popen([sys.executable, "-c", CLIENT, str(port)], env=env,
                            stdout=subprocess.PIPE, text=True)
