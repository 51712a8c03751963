"""The on-disk table cache: specs, a checked file format, atomic writes, locking, load-or-build.

A table file `<data dir>/tables/v<FORMAT_VERSION>/<name>.npt` holds a 24-byte prefix (magic,
format version, header length, CRC-32 of the header), a JSON header (name, solver, params,
dtype, shape, nbytes, CRC-32 of the data, build time), then the data at a 64-byte aligned
offset, loaded by memory mapping. Anything that does not match what the spec asks for is rebuilt,
and the `log` callback is told why.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import re
import struct
import tempfile
import threading
import time
import zlib
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from cubelab.cube.paths import data_dir

from . import registry
from .lock import LockBusy, file_lock

FORMAT_VERSION = 1
MAGIC = b"CUBELABT"
_PREFIX = struct.Struct("<8sIII")   # magic, format version, header length, header crc32
_PREFIX_PAD = 8                    # prefix occupies 24 bytes, header starts there
_ALIGN = 64
_CHUNK = 1 << 24
SUFFIX = ".npt"
NOT_BUILT = "not built"

_log = logging.getLogger("cubelab.tables")
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


class BuildCancelled(Exception):
    """A build stopped because its cancel flag was raised; nothing was written."""


class TableError(RuntimeError):
    """A table could not be loaded or built (unknown name, dependency cycle, bad builder)."""


def canonical_params(params: dict) -> str:
    return json.dumps(params, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True, eq=False)
class TableSpec:
    """What defines a table: its name, the parameters its content depends on, and its builder."""

    name: str
    solver: str
    params: dict
    build: Callable[["BuildContext"], np.ndarray]
    description: str = ""
    deps: tuple[str, ...] = ()
    expected_bytes: int | None = None
    _key: str = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        if not _NAME_RE.match(self.name):
            raise ValueError(f"table name {self.name!r}: use letters, digits, '.', '_' or '-'")
        try:
            key = canonical_params(self.params)
        except TypeError as e:
            raise ValueError(f"table {self.name}: params must be plain JSON values ({e})") from None
        object.__setattr__(self, "_key", key)
        object.__setattr__(self, "deps", tuple(self.deps))

    @property
    def params_key(self) -> str:
        """The params as canonical JSON: equal keys mean equal table content."""
        return self._key


def register(spec: TableSpec) -> TableSpec:
    """Add a spec to the process-wide registry (idempotent by name)."""
    return registry.register(spec)


def registered() -> dict[str, TableSpec]:
    """Every spec, after importing the known table modules."""
    return registry.registered()


def resolve(spec_or_name) -> TableSpec:
    if isinstance(spec_or_name, TableSpec):
        return spec_or_name
    try:
        return registry.lookup(spec_or_name)
    except KeyError:
        raise TableError(f"unknown table {spec_or_name!r}") from None


def tables_dir() -> Path:
    return data_dir() / "tables" / f"v{FORMAT_VERSION}"


def table_path(spec) -> Path:
    name = spec.name if isinstance(spec, TableSpec) else str(spec)
    return tables_dir() / f"{name}{SUFFIX}"


# ---- the build context ------------------------------------------------------------------

class BuildContext:
    """What a builder receives: progress reporting, the cancel flag, counters, dependencies."""

    def __init__(self, spec: TableSpec, progress=None, cancel=None, log=None):
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


def _say(log, message: str, level=logging.INFO) -> None:
    if log is not None:
        log(message)
    else:
        _log.log(level, message)


# ---- the file format --------------------------------------------------------------------

def _crc(view: memoryview) -> int:
    crc = 0
    for start in range(0, len(view), _CHUNK):
        crc = zlib.crc32(view[start:start + _CHUNK], crc)
    return crc


def _flat_bytes(arr: np.ndarray) -> memoryview:
    return memoryview(arr.reshape(-1).view(np.uint8)) if arr.size else memoryview(b"")


def _encode_header(spec: TableSpec, arr: np.ndarray, crc: int, seconds: float) -> bytes:
    header = {
        "name": spec.name,
        "solver": spec.solver,
        "params": json.loads(spec.params_key),
        "dtype": arr.dtype.str,
        "shape": list(arr.shape),
        "nbytes": int(arr.nbytes),
        "crc32": crc,
        "build_seconds": round(seconds, 3),
        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    body = json.dumps(header, sort_keys=True).encode()
    prefix = _PREFIX.pack(MAGIC, FORMAT_VERSION, len(body), zlib.crc32(body))
    head = prefix + bytes(_PREFIX_PAD) + body
    return head + bytes(-len(head) % _ALIGN)


class _Problem(Exception):
    """Why a file cannot be used (the message goes to the user)."""


def _data_offset(header_len: int) -> int:
    n = _PREFIX.size + _PREFIX_PAD + header_len
    return n + (-n % _ALIGN)


def _read_header(path: Path, spec: TableSpec) -> tuple[dict, int]:
    """The header and data offset of a file that looks right for `spec`, or _Problem."""
    try:
        size = path.stat().st_size
        with open(path, "rb") as f:
            prefix = f.read(_PREFIX.size + _PREFIX_PAD)
            if not (prefix.startswith(MAGIC) or MAGIC.startswith(prefix)):
                raise _Problem("not a cubelab table file (foreign or damaged)")
            if len(prefix) < _PREFIX.size + _PREFIX_PAD:
                raise _Problem(f"truncated ({size} bytes, shorter than a header)")
            magic, version, hlen, hcrc = _PREFIX.unpack(prefix[:_PREFIX.size])
            if version != FORMAT_VERSION:
                raise _Problem(f"written in table format {version}, this program reads "
                               f"format {FORMAT_VERSION}")
            body = f.read(hlen)
    except FileNotFoundError:
        raise _Problem(NOT_BUILT) from None
    except OSError as e:
        raise _Problem(f"cannot read ({e.strerror})") from None
    if len(body) < hlen:
        raise _Problem(f"truncated ({size} bytes, inside the header)")
    if zlib.crc32(body) != hcrc:
        raise _Problem("header damaged (checksum mismatch)")
    try:
        header = json.loads(body)
        dtype = np.dtype(header["dtype"])
        shape = tuple(int(n) for n in header["shape"])
        nbytes = int(header["nbytes"])
        int(header["crc32"])
    except (ValueError, KeyError, TypeError) as e:
        raise _Problem(f"header damaged ({e})") from None
    if header.get("name") != spec.name:
        raise _Problem(f"the file holds table {header.get('name')!r}")
    stored = canonical_params(header.get("params"))
    if stored != spec.params_key:
        raise _Problem(f"parameters changed ({_params_diff(header.get('params'), spec.params)})")
    if dtype.hasobject or int(np.prod(shape, dtype=np.int64)) * dtype.itemsize != nbytes:
        raise _Problem("header damaged (dtype and shape disagree with the size)")
    offset = _data_offset(hlen)
    if size < offset + nbytes:
        raise _Problem(f"truncated ({size} of {offset + nbytes} bytes)")
    if size > offset + nbytes:
        raise _Problem(f"damaged ({size - offset - nbytes} unexpected trailing bytes)")
    return header, offset


def _params_diff(old, new) -> str:
    if not isinstance(old, dict):
        return f"stored {old!r}"
    new = json.loads(canonical_params(new))
    parts = []
    for key in sorted(set(old) | set(new)):
        if old.get(key, "<absent>") != new.get(key, "<absent>"):
            parts.append(f"{key}: {old.get(key, '<absent>')!r} -> {new.get(key, '<absent>')!r}")
    return "; ".join(parts) or "reordered"


def _map_data(path: Path, header: dict, offset: int, check: bool) -> np.ndarray:
    """The data as a read-only array mapped from the file; with check, its CRC is verified."""
    dtype, shape, nbytes = np.dtype(header["dtype"]), tuple(header["shape"]), header["nbytes"]
    if nbytes == 0:
        arr = np.empty(shape, dtype=dtype)
        arr.flags.writeable = False
        return arr
    try:
        raw = np.memmap(path, dtype=np.uint8, mode="r", offset=offset, shape=(nbytes,))
    except (OSError, ValueError) as e:
        raise _Problem(f"cannot map ({e})") from None
    if check and _crc(memoryview(raw)) != header["crc32"]:
        raise _Problem("data damaged (checksum mismatch)")
    arr = raw.view(np.ndarray).view(dtype).reshape(shape)
    arr.flags.writeable = False
    return arr


def _try_load(spec: TableSpec, path: Path) -> tuple[np.ndarray | None, str | None]:
    try:
        header, offset = _read_header(path, spec)
        return _map_data(path, header, offset, check=True), None
    except _Problem as p:
        return None, str(p)


def _write(spec: TableSpec, path: Path, arr: np.ndarray, seconds: float) -> None:
    """Write atomically: a temporary file in the same directory, fsynced, then renamed."""
    data = _flat_bytes(arr)
    head = _encode_header(spec, arr, _crc(data), seconds)
    fd, tmp = tempfile.mkstemp(prefix=f".{spec.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            _write_all(f, head)
            for start in range(0, len(data), _CHUNK):
                _write_all(f, data[start:start + _CHUNK])
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(path.parent)


def _write_all(f, chunk) -> None:
    # One place every byte goes through, so tests can make the disk "full".
    f.write(chunk)


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems refuse fsync on directories; the rename is still done
    finally:
        os.close(fd)


# ---- the in-process cache and load_or_build ----------------------------------------------

_cache: dict[str, tuple[str, np.ndarray, bool]] = {}   # name -> (params key, array, on disk)
_cache_lock = threading.Lock()
_name_locks: dict[str, threading.RLock] = {}
_building = threading.local()


def _drop(name: str) -> None:
    with _cache_lock:
        _cache.pop(name, None)


registry.on_replace(_drop)


def _cached(spec: TableSpec) -> np.ndarray | None:
    with _cache_lock:
        hit = _cache.get(spec.name)
    if hit is not None and hit[0] == spec.params_key:
        return hit[1]
    return None


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
            arr, _ = _run_build(spec, progress, cancel, log)
            return arr, False
        # Another process may have finished it while we waited for the lock.
        arr, problem = _try_load(spec, path)
        if arr is not None:
            return arr, True
        arr, seconds = _run_build(spec, progress, cancel, log)
        try:
            _write(spec, path, arr, seconds)
        except OSError as e:
            _say(log, _unsaved_message(spec, path.parent, e), logging.WARNING)
            return arr, False
        return arr, True


def _unsaved_message(spec: TableSpec, directory: Path, e: OSError) -> str:
    reason = e.strerror or str(e)
    if e.errno in (errno.ENOSPC, errno.EDQUOT):
        reason = "disk full"
    elif e.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        reason = f"read-only ({e.strerror})"
    return (f"cannot save {spec.name} in {directory}: {reason}; "
            f"the table is kept in memory for this session")


def _run_build(spec: TableSpec, progress, cancel, log) -> tuple[np.ndarray, float]:
    """Run the builder with a watcher thread that forwards the kernel's counters to progress."""
    if cancel[0]:
        raise BuildCancelled(spec.name)
    ctx = BuildContext(spec, progress, cancel, log)
    _say(log, f"building {spec.name}")
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
    _say(log, f"built {spec.name} in {seconds:.1f} s ({arr.nbytes:,} bytes)")
    return arr, seconds


# ---- status, verification, clearing ------------------------------------------------------

def table_status(spec) -> dict:
    """name, solver, description, bytes, built, path, problem (header checks only: quick);
    plus in_memory (held by this process without a file) and params."""
    spec = resolve(spec)
    path = table_path(spec)
    problem = None
    size = spec.expected_bytes
    try:
        _read_header(path, spec)
        size = path.stat().st_size
        built = True
    except (_Problem, OSError) as p:
        built = False
        problem = None if str(p) == NOT_BUILT else str(p)
    with _cache_lock:
        hit = _cache.get(spec.name)
    in_memory = bool(hit and hit[0] == spec.params_key and not hit[2])
    return {
        "name": spec.name, "solver": spec.solver, "description": spec.description,
        "bytes": size, "built": built, "path": str(path), "problem": problem,
        "in_memory": in_memory, "params": spec.params,
    }


def verify_table(spec) -> str | None:
    """None if the file is complete and its checksum matches, else the reason."""
    spec = resolve(spec)
    try:
        header, offset = _read_header(table_path(spec), spec)
        _map_data(table_path(spec), header, offset, check=True)
    except _Problem as p:
        return str(p)
    return None


def lock_path(spec) -> Path:
    path = table_path(spec)
    return path.with_name(path.name + ".lock")


def clear_stray_files() -> list[str]:
    """Delete what no registered spec accounts for: files of tables no longer registered and
    temporary files left by builds that were killed (not those of builds still running).
    Returns the names of what was removed."""
    directory = tables_dir()
    if not directory.is_dir():
        return []
    known = {table_path(s).name for s in registered().values()}
    removed = []
    for path in sorted(directory.iterdir()):
        if path.name.endswith(SUFFIX) and path.name not in known:
            name = path.name[:-len(SUFFIX)]
        elif path.name.startswith(".") and path.name.endswith(".tmp"):
            name = path.name[1:-len(".tmp")].rsplit(".", 1)[0]
        else:
            continue
        try:
            with file_lock(directory / f"{name}{SUFFIX}.lock", wait=False):
                path.unlink()
        except (LockBusy, OSError):
            continue
        removed.append(path.name)
    return removed


def clear_table(spec) -> bool:
    """Delete the table's file (and this process's copy); True if a file was removed."""
    spec = resolve(spec)
    _drop(spec.name)
    try:
        table_path(spec).unlink()
        return True
    except FileNotFoundError:
        return False
