"""Targets as users name them, and `cubelab solve --target B A`: moves taking A to position B.

A target is an alg, a position format ('facelets: ...', 'cycles: ...', 'pattern: ...'), the
name of a saved position or of a pattern of the gallery; solvers/target.py does the solving.
"""

from __future__ import annotations

from cubelab.cube.patterns import pattern_named
from cubelab.cube.positions import PositionError, from_cycles

from .errors import InputError
from .saves import SaveError, read_save, save_names, saves_dir


def read_target(text: str, puzzle, folder=None, unreachable: bool = False):
    """The state a target names on `puzzle` (a cube.puzzles puzzle); InputError saying why
    there is none. An alg or a position format is read first, then a save, then a pattern;
    `unreachable` lets 'cycles: ...' name an assembly no turns reach (the pair may still be
    joined by moves)."""
    text = text.strip()
    if not text:
        raise InputError("name a target: an alg, 'facelets: ...', a saved position or a pattern")
    try:
        if unreachable and text.lower().startswith("cycles:") and puzzle.cycle_notation:
            return from_cycles(text[len("cycles:"):], unreachable=True).state
        return puzzle.position(text).state
    except PositionError as e:
        why = str(e)
    folder = saves_dir() if folder is None else folder
    if text in save_names(folder):
        try:
            saved_puzzle, state, _ = read_save(folder, text)
        except SaveError as e:
            raise InputError(str(e)) from None
        if saved_puzzle is not puzzle:
            raise InputError(f"save {text} holds a {saved_puzzle.title}, not a {puzzle.title}")
        return state
    if puzzle.patterns:
        try:
            return pattern_named(text).state()
        except KeyError:
            pass
    raise InputError(f"target {text!r}: {why} (nor is it a saved position or a pattern)")


def add_target_argument(parser) -> None:
    parser.add_argument("--target", metavar="B",
                        help="solve to position B instead of to solved: an alg, 'facelets: ...', "
                             "'cycles: ...', a saved position or a pattern name")
