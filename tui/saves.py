"""Saved positions: one small JSON file per name in the state directory (facelets, moves, puzzle).

A save records the position as facelets, so it loads whatever became of the notation; the
sequence comes back only while it still describes that position. Names are plain words (no
path can be smuggled in), and a file is written beside its final name and renamed over it.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

from cubelab.cube.alg import Move
from cubelab.cube.notation import format_moves, parse
from cubelab.cube.files import read_small_file
from cubelab.cube.paths import state_dir
from cubelab.cube.puzzles import PUZZLES, puzzle_named

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class SaveError(ValueError):
    """A save or load that cannot happen; the message says why, in the user's words."""


def saves_dir() -> Path:
    """Where saves live unless a session is given another directory."""
    return state_dir() / "saves"


def save_path(folder: Path, name: str) -> Path:
    """The file of save `name`; SaveError for a name that is not a plain word."""
    if not _NAME.match(name):
        raise SaveError("give one name: letters, digits, '.', '_' or '-'")
    return folder / f"{name}.json"


def save_names(folder: Path) -> list[str]:
    """The saves in `folder`, sorted (none when it cannot be read)."""
    try:
        return sorted(p.stem for p in folder.glob("*.json"))
    except OSError:
        return []


def write_save(folder: Path, name: str, puzzle, state, moves, label: str) -> Path:
    """Save a position of `puzzle` (a cube.puzzles puzzle) and its sequence; the file's path.

    The temporary file is created exclusively under a fresh name: a file or link planted at a
    predictable name is never written through."""
    path = save_path(folder, name)
    record = {"facelets": puzzle.to_facelets(state), "alg": format_moves(moves), "label": label,
              "puzzle": puzzle.name}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(json.dumps(record) + "\n")
            os.replace(tmp, path)
        except BaseException:
            _remove(tmp)
            raise
    except OSError as e:
        raise SaveError(f"cannot save {name}: {e.strerror}") from None
    return path


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


MAX_SAVE_BYTES = 4 << 20
"""The largest save read: a session of 100,000 moves takes about 400 KB."""

_MAX_BRACKETS = 256
"""A save holds a flat object of strings: this many brackets mean it is something else."""

_CHUNK_MOVES = 1000
"""Moves parsed at a time: a long session's sequence is longer than one typed line may be."""


def read_save(folder: Path, name: str) -> tuple[object, object, list[Move]]:
    """(puzzle, state, moves) of save `name`: moves are empty unless they still give the state.
    SaveError, saying why, for a file that is not a save this program wrote."""
    path = save_path(folder, name)
    try:
        data = read_small_file(path, MAX_SAVE_BYTES)
        if data.count(b"[") + data.count(b"{") > _MAX_BRACKETS:
            # refused before json.loads would recurse that deep (a RecursionError leaves
            # CPython 3.11's compiler confused for the rest of the process)
            raise RecursionError
        record = json.loads(data.decode("utf-8"))
        puzzle, state, alg = _fields(record)
        words = alg.split()
        moves = [m for k in range(0, len(words), _CHUNK_MOVES)
                 for m in parse(" ".join(words[k:k + _CHUNK_MOVES])).flatten()]
    except FileNotFoundError:
        names = save_names(folder)
        known = f" (saved: {', '.join(names)})" if names else ""
        raise SaveError(f"no save named {name}{known}") from None
    except OSError as e:
        raise SaveError(f"cannot load {name}: {e.strerror}") from None
    except RecursionError:
        raise SaveError(f"cannot load {name}: not a save (nested too deeply)") from None
    except (ValueError, KeyError, TypeError) as e:
        raise SaveError(f"cannot load {name}: {e}") from None
    try:
        if puzzle.apply(puzzle.identity(), moves) != state:
            moves = []
    except ValueError:
        moves = []
    return puzzle, state, moves


def _fields(record) -> tuple[object, object, str]:
    """(puzzle, state, alg text) of a save's JSON, each checked for its type (ValueError)."""
    if not isinstance(record, dict):
        raise ValueError(f"not a save (a JSON {type(record).__name__}, not an object)")
    name = record.get("puzzle", "3x3")
    facelets = record.get("facelets")
    alg = record.get("alg", "")
    if not isinstance(name, str) or name not in PUZZLES:
        raise ValueError(f"unknown puzzle {name!r}" if isinstance(name, str)
                         else "the puzzle is not a name")
    if not isinstance(facelets, str):
        raise ValueError("no facelets string")
    if not isinstance(alg, str):
        raise ValueError("the alg is not text")
    puzzle = puzzle_named(name)
    return puzzle, puzzle.parse_facelets(facelets), alg


if __name__ == "__main__":
    print(saves_dir(), save_names(saves_dir()))
