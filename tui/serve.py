"""The browser face (`cubelab --serve`): textual-serve on localhost, guarded against other web pages.

Each websocket starts one workbench process running as the user, with every command it has
(saves, history, table builds of a gigabyte or more). A web page open in the same browser can
open a websocket to localhost too, so a connection is accepted only from the server's own page
(its Origin and Host headers name this server), and only MAX_SESSIONS at a time.
"""

from __future__ import annotations

import shlex
import socket
import sys

from .errors import InputError

MAX_SESSIONS = 2
"""Workbench processes served at once (each may hold a solver's tables: up to 1.9 GB for Korf)."""

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


def make_server(port: int, puzzle: str = "3x3", tables: dict[str, str] | None = None):
    """A textual-serve Server of the workbench on localhost:port that checks each websocket;
    each session starts on `puzzle` with the table sets `tables` (solver -> set)."""
    from aiohttp import web
    from textual_serve.server import Server

    # exec: the server's shell becomes the app, so a signal to the process it started (and its
    # end) reaches the app itself rather than a shell that would leave it running
    command = (f"exec {shlex.quote(sys.executable)} -m cubelab.tui.cli "
               f"--puzzle {shlex.quote(puzzle)}")
    for name in (tables or {}).values():    # one set per solver; the names say whose
        command += f" --tables {shlex.quote(name)}"

    class GuardedServer(Server):
        sessions = 0

        async def handle_websocket(self, request):
            refused = refusal(request.headers, self.port, self.sessions)
            if refused is not None:
                status, reason = refused
                return web.Response(status=status, text=f"cubelab: {reason}\n")
            self.sessions += 1
            try:
                return await super().handle_websocket(request)
            finally:
                self.sessions -= 1

    # localhost only: the served app runs commands as the user who started it
    return GuardedServer(command, host="localhost", port=port, title="cubelab")


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
