"""A level of the count (its keys sorted inside buckets) and the kernels that merge levels.

The kernels sort, deduplicate, merge and total levels, several threads at once over bucket
ranges.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable

import numpy as np

from cubelab.tables.jit import kernel

from ..classkeys import N_BUCKETS, class_sizes, encode


@kernel
def bucket_histogram(out_bucket, n, hist):
    for i in range(n):
        hist[out_bucket[i]] += 1


@kernel
def bucket_scatter(out_bucket, out_key, n, cursor, dest):
    for i in range(n):
        b = out_bucket[i]
        dest[cursor[b]] = out_key[i]
        cursor[b] += 1


@kernel
def sort_dedupe(offsets, keys, b0, b1, p1_off, p1_keys, p2_off, p2_keys, kept):
    """For buckets b0..b1-1: sort, drop repeats and keys present in the two earlier levels,
    compacting survivors to the front of each bucket (kept[b] of them)."""
    for b in range(b0, b1):
        s, e = offsets[b], offsets[b + 1]
        if e == s:
            kept[b] = 0
            continue
        keys[s:e].sort()
        i1, e1 = p1_off[b], p1_off[b + 1]
        i2, e2 = p2_off[b], p2_off[b + 1]
        w = s
        last = np.uint64(0)
        have_last = False
        for r in range(s, e):
            k = keys[r]
            if have_last and k == last:
                continue
            last = k
            have_last = True
            while i1 < e1 and p1_keys[i1] < k:
                i1 += 1
            if i1 < e1 and p1_keys[i1] == k:
                continue
            while i2 < e2 and p2_keys[i2] < k:
                i2 += 1
            if i2 < e2 and p2_keys[i2] == k:
                continue
            keys[w] = k
            w += 1
        kept[b] = w - s


@kernel
def compact(offsets, keys, kept, new_offsets, new_keys, b0, b1):
    for b in range(b0, b1):
        s = offsets[b]
        d = new_offsets[b]
        for i in range(kept[b]):
            new_keys[d + i] = keys[s + i]


@kernel
def merge_count(a_off, a_keys, b_off, b_keys, b0, b1, sizes):
    """sizes[b] = the size of the union of the two sorted, repeat-free buckets b."""
    for b in range(b0, b1):
        i, ie = a_off[b], a_off[b + 1]
        j, je = b_off[b], b_off[b + 1]
        n = 0
        while i < ie and j < je:
            if a_keys[i] < b_keys[j]:
                i += 1
            elif b_keys[j] < a_keys[i]:
                j += 1
            else:
                i += 1
                j += 1
            n += 1
        sizes[b] = n + (ie - i) + (je - j)


@kernel
def merge_write(a_off, a_keys, b_off, b_keys, b0, b1, out_off, out):
    for b in range(b0, b1):
        i, ie = a_off[b], a_off[b + 1]
        j, je = b_off[b], b_off[b + 1]
        w = out_off[b]
        while i < ie or j < je:
            if j >= je or (i < ie and a_keys[i] < b_keys[j]):
                out[w] = a_keys[i]
                i += 1
            elif i >= ie or b_keys[j] < a_keys[i]:
                out[w] = b_keys[j]
                j += 1
            else:
                out[w] = a_keys[i]
                i += 1
                j += 1
            w += 1


@kernel
def level_stats(keys, start, stop, stats):
    """stats += (positions, classes up to symmetry, classes up to symmetry and inversion)."""
    for r in range(start, stop):
        positions, classes = class_sizes(keys[r])
        stats[0] += positions
        stats[1] += classes
        stats[2] += 1


@dataclass
class Level:
    """The canonical representatives of one distance: keys sorted inside each bucket."""

    offsets: np.ndarray     # int64[N_BUCKETS + 1]
    keys: np.ndarray        # uint64

    def __len__(self) -> int:
        return int(self.keys.shape[0])

    @classmethod
    def empty(cls) -> "Level":
        return cls(np.zeros(N_BUCKETS + 1, np.int64), np.zeros(0, np.uint64))


def identity_level() -> Level:
    """Depth 0: the solved cube's class alone."""
    ident = np.zeros(40, np.uint8)
    ident[0:8] = np.arange(8)
    ident[16:28] = np.arange(12)
    bucket, key = encode(ident, 48, 48)
    offsets = np.zeros(N_BUCKETS + 1, np.int64)
    offsets[bucket + 1:] = 1
    return Level(offsets, np.array([key], np.uint64))


def split(total: int, parts: int) -> list[tuple[int, int]]:
    """[0, total) cut into at most `parts` non-empty ranges of about equal size."""
    edges = [total * i // parts for i in range(parts + 1)]
    return [(edges[i], edges[i + 1]) for i in range(parts) if edges[i + 1] > edges[i]]


def bucket_ranges(offsets: np.ndarray, parts: int) -> list[tuple[int, int]]:
    """Contiguous bucket ranges holding about equal numbers of keys."""
    total = int(offsets[-1])
    cuts = [0]
    for i in range(1, parts):
        cuts.append(int(np.searchsorted(offsets, total * i // parts, side="left")))
    cuts.append(N_BUCKETS)
    cuts = sorted(set(min(max(c, 0), N_BUCKETS) for c in cuts))
    return [(cuts[i], cuts[i + 1]) for i in range(len(cuts) - 1)]


def run_threads(jobs: list[Callable[[], object]], cancel: np.ndarray) -> list[object]:
    """Run nogil kernels side by side. Exceptions re-raise in the caller; Ctrl-C raises the
    cancel flag, waits for the kernels to notice, then propagates."""
    results: list[object] = [None] * len(jobs)
    errors: list[BaseException] = []

    def run(i, job):
        try:
            results[i] = job()
        except BaseException as e:  # re-raised below, in the calling thread
            errors.append(e)

    threads = [threading.Thread(target=run, args=(i, j), daemon=True) for i, j in enumerate(jobs)]
    for t in threads:
        t.start()
    try:
        for t in threads:
            while t.is_alive():
                t.join(0.1)
    except KeyboardInterrupt:
        cancel[0] = 1
        for t in threads:
            t.join()
        raise
    if errors:
        raise errors[0]
    return results


def merge(a: Level, b: Level, threads: int, cancel: np.ndarray) -> Level:
    """The union of two levels."""
    if len(a) == 0:
        return b
    if len(b) == 0:
        return a
    sizes = np.zeros(N_BUCKETS, np.int64)
    both = a.offsets + b.offsets
    ranges = bucket_ranges(both, max(1, threads))
    run_threads([lambda r=r: merge_count(a.offsets, a.keys, b.offsets, b.keys, r[0], r[1], sizes)
                 for r in ranges], cancel)
    offsets = np.zeros(N_BUCKETS + 1, np.int64)
    np.cumsum(sizes, out=offsets[1:])
    keys = np.empty(int(offsets[-1]), np.uint64)
    run_threads([lambda r=r: merge_write(a.offsets, a.keys, b.offsets, b.keys, r[0], r[1],
                                         offsets, keys)
                 for r in ranges], cancel)
    return Level(offsets, keys)
