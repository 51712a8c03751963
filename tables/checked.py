"""Which table files this user has read whole and found matching their checksum, so that a later
load need not read every byte again.

A load checks a table's CRC-32 over all its data: 0.3 s for the 423 MB two-phase table, paid by
every new process (`solve --file`, a one-shot `solve`, each workbench start) though the file has
not changed since the last check. After a check passes, a note goes under the user cache
directory: the file's identity as the kernel keeps it (device, inode, size, modification and
status-change times in nanoseconds) and the checksum its header holds. A load whose file still
has that identity skips the reading.

Why this is safe: any write to the file, in place or by replacing it, gives it a new
status-change time (no program can set that time back) or a new inode; a truncated file has
another size. The kernel stamps those times from a clock that moves in ticks of a few
milliseconds, so a write in the same tick as the check would keep the identity: a file changed
less than `SETTLED_NS` before its check is not noted (it is checked whole again next time, as
git treats "racily clean" files). Damage no program wrote (the disk's own bit rot) is what a note
would hide: `cubelab tables verify` always reads every byte. A note is a hint in the cache
directory: deleting it costs one full check, and a note that cannot be written is skipped.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

from cubelab.cube.paths import cache_dir

SETTLED_NS = 2_000_000_000
"""A file changed this recently (nanoseconds) is not noted as checked."""


def _identity(info: os.stat_result, crc: int, offset: int) -> dict:
    return {"dev": info.st_dev, "ino": info.st_ino, "size": info.st_size,
            "mtime_ns": info.st_mtime_ns, "ctime_ns": info.st_ctime_ns, "crc32": int(crc),
            "offset": int(offset)}


def _note_path(path: Path) -> Path:
    key = hashlib.sha256(os.fsencode(os.path.abspath(path))).hexdigest()[:32]
    return cache_dir() / "checked-tables" / f"{key}.json"


def was_checked(path: Path, info: os.stat_result, crc: int, offset: int) -> bool:
    """Whether the file at `path`, whose fstat is `info`, is the one checked whole before."""
    try:
        with open(_note_path(path), "rb") as f:
            note = json.loads(f.read(4096))
    except (OSError, ValueError):
        return False
    return isinstance(note, dict) and note.get("path") == os.path.abspath(path) and \
        note.get("identity") == _identity(info, crc, offset)


def note_checked(path: Path, info: os.stat_result, crc: int, offset: int) -> None:
    """Remember that the file (fstat `info`) matched its checksum `crc` just now, unless it
    changed too recently for its times to tell a later write apart."""
    changed = max(info.st_mtime_ns, info.st_ctime_ns)
    if time.time_ns() - changed < SETTLED_NS:
        return
    note = _note_path(path)
    body = json.dumps({"path": os.path.abspath(path),
                       "identity": _identity(info, crc, offset)}).encode()
    tmp = note.with_name(f".{note.name}.{os.getpid()}.tmp")
    try:
        note.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(body)
        os.replace(tmp, note)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
