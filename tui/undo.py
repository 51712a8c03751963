"""The undo history of positions: entries that say how each position was reached, and a cursor.

Every change of position is one entry, and so is a switch between the 3x3x3 and the 2x2x2: an
entry knows its puzzle, so undo walks back across a switch like across any other change. A new
entry after some undos drops the entries that could have been redone, as editors do.
"""

from __future__ import annotations

from dataclasses import dataclass

from cubelab.cube.alg import Move


@dataclass(frozen=True)
class Entry:
    """One position of the undo history and how it was reached."""

    state: object             # a CubeState (3x3) or a PocketState (2x2)
    moves: tuple[Move, ...]   # the sequence applied since the position was last set outright
    label: str                # what made the change, for the user
    puzzle: str = "3x3"       # which cube: undo across a switch of puzzles restores it
    mask: object = None
    """With grey stickers (painted grey in paint mode): the picture this position stands for, a
    cube.masked_facelets.MaskedPosition whose `state` is `state` (one position it shows) and
    whose goal is what it shows, solved; None for a whole position."""


class UndoHistory:
    """The entries in order, oldest first, and the cursor on the current one."""

    def __init__(self, first: Entry):
        self.entries: list[Entry] = [first]
        self.cursor = 0

    @property
    def current(self) -> Entry:
        return self.entries[self.cursor]

    def push(self, entry: Entry) -> None:
        """Make `entry` the current position (what could be redone is dropped)."""
        del self.entries[self.cursor + 1:]
        self.entries.append(entry)
        self.cursor = len(self.entries) - 1

    def undo(self) -> Entry | None:
        """Step back; the entry undone, or None when there is nothing to undo."""
        if self.cursor == 0:
            return None
        self.cursor -= 1
        return self.entries[self.cursor + 1]

    def redo(self) -> Entry | None:
        """Step forward again; the entry redone, or None when there is nothing to redo."""
        if self.cursor + 1 >= len(self.entries):
            return None
        self.cursor += 1
        return self.current
