"""The browser face (`cubelab --serve`): the workbench in a browser tab, on localhost only.

textual-serve gives the page (xterm.js and its script) and the web server; each websocket the
page opens is served here, by `PageSession`: it starts one workbench process running as the
user, with every command it has (saves, history, table builds of a gigabyte or more), and
relays between the two. A web page open in the same browser can open a websocket to localhost
too, so a connection is accepted only from the server's own page (its Origin and Host headers
name this server), and only MAX_SESSIONS at a time.

A session ends with its page, however the page goes: closed, its browser killed, its network
dropped (the websocket's heartbeat notices), or the server stopped. The app is asked to quit
and its input closed; one that has not ended QUIT_SECONDS later is terminated, then killed.
The app keeps its side too (`end_with_server`): once its server lets go of its pipes it leaves,
even if Textual cannot (an exit asked for while the screen is still mounting never completes).

The relay speaks Textual's web-driver protocol: the app writes "__GANGLION__" then packets of
one type byte (D: terminal output, M: a JSON meta message, P: binary-encoded data), a 4-byte
big-endian length and the payload, and reads the same framing (D: keys, M: resize, focus, blur,
quit). The page sends JSON lists: ["stdin", text], ["resize", {width, height}], ["ping", x],
["focus"], ["blur"]; it receives the output as binary messages and ["pong", x] as text.
"""

from __future__ import annotations

import asyncio
import json
import os
import select
import shlex
import socket
import sys
import threading
import time

from .errors import InputError

MAX_SESSIONS = 2
"""Workbench processes served at once (each may hold a solver's tables: up to 1.9 GB for Korf)."""

QUIT_SECONDS = 5.0
"""How long an app asked to quit (its page gone) may take to end before it is terminated, and
then killed as long again: the workbench ends in well under a second, but numba and LLVM
take their time finalising on a busy machine."""

HEARTBEAT_SECONDS = 15.0
"""The websocket's ping interval: a page whose network dropped without a word is noticed once
a pong is missing (within one and a half intervals)."""

LOCAL_NAMES = ("localhost", "127.0.0.1", "[::1]")


def own_origins(port: int) -> set[str]:
    """The origins of pages this server serves itself."""
    return {f"http://{name}:{port}" for name in LOCAL_NAMES}


def own_hosts(port: int) -> set[str]:
    """Host headers that name this server (another name is a rebound DNS name, or a mistake)."""
    return {f"{name}:{port}" for name in LOCAL_NAMES}


def refusal(headers, port: int, sessions: int) -> tuple[int, str] | None:
    """Why a websocket request may not start a session, as (HTTP status, reason); None if it
    may. Browsers always send Origin with a websocket: a missing one is refused too."""
    origin = headers.get("Origin")
    if origin not in own_origins(port):
        return 403, f"origin {origin!r} is not this server's"
    if headers.get("Host") not in own_hosts(port):
        return 403, f"host {headers.get('Host')!r} is not this server"
    if sessions >= MAX_SESSIONS:
        return 503, f"at most {MAX_SESSIONS} sessions at once"
    return None


def check_port_free(port: int) -> None:
    """InputError when localhost:port cannot be listened on (in use, or not allowed)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError as e:
            raise InputError(f"cannot serve on port {port}: {e.strerror}") from None


# ---- the app's side ------------------------------------------------------------------------

def server_gone() -> bool:
    """True once the server of a served app (its parent, which holds the other ends of its
    stdin and stdout pipes) has let go of it: our stdin hung up (every writer closed it) or
    our stdout has no reader left. Asked of the pipes themselves, without reading or writing,
    so it holds whether the server closed them, died or was killed."""
    poller = select.poll()
    for stream in (sys.__stdin__, sys.__stdout__):
        if stream is None:
            return True
        poller.register(stream.fileno(), 0)   # hang-up and error are reported even unasked
    return any(events & (select.POLLHUP | select.POLLERR | select.POLLNVAL)
               for _, events in poller.poll(0))


def end_with_server(app, poll: float = 0.5, grace: float = QUIT_SECONDS) -> threading.Thread:
    """Watch, from a thread of its own, for the server of the served `app` to let go of it;
    then ask the app to exit, and end the process if it has not `grace` seconds later.

    A thread, not a timer of the app: the app's event loop may be what is stuck (Textual never
    completes an exit that arrives while the screen is still mounting, and then ignores
    SIGTERM too). Before ending the process, the temporary and lock files of table builds
    under way are removed, as after Ctrl-C."""
    def watch() -> None:
        while not server_gone():
            time.sleep(poll)
        app.exit()                      # posting a message is safe from any thread
        time.sleep(grace)
        store = sys.modules.get("cubelab.tables.store")
        if store is not None:
            store.abandon_in_flight()
        os._exit(0)

    watcher = threading.Thread(target=watch, name="served: ends with its server", daemon=True)
    watcher.start()
    return watcher


# ---- the server's side ---------------------------------------------------------------------

def packet(kind: bytes, payload: bytes) -> bytes:
    """One packet of the web driver's framing (kind b"D" or b"M")."""
    return kind + len(payload).to_bytes(4, "big") + payload


def meta_packet(message: dict) -> bytes:
    """A meta packet: resize, focus, blur or quit to the app; exit or open_url from it."""
    return packet(b"M", json.dumps(message).encode())


def _size(query, name: str, default: int) -> int:
    try:
        return max(1, min(int(query.get(name, default)), 1000))
    except ValueError:
        return default


class PageSession:
    """One page's workbench process and the relay between it and the page's websocket."""

    def __init__(self, argv: list[str], websocket):
        self.argv = argv
        self.websocket = websocket
        self.process: asyncio.subprocess.Process | None = None

    async def run(self, width: int, height: int) -> None:
        """Start the app at width x height and relay until the page or the app is gone; then
        make sure the app has ended."""
        env = dict(os.environ, TEXTUAL_DRIVER="textual.drivers.web_driver:WebDriver",
                   TEXTUAL_COLOR_SYSTEM="truecolor", COLUMNS=str(width), ROWS=str(height))
        self.process = await asyncio.create_subprocess_exec(
            *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            env=env, start_new_session=True)   # the terminal's Ctrl-C is for the server
        output = asyncio.create_task(self._relay_output())
        try:
            await self._relay_input()
        finally:
            await self.end()
            await output

    async def _relay_input(self) -> None:
        """The page's keys, sizes, focus and pings, to the app, until the page goes."""
        from aiohttp import WSMsgType
        async for message in self.websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                kind, *rest = json.loads(message.data)
            except (ValueError, TypeError):
                continue
            if kind == "stdin" and rest and isinstance(rest[0], str):
                self._send(packet(b"D", rest[0].encode()))
            elif kind == "resize" and rest and isinstance(rest[0], dict):
                size = rest[0]
                self._send(meta_packet({"type": "resize", "width": _size(size, "width", 80),
                                  "height": _size(size, "height", 24)}))
            elif kind in ("focus", "blur"):
                self._send(meta_packet({"type": kind}))
            elif kind == "ping" and rest:
                await self.websocket.send_json(["pong", rest[0]])

    def _send(self, data: bytes) -> None:
        stdin = self.process.stdin
        if not stdin.is_closing():
            stdin.write(data)

    async def _relay_output(self) -> None:
        """The app's screen to the page, until the app's output ends. Read to the end even
        when the page has gone: an app writing into a full pipe could not quit."""
        stdout = self.process.stdout
        try:
            while (line := await stdout.readline()) and line != b"__GANGLION__\n":
                pass        # anything printed before the driver starts
            while True:
                kind = await stdout.readexactly(1)
                size = int.from_bytes(await stdout.readexactly(4), "big")
                payload = await stdout.readexactly(size)
                if kind == b"D":
                    await self._to_page(self.websocket.send_bytes, payload)
                elif kind == b"M":
                    await self._on_meta(json.loads(payload))
        except (asyncio.IncompleteReadError, ValueError):
            pass            # the app ended (or wrote something that is not the protocol)
        await self._to_page(self.websocket.close)

    async def _on_meta(self, meta: dict) -> None:
        if meta.get("type") == "exit":
            await self._to_page(self.websocket.close)
        elif meta.get("type") == "open_url":
            await self._to_page(self.websocket.send_str, json.dumps(
                ["open_url", {"url": meta.get("url"), "new_tab": meta.get("new_tab", True)}]))

    async def _to_page(self, send, *args) -> None:
        if self.websocket.closed:
            return
        try:
            await send(*args)
        except (ConnectionError, RuntimeError):
            pass            # the page went meanwhile

    async def end(self) -> None:
        """The page is gone (or the server stopping): ask the app to quit and close its input;
        terminate it if it has not ended within QUIT_SECONDS, kill it if still not."""
        process = self.process
        if process is None or process.returncode is not None:
            return
        self._send(meta_packet({"type": "quit"}))
        process.stdin.close()
        for stop in (None, process.terminate, process.kill):
            if stop is not None:
                try:
                    stop()
                except ProcessLookupError:
                    pass
            try:
                await asyncio.wait_for(asyncio.shield(process.wait()), QUIT_SECONDS)
                return
            except asyncio.TimeoutError:
                continue
        await process.wait()


def make_server(port: int, puzzle: str = "3x3", tables: dict[str, str] | None = None):
    """A textual-serve Server of the workbench on localhost:port whose websockets are checked
    and served by PageSession; each session starts on `puzzle` with the table sets `tables`
    (solver -> set)."""
    from aiohttp import web
    from textual_serve.server import Server

    argv = [sys.executable, "-m", f"{__package__}.cli", "--puzzle", puzzle]   # a process
    for name in (tables or {}).values():    # one set per solver; the names say whose
        argv += ["--tables", name]

    class GuardedServer(Server):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.argv = argv                    # the app each page gets
            self.open_sessions: set[PageSession] = set()

        @property
        def sessions(self) -> int:
            return len(self.open_sessions)

        async def handle_websocket(self, request):
            refused = refusal(request.headers, self.port, self.sessions)
            if refused is not None:
                status, reason = refused
                return web.Response(status=status, text=f"cubelab: {reason}\n")
            websocket = web.WebSocketResponse(heartbeat=HEARTBEAT_SECONDS)
            await websocket.prepare(request)
            session = PageSession(self.argv, websocket)
            self.open_sessions.add(session)
            try:
                await session.run(_size(request.query, "width", 80),
                                  _size(request.query, "height", 24))
            finally:
                self.open_sessions.discard(session)
                await asyncio.shield(session.end())     # also when the handler is cancelled
            return websocket

        async def on_shutdown(self, app) -> None:
            # Stopping (Ctrl-C, SIGTERM): aiohttp would wait a minute for open pages to close
            # by themselves, their apps running meanwhile. Each session ends as if its page
            # had closed, and its websocket is closed.
            sessions = list(self.open_sessions)
            await asyncio.gather(*(session.end() for session in sessions))
            await asyncio.gather(*(session.websocket.close() for session in sessions))

    # localhost only: the served app runs commands as the user who started it
    return GuardedServer(shlex.join(argv), host="localhost", port=port, title="cubelab")


def serve(port: int, puzzle: str = "3x3", tables: dict[str, str] | None = None) -> int:
    """Serve the workbench until Ctrl-C; exit status 2 when it cannot (no textual-serve, the
    port taken)."""
    import importlib.util
    if importlib.util.find_spec("textual_serve") is None:
        raise InputError("--serve needs the textual-serve package (pip install "
                         "'cubelab[serve]')")
    check_port_free(port)
    try:
        make_server(port, puzzle, tables).serve()
    except OSError as e:
        raise InputError(f"cannot serve on port {port}: {e.strerror or e}") from None
    return 0
