"""The table file format: a checked header and the data, written atomically, read by mapping.

A file holds a 24-byte prefix (magic, format version, header length, CRC-32 of the header), a
JSON header (name, solver, params, dtype, shape, nbytes, CRC-32 of the data, build time), then
the data at a 64-byte aligned offset. `read_header` and `map_data` raise `TableProblem` with a
message for the user for anything that does not match what the spec asks for.

A build's checkpoint (checkpoint.py) is the same format with a `checkpoint` entry in its
header (what the builder needs to go on from it): `read_header` refuses it as a table, and
refuses a table as a checkpoint.
"""

from __future__ import annotations

import json
import os
import struct
import tempfile
import time
import zlib
from pathlib import Path

import numpy as np

from cubelab.cube.files import FileProblem, open_regular

from .checked import note_checked, was_checked
from .spec import TableSpec, canonical_params

FORMAT_VERSION = 1
MAGIC = b"CUBELABT"
SUFFIX = ".npt"
NOT_BUILT = "not built"
_PREFIX = struct.Struct("<8sIII")   # magic, format version, header length, header crc32
_PREFIX_PAD = 8                    # prefix occupies 24 bytes, header starts there
_ALIGN = 64
_CHUNK = 1 << 24


class TableProblem(Exception):
    """Why a file cannot be used (the message goes to the user)."""


def crc32(view: memoryview) -> int:
    crc = 0
    for start in range(0, len(view), _CHUNK):
        crc = zlib.crc32(view[start:start + _CHUNK], crc)
    return crc


def _flat_bytes(arr: np.ndarray) -> memoryview:
    return memoryview(arr.reshape(-1).view(np.uint8)) if arr.size else memoryview(b"")


def encode_header(spec: TableSpec, arr: np.ndarray, crc: int, seconds: float,
                  checkpoint: dict | None = None) -> bytes:
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
    if checkpoint is not None:
        header["checkpoint"] = checkpoint
    body = json.dumps(header, sort_keys=True).encode()
    prefix = _PREFIX.pack(MAGIC, FORMAT_VERSION, len(body), zlib.crc32(body))
    head = prefix + bytes(_PREFIX_PAD) + body
    return head + bytes(-len(head) % _ALIGN)


def data_offset(header_len: int) -> int:
    n = _PREFIX.size + _PREFIX_PAD + header_len
    return n + (-n % _ALIGN)


def read_header(path: Path, spec: TableSpec, checkpoint: bool = False) -> tuple[dict, int]:
    """The header and data offset of a file that looks right for `spec` (a build's checkpoint
    with `checkpoint`, else a finished table), or TableProblem."""
    try:
        # never a hang on a FIFO left where a table belongs: a regular file or a problem
        f = os.fdopen(open_regular(path), "rb")
        size = os.fstat(f.fileno()).st_size
        with f:
            prefix = f.read(_PREFIX.size + _PREFIX_PAD)
            if not (prefix.startswith(MAGIC) or MAGIC.startswith(prefix)):
                raise TableProblem("not a cubelab table file (foreign or damaged)")
            if len(prefix) < _PREFIX.size + _PREFIX_PAD:
                raise TableProblem(f"truncated ({size} bytes, shorter than a header)")
            magic, version, hlen, hcrc = _PREFIX.unpack(prefix[:_PREFIX.size])
            if version != FORMAT_VERSION:
                raise TableProblem(f"written in table format {version}, this program reads "
                               f"format {FORMAT_VERSION}")
            body = f.read(hlen)
    except FileNotFoundError:
        raise TableProblem(NOT_BUILT) from None
    except FileProblem as e:
        raise TableProblem(str(e)) from None
    except OSError as e:
        raise TableProblem(f"cannot read ({e.strerror})") from None
    if len(body) < hlen:
        raise TableProblem(f"truncated ({size} bytes, inside the header)")
    if zlib.crc32(body) != hcrc:
        raise TableProblem("header damaged (checksum mismatch)")
    try:
        header = json.loads(body)
        dtype = np.dtype(header["dtype"])
        shape = tuple(int(n) for n in header["shape"])
        nbytes = int(header["nbytes"])
        int(header["crc32"])
    except (ValueError, KeyError, TypeError) as e:
        raise TableProblem(f"header damaged ({e})") from None
    if header.get("name") != spec.name:
        raise TableProblem(f"the file holds table {header.get('name')!r}")
    if checkpoint != isinstance(header.get("checkpoint"), dict):
        raise TableProblem("a finished table, not a checkpoint" if checkpoint else
                           "an unfinished build's checkpoint, not a table")
    stored = canonical_params(header.get("params"))
    if stored != spec.params_key:
        raise TableProblem(
            f"parameters changed ({_params_diff(header.get('params'), spec.params)})")
    if dtype.hasobject or int(np.prod(shape, dtype=np.int64)) * dtype.itemsize != nbytes:
        raise TableProblem("header damaged (dtype and shape disagree with the size)")
    offset = data_offset(hlen)
    if size < offset + nbytes:
        raise TableProblem(f"truncated ({size} of {offset + nbytes} bytes)")
    if size > offset + nbytes:
        raise TableProblem(f"damaged ({size - offset - nbytes} unexpected trailing bytes)")
    return header, offset


def stored_header(path: Path) -> dict | None:
    """A file's header as stored (name, params, ...) when its prefix and checksum check out,
    None otherwise: what a module that makes specs from parameters needs to know a file."""
    try:
        with open(path, "rb") as f:
            prefix = f.read(_PREFIX.size + _PREFIX_PAD)
            if len(prefix) < _PREFIX.size or not prefix.startswith(MAGIC):
                return None
            _, version, hlen, hcrc = _PREFIX.unpack(prefix[:_PREFIX.size])
            if version != FORMAT_VERSION or hlen > 1 << 24:
                return None
            body = f.read(hlen)
        if len(body) < hlen or zlib.crc32(body) != hcrc:
            return None
        header = json.loads(body)
        return header if isinstance(header, dict) else None
    except (OSError, ValueError):
        return None


def _params_diff(old, new) -> str:
    if not isinstance(old, dict):
        return f"stored {old!r}"
    new = json.loads(canonical_params(new))
    parts = []
    for key in sorted(set(old) | set(new)):
        if old.get(key, "<absent>") != new.get(key, "<absent>"):
            parts.append(f"{key}: {old.get(key, '<absent>')!r} -> {new.get(key, '<absent>')!r}")
    return "; ".join(parts) or "reordered"


def map_data(path: Path, header: dict, offset: int, check: bool,
             noted: bool = False) -> np.ndarray:
    """The data as a read-only array mapped from the file; with check, its CRC is verified,
    except, with `noted`, on a file unchanged since a check passed (tables/checked.py)."""
    dtype, shape, nbytes = np.dtype(header["dtype"]), tuple(header["shape"]), header["nbytes"]
    if nbytes == 0:
        arr = np.empty(shape, dtype=dtype)
        arr.flags.writeable = False
        return arr
    try:
        # the identity noted is that of the file mapped (a rename in between cannot swap it)
        with os.fdopen(open_regular(path), "rb") as f:
            info = os.fstat(f.fileno())
            raw = np.memmap(f, dtype=np.uint8, mode="r", offset=offset, shape=(nbytes,))
    except (OSError, ValueError, FileProblem) as e:
        raise TableProblem(f"cannot map ({e})") from None
    crc = header["crc32"]
    if check and not (noted and was_checked(path, info, crc, offset)):
        if crc32(memoryview(raw)) != crc:
            raise TableProblem("data damaged (checksum mismatch)")
        if noted:
            note_checked(path, info, crc, offset)
    arr = raw.view(np.ndarray).view(dtype).reshape(shape)
    arr.flags.writeable = False
    return arr


def write_table(spec: TableSpec, path: Path, arr: np.ndarray, seconds: float,
                checkpoint: dict | None = None) -> None:
    """Write atomically: a temporary file in the same directory, fsynced, then renamed
    (`checkpoint`: the file is a build's checkpoint, see checkpoint.py)."""
    data = _flat_bytes(arr)
    head = encode_header(spec, arr, crc32(data), seconds, checkpoint)
    fd, tmp = tempfile.mkstemp(prefix=f".{spec.name}.", suffix=".tmp", dir=path.parent)
    _writing.add(tmp)
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
    finally:
        _writing.discard(tmp)
    _fsync_dir(path.parent)


_writing: set[str] = set()
"""Temporary files this process is writing now (see remove_partial_writes)."""


def remove_partial_writes() -> None:
    """Delete the temporary files of writes under way: called by a process about to exit
    abruptly (Ctrl-C, SIGTERM) while a thread it abandons is still writing a table."""
    for tmp in list(_writing):
        try:
            os.unlink(tmp)
        except OSError:
            pass


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
