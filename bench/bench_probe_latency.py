"""What a random table probe costs on this machine, by table size: the floor under Korf's search.

For each size (--sizes, MB), a table on transparent huge pages (as tables.memory makes them) is
read at 2 million random places three ways: each read waiting for the one before (dependent:
what a search pays when nothing overlaps), independent reads (what the memory system overlaps by
itself), and independent reads prefetched 16 ahead. Reports nanoseconds per read and how much
of the table the kernel backed with huge pages.

    .venv/bin/python bench/bench_probe_latency.py --sizes 64 864 2624
"""

from __future__ import annotations

import mmap
import time

import numpy as np
from numba import njit

from contenders import Function
from harness import Bench

from cubelab.tables.memory import prefetch

READS = 2_000_000

bench = Bench(__file__, __doc__, count=1)
bench.parser.add_argument("--sizes", type=int, nargs="*", default=[64, 864, 2624], metavar="MB")


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
def prefetched(t, idx):
    s = 0
    n = idx.shape[0]
    for i in range(n):
        if i + 16 < n:
            prefetch(t, idx[i + 16])
        s += t[idx[i]]
    return s


def huge_kb() -> int:
    with open("/proc/self/smaps_rollup") as f:
        return next((int(line.split()[1]) for line in f if line.startswith("AnonHugePages")), 0)


_table: dict = {}


def table_of(case):
    """The table of the case's size (made once, shared by the three ways) and the places."""
    mb = case["id"]
    if _table.get("mb") != mb:
        _table.clear()
        before = huge_kb()
        buf = mmap.mmap(-1, mb << 20, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        if hasattr(mmap, "MADV_HUGEPAGE"):
            buf.madvise(mmap.MADV_HUGEPAGE)
        t = np.frombuffer(buf, np.uint8)
        t[:] = 1
        idx = np.random.default_rng(1).integers(0, t.shape[0], READS).astype(np.int64)
        _table.update(mb=mb, t=t, idx=idx, huge_mb=(huge_kb() - before) / 1024)
    return _table


def _way(kernel):
    def factory(args):
        def run(tab):
            kernel(tab["t"], tab["idx"])        # compiled, and the table's pages touched
            start = time.perf_counter()
            kernel(tab["t"], tab["idx"])
            seconds = time.perf_counter() - start
            return {"seconds": seconds, "ns_per_read": seconds / READS * 1e9,
                    "huge_pages_mb": tab["huge_mb"]}
        return Function(kernel.__name__, run, setup=table_of)
    bench.contender(kernel.__name__)(factory)


for _kernel in (dependent, independent, prefetched):
    _way(_kernel)


def main(argv=None) -> int:
    args = bench.parse(argv)
    bench.begin(args)
    bench.compare(args, [{"id": mb} for mb in args.sizes], fields=("ns_per_read",),
                  rotate=False, show=lambda c, case, o: f"{o['ns_per_read']:6.1f} ns a read, "
                                                        f"{o['huge_pages_mb']:.0f} MB huge pages")
    bench.finish(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
