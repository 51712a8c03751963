"""The program's one bounded reader: every file it reads goes through here.

A file a user names or the program keeps (saves, history, recordings, tables, --file input,
--resume output) can be replaced by anything: a link to /dev/zero (endless), a FIFO (an open or
a read that never returns), a directory, a file of gigabytes. So:

- `open_regular` opens without blocking and insists on a regular file: a FIFO, a device or a
  directory costs a message (FileProblem), never a hang;
- `read_small_file` reads at most `limit` bytes of one, for files read whole (saves, history,
  recordings);
- `bounded_lines` reads a stream line by line, no line longer than a bound (the rest of a
  longer line is read in pieces and dropped), for input that may be long or endless (--file,
  stdin, a --resume output), so memory stays bounded whatever the file is;
- `write_small_file` writes one of the small files the program keeps (settings, the session)
  whole and atomically.
"""

from __future__ import annotations

import os
import stat
from typing import Iterator


class FileProblem(ValueError):
    """The file is not one the program could have written (the message says why)."""


def _what(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "something else"


def open_regular(path, flags: int = os.O_RDONLY, mode: int = 0o644) -> int:
    """A descriptor on `path` (opened with `flags`, never waiting: a FIFO fails or is refused)
    when it is a regular file; FileProblem saying what it is otherwise (OSError, such as
    FileNotFoundError, when it cannot be opened at all)."""
    fd = os.open(path, flags | os.O_NONBLOCK | os.O_CLOEXEC, mode)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileProblem(f"not a regular file ({_what(info.st_mode)})")
        os.set_blocking(fd, True)
        return fd
    except BaseException:
        os.close(fd)
        raise


def read_small_file(path, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; FileProblem for anything else
    (OSError, such as FileNotFoundError, when it cannot be opened)."""
    fd = open_regular(path)
    try:
        size = os.fstat(fd).st_size
        if size > limit:
            raise FileProblem(f"{size:,} bytes, more than the {limit:,} allowed")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:    # it grew while being read
            raise FileProblem(f"more than the {limit:,} bytes allowed")
        return b"".join(chunks)
    finally:
        os.close(fd)


def bounded_lines(handle, limit: int) -> Iterator[bytes]:
    """Lines of a binary handle, each at most `limit` + 1 bytes: a longer line is yielded as its
    first `limit` + 1 bytes (a caller tells it by its length) and the rest of it is read in
    pieces and dropped, unless a piece holds a NUL byte, which is yielded (the caller refuses
    the file: it is not text) and ends the lines."""
    while True:
        raw = handle.readline(limit + 1)
        if not raw:
            return
        yield raw
        while len(raw) > limit and not raw.endswith(b"\n"):
            raw = handle.readline(limit + 1)
            if b"\0" in raw:
                yield raw
                return


def write_small_file(path, text: str, mode: int = 0o600) -> None:
    """Replace the file at `path` by `text` (UTF-8) all at once: written beside it under a fresh
    name, synced, renamed over it, so a reader sees the old file or the new, never half of one.
    The file keeps its permissions when it exists (`mode` otherwise). OSError if it cannot."""
    from pathlib import Path
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        pass
    import tempfile                     # (its imports: ~2 ms of `cubelab facts`)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
