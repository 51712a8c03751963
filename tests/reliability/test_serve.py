"""The browser face: only the server's own page may open a session, and only a few at once."""

from __future__ import annotations

import asyncio
import socket

import pytest

from cubelab.tui.cli import main
from cubelab.tui.serve import MAX_SESSIONS, own_origins, refusal

pytest.importorskip("textual_serve")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_refusal_rules():
    port = 8123
    good = {"Origin": f"http://localhost:{port}", "Host": f"localhost:{port}"}
    assert refusal(good, port, 0) is None
    assert refusal({**good, "Origin": f"http://127.0.0.1:{port}"}, port, 0) is None
    for origin in ("http://evil.example", f"http://localhost:{port + 1}", "null", None,
                   f"https://localhost:{port}", f"http://localhost:{port}.evil.example"):
        headers = {**good, "Origin": origin} if origin else {"Host": good["Host"]}
        assert refusal(headers, port, 0)[0] == 403, origin
    # a page on a rebound DNS name pointing at 127.0.0.1
    assert refusal({**good, "Host": f"evil.example:{port}"}, port, 0)[0] == 403
    assert refusal(good, port, MAX_SESSIONS)[0] == 503


def test_a_cross_origin_websocket_is_refused_by_the_running_server(tmp_path):
    """Drive the real aiohttp app: the evil origin gets 403 before any app process starts."""
    import aiohttp
    from aiohttp.test_utils import TestServer

    from cubelab.tui.serve import make_server

    async def scenario():
        port = _free_port()
        server = make_server(port)
        # the session must never start: make it obvious if it does
        server.argv = ["false"]
        app = await server._make_app()
        test_server = TestServer(app, host="127.0.0.1", port=port)
        await test_server.start_server()
        try:
            async with aiohttp.ClientSession() as client:
                url = f"http://127.0.0.1:{port}/ws"
                for origin in ("http://evil.example", None):
                    headers = {"Origin": origin} if origin else {}
                    with pytest.raises(aiohttp.WSServerHandshakeError) as e:
                        await client.ws_connect(url, headers=headers)
                    assert e.value.status == 403
                assert server.sessions == 0
                # the server's own page is let through the check (the handshake succeeds)
                ws = await client.ws_connect(
                    url, headers={"Origin": sorted(own_origins(port))[0],
                                  "Host": f"localhost:{port}"})
                await ws.close()
        finally:
            await test_server.close()

    asyncio.run(scenario())


@pytest.mark.parametrize("port", ["99999", "-1", "0", "http"])
def test_bad_ports_are_refused(port, capsys):
    assert main(["--serve", "--port", port]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "port" in err


def test_a_port_in_use_is_refused(capsys):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        assert main(["--serve", "--port", str(s.getsockname()[1])]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cubelab: cannot serve on port") and err.count("\n") == 1
