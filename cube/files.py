"""Reading the small files the program keeps (saves, caches): regular files only, bounded in size;
and writing one whole, atomically.

A save or cache can be replaced by anything: a link to /dev/zero (endless), a FIFO (a read that
never returns), a file of gigabytes. `read_small_file` opens without blocking, insists on a
regular file and reads at most `limit` bytes, so a bad file costs a message, never memory or a
hang.
"""

from __future__ import annotations

import os
import stat
import tempfile


class FileProblem(ValueError):
    """The file is not one the program could have written (the message says why)."""


def read_small_file(path, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; FileProblem for anything else
    (OSError, such as FileNotFoundError, when it cannot be opened)."""
    # O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileProblem("not a regular file")
        if info.st_size > limit:
            raise FileProblem(f"{info.st_size:,} bytes, more than the {limit:,} allowed")
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
