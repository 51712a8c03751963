"""Checkpoints of long table builds: what a build has done so far, in a checked file that a later
build of the same table goes on from, so a cancelled or killed build loses one level, not all.

A builder opts in by giving the breadth-first driver the one array that holds its whole state
between levels (`bfs.run_levels(..., state=table)`): the driver then asks the build's
`Checkpoints` to `resume` into that array before the first level, and to `keep` it after each
level it completes, with its notes (entries per level, ...). Keeping writes only when it is
worth it: the work since the last checkpoint must be WORTH times what the write costs (its
size at WRITE_RATE until a write has been timed) and at least MIN_SECONDS, and the disk must
have room for the checkpoint and the finished table beside it. A full `korf.layers` build
(2.8 GB, under 2 minutes on two quiet cores) then writes none; the same build on a busy
machine, which takes half an hour, keeps one every few levels.

The file sits beside the table as `<name>.npt.partial`, in the table format itself
(fileformat.py: the spec's name and parameters, the array's dtype and shape, CRC-32 of the
header and of the data, written atomically) with the driver's notes and format in a
`checkpoint` header entry. A build takes it only when every one of those matches; anything else
(damaged, truncated, other parameters, another driver format) is deleted with a message and the
build starts from nothing. The store deletes it once the table is written, and `clear_table`
with the table.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import numpy as np

from .fileformat import SUFFIX, NOT_BUILT, TableProblem, map_data, read_header, write_table
from .spec import TableSpec

PARTIAL = ".partial"
"""What a checkpoint's file name adds to its table's (`korf.layers.npt.partial`)."""
WORTH = 8.0
"""Work between checkpoints, in multiples of what writing one costs (at most an eighth of the
build's time goes to them)."""
MIN_SECONDS = 20.0
"""Less work than this is never worth a checkpoint (small tables never write one)."""
WRITE_RATE = 150e6
"""Bytes a second a checkpoint is written at (checksum, write, fsync), until one is timed."""
ROOM_MARGIN = 64 << 20
"""Free space left over after the checkpoint and the finished table, at least."""


def partial_path(table_path: Path) -> Path:
    """Where the checkpoint of the table at `table_path` lives."""
    return table_path.with_name(table_path.name + PARTIAL)


def table_name_of(path: Path) -> str | None:
    """The table a checkpoint file belongs to (None: not a checkpoint's name)."""
    name = path.name
    if not name.endswith(SUFFIX + PARTIAL):
        return None
    return name[:-len(SUFFIX + PARTIAL)]


def checkpoint_notes(spec: TableSpec, path: Path) -> dict | None:
    """The notes of the checkpoint kept for `spec` (header checks only: quick), or None."""
    try:
        header, _ = read_header(path, spec, checkpoint=True)
    except TableProblem:
        return None
    return header["checkpoint"]


def remove(path: Path) -> bool:
    """Delete a checkpoint file; True if there was one."""
    try:
        path.unlink()
        return True
    except FileNotFoundError:
        return False
    except OSError:
        return False


class Checkpoints:
    """The checkpoints of one build of `spec`, kept at `path` (None: the table cannot be saved,
    so neither can its checkpoints); `log(str)` hears what happens to them."""

    def __init__(self, spec: TableSpec, path: Path | None, log=None, clock=time.perf_counter):
        self.spec = spec
        self.path = path
        self._log = log
        self._clock = clock
        self._since = clock()           # the work since the build began or was last kept
        self._write_seconds: float | None = None
        self._no_room_said = False

    def _say(self, message: str) -> None:
        if self._log is not None:
            self._log(message)

    # ---- going on from one ------------------------------------------------------------------
    def resume(self, state: np.ndarray, kind: str, read=lambda notes: notes):
        """Copy a checkpoint an earlier build of this table kept into `state` (the builder's
        array, same dtype and shape) and return `read(notes)` of the notes kept with it (read
        raises ValueError, KeyError or TypeError for notes it cannot use); None when there is
        none, or it cannot be trusted (then it is deleted and `state` is left as it was)."""
        if self.path is None:
            return None
        try:
            header, offset = read_header(self.path, self.spec, checkpoint=True)
            notes = header["checkpoint"]
            if notes.get("kind") != kind:
                raise TableProblem(f"written by another builder ({notes.get('kind')!r})")
            if (np.dtype(header["dtype"]) != state.dtype
                    or tuple(header["shape"]) != state.shape):
                raise TableProblem("its array differs from this build's")
            try:
                done = read(notes)
            except (KeyError, TypeError, ValueError) as e:
                raise TableProblem(f"damaged (its notes: {e})") from None
            saved = map_data(self.path, header, offset, check=True)
        except TableProblem as problem:
            if str(problem) != NOT_BUILT:
                self._say(f"not resuming {self.spec.name}: its checkpoint is {problem}; "
                          "starting over")
                remove(self.path)
            return None
        np.copyto(state, saved)
        del saved                       # the mapping goes: the build owns its copy now
        self._since = self._clock()
        return done

    # ---- keeping one ------------------------------------------------------------------------
    def worth_keeping(self, nbytes: int) -> bool:
        """Whether the work since the last checkpoint is worth writing one of `nbytes`."""
        cost = self._write_seconds if self._write_seconds is not None else nbytes / WRITE_RATE
        return self._clock() - self._since >= max(MIN_SECONDS, WORTH * cost)

    def _room(self, nbytes: int) -> bool:
        try:
            free = shutil.disk_usage(self.path.parent).free
        except OSError:
            return False
        return free >= 2 * nbytes + ROOM_MARGIN

    def keep(self, state: np.ndarray, notes: dict, kind: str, seconds: float = 0.0,
             force: bool = False) -> bool:
        """Write `state` and `notes` as this build's checkpoint if that is worth it (or
        `force`); True if written. A failed write is said and forgotten: the build goes on."""
        if self.path is None or not (force or self.worth_keeping(state.nbytes)):
            return False
        if not self._room(state.nbytes):
            if not self._no_room_said:
                self._no_room_said = True
                self._say(f"no room on disk to keep a checkpoint of {self.spec.name}")
            return False
        start = self._clock()
        try:
            write_table(self.spec, self.path, state, seconds, checkpoint={**notes, "kind": kind})
        except OSError as e:
            self._say(f"cannot keep a checkpoint of {self.spec.name}: {e.strerror or e}")
            return False
        self._write_seconds = self._clock() - start
        self._since = self._clock()
        return True

    def discard(self) -> None:
        """The table is written: its checkpoint has served."""
        if self.path is not None:
            remove(self.path)

