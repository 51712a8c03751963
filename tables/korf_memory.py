"""Copies of large tables into anonymous memory backed by transparent huge pages.

A search probes its tables at random: with 4 KiB pages nearly every probe of a table of
hundreds of megabytes also misses the TLB. The store maps table files read-only (page-cache
pages, 4 KiB); a private copy the kernel may back with 2 MiB pages costs one copy at load.
"""

from __future__ import annotations

import mmap

import numpy as np

_HUGE = 2 << 20
MIN_BYTES = 8 << 20
"""Smaller tables stay where they are (they mostly live in the caches anyway)."""


def hugepage_copy(arr: np.ndarray) -> np.ndarray:
    """A read-only copy of arr in memory advised for huge pages (arr itself where the platform
    has no such advice, or for small arrays)."""
    advice = getattr(mmap, "MADV_HUGEPAGE", None)
    if arr.nbytes < MIN_BYTES or advice is None:
        return arr
    size = -(-arr.nbytes // _HUGE) * _HUGE
    try:
        buf = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        buf.madvise(advice)
    except (OSError, ValueError, AttributeError):
        return arr
    out = np.frombuffer(buf, dtype=np.uint8, count=arr.nbytes)
    out[:] = np.ascontiguousarray(arr).reshape(-1).view(np.uint8)
    out = out.view(arr.dtype).reshape(arr.shape)
    out.flags.writeable = False
    return out
