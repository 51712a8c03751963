"""Input history of the workbench's line, persisted in the state directory and shared with the REPL.

The file uses prompt_toolkit's FileHistory format (a "# time" line, then the entry's lines each
prefixed by "+", entries separated by a blank line), so the plain REPL can hand the same path to
`prompt_toolkit.history.FileHistory` and both front ends see one history.
"""

from __future__ import annotations

import datetime
from pathlib import Path

from cubelab.cube.paths import state_dir

HISTORY_FILE = "history"


def history_path() -> Path:
    """Where the shared input history lives."""
    return state_dir() / HISTORY_FILE


def read_entries(path: Path) -> list[str]:
    """Entries of a FileHistory-format file, oldest first (a missing file has none)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
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
        stamp = datetime.datetime.now().isoformat(sep=" ")
        body = "".join(f"+{part}\n" for part in line.split("\n"))
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(f"\n# {stamp}\n{body}")
        except OSError:
            pass  # a read-only state directory costs the persistence, not the session

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
