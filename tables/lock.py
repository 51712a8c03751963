"""Advisory file locks (fcntl.flock) that serialise builders of one table across processes."""

from __future__ import annotations

import errno
import fcntl
import os
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable


class LockUnavailable(OSError):
    """The lock file cannot be created (read-only or missing directory)."""


class LockBusy(Exception):
    """Another process holds the lock (raised instead of waiting when asked not to wait)."""


def _flock_polling(fd: int, on_wait, check, poll: float, wait: bool) -> None:
    told = False
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if not wait:
                raise LockBusy() from None
            if not told and on_wait is not None:
                on_wait()
            told = True
            if check is not None:
                check()
            time.sleep(poll)


def _open_locked(path: Path, on_wait, check, poll: float, wait: bool) -> int:
    """Open `path` and hold an exclusive flock on it; return the descriptor.

    The holder deletes the file before releasing it (so no lock file is left behind), which means
    a waiter may lock an inode that is no longer the file at `path`: it then tries again.
    """
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as e:
            raise LockUnavailable(e.errno, f"cannot create lock file {path}: {e.strerror}") from e
        try:
            _flock_polling(fd, on_wait, check, poll, wait)
            try:
                same = os.stat(path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
        except BaseException:
            os.close(fd)
            raise
        if same:
            return fd
        os.close(fd)
        on_wait = None  # already told


_held: set[Path] = set()
"""Lock files this process holds now (removed by remove_held_locks when it is interrupted)."""


def remove_held_locks() -> None:
    """Delete the lock files this process holds: called by a process about to exit abruptly
    (Ctrl-C, SIGTERM) while a build thread it abandons still holds them."""
    for path in list(_held):
        try:
            os.unlink(path)
        except OSError:
            pass


@contextmanager
def file_lock(path: Path, *, on_wait: Callable[[], None] | None = None,
              check: Callable[[], None] | None = None, poll: float = 0.05, wait: bool = True):
    """Hold an exclusive advisory lock on `path` (created if needed, removed on release).

    on_wait() is called once if another process holds the lock; check() is called between polls
    while waiting and may raise to stop waiting (cancellation).
    Raises LockUnavailable when the lock file cannot be created, and LockBusy instead of
    waiting when `wait` is false.
    """
    path = Path(path)
    fd = _open_locked(path, on_wait, check, poll, wait)
    _held.add(path)
    try:
        yield
    finally:
        _held.discard(path)
        try:
            os.unlink(path)
        except OSError as e:
            if e.errno not in (errno.ENOENT, errno.EACCES, errno.EPERM, errno.EROFS):
                raise
        os.close(fd)
