"""The last session, kept in the state directory so that the next start can bring it back.

What is kept: the undo history (each position as facelets, with the sequence that reached it
and its label, and which one is current), the solutions table with the position each row was
found for (so rows of a previous position come back marked old), the search results with what
they answer (the search's caption and metric), the list on show, the view, the table sets chosen, and the FMC attempt (its scramble and
steps with their labels; fmc_session.py). Paint mode and
playback are moments, not kept. A session is written atomically (a temporary file renamed
over the old one) and bounded: at most `MAX_UNDO` steps of history, and older steps (then
long sequences) dropped until it fits in `MAX_SESSION_BYTES`. A file that cannot be read back
(damaged, cut short, not ours) is set aside under a dated name with a message, never trusted
and never a crash. Textual-free: the workbench and the REPL both keep their session here.
"""

from __future__ import annotations

import datetime
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from cubelab.cube.files import FileProblem, read_small_file, write_small_file
from cubelab.cube.notation import format_moves, parse
from cubelab.cube.paths import state_dir
from cubelab.cube.holding import orientation_named
from cubelab.cube.puzzles import DEFAULT_PUZZLE, PUZZLES, puzzle_of

from .records import SolutionRow
from .undo import Entry, UndoHistory

SESSION_FILE = "session.json"
FORMAT = 1
MAX_UNDO = 500
"""Undo steps kept (the newest ones, the current position always among them)."""
MAX_SESSION_BYTES = 1 << 20
"""The most a session file may hold; a larger one is not read (it cannot be ours)."""
_MAX_BRACKETS = 50_000
"""Brackets past this many mean the file is not a session (refused before json.loads)."""
_CHUNK = 1000
"""Moves parsed at a time: a long sequence is longer than one typed line may be."""


class SessionDamaged(ValueError):
    """The session file is not one this program wrote (the message says why)."""


def session_path() -> Path:
    return state_dir() / SESSION_FILE


@dataclass
class FoundClass:
    """A search result brought back from a session: what the search panel and :apply need of
    an algsearch.AlgClass (its moves, length and the facts it listed), without the search."""

    moves: list
    length: int
    facts: dict = field(default_factory=dict)

    @property
    def text(self) -> str:
        return format_moves(self.moves)

    def as_dict(self) -> dict:
        return dict(self.facts, moves=self.text)


# ---------------------------------------------------------------- a session as a record

def is_fresh(session) -> bool:
    """Nothing done yet: no step of history, no rows, no results, the net on show (such a
    session never replaces the one kept)."""
    return (len(session.history.entries) == 1 and not session.solutions and not session.found
            and session.view == "net" and getattr(session, "fmc", None) is None)


def snapshot(session) -> dict:
    """The session as a JSON-ready record."""
    history = session.history
    first = max(0, history.cursor - (MAX_UNDO - 1))
    entries = history.entries[first:first + MAX_UNDO]
    record = {
        "format": FORMAT,
        "saved": datetime.datetime.now().isoformat(timespec="seconds"),
        "cursor": history.cursor - first,
        "history": [_entry(e) for e in entries],
        "view": session.view,
        "orientation": session.orientation,
        # (a list solve's solutions are not kept: its list comes back as the solver rows)
        "listing": "fmc" if session.listing == "fmc" and getattr(session, "fmc", None)
        else "solutions" if session.listing in ("listed", "fmc", "gen") else session.listing,
        "table_sets": dict(session.table_sets),
        "solutions": [_row(r) for r in session.solutions],
        "search": dict(session.found_by, classes=[_found(c) for c in session.found]),
    }
    if getattr(session, "fmc", None) is not None:     # the FMC attempt: its steps and labels
        from .fmc_session import fmc_record
        record["fmc"] = fmc_record(session.fmc)
    return _bounded(record)


def _entry(entry: Entry) -> dict:
    puzzle = PUZZLES[entry.puzzle]
    record = {"facelets": puzzle.to_facelets(entry.state), "puzzle": entry.puzzle,
              "moves": format_moves(entry.moves), "label": entry.label}
    if entry.mask is not None:      # painted with grey stickers: the picture, `*` for grey
        from cubelab.cube.masked_facelets import masked_text
        record["grey"] = masked_text(entry.mask.colours)
    return record


def _row(row: SolutionRow) -> dict:
    puzzle = puzzle_of(row.for_state)
    return {"solver": row.solver, "for": puzzle.to_facelets(row.for_state),
            "puzzle": puzzle.name,
            "moves": None if row.moves is None else format_moves(row.moves),
            "seconds": row.seconds, "nodes": row.nodes, "optimal": row.optimal,
            "status": row.status, "message": row.message, "solutions": row.solutions,
            "steps": [list(s) for s in row.steps],
            "played": None if row.played is None else format_moves(row.played),
            "step_lines": list(row.step_lines)}


def _found(cls) -> dict:
    facts = cls.as_dict()
    return dict(facts, moves=format_moves(cls.moves), search_length=cls.length)


def _bounded(record: dict) -> dict:
    """The record with its oldest undo steps (then the sequences of the steps) dropped until
    it fits in the file."""
    def size() -> int:
        return len(json.dumps(record))
    while size() > MAX_SESSION_BYTES and record["cursor"] > 0:
        drop = max(1, record["cursor"] // 2)
        del record["history"][:drop]
        record["cursor"] -= drop
    while size() > MAX_SESSION_BYTES and len(record["history"]) > record["cursor"] + 1:
        record["history"].pop()
    for entry in record["history"]:
        if size() <= MAX_SESSION_BYTES:
            break
        entry["moves"] = ""
    if size() > MAX_SESSION_BYTES:          # rows and results of absurd length: the position stays
        record["solutions"], record["search"]["classes"] = [], []
    return record


# ---------------------------------------------------------------- back into a session

def restore(session, record: dict) -> None:
    """Make `session` the recorded one (SessionDamaged when the record does not hold up:
    the session is then left as it was)."""
    try:
        history, cursor = _history(record)
        rows = [_solution(r) for r in _list(record, "solutions")]
        search = record.get("search", {})
        if not isinstance(search, dict):
            raise SessionDamaged("the search results are not a record")
        found = [_found_class(c) for c in _list(search, "classes")]
        found_by = {k: _text(search, k) for k in ("caption", "metric") if k in search}
        view = record.get("view", "net")
        listing = record.get("listing", "solutions")
        table_sets = record.get("table_sets", {})
        fmc = None
        if record.get("fmc") is not None:
            from .fmc_session import fmc_from_record
            fmc = fmc_from_record(record["fmc"], PUZZLES["3x3"].parse_facelets, _moves)
        if view not in ("net", "3d", "front", "back") or \
                listing not in ("solutions", "search", "fmc") or (listing == "fmc" and not fmc):
            raise SessionDamaged("unknown view or list")
        # the 3-D view as it was held (a file of an earlier version says front or back)
        orientation = orientation_named(
            view if view in ("front", "back") else _text(record, "orientation", "UFR"))
        view = "net" if view == "net" else "3d"
        if not isinstance(table_sets, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in table_sets.items()):
            raise SessionDamaged("the table sets are not names")
    except SessionDamaged:
        raise
    except (ValueError, KeyError, TypeError, IndexError) as e:
        raise SessionDamaged(f"{type(e).__name__}: {e}") from None
    session.history = UndoHistory(history[0])
    session.history.entries = history
    session.history.cursor = cursor
    session.solutions = rows
    session.found = found
    session.found_by = found_by
    session.view = view
    session.orientation = orientation
    session.listing = listing
    session.table_sets = dict(table_sets)
    session.playback = None
    session.painting = None
    session.fmc = fmc


def _list(record: dict, key: str) -> list:
    value = record.get(key, [])
    if not isinstance(value, list):
        raise SessionDamaged(f"{key} is not a list")
    return value


def _text(record: dict, key: str, default: str | None = None) -> str:
    value = record.get(key, default)
    if not isinstance(value, str):
        raise SessionDamaged(f"{key} is not text")
    return value


def _puzzle(record: dict):
    name = _text(record, "puzzle", "3x3")
    if name not in PUZZLES:
        raise SessionDamaged(f"unknown puzzle {name!r}")
    return PUZZLES[name]


def _moves(text: str) -> list:
    words = text.split()
    return [m for k in range(0, len(words), _CHUNK)
            for m in parse(" ".join(words[k:k + _CHUNK])).flatten()]


def _history(record: dict) -> tuple[list[Entry], int]:
    if record.get("format") != FORMAT:
        raise SessionDamaged(f"format {record.get('format')!r}, not {FORMAT}")
    entries = []
    for item in _list(record, "history"):
        if not isinstance(item, dict):
            raise SessionDamaged("a step of the history is not a record")
        puzzle = _puzzle(item)
        state = puzzle.parse_facelets(_text(item, "facelets"))
        moves = tuple(_moves(_text(item, "moves", "")))
        mask = None
        if "grey" in item:
            # a picture with grey stickers: read as the command line reads it; its state is
            # the one it shows (the grey pieces of the one saved were never known)
            from cubelab.cube.masked_facelets import read_masked
            mask = read_masked(_text(item, "grey"))
            state = mask.state
        entries.append(Entry(state, moves, _text(item, "label", ""), puzzle.name, mask))
    cursor = record.get("cursor")
    if not entries or not isinstance(cursor, int) or not 0 <= cursor < len(entries):
        raise SessionDamaged("no current position")
    return entries, cursor


def _solution(item) -> SolutionRow:
    if not isinstance(item, dict):
        raise SessionDamaged("a solution row is not a record")
    puzzle = _puzzle(item)
    row = SolutionRow(_text(item, "solver"), puzzle.parse_facelets(_text(item, "for")))
    moves = item.get("moves")
    row.moves = None if moves is None else _moves(_text(item, "moves"))
    row.seconds = float(item.get("seconds", 0.0))
    row.nodes = int(item.get("nodes", 0))
    row.optimal = bool(item.get("optimal", False))
    row.status = _text(item, "status", "cancelled")
    row.message = _text(item, "message", "")
    row.solutions = int(item.get("solutions", 0))
    row.steps = tuple((str(name), int(n)) for name, n in item.get("steps", []))
    played = item.get("played")
    row.played = None if played is None else _moves(_text(item, "played"))
    row.step_lines = tuple(str(line) for line in _list(item, "step_lines"))
    if row.running:
        # its run stopped with the program that ran it
        row.status, row.message = "cancelled", row.message or "stopped when the program ended"
    return row


_FACTS = ("corners", "edges", "corner_cycles", "edge_cycles", "order", "morph", "sequences")
"""What a search result lists of itself (algsearch.AlgClass.as_dict), kept with it."""


def _found_class(item) -> FoundClass:
    if not isinstance(item, dict):
        raise SessionDamaged("a search result is not a record")
    missing = [k for k in _FACTS if k not in item]
    if missing:
        raise SessionDamaged(f"a search result lacks {', '.join(missing)}")
    facts = {k: v for k, v in item.items() if k not in ("moves", "search_length")}
    return FoundClass(_moves(_text(item, "moves")), int(item["search_length"]), facts)


def describe(record: dict) -> str:
    """A few words on a kept session, for the offer to restore it."""
    history = record.get("history") or [{}]
    cursor = record.get("cursor", 0)
    current = history[cursor] if isinstance(cursor, int) and 0 <= cursor < len(history) else {}
    parts = []
    moves = len(str(current.get("moves", "")).split())
    label = str(current.get("label", ""))
    parts.append(f"{moves} move{'s' if moves != 1 else ''}" if moves else (label or "solved"))
    puzzle = PUZZLES.get(current.get("puzzle"))
    if puzzle is not None and puzzle is not DEFAULT_PUZZLE:
        parts.append(puzzle.title)
    steps = len(history) - 1
    if steps:
        parts.append(f"{steps} undo step{'s' if steps != 1 else ''}")
    rows = len(record.get("solutions") or [])
    if rows:
        parts.append(f"{rows} solver row{'s' if rows != 1 else ''}")
    found = len((record.get("search") or {}).get("classes") or [])
    if found:
        parts.append(f"{found} search result{'s' if found != 1 else ''}")
    saved = str(record.get("saved", ""))
    when = saved[11:16] if len(saved) >= 16 else ""
    return ", ".join(parts) + (f", kept at {when}" if when else "")


# ---------------------------------------------------------------- the file

def _content(text: str) -> str:
    """A saved session's text without the time it was saved: what tells two apart."""
    return text.partition(',"cursor"')[2]


class SessionStore:
    """The file the last session is kept in (the state directory's unless given)."""

    def __init__(self, path: Path | None = None):
        self.path = path if path is not None else session_path()
        self._written = ""

    @property
    def wrote(self) -> bool:
        """This store has written a session (the one kept is now this program's)."""
        return bool(self._written)

    def save(self, session) -> str:
        """Keep `session` (unless it is fresh, or unchanged since the last save); "" or a
        one-line message saying why it could not be written."""
        if is_fresh(session):
            return ""
        text = json.dumps(snapshot(session), separators=(",", ":"))
        unchanged = _content(text)
        if unchanged == self._written:
            return ""
        try:
            write_small_file(self.path, text + "\n")
        except OSError as e:
            return f"cannot keep the session in {self.path}: {e.strerror}"
        self._written = unchanged
        return ""

    def load(self) -> tuple[dict | None, str]:
        """(the kept session's record, "") or (None, a message when there was one that cannot
        be used: it is then set aside under a dated name)."""
        try:
            data = read_small_file(self.path, MAX_SESSION_BYTES)
        except FileNotFoundError:
            return None, ""
        except (OSError, FileProblem) as e:
            return None, self._set_aside(getattr(e, "strerror", None) or str(e))
        try:
            if data.count(b"[") + data.count(b"{") > _MAX_BRACKETS:
                raise SessionDamaged("nested too deeply")
            record = json.loads(data.decode("utf-8"))
            if not isinstance(record, dict):
                raise SessionDamaged("not a record")
            _history(record)        # the position at least must hold up now
        except SessionDamaged as e:
            return None, self._set_aside(str(e))
        except (ValueError, KeyError, TypeError, RecursionError) as e:
            return None, self._set_aside(f"{type(e).__name__}: {e}")
        return record, ""

    def restore(self, session, record: dict) -> str:
        """Restore `record` into `session`; "" or the message of a record that did not hold up
        (the file is then set aside and the session stays as it was)."""
        try:
            restore(session, record)
        except SessionDamaged as e:
            return self._set_aside(str(e))
        # brought back and left as it was, it is not written again
        self._written = _content(json.dumps(snapshot(session), separators=(",", ":")))
        return ""

    def _set_aside(self, reason: str) -> str:
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
        try:
            os.replace(self.path, aside)
        except OSError as e:
            return (f"the last session could not be read ({reason}) nor set aside "
                    f"({e.strerror}); it will be replaced")
        return f"the last session could not be read ({reason}); set aside as {aside.name}"
