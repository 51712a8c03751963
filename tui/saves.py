"""Saved positions: one small JSON file per name in the state directory (facelets, moves, puzzle).

A save records the position as facelets, so it loads whatever became of the notation; the
sequence comes back only while it still describes that position. Names are plain words (no
path can be smuggled in), and a file is written beside its final name and renamed over it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from cubelab.cube.alg import Move
from cubelab.cube.notation import format_moves, parse
from cubelab.cube.paths import state_dir

from cubelab.cube.puzzles import puzzle_named

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
    """Save a position of `puzzle` (a cube.puzzles puzzle) and its sequence; the file's path."""
    path = save_path(folder, name)
    record = {"facelets": puzzle.to_facelets(state), "alg": format_moves(moves), "label": label,
              "puzzle": puzzle.name}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(record) + "\n", encoding="utf-8")
        tmp.replace(path)
    except OSError as e:
        raise SaveError(f"cannot save {name}: {e.strerror}") from None
    return path


def read_save(folder: Path, name: str) -> tuple[object, object, list[Move]]:
    """(puzzle, state, moves) of save `name`: moves are empty unless they still give the state."""
    path = save_path(folder, name)
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        puzzle = puzzle_named(record.get("puzzle", "3x3"))
        state = puzzle.parse_facelets(record["facelets"])
        moves = parse(record.get("alg", "")).flatten()
    except FileNotFoundError:
        names = save_names(folder)
        known = f" (saved: {', '.join(names)})" if names else ""
        raise SaveError(f"no save named {name}{known}") from None
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise SaveError(f"cannot load {name}: {e}") from None
    try:
        if puzzle.apply(puzzle.identity(), moves) != state:
            moves = []
    except ValueError:
        moves = []
    return puzzle, state, moves


if __name__ == "__main__":
    print(saves_dir(), save_names(saves_dir()))
