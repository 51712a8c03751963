"""Memory for tables probed at random: private huge-page copies, narrow copies of the small ones
read at every node, and a software prefetch.

A search probes its tables at random: with 4 KiB pages nearly every probe of a table of tens or
hundreds of megabytes also misses the TLB, and the first probe of each page of a file mapping
faults. A private copy the kernel may back with 2 MiB pages costs one copy at load, once per
process (copies are kept per source array). The prefetch asks the processor to start loading an
element's cache line now, so a probe issued a little later finds it in the cache.

Where several processes of one host solve side by side (batch and cluster workers), a private
copy each would multiply the memory (Korf's tables are 1 GB): `share_mappings()` makes
`resident` hand back the file mapping itself, advised for huge pages and faulted in at once, so
every process reads the page cache's one copy (file systems with large folios, such as ext4 on
Linux 6.16 and later, then map it with 2 MiB pages too).
"""

from __future__ import annotations

import mmap
import threading
import weakref

import numpy as np

from llvmlite import binding, ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from cubelab.tables.jit import inline_kernel

_HUGE = 2 << 20
MIN_BYTES = 1 << 20
"""Smaller tables stay where they are (they live in the caches anyway)."""

# id(source) -> (source, weak reference to its copy): the copy lives as long as a solver holds
# it, so a solver let go (the workbench switching table sets) gives its memory back
_RESIDENT: dict[int, tuple[np.ndarray, weakref.ref]] = {}
_LOCK = threading.Lock()
_SHARED = False
# Linux 5.14's "fault the whole range in now" (Python 3.11's mmap module does not name it).
_MADV_POPULATE_READ = getattr(mmap, "MADV_POPULATE_READ", 22)


def share_mappings() -> None:
    """From now on in this process, `resident` returns memory-mapped tables as they are (one
    copy per host, in the page cache) instead of making private copies. Call it before the
    solver's prepare(); a forked child keeps whatever its parent prepared."""
    global _SHARED
    _SHARED = True


def resident(arr: np.ndarray) -> np.ndarray:
    """A read-only private copy of arr in memory advised for huge pages (arr itself for small
    arrays or where the platform cannot map anonymous memory); one copy per source array while
    anything holds it (two table sets sharing a table share its copy)."""
    if arr.nbytes < MIN_BYTES:
        return arr
    if _SHARED:
        _advise_mapping(arr)
        return arr
    with _LOCK:
        hit = _RESIDENT.get(id(arr))
        copy = hit[1]() if hit is not None and hit[0] is arr else None
        if copy is None:                        # holding the source keeps its id unique
            copy = _hugepage_copy(arr)
            _RESIDENT[id(arr)] = (arr, weakref.ref(copy))
        return copy


def narrowed(arr: np.ndarray) -> np.ndarray:
    """arr as a read-only uint16 copy where its values fit (arr itself otherwise).

    For the small tables a search reads at every node (move and symmetry maps): each probe of a
    big table evicts a line of the caches, so the small tables' lines are often gone by the next
    node, and half the bytes keeps twice as many of them. Measured on the layers kernel, one
    thread, the same searches interleaved: its five int32 maps as uint16 took 11-13 % off the
    CPU time (its 32-bit node rows, lanes.new_lanes, another 8 %)."""
    if arr.dtype == np.uint16 or arr.size == 0 or arr.min() < 0 or arr.max() > 0xFFFF:
        return arr
    out = np.ascontiguousarray(arr, dtype=np.uint16)
    out.flags.writeable = False
    return out


def available_bytes() -> int | None:
    """The memory the system could give this process now (Linux's MemAvailable), or None."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def zeroed(nbytes: int, huge_pages: bool) -> np.ndarray:
    """A writable uint8 array of zeros whose pages the system supplies on first touch: a table
    builder that writes only part of a large table (a build a few moves deep) costs only the
    pages it writes. huge_pages asks for 2 MiB pages (a full build: fewer TLB misses), which
    would also turn each scattered write into 2 MiB of memory."""
    size = -(-max(1, nbytes) // _HUGE) * _HUGE if huge_pages else max(1, nbytes)
    try:
        buf = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    except (OSError, ValueError, AttributeError):
        return np.zeros(nbytes, np.uint8)
    advice = getattr(mmap, "MADV_HUGEPAGE" if huge_pages else "MADV_NOHUGEPAGE", None)
    if advice is not None:
        try:
            buf.madvise(advice)
        except OSError:
            pass   # the system's default pages: same contents
    return np.frombuffer(buf, dtype=np.uint8, count=nbytes)


def _advise_mapping(arr: np.ndarray) -> None:
    """Ask for huge pages on the file mapping under arr and fault it in now (so a search never
    waits on a page fault); arrays built in memory, and kernels that refuse, are left as they
    are."""
    base = _file_mapping(arr)
    if base is None:
        return
    for advice in (getattr(mmap, "MADV_HUGEPAGE", None), _MADV_POPULATE_READ):
        if advice is not None:
            try:
                base.madvise(advice)
            except (OSError, ValueError):
                pass   # an older kernel: the pages come on first touch, 4 KiB at a time


def _hugepage_copy(arr: np.ndarray) -> np.ndarray:
    out = zeroed(arr.nbytes, huge_pages=True)
    src = np.ascontiguousarray(arr).reshape(-1).view(np.uint8)
    mapping = _file_mapping(src)
    # where src starts within the mapping (the file's header comes first)
    at = None if mapping is None else \
        src.ctypes.data - np.frombuffer(mapping, np.uint8, count=0).ctypes.data
    for lo in range(0, arr.nbytes, _CHUNK):
        hi = min(arr.nbytes, lo + _CHUNK)
        out[lo:hi] = src[lo:hi]
        if mapping is not None:
            _release(mapping, at + lo, hi - lo)
    out = out.view(arr.dtype).reshape(arr.shape)
    out.flags.writeable = False
    return out


_CHUNK = 64 << 20
"""Bytes copied between two releases of the file mapping's pages."""


def faulted_in(arr: np.ndarray) -> np.ndarray:
    """arr as it is, its file mapping's pages (if it has one) faulted in now: for tables small
    enough that huge pages gain little, where `resident`'s copy would cost more than it saves."""
    _advise_mapping(arr)
    return arr


def _file_mapping(arr: np.ndarray):
    """The mmap under arr, or None (an array built in memory)."""
    base = arr
    while base is not None and not isinstance(base, mmap.mmap):
        base = getattr(base, "base", None)
    return base


def _release(mapping, offset: int, size: int) -> None:
    """Drop this process's pages of mapping[offset:offset + size] once copied: the copy is the
    one the search reads, so the process holds one copy of the table, not two (the file stays
    in the page cache, which the kernel may reclaim)."""
    page = mmap.PAGESIZE
    first = -(-offset // page) * page
    last = (offset + size) // page * page
    if last > first:
        try:
            mapping.madvise(mmap.MADV_DONTNEED, first, last - first)
        except (OSError, ValueError, AttributeError):
            pass   # the pages stay mapped: more memory, same answers


# LLVM names the intrinsic by its pointer type: opaque pointers ("p0") from LLVM 15 on.
_NAME = "llvm.prefetch.p0" if binding.llvm_version_info >= (15,) else "llvm.prefetch.p0i8"


@intrinsic
def prefetch(typingctx, arr, index):
    """prefetch(arr, i): a read hint for arr[i] (no effect on results; never faults)."""
    if not isinstance(arr, types.Array) or not isinstance(index, types.Integer):
        return None
    sig = types.void(arr, index)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]],
                                       wraparound=False)
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, _NAME)
        # read, highest temporal locality, data cache
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return sig, codegen


@inline_kernel
def prefetch_all(arr, slots, n, shift):
    """Prefetch arr[slots[i] >> shift] for i < n, back to back.

    The layers kernel computes a stage's table indices first and prefetches them all here,
    rather than prefetching each index inside the loop that computes it: the same searches ran
    at 1.28x the nodes per CPU-second on two threads (1.5x on one). The strong set's kernel, on
    a table a third the size, showed no gain and is left as it was. A plain probe benchmark with
    the same two patterns showed no gap either, so the gain comes from the kernel's loop, where
    a prefetch between a child's table reads and its stores seems to keep the compiler or the
    core from overlapping them."""
    for i in range(n):
        prefetch(arr, slots[i] >> shift)
