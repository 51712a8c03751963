"""Sharing: links for the cubing.js player, the SVG net, screenshots, and the command palette
reaching every `:` command and key action."""

from __future__ import annotations

import asyncio
import json
import xml.etree.ElementTree as ET
from urllib.parse import parse_qs, urlparse

from cubelab.cube.moves import alg_state
from cubelab.cube.colour_scheme import WESTERN
from cubelab.cube.net_svg import net_svg

HEX = {face: colour.hex for face, colour in zip("URFDLB", WESTERN.colours)}
from cubelab.cube.pocket import PocketState
from cubelab.cube.notation import parse_moves
from cubelab.solvers import StandIn
from cubelab.tui._palette import palette_commands
from cubelab.tui.app import CubeLabApp
from cubelab.tui.cli import main
from cubelab.tui.commands import COMMANDS
from cubelab.tui.history import InputHistory
from cubelab.tui.session import Session
from cubelab.tui.share import links
from helpers_apps import run_from_palette, until

_NS = "{http://www.w3.org/2000/svg}"


def _query(url: str) -> dict:
    return {k: v[0] for k, v in parse_qs(urlparse(url).query, keep_blank_values=True).items()}


def test_links_carry_setup_and_alg_url_encoded():
    urls = links("3x3", parse_moves("R U'"), parse_moves("[R, U]"))
    tw = _query(urls["twizzle"])
    assert urls["twizzle"].startswith("https://alpha.twizzle.net/edit/?")
    assert tw == {"setup-alg": "R U'", "alg": "R U R' U'"}
    assert "%20" in urls["twizzle"] and "'" not in urls["twizzle"]
    assert _query(urls["alg_cubing_net"]) == {"setup": "R_U-", "alg": "R_U_R-_U-"}
    assert _query(links("2x2", [], parse_moves("R"))["twizzle"])["puzzle"] == "2x2x2"


def test_svg_net_shows_the_stickers():
    root = ET.fromstring(net_svg(alg_state("R"), "R & co"))
    rects = root.findall(f"{_NS}rect")
    assert len(rects) == 54 and root.find(f"{_NS}title").text == "R & co"
    fills = [r.get("fill") for r in rects]
    assert fills[:9] == [HEX["U"], HEX["U"], HEX["F"]] * 3      # R brought F's colour up
    assert len(ET.fromstring(net_svg(PocketState.identity())).findall(f"{_NS}rect")) == 24


def test_facts_link_and_svg(capsys, tmp_path):
    svg = tmp_path / "net.svg"
    assert main(["facts", "--json", "--link", "--svg", str(svg), "R U R' U'"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert _query(record["twizzle"]) == {"setup-alg": "", "alg": "R U R' U'"}
    assert record["svg"] == str(svg) and svg.read_text().startswith("<svg")
    assert main(["facts", "--svg", str(tmp_path / "no" / "such.svg"), "R"]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_session_link_and_svg(tmp_path):
    session = Session(saves_dir=tmp_path)
    assert session.execute(":link").message.splitlines()[0].endswith("setup-alg=&alg=")
    session.execute("R U")
    twizzle, acn = session.execute(":link").message.splitlines()
    assert _query(twizzle)["setup-alg"] == "R U" and _query(acn)["setup"] == "R_U"
    session.execute(":facelets " + "".join(f * 9 for f in "URFDLB"))
    session.execute(":cycles (UF UR UB)")
    assert session.execute(":link").error            # no sequence and no solution yet
    out = session.execute(f":svg {tmp_path / 'pic'}")
    assert (tmp_path / "pic.svg").exists() and "wrote" in out.message
    assert session.execute(":svg").error


def test_palette_reaches_every_command_and_key(tmp_path):
    async def body():
        app = CubeLabApp(solvers=StandIn(), history=InputHistory(tmp_path / "h"),
                         compare_time_limit=None)
        async with app.run_test(size=(100, 30)) as pilot:
            titles = [c.title for c in palette_commands(app)]
            for name in COMMANDS:
                assert any(t.split()[0] == f":{name}" for t in titles), name
            for binding in app.BINDINGS:
                assert any(t.startswith(binding.description) for t in titles)
            # the cube's solvers, from their declarations
            assert ":solve fake" in titles
            await run_from_palette(pilot, ":case", ":case")
            await until(pilot, lambda: app.line.value == ":case ", ":case on the line")
            await pilot.press(*"UF UR UB", "enter")
            await pilot.pause()
            assert app.session.entry.label == ":case UF UR UB"
            shot = tmp_path / "screen.svg"
            await pilot.press(*f":screenshot {shot}", "enter")
            await pilot.pause()
            assert shot.exists() and "<svg" in shot.read_text()[:500]
    asyncio.run(body())
