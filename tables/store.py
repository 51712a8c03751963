"""Loading tables: from this process, from their checked files, or built under a lock.

A built table is written atomically; this module also gives the status, verification and
removal of one table. A long build may keep checkpoints beside its table (checkpoint.py): the
next build goes on from them, and writing the table deletes them.

Files live at `<data dir>/tables/v<FORMAT_VERSION>/<name>.npt` (format: fileformat.py) and are
memory mapped. Anything that does not match what the spec asks for is rebuilt, and the `log`
callback is told why.
"""

from __future__ import annotations

import errno
import logging
import os
import threading
import time
from contextlib import ExitStack
from pathlib import Path

import numpy as np

from cubelab.cube.paths import data_dir

from . import spec as specs
from .checkpoint import Checkpoints, checkpoint_notes, partial_path, remove as remove_checkpoint
from .fileformat import (
    FORMAT_VERSION, NOT_BUILT, SUFFIX, TableProblem, map_data, read_header,
    remove_partial_writes, write_table,
)
from .lock import file_lock, remove_held_locks
from .spec import BuildCancelled, TableError, TableSpec, resolve

_log = logging.getLogger("cubelab.tables")


def tables_dir() -> Path:
    return data_dir() / "tables" / f"v{FORMAT_VERSION}"


def table_path(spec) -> Path:
    name = spec.name if isinstance(spec, TableSpec) else str(spec)
    return tables_dir() / f"{name}{SUFFIX}"


def lock_path(spec) -> Path:
    path = table_path(spec)
    return path.with_name(path.name + ".lock")


# ---- the build context ------------------------------------------------------------------

class BuildContext:
    """What a builder receives: progress reporting, the cancel flag, counters, dependencies."""

    def __init__(self, spec: TableSpec, progress=None, cancel=None, log=None,
                 checkpoint_path: Path | None = None):
        self.spec = spec
        self.cancel = cancel if cancel is not None else np.zeros(1, dtype=np.int32)
        """int32[1]: nonzero asks the builder's kernels to stop."""
        self.counters = np.zeros(4, dtype=np.int64)
        """int64[4]: kernels may write (done, total) into slots 0 and 1; they are polled and
        forwarded to the progress callback. Slots 2 and 3 are free for the builder."""
        self._progress = progress
        self._log = log
        self._lock = threading.Lock()
        self._last = (-1, -1)
        self.checkpoints = Checkpoints(spec, checkpoint_path, self.log)
        """Where the builder's driver resumes from and keeps checkpoints (bfs.run_levels with
        `state`); a build whose table cannot be saved keeps none."""

    def progress(self, done: int, total: int) -> None:
        """Report (done, total); safe from any thread."""
        self.counters[0], self.counters[1] = done, total
        self._forward(int(done), int(total))

    def _forward(self, done: int, total: int) -> None:
        if self._progress is None:
            return
        with self._lock:
            if (done, total) == self._last:
                return
            self._last = (done, total)
            self._progress(done, total)

    def poll(self) -> None:
        """Forward what a kernel wrote into counters (the watcher thread calls this)."""
        done, total = int(self.counters[0]), int(self.counters[1])
        if total > 0:
            self._forward(done, total)

    @property
    def cancelled(self) -> bool:
        return bool(self.cancel[0])

    def check_cancel(self) -> None:
        """Raise BuildCancelled if the flag is up (call between kernel runs)."""
        if self.cancel[0]:
            raise BuildCancelled(self.spec.name)

    def log(self, message: str) -> None:
        _say(self._log, message)

    def load(self, name) -> np.ndarray:
        """A dependency table, loaded or built with the same progress, cancel flag and log."""
        return load_or_build(name, progress=self._progress, cancel=self.cancel, log=self._log)


class BuildNote(str):
    """A log message about one table's build that also carries its facts, so a front end can
    draw one bar over many builds without reading the text: `event` is "building" or "built",
    `name` the table, and for "built" `nbytes` and `seconds`. It is a str: log callbacks that
    print messages need not know it."""

    event: str
    name: str
    nbytes: int
    seconds: float

    def __new__(cls, text: str, event: str, name: str, nbytes: int = 0, seconds: float = 0.0):
        note = super().__new__(cls, text)
        note.event, note.name, note.nbytes, note.seconds = event, name, nbytes, seconds
        return note

    def __reduce__(self):
        # builder processes send their messages through a queue: pickle the facts too
        return BuildNote, (str(self), self.event, self.name, self.nbytes, self.seconds)


def _say(log, message: str, level=logging.INFO) -> None:
    if log is not None:
        log(message)
    else:
        _log.log(level, message)


# ---- the in-process cache and load_or_build

def _try_load(spec: TableSpec, path: Path,
              check: bool = True) -> tuple[np.ndarray | None, str | None]:
    try:
        header, offset = read_header(path, spec)
        return map_data(path, header, offset, check=check, noted=True), None
    except TableProblem as p:
        return None, str(p)


_cache: dict[str, tuple[str, np.ndarray, bool]] = {}   # name -> (params key, array, on disk)
_cache_lock = threading.Lock()
_name_locks: dict[str, threading.RLock] = {}
_building = threading.local()


def _drop(name: str) -> None:
    with _cache_lock:
        _cache.pop(name, None)


specs.on_replace(_drop)


def _cached(spec: TableSpec) -> np.ndarray | None:
    with _cache_lock:
        hit = _cache.get(spec.name)
    if hit is not None and hit[0] == spec.params_key:
        return hit[1]
    return None


def is_loaded(spec: TableSpec) -> bool:
    """Whether this process holds the table already (loading it again costs no memory)."""
    return _cached(spec) is not None


def _name_lock(name: str) -> threading.RLock:
    with _cache_lock:
        return _name_locks.setdefault(name, threading.RLock())


def forget_cache() -> None:
    """Drop every table held by this process (tests, and `tables clear`)."""
    with _cache_lock:
        _cache.clear()


def load_or_build(spec_or_name, *, progress=None, cancel=None, log=None) -> np.ndarray:
    """The table's data as a read-only array: from this process's cache, from its file (checked),
    or built (and saved if the data directory allows it; otherwise kept in memory).

    progress(done, total) follows the build; cancel is an int32[1] flag (nonzero stops the
    build, raising BuildCancelled, and leaves no file behind); log(str) receives messages such as
    "rebuilding kociemba.x: data damaged (checksum mismatch)".
    """
    spec = resolve(spec_or_name)
    hit = _cached(spec)
    if hit is not None:
        return hit
    stack = getattr(_building, "stack", None)
    if stack is None:
        stack = _building.stack = []
    if spec.name in stack:
        raise TableError("dependency cycle: " + " -> ".join(stack + [spec.name]))
    with _name_lock(spec.name):
        hit = _cached(spec)
        if hit is not None:
            return hit
        stack.append(spec.name)
        try:
            arr, on_disk = _load_or_build(spec, progress, cancel, log)
        finally:
            stack.pop()
        with _cache_lock:
            _cache[spec.name] = (spec.params_key, arr, on_disk)
        return arr


REMAP_BYTES = 256 << 20
"""A table built at least this large is handed out as its file's mapping once written."""


def _load_or_build(spec: TableSpec, progress, cancel, log) -> tuple[np.ndarray, bool]:
    path = table_path(spec)
    arr, problem = _try_load(spec, path)
    if arr is not None:
        return arr, True
    if problem != NOT_BUILT:
        _say(log, f"rebuilding {spec.name}: {problem}", logging.WARNING)
    cancel = cancel if cancel is not None else np.zeros(1, dtype=np.int32)

    def check():
        if cancel[0]:
            raise BuildCancelled(spec.name)

    with ExitStack() as held:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            held.enter_context(file_lock(
                lock_path(spec), check=check,
                on_wait=lambda: _say(log, f"waiting for another process building {spec.name}")))
        except OSError as e:
            # The directory cannot be created or locked (read-only, not a directory): build
            # anyway and keep the table for this session.
            _say(log, _unsaved_message(spec, path.parent, e), logging.WARNING)
            arr, _ = _run_build(spec, progress, cancel, log, None)
            return arr, False
        # Another process may have finished it while we waited for the lock.
        arr, problem = _try_load(spec, path)
        if arr is not None:
            return arr, True
        _remove_dead_temporaries(spec, path)
        arr, seconds = _run_build(spec, progress, cancel, log, partial_path(path))
        try:
            write_table(spec, path, arr, seconds)
        except OSError as e:
            _say(log, _unsaved_message(spec, path.parent, e), logging.WARNING)
            return arr, False       # its checkpoint, if any, stays: a later build goes on
        remove_checkpoint(partial_path(path))
        if arr.nbytes >= REMAP_BYTES:
            # the file's mapping replaces the array just built: a search copying it to huge
            # pages (tables.memory.resident) then holds one copy of the table, not two. Its
            # checksum was just computed from the array written: reading the file again to
            # check it would fault in a second copy beside the first.
            mapped, _ = _try_load(spec, path, check=False)
            if mapped is not None:
                return mapped, True
        return arr, True


def _remove_dead_temporaries(spec: TableSpec, path: Path) -> None:
    """Delete temporary files of `spec` that builds killed mid-write left (up to the table's
    size each). Called holding the table's lock (and its in-process lock): no live builder of
    it is writing one."""
    prefix = f".{spec.name}."
    for tmp in path.parent.glob(f"{prefix}*.tmp"):
        if "." in tmp.name[len(prefix):-len(".tmp")]:
            continue    # another table's, whose name merely starts with this one's
        try:
            tmp.unlink()
        except OSError:
            pass


def _unsaved_message(spec: TableSpec, directory: Path, e: OSError) -> str:
    reason = e.strerror or str(e)
    if e.errno in (errno.ENOSPC, errno.EDQUOT):
        reason = "disk full"
    elif e.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        reason = f"read-only ({e.strerror})"
    return (f"cannot save {spec.name} in {directory}: {reason}; "
            f"the table is kept in memory for this session")


def _run_build(spec: TableSpec, progress, cancel, log,
               checkpoint_path: Path | None) -> tuple[np.ndarray, float]:
    """Run the builder with a watcher thread that forwards the kernel's counters to progress
    (checkpoints, if the builder keeps any, at `checkpoint_path`)."""
    if cancel[0]:
        raise BuildCancelled(spec.name)
    ctx = BuildContext(spec, progress, cancel, log, checkpoint_path)
    _say(log, BuildNote(f"building {spec.name}", "building", spec.name))
    stop = threading.Event()

    def watch():
        while not stop.wait(0.1):
            ctx.poll()

    watcher = threading.Thread(target=watch, name=f"progress {spec.name}", daemon=True)
    start = time.perf_counter()
    if progress is not None:
        watcher.start()
    try:
        result = spec.build(ctx)
    except BuildCancelled:
        raise
    except Exception as e:
        if cancel[0]:       # whatever a stopped kernel left behind made the builder trip
            raise BuildCancelled(spec.name) from e
        raise
    finally:
        stop.set()
        if watcher.is_alive():
            watcher.join()
    ctx.poll()      # the kernel's last counts, which the watcher may have slept through
    seconds = time.perf_counter() - start
    if cancel[0]:
        raise BuildCancelled(spec.name)
    if not isinstance(result, np.ndarray) or result.dtype.hasobject:
        raise TableError(f"builder of {spec.name} returned {type(result).__name__}, "
                         f"not a numeric numpy array")
    arr = result if result.flags.c_contiguous else result.copy(order="C")
    arr.flags.writeable = False
    _say(log, BuildNote(f"built {spec.name} in {seconds:.1f} s ({arr.nbytes:,} bytes)", "built",
                        spec.name, arr.nbytes, seconds))
    return arr, seconds


def abandon_in_flight() -> None:
    """Remove the temporary and lock files of builds under way in this process: it is about to
    exit without waiting for them (Ctrl-C, SIGTERM), and must leave nothing stale behind."""
    remove_partial_writes()
    remove_held_locks()


# ---- status, verification, clearing ------------------------------------------------------

def table_status(spec) -> dict:
    """name, solver, description, bytes, built, path, problem (header checks only: quick);
    plus in_memory (held by this process without a file), params, and checkpoint (the notes of
    the checkpoint an unfinished build kept, which the next build goes on from, or None)."""
    spec = resolve(spec)
    path = table_path(spec)
    problem = None
    size = spec.expected_bytes
    try:
        read_header(path, spec)
        size = path.stat().st_size
        built = True
    except (TableProblem, OSError) as p:
        built = False
        problem = None if str(p) == NOT_BUILT else str(p)
    with _cache_lock:
        hit = _cache.get(spec.name)
    in_memory = bool(hit and hit[0] == spec.params_key and not hit[2])
    return {
        "name": spec.name, "solver": spec.solver, "description": spec.description,
        "bytes": size, "built": built, "path": str(path), "problem": problem,
        "in_memory": in_memory, "params": spec.params,
        "checkpoint": None if built else checkpoint_notes(spec, partial_path(path)),
    }


def check_memory(specs, what: str, advice: str) -> None:
    """TableError, in one line, when the memory available now cannot hold the tables (a
    search reads its tables at random, so they must all be resident); what this process holds
    already costs nothing more. `what` names them ("the layers tables"), `advice` says what to
    do instead."""
    from .memory import available_bytes
    need = sum(s.expected_bytes or 0 for s in specs if not is_loaded(s))
    have = available_bytes()
    if have is not None and need > have:
        raise TableError(f"{what} need {need / 1e9:.1f} GB of memory and {have / 1e9:.1f} GB is "
                         f"available: {advice}")


def verify_table(spec) -> str | None:
    """None if the file is complete and its checksum matches, else the reason."""
    spec = resolve(spec)
    try:
        header, offset = read_header(table_path(spec), spec)
        map_data(table_path(spec), header, offset, check=True)
    except TableProblem as p:
        return str(p)
    return None


def clear_table(spec) -> bool:
    """Delete the table's file, the checkpoint of an unfinished build of it, and this
    process's copy; True if a file was removed."""
    spec = resolve(spec)
    _drop(spec.name)
    partial = remove_checkpoint(partial_path(table_path(spec)))
    try:
        table_path(spec).unlink()
        return True
    except FileNotFoundError:
        return partial
