"""Pos(n): positions, symmetry classes and symmetry+inverse classes at each distance from solved.

The breadth-first search runs over classes of the group of 96 operations "conjugate by one of the
48 symmetries, possibly after inverting" (the TIPE's isomorphism classes): distance is constant
on such a class, and a class holds up to 96 positions, so a level is ~96 times smaller than the
set of its positions. Each class is stored as its canonical representative, the lexicographically
least of the 96 images, packed into a 16-bit bucket (the corner permutation's rank) and a 64-bit
key (twist, edge permutation, flip, plus two class-invariant bits of metadata). A level is a
`Level`: keys sorted within each bucket. Expanding a class multiplies its representative P on
the right by every move, and P^-1 too (the neighbours of the class's inverted members), then
canonicalises, bucket-sorts, removes duplicates and removes the classes already at a smaller
depth, a batch of classes at a time, each batch merged into the new level: memory follows the
levels (8 bytes a class), not the neighbours. Counting positions needs no second pass: the
number of images equal to the minimum gives the stabiliser, hence the class size.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

import cubelab.tables  # noqa: F401  (numba's cache directory, before numba is imported)
from numba import njit

from .cubies import conjugate_into, invert, metric_moves, move_rows, multiply, symmetry_rows
from .ranks import rank_perm, unrank_perm

N_BUCKETS = math.factorial(8)
"""One bucket per corner permutation rank: the part of a representative that is not in its key."""

_N_EPERM = math.factorial(12)
_KEY_BITS = 52
_KEY_MASK = np.uint64((1 << _KEY_BITS) - 1)
_STAB_SHIFT = 52      # 6 bits: the order of the class's stabiliser among the 48 symmetries
_BOTH_SHIFT = 58      # 1 bit: the inverse lies in the same 48-symmetry class

PUBLISHED = {
    "qtm": (1, 12, 114, 1_068, 10_011, 93_840, 878_880, 8_221_632, 76_843_595, 717_789_576),
    "htm": (1, 18, 243, 3_240, 43_239, 574_908, 7_618_438, 100_803_036, 1_332_343_288),
}
"""Positions at each distance as published (quarter-turn and half-turn metrics)."""

METRICS = ("qtm", "htm")


# ---- tables passed to the kernels ----------------------------------------------------------
#
# A state is one uint8 row of 40 (cubelab.tables.cubies). Kernels receive few, flat arrays: every
# array argument costs reference counting on each call, which dominated the first version of
# these loops.

@njit(cache=True, nogil=True)
def canonicalize(p, pinv, sym, best):
    """best = the least row among the 96 images S p S^-1 and S p^-1 S^-1. Returns (a, b):
    how many symmetries give it from p, and from p^-1.

    Each image is compared element by element as it is computed and dropped at the first
    element that exceeds best: most are decided by their first corner or two."""
    for i in range(40):
        best[i] = p[i]
    a, b = 1, 0
    for side in range(2):
        q = p if side == 0 else pinv
        for k in range(1 if side == 0 else 0, 48):
            mirror = sym[k, 80]
            c = 0
            for i in range(8):
                v = sym[k, q[sym[k, 40 + i]]]
                if v != best[i]:
                    c = -1 if v < best[i] else 1
                    break
            if c == 0:
                for i in range(8):
                    j = sym[k, 40 + i]
                    x = q[j]
                    if mirror:
                        v = (sym[k, 48 + i] + 6 - sym[k, 8 + x] - q[8 + j]) % 3
                    else:
                        v = (sym[k, 8 + x] + q[8 + j] + sym[k, 48 + i]) % 3
                    if v != best[8 + i]:
                        c = -1 if v < best[8 + i] else 1
                        break
            if c == 0:
                for i in range(12):
                    v = sym[k, 16 + q[16 + sym[k, 56 + i]]]
                    if v != best[16 + i]:
                        c = -1 if v < best[16 + i] else 1
                        break
            if c == 0:
                for i in range(12):
                    j = sym[k, 56 + i]
                    v = sym[k, 28 + q[16 + j]] ^ q[28 + j] ^ sym[k, 68 + i]
                    if v != best[28 + i]:
                        c = -1 if v < best[28 + i] else 1
                        break
            if c < 0:
                conjugate_into(q, sym, k, best)
                a, b = (1, 0) if side == 0 else (0, 1)
            elif c == 0:
                if side == 0:
                    a += 1
                else:
                    b += 1
    return a, b


# ---- kernels: packing a representative ----------------------------------------------------

@njit(cache=True, nogil=True)
def encode(best, a, b):
    """(bucket, key) of a canonical image with its stabiliser counts (a, b)."""
    bucket = rank_perm(best, 0, 8)
    twist = 0
    for i in range(7):
        twist = twist * 3 + best[8 + i]
    flip = 0
    for i in range(11):
        flip = flip * 2 + best[28 + i]
    key = (twist * 479001600 + rank_perm(best, 16, 12)) * 2048 + flip
    stab = max(a, b)
    both = 1 if (a > 0 and b > 0) else 0
    return bucket, np.uint64(key) | (np.uint64(stab) << np.uint64(52)) | \
        (np.uint64(both) << np.uint64(58))


@njit(cache=True, nogil=True)
def decode(bucket, key, out):
    """The representative's row from (bucket, key); the metadata bits are ignored."""
    unrank_perm(bucket, out, 0, 8, 0)
    k = np.int64(key & np.uint64((1 << 52) - 1))
    flip = k % 2048
    k //= 2048
    unrank_perm(k % 479001600, out, 16, 12, 0)
    twist = k // 479001600
    s = 0
    for i in range(6, -1, -1):
        out[8 + i] = twist % 3
        s += twist % 3
        twist //= 3
    out[15] = (3 - s % 3) % 3
    s = 0
    for i in range(10, -1, -1):
        out[28 + i] = flip & 1
        s += flip & 1
        flip >>= 1
    out[39] = s & 1


@njit(cache=True, nogil=True)
def class_sizes(key):
    """(positions, classes up to the 48 symmetries) in the class a key stands for."""
    stab = np.int64((key >> np.uint64(52)) & np.uint64(63))
    both = np.int64((key >> np.uint64(58)) & np.uint64(1))
    if both:
        return 48 // stab, 1
    return 96 // stab, 2


# ---- kernels: one level of the search ------------------------------------------------------

@njit(cache=True, nogil=True)
def expand(offsets, keys, start, stop, moves, sym, out_bucket, out_key, counters, slot, cancel):
    """Canonical neighbours of the classes keys[start:stop] into out_*; returns how many were
    written, or -1 if cancelled. counters[slot] counts the classes done."""
    p = np.empty(40, np.uint8)
    pinv = np.empty(40, np.uint8)
    q = np.empty(40, np.uint8)
    qinv = np.empty(40, np.uint8)
    best = np.empty(40, np.uint8)
    bucket = np.searchsorted(offsets, start, side="right") - 1
    written = 0
    for e in range(start, stop):
        while offsets[bucket + 1] <= e:
            bucket += 1
        key = keys[e]
        decode(bucket, key, p)
        invert(p, pinv)
        # When p^-1 is a conjugate of p, its neighbours are conjugates of p's.
        sides = 1 if (key >> np.uint64(58)) & np.uint64(1) else 2
        for side in range(sides):
            for m in range(moves.shape[0]):
                multiply(p if side == 0 else pinv, moves[m], q)
                invert(q, qinv)
                a, b = canonicalize(q, qinv, sym, best)
                bk, k = encode(best, a, b)
                out_bucket[written] = bk
                out_key[written] = k
                written += 1
        if (e - start) & 1023 == 1023:
            counters[slot] = e - start + 1
            if cancel[0]:
                return -1
    counters[slot] = stop - start
    return written


@njit(cache=True, nogil=True)
def bucket_histogram(out_bucket, n, hist):
    for i in range(n):
        hist[out_bucket[i]] += 1


@njit(cache=True, nogil=True)
def bucket_scatter(out_bucket, out_key, n, cursor, dest):
    for i in range(n):
        b = out_bucket[i]
        dest[cursor[b]] = out_key[i]
        cursor[b] += 1


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def compact(offsets, keys, kept, new_offsets, new_keys, b0, b1):
    for b in range(b0, b1):
        s = offsets[b]
        d = new_offsets[b]
        for i in range(kept[b]):
            new_keys[d + i] = keys[s + i]


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def level_stats(keys, start, stop, stats):
    """stats += (positions, classes up to symmetry, classes up to symmetry and inversion)."""
    for r in range(start, stop):
        positions, classes = class_sizes(keys[r])
        stats[0] += positions
        stats[1] += classes
        stats[2] += 1


# ---- the driver ----------------------------------------------------------------------------

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


@dataclass
class LevelCount:
    """What `count_positions` reports for one distance."""

    depth: int
    positions: int
    classes_sym: int          # classes up to the 48 symmetries
    classes_sym_inv: int      # classes up to the symmetries and inversion (the TIPE's)
    seconds: float
    candidates: int = 0       # neighbours generated before removing repeats
    peak_bytes: int = 0       # arrays this level held at once (the search's own memory)

    def as_dict(self) -> dict:
        return {"depth": self.depth, "positions": self.positions,
                "classes_sym": self.classes_sym, "classes_sym_inv": self.classes_sym_inv,
                "seconds": round(self.seconds, 3), "candidates": self.candidates}


class Cancelled(Exception):
    """The count stopped because its cancel flag was raised."""


@dataclass
class Progress:
    """Passed to the progress callback while a level expands."""

    depth: int
    done: int
    total: int
    phase: str = "expand"     # expand | sort
    extra: dict = field(default_factory=dict)


def identity_level() -> Level:
    ident = np.zeros(40, np.uint8)
    ident[0:8] = np.arange(8)
    ident[16:28] = np.arange(12)
    bucket, key = encode(ident, 48, 48)
    offsets = np.zeros(N_BUCKETS + 1, np.int64)
    offsets[bucket + 1:] = 1
    return Level(offsets, np.array([key], np.uint64))


def _split(total: int, parts: int) -> list[tuple[int, int]]:
    edges = [total * i // parts for i in range(parts + 1)]
    return [(edges[i], edges[i + 1]) for i in range(parts) if edges[i + 1] > edges[i]]


def _bucket_ranges(offsets: np.ndarray, parts: int) -> list[tuple[int, int]]:
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


CHUNK_BYTES = 1 << 30
"""Memory for one batch of neighbours: a level is expanded in batches of classes this size
allows (18 bytes a neighbour), each batch merged into the level being built."""


def chunk_classes(metric: str, budget: int = CHUNK_BYTES) -> int:
    return max(1, budget // (2 * len(metric_moves(metric)) * 18))


def _expand_batch(current: Level, start: int, stop: int, previous: Level, before: Level,
                  metric: str, threads: int, cancel: np.ndarray, done: np.ndarray
                  ) -> tuple[Level, int, int]:
    """The classes next to current[start:stop], sorted, without repeats and without those of
    `previous` and `before`: (level, neighbours generated, bytes held at the peak)."""
    sym = symmetry_rows()
    moves = move_rows(metric)
    per_class = 2 * moves.shape[0]
    parts = _split(stop - start, max(1, threads))
    parts = [(start + a, start + b) for a, b in parts]
    outs = [(np.empty((b - a) * per_class, np.uint16), np.empty((b - a) * per_class, np.uint64))
            for a, b in parts]

    def expander(i):
        a, b = parts[i]
        return expand(current.offsets, current.keys, a, b, moves, sym, outs[i][0], outs[i][1],
                      done, i, cancel)

    written = run_threads([lambda i=i: expander(i) for i in range(len(parts))], cancel)
    if cancel[0] or any(w < 0 for w in written):
        raise Cancelled("count cancelled")
    peak = sum(a.nbytes + b.nbytes for a, b in outs)
    hist = np.zeros(N_BUCKETS, np.int64)
    for (ob, _), w in zip(outs, written):
        bucket_histogram(ob, w, hist)
    offsets = np.zeros(N_BUCKETS + 1, np.int64)
    np.cumsum(hist, out=offsets[1:])
    total = int(offsets[-1])
    keys = np.empty(total, np.uint64)
    peak += keys.nbytes
    cursor = offsets[:-1].copy()
    for (ob, ok), w in zip(outs, written):
        bucket_scatter(ob, ok, w, cursor, keys)
    del outs
    kept = np.zeros(N_BUCKETS, np.int64)
    ranges = _bucket_ranges(offsets, max(1, threads))
    run_threads([lambda r=r: sort_dedupe(offsets, keys, r[0], r[1], previous.offsets,
                                         previous.keys, before.offsets, before.keys, kept)
                 for r in ranges], cancel)
    new_offsets = np.zeros(N_BUCKETS + 1, np.int64)
    np.cumsum(kept, out=new_offsets[1:])
    new_keys = np.empty(int(new_offsets[-1]), np.uint64)
    run_threads([lambda r=r: compact(offsets, keys, kept, new_offsets, new_keys, r[0], r[1])
                 for r in ranges], cancel)
    return Level(new_offsets, new_keys), total, max(peak, keys.nbytes + new_keys.nbytes)


def merge(a: Level, b: Level, threads: int, cancel: np.ndarray) -> Level:
    """The union of two levels."""
    if len(a) == 0:
        return b
    if len(b) == 0:
        return a
    sizes = np.zeros(N_BUCKETS, np.int64)
    both = a.offsets + b.offsets
    ranges = _bucket_ranges(both, max(1, threads))
    run_threads([lambda r=r: merge_count(a.offsets, a.keys, b.offsets, b.keys, r[0], r[1], sizes)
                 for r in ranges], cancel)
    offsets = np.zeros(N_BUCKETS + 1, np.int64)
    np.cumsum(sizes, out=offsets[1:])
    keys = np.empty(int(offsets[-1]), np.uint64)
    run_threads([lambda r=r: merge_write(a.offsets, a.keys, b.offsets, b.keys, r[0], r[1],
                                         offsets, keys)
                 for r in ranges], cancel)
    return Level(offsets, keys)


def next_level(current: Level, previous: Level, before: Level, metric: str, *, depth: int,
               threads: int = 2, progress=None, cancel: np.ndarray | None = None,
               batch: int | None = None) -> tuple[Level, LevelCount]:
    """The classes at distance depth, from those at depth-1 (current): their neighbours minus
    the classes of `previous` (depth-2) and `before` (depth-1 again in the half-turn metric,
    where a move can keep the distance). Expanded `batch` classes at a time."""
    start_time = time.perf_counter()
    cancel = cancel if cancel is not None else np.zeros(1, np.int32)
    n = len(current)
    batch = batch or chunk_classes(metric)
    done = np.zeros(max(1, threads), np.int64)
    finished = [0]
    stop = threading.Event()

    def watch():
        while not stop.wait(0.2):
            progress(Progress(depth, finished[0] + int(done.sum()), n))

    watcher = None
    if progress is not None:
        progress(Progress(depth, 0, n))
        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
    level, candidates, peak = Level.empty(), 0, 0
    try:
        for start in range(0, n, batch):
            stop_at = min(n, start + batch)
            done[:] = 0
            part, made, held = _expand_batch(current, start, stop_at, previous, before, metric,
                                             threads, cancel, done)
            finished[0] = stop_at
            candidates += made
            merged = merge(level, part, threads, cancel)
            peak = max(peak, held + level.keys.nbytes,
                       level.keys.nbytes + part.keys.nbytes + merged.keys.nbytes)
            level = merged
            del part, merged
    except Cancelled:
        raise Cancelled(f"count cancelled at depth {depth}") from None
    finally:
        stop.set()
        if watcher is not None:
            watcher.join()
    if progress is not None:
        progress(Progress(depth, n, n, "sort"))
    ranges = _split(len(level), max(1, threads))
    stats = [np.zeros(3, np.int64) for _ in ranges]
    run_threads([lambda r=r, st=st: level_stats(level.keys, r[0], r[1], st)
                 for r, st in zip(ranges, stats)], cancel)
    st = np.sum(stats, axis=0) if stats else np.zeros(3, np.int64)
    return level, LevelCount(depth, int(st[0]), int(st[1]), int(st[2]),
                             time.perf_counter() - start_time, candidates, peak)


def warm_up(cancel: np.ndarray | None = None) -> None:
    """Compile (or load from numba's cache) the kernels, so that level times measure work."""
    cancel = cancel if cancel is not None else np.zeros(1, np.int32)
    empty = Level.empty()
    next_level(identity_level(), empty, empty, "qtm", depth=1, threads=1, cancel=cancel)


def count_positions(metric: str, depth: int, *, threads: int = 2, progress=None,
                    on_level: Callable[[LevelCount], None] | None = None,
                    cancel: np.ndarray | None = None,
                    batch: int | None = None) -> list[LevelCount]:
    """Pos(n) for n = 0..depth in the metric ('qtm' or 'htm'), with the class counts; levels
    are expanded `batch` classes at a time (default: what CHUNK_BYTES allows)."""
    metric_moves(metric)
    warm_up(cancel)
    t0 = time.perf_counter()
    current = identity_level()
    first = LevelCount(0, 1, 1, 1, time.perf_counter() - t0, 0, 0)
    counts = [first]
    if on_level is not None:
        on_level(first)
    previous = Level.empty()
    for d in range(1, depth + 1):
        # A quarter turn changes the parity of the corner permutation, so in QTM no move joins
        # two classes at the same distance: only depth-2 needs removing.
        before = current if metric == "htm" else Level.empty()
        level, count = next_level(current, previous, before, metric, depth=d, threads=threads,
                                  progress=progress, cancel=cancel, batch=batch)
        counts.append(count)
        if on_level is not None:
            on_level(count)
        previous, current = current, level
    return counts


def estimated_classes(metric: str, depth: int) -> float:
    """About how many classes (up to symmetry and inversion) lie at a distance: the published
    position count over 96, extrapolated by the last branching ratio beyond the table."""
    table = PUBLISHED[metric]
    if depth < len(table):
        return max(1.0, table[depth] / 96)
    ratio = table[-1] / table[-2]
    return table[-1] / 96 * ratio ** (depth - len(table) + 1)


def estimated_bytes(metric: str, depth: int, budget: int = CHUNK_BYTES) -> int:
    """Peak memory of a count to this depth: one batch of neighbours (at most `budget`), the
    keys of depths d-2 and d-1, and those of depth d twice while a batch is merged in."""
    if depth <= 0:
        return 0
    per_class = 2 * len(metric_moves(metric)) * 18
    before = estimated_classes(metric, depth - 1)
    levels = sum(estimated_classes(metric, d) for d in (depth - 2, depth - 1) if d >= 0)
    return int(min(before * per_class, budget) + 8 * (levels + 2 * estimated_classes(metric, depth)))


if __name__ == "__main__":
    import sys
    metric = sys.argv[1] if len(sys.argv) > 1 else "qtm"
    depth = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    for c in count_positions(metric, depth, on_level=lambda c: print(c.as_dict(), flush=True)):
        pass
