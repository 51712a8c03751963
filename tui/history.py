"""Input history of the workbench's line, persisted in the state directory and shared with the REPL.

The file uses prompt_toolkit's FileHistory format (a "# time" line, then the entry's lines each
prefixed by "+", entries separated by a blank line), so the plain REPL can hand the same path to
`prompt_toolkit.history.FileHistory` and both front ends see one history.
"""

from __future__ import annotations

import datetime
import fcntl
import os
from pathlib import Path

from cubelab.cube.files import FileProblem, open_regular, read_small_file
from cubelab.cube.paths import state_dir

HISTORY_FILE = "history"


def history_path() -> Path:
    """Where the shared input history lives."""
    return state_dir() / HISTORY_FILE


MAX_HISTORY_BYTES = 64 << 20
"""A larger history file is not read (it cannot be ours: entries are typed lines)."""


def read_entries(path: Path) -> list[str]:
    """Entries of a FileHistory-format file, oldest first (a missing, unreadable or absurd file
    has none: never a hang on a FIFO nor an endless read of a device)."""
    try:
        text = read_small_file(path, MAX_HISTORY_BYTES).decode("utf-8", errors="replace")
    except (OSError, FileProblem):
        return []
    entries: list[str] = []
    lines: list[str] = []
    for line in text.splitlines():
        if line.startswith("+"):
            lines.append(line[1:])
        elif lines:
            entries.append("\n".join(lines))
            lines = []
    if lines:
        entries.append("\n".join(lines))
    return entries


def append_entry(path: Path, line: str) -> None:
    """Append one entry in a single write under an exclusive lock, so front ends writing at once
    (two REPLs, a REPL and the workbench) never interleave their lines. A read-only state
    directory costs the persistence, not the session."""
    stamp = datetime.datetime.now().isoformat(sep=" ")
    body = "".join(f"+{part}\n" for part in line.split("\n"))
    data = f"\n# {stamp}\n{body}".encode("utf-8", "surrogateescape")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # a regular file only: opening a FIFO to write would wait for a reader for ever
        fd = open_regular(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    except (OSError, FileProblem):
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    except OSError:
        pass
    finally:
        os.close(fd)     # and with it the lock


def prompt_history(path: Path, size: int | None = None):
    """The REPL's prompt_toolkit history on the shared file: read bounded, written whole under
    the lock (prompt_toolkit's own writer appends an entry line by line); `size`: how many of
    the newest entries it offers (all when None)."""
    from prompt_toolkit.history import FileHistory

    class SharedFileHistory(FileHistory):
        def load_history_strings(self):
            entries = read_entries(path)
            if size is not None:
                entries = entries[len(entries) - size:] if size else []
            return reversed(entries)     # newest first, as prompt_toolkit wants

        def store_string(self, string: str) -> None:
            append_entry(path, string)

    return SharedFileHistory(str(path))


class InputHistory:
    """The entries typed so far and a cursor for walking them with up and down.

    Walking keeps the text being typed (the draft) so coming back down past the newest entry
    restores it, as shells do.
    """

    def __init__(self, path: Path | None = None, limit: int = 1000):
        self.path = path if path is not None else history_path()
        self.limit = limit
        self.entries: list[str] = read_entries(self.path)[-limit:]
        self._pos = len(self.entries)
        self._draft = ""

    def append(self, line: str) -> None:
        """Record a submitted line (blank lines and a repeat of the newest entry are skipped)."""
        if not line.strip() or (self.entries and self.entries[-1] == line):
            self._pos = len(self.entries)
            return
        self.entries.append(line)
        del self.entries[:-self.limit]
        self._pos = len(self.entries)
        self._write(line)

    def _write(self, line: str) -> None:
        append_entry(self.path, line)

    def previous(self, current: str) -> str | None:
        """The entry before the cursor (remembering `current` as the draft), or None at the top."""
        if self._pos == 0:
            return None
        if self._pos == len(self.entries):
            self._draft = current
        self._pos -= 1
        return self.entries[self._pos]

    def next(self) -> str | None:
        """The entry after the cursor, the draft past the newest one, or None at the bottom."""
        if self._pos >= len(self.entries):
            return None
        self._pos += 1
        return self.entries[self._pos] if self._pos < len(self.entries) else self._draft

    def reset(self) -> None:
        """Forget the walk (after the line was edited or submitted)."""
        self._pos = len(self.entries)


if __name__ == "__main__":
    for entry in read_entries(history_path())[-20:]:
        print(entry)
