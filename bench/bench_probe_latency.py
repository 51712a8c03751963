"""What a random table probe costs on this machine, by table size: the floor under Korf's search.

Run: .venv/bin/python bench/bench_probe_latency.py [SIZE_MB ...]   (default 64 864 2624)
For each size, a table on transparent huge pages (as tables.memory makes them) is read at 2
million random places three ways: each read waiting for the one before (latency: what a search
pays when nothing overlaps), independent reads (what the memory system overlaps by itself), and
independent reads prefetched 16 ahead. Prints nanoseconds per read and how much of the table
the kernel backed with huge pages.
"""

from __future__ import annotations

import mmap
import sys
import time

import numpy as np

import cubelab.tables  # noqa: F401  (numba cache location, before numba)
from numba import njit

from cubelab.tables.memory import prefetch


def huge_table(nbytes: int) -> np.ndarray:
    buf = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    if hasattr(mmap, "MADV_HUGEPAGE"):
        buf.madvise(mmap.MADV_HUGEPAGE)
    t = np.frombuffer(buf, np.uint8)
    t[:] = 1
    return t


@njit(nogil=True)
def dependent(t, idx):
    s = 0
    for i in range(idx.shape[0]):
        s += t[(idx[i] + s) % t.shape[0]]
    return s


@njit(nogil=True)
def independent(t, idx):
    s = 0
    for i in range(idx.shape[0]):
        s += t[idx[i]]
    return s


@njit(nogil=True)
def prefetched(t, idx, ahead):
    s = 0
    n = idx.shape[0]
    for i in range(n):
        if i + ahead < n:
            prefetch(t, idx[i + ahead])
        s += t[idx[i]]
    return s


def huge_kb() -> int:
    with open("/proc/self/smaps_rollup") as f:
        return next((int(line.split()[1]) for line in f if line.startswith("AnonHugePages")), 0)


def main() -> int:
    sizes = [int(x) for x in sys.argv[1:]] or [64, 864, 2624]
    print(f"{'table':>9} {'huge pages':>11} {'dependent':>10} {'independent':>12} "
          f"{'prefetched':>11}  (ns per read)")
    for mb in sizes:
        before = huge_kb()
        t = huge_table(mb << 20)
        huge = (huge_kb() - before) / 1024
        idx = np.random.default_rng(1).integers(0, t.shape[0], 2_000_000).astype(np.int64)
        row = []
        for f, args in ((dependent, (t, idx)), (independent, (t, idx)),
                        (prefetched, (t, idx, 16))):
            f(*args)
            start = time.perf_counter()
            f(*args)
            row.append((time.perf_counter() - start) / len(idx) * 1e9)
        print(f"{mb:>6} MB {huge:>8.0f} MB {row[0]:>10.1f} {row[1]:>12.1f} {row[2]:>11.1f}")
        del t
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
