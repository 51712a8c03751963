"""Sharing a position: a link that opens it in the cubing.js player, an SVG of the net, a screenshot.

The link carries a setup (moves that reach the position from solved) and an alg (moves to play
from there) as the player's URL parameters. Each site reads a smaller notation than cubelab:
cubing.js's 3x3x3 (Twizzle's editor, alpha.twizzle.net) has no 3R, 3Rw, 3r or layer ranges such
as 2-3u, its 2x2x2 no wide turns, and alg.cubing.net knows no Rv. `player_moves` writes every
move in the families both read (a turn of the far layer as the opposite face's, a turn of all
layers as x, y or z), and alg.cubing.net's parameters are escaped its own way (a prime as '-',
a space as '_', so a hyphen must be '&#45;'). tests/reliability/test_links.py reads the links
back with cubing.js. A position known only by its stickers has no setup until some solver has
solved it: the setup is then its solution, inverted.
"""

from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import quote, urlencode

from cubelab.cube.alg import Move
from cubelab.cube.colour_scheme import WESTERN, ColourScheme
from cubelab.cube.puzzles import PUZZLES
from cubelab.cube.notation import format_moves, invert_moves

from .command_table import CommandTable
from .errors import InputError
from .records import Outcome, ScreenshotRequest

TWIZZLE = "https://alpha.twizzle.net/edit/"
ALG_CUBING = "https://alg.cubing.net/"
_OPPOSITE = dict(zip("URFDLB", "DLBURF"))
_ROTATION = {"R": ("x", 1), "L": ("x", -1), "U": ("y", 1), "D": ("y", -1), "F": ("z", 1),
             "B": ("z", -1)}


def player_moves(puzzle: str, moves) -> list[Move]:
    """`moves` (of the `puzzle` cube) written in the families the players read: face turns,
    two-layer wide turns (Rw, r), the 3x3x3's middle layers (2R, M, E, S) and x, y, z; each
    turn the same turn of the cube."""
    layer_count = PUZZLES[puzzle].layer_count
    out = []
    for move in moves:
        place = move.layers
        if place is None:                       # M, E, S, x, y, z
            out.append(move)
            continue
        face, layers = place
        amount = move.amount
        if set(layers) >= set(range(1, layer_count + 1)):
            axis, sign = _ROTATION[face]        # every layer turns: the whole cube
            out.append(Move.of(axis, amount if sign > 0 else 4 - amount))
        elif layer_count == 3 and layers == (3,):
            out.append(Move.of(_OPPOSITE[face], 4 - amount))
        elif layer_count == 3 and layers == (2, 3):
            out.append(Move.of(_OPPOSITE[face] + "w", 4 - amount))
        else:
            out.append(move)
    return out


def _alg_cubing_text(moves) -> str:
    """Moves as alg.cubing.net's parameters spell them: '_' between moves, '-' for a prime
    (and '&#45;', '&#95;', '&#2b;' for a hyphen, an underscore, a plus, were one written)."""
    text = format_moves(moves)
    for char, escaped in (("_", "&#95;"), ("+", "&#2b;"), ("-", "&#45;")):
        text = text.replace(char, escaped)
    return text.replace(" ", "_").replace("'", "-")


def links(puzzle: str, setup, alg) -> dict[str, str]:
    """{'twizzle': url, 'alg_cubing_net': url} opening `setup` then `alg` (move lists)."""
    setup, alg = player_moves(puzzle, setup), player_moves(puzzle, alg)
    twizzle = {"setup-alg": format_moves(setup), "alg": format_moves(alg)}
    acn = {"setup": _alg_cubing_text(setup), "alg": _alg_cubing_text(alg)}
    player = PUZZLES[puzzle].player_puzzle
    if player is not None:
        twizzle["puzzle"] = acn["puzzle"] = player
    return {"twizzle": TWIZZLE + "?" + urlencode(twizzle, quote_via=quote),
            "alg_cubing_net": ALG_CUBING + "?" + urlencode(acn, quote_via=quote)}


def write_svg(path: str, state, title: str = "", scheme: ColourScheme = WESTERN) -> Path:
    """Write the state's net as SVG in a colour scheme; OSError says why it could not be
    written."""
    # here, not at the top: xml.sax (its escape) and urllib.request come with it, ~10 ms of
    # every workbench start that never writes a picture
    from cubelab.cube.net_svg import net_svg
    target = Path(path).expanduser()
    if target.suffix.lower() != ".svg":
        target = target.with_name(target.name + ".svg")
    target.write_text(net_svg(state, title, scheme), encoding="utf-8")
    return target


def share_record(puzzle, position, link: bool = False, svg: str | None = None) -> dict:
    """`cubelab facts --link/--svg`: the links (an alg is played from solved; a position given
    by stickers or cycles is set up by a solution of the default solver, inverted) and the
    path of the SVG written. InputError for a file that cannot be written."""
    out = {}
    if link:
        if position.moves is not None:
            setup, alg = [], list(position.moves)
        else:
            setup, alg = _solved_setup(puzzle, position.state), []
        out.update(links(puzzle.name, setup, alg))
    if svg:
        try:
            out["svg"] = str(write_svg(svg, position.state, position.alg or ""))
        except OSError as e:
            raise InputError(f"cannot write {svg}: {e.strerror}") from None
    return out


def _solved_setup(puzzle, state):
    """Moves reaching `state` from solved: a solution by the puzzle's default solver, inverted
    (InputError for a position no moves reach)."""
    reason = puzzle.unreachable(state)
    if reason:
        raise InputError(f"no moves set this position up ({reason}): no link for it")
    from cubelab.solvers import REGISTRY
    from .preparing import prepare
    solver = REGISTRY.make(REGISTRY.default_solver(puzzle.name), puzzle.name)
    prepare(solver)
    return invert_moves(solver.solve(state, time_limit=5.0).moves)


def screenshot_place(path: str | None) -> tuple[str, str]:
    """(folder, file name) for a screenshot: the path given (made .svg), or a dated name in the
    current directory. OSError if the folder does not exist."""
    if not path:
        return ".", time.strftime("cubelab-%Y%m%d-%H%M%S.svg")
    # here, not at the top: xml.sax (its escape) and urllib.request come with it, ~10 ms of
    # every workbench start that never writes a picture
    from cubelab.cube.net_svg import net_svg
    target = Path(path).expanduser()
    if target.suffix.lower() != ".svg":
        target = target.with_name(target.name + ".svg")
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise FileNotFoundError(2, "no such folder", str(folder))
    return str(folder), target.name


# ---------------------------------------------------------------- the `:` commands

TABLE = CommandTable()


def session_setup(session):
    """Moves reaching the session's position from solved, or None: its sequence when that
    gives the position, else the inverse of a solution found for it."""
    puzzle, state = session.puzzle, session.state
    try:
        if puzzle.apply(puzzle.identity(), session.moves).normalized() == state.normalized():
            return list(session.moves)
    except ValueError:
        pass
    solved = [r for r in session.solutions if r.moves is not None and r.for_state == state]
    if solved:
        return invert_moves(min(solved, key=lambda r: len(r.moves)).moves)
    return None


@TABLE.command("link", "", "a URL that opens the position (and its best solution) in the "
               "cubing.js player")
def _link(session, args, rest) -> Outcome:
    setup = session_setup(session)
    if setup is None:
        return Outcome("this position has no sequence from solved yet: :solve it first (the "
                       "link then sets it up by its solution, inverted)", error=True)
    solved = [r for r in session.solutions if r.moves is not None and r.for_state == session.state]
    alg = min(solved, key=lambda r: len(r.moves)).moves if solved else []
    urls = links(session.puzzle.name, setup, alg)
    return Outcome(f"{urls['twizzle']}\n{urls['alg_cubing_net']}")


@TABLE.command("svg", "FILE", "write the net as an SVG picture")
def _svg(session, args, rest) -> Outcome:
    if not rest:
        return Outcome("give a file name, e.g. :svg cube.svg", error=True)
    try:
        path = write_svg(rest, session.state, session.entry.label, session.scheme)
    except OSError as e:
        return Outcome(f"cannot write {rest}: {e.strerror}", error=True)
    return Outcome(f"wrote {path}")


@TABLE.command("screenshot", "[FILE]", "save the whole screen as SVG (the workbench; F12)")
def _screenshot(session, args, rest) -> Outcome:
    return Outcome("", request=ScreenshotRequest(rest or None))
