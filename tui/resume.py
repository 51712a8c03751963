"""`solve --file --output PATH --resume`: what an earlier run wrote, and writing the rest in order.

The output holds one record per input line, in input order, whatever kills and resumes came
before. A run writes records in input order as they are done, so a killed run leaves the first
records of the input (a last line cut short by the kill is removed here). A resume keeps every
record except those marked `internal` (the solver failed, or the worker solving it kept dying:
no answer about the position), and solves the lines it lacks. Lines missing from the middle of
the file (retried internal records, a record deleted by hand) are solved first, in their place:
their records are held until the last of them is done, then the file is rewritten once, in
input order, beside itself and renamed over itself; what comes after is appended. A run stopped
before that rename leaves the file as it found it (its internal records are retried again by
the next resume; a temporary file a kill left beside it is removed then). Duplicated or
misplaced records a file may hold are tidied by the same rewrite. To retry a line whose record
is an answer (or an error about the input), delete that record: the resume solves it again in
its place.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass, field

from cubelab.cube.files import FileProblem, bounded_lines, open_regular

from .errors import InputError

MAX_RECORD_BYTES = 1 << 20
"""The longest record line read back (an input line is at most 64 KB)."""

_MAX_BRACKETS = 256
"""A record is a flat object with a few small lists: this many brackets mean something else."""


@dataclass
class Earlier:
    """What an output file holds: the byte range of each line's kept record (the first good
    one), the lines whose records were internal errors, and whether the file is already the
    in-order run of records a run writes (no internal record, no line twice or out of order)."""

    path: str
    kept: dict[int, tuple[int, int]] = field(default_factory=dict)
    internal: set[int] = field(default_factory=set)
    in_order: bool = True

    @property
    def last(self) -> int:
        """The last input line the file reaches (0 for an empty file)."""
        return max([*self.kept, *self.internal], default=0)


def read_output(path: str) -> Earlier:
    """The records an earlier run wrote to `path` (none when it does not exist yet); a last
    line cut short by a kill is removed from the file. InputError for a file that is not a
    regular file of cubelab solve's records."""
    earlier = Earlier(path)
    _remove_dead_rewrites(path)
    try:
        fd = open_regular(path, os.O_RDWR)
    except FileNotFoundError:
        return earlier
    except FileProblem as e:
        raise InputError(f"--resume: {path} is {e}") from None
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}") from None
    with os.fdopen(fd, "rb+") as f:
        offset, previous = 0, 0
        for number, raw in enumerate(bounded_lines(f, MAX_RECORD_BYTES), start=1):
            if not raw.endswith(b"\n"):
                if len(raw) > MAX_RECORD_BYTES or b"\0" in raw:
                    raise _not_records(path, number)
                f.truncate(offset)     # cut short by a kill: that line is solved again
                break
            line = _record_line(raw)
            if line is None:
                raise _not_records(path, number)
            record_line, internal = line
            if record_line in earlier.kept or record_line <= previous:
                earlier.in_order = False
            if internal:
                earlier.internal.add(record_line)
                earlier.in_order = False
            elif record_line not in earlier.kept:
                earlier.kept[record_line] = (offset, len(raw))
            previous = max(previous, record_line)
            offset += len(raw)
    earlier.internal -= set(earlier.kept)
    return earlier


def _remove_dead_rewrites(path: str) -> None:
    """Delete the temporary files of rewrites of `path` that a kill cut short (the file itself
    was left as it was)."""
    folder = os.path.dirname(os.path.abspath(path))
    pattern = re.compile(re.escape(f".{os.path.basename(path)}.") + r"[a-z0-9_]{8}\.tmp")
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if pattern.fullmatch(name):
            try:
                os.unlink(os.path.join(folder, name))
            except OSError:
                pass


def _record_line(raw: bytes) -> tuple[int, bool] | None:
    """(input line, whether internal) of a record, or None for a line that is none."""
    if raw.count(b"[") + raw.count(b"{") > _MAX_BRACKETS:
        return None
    try:
        record = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(record, dict) or type(record.get("line")) is not int:
        return None
    return record["line"], bool(record.get("internal"))


def _not_records(path: str, number: int) -> InputError:
    return InputError(f"--resume: line {number} of {path} is not JSON of a solve record; is "
                      "it the output of cubelab solve --json?")


class ResumedOutput:
    """The output file of a resumed run: `write(text)` takes each record's JSON line in input
    order. Records of lines inside the part the earlier run wrote (`holes`) are held until the
    last of them comes, then the file is rewritten in order with them in place; the others are
    appended as they come."""

    def __init__(self, earlier: Earlier, holes: set[int]):
        self.earlier = earlier
        self.waiting = set(holes)
        self.held: dict[int, str] = {}
        self.handle = None
        if earlier.in_order and not holes:
            self._append()
        elif not holes:
            self._rewrite()         # only tidying: nothing to wait for

    def write(self, text: str) -> None:
        if self.handle is not None:
            self.handle.write(text)
            return
        number = json.loads(text)["line"]
        self.held[number] = text
        self.waiting.discard(number)
        if not self.waiting:
            self._rewrite()

    def flush(self) -> None:
        if self.handle is not None:
            self.handle.flush()

    def close(self) -> None:
        """Close; records still held (the run was stopped first) are dropped, the file left
        as it was."""
        if self.handle is not None:
            self.handle.close()

    def _append(self) -> None:
        try:
            self.handle = open(self.earlier.path, "a", encoding="utf-8")
        except OSError as e:
            raise InputError(f"cannot write {self.earlier.path}: {e.strerror}") from None

    def _rewrite(self) -> None:
        """The kept records and the held ones, in input order, renamed over the file."""
        path = self.earlier.path
        folder = os.path.dirname(os.path.abspath(path))
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp",
                                   dir=folder)
        try:
            os.chmod(tmp, os.stat(path).st_mode & 0o777)
            with open(path, "rb") as old, os.fdopen(fd, "wb") as new:
                lines = {n: ("kept", span) for n, span in self.earlier.kept.items()}
                lines.update({n: ("held", text) for n, text in self.held.items()})
                for number in sorted(lines):
                    kind, what = lines[number]
                    if kind == "kept":
                        old.seek(what[0])
                        new.write(old.read(what[1]))
                    else:
                        new.write(what.encode("utf-8"))
                new.flush()
                os.fsync(new.fileno())
            os.replace(tmp, path)
        except BaseException as e:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            if isinstance(e, OSError):
                raise InputError(f"cannot rewrite {path}: {e.strerror}") from None
            raise
        self.held.clear()
        self._append()
