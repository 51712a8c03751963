"""Pos(n) level by level: expand a level, remove the levels before, count the classes.

A level's classes are expanded into their neighbours' classes a batch at a time, each batch
merged into the new level.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from cubelab.tables.jit import kernel

from cubelab.cube.metrics import Metric

from ..classkeys import BOTH_SHIFT, N_BUCKETS, canonicalize, decode, encode
from ..cubies import invert, metric_moves, move_rows, multiply, symmetry_rows
from .levels import (
    Level, bucket_histogram, bucket_ranges, bucket_scatter, compact, identity_level,
    level_stats, merge, run_threads, sort_dedupe, split,
)

PUBLISHED = {
    "qtm": (1, 12, 114, 1_068, 10_011, 93_840, 878_880, 8_221_632, 76_843_595, 717_789_576),
    "htm": (1, 18, 243, 3_240, 43_239, 574_908, 7_618_438, 100_803_036, 1_332_343_288),
}
"""Positions at each distance as published (quarter-turn and half-turn metrics)."""

METRICS = (Metric.QTM, Metric.HTM)
"""The metrics the counts are made in (the 3x3x3's counting capability, cube/puzzles.py)."""


@kernel
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
        sides = 1 if (key >> np.uint64(BOTH_SHIFT)) & np.uint64(1) else 2
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
    parts = split(stop - start, max(1, threads))
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
    level = sorted_without(Level(offsets, keys), previous, before, threads, cancel)
    return level, total, max(peak, keys.nbytes + level.keys.nbytes)


def sorted_without(level: Level, previous: Level, before: Level, threads: int,
                   cancel: np.ndarray) -> Level:
    """A new level of `level`'s keys, each bucket sorted, without repeats and without the keys
    of `previous` and `before` (level's own keys are reordered in place)."""
    offsets, keys = level.offsets, level.keys
    kept = np.zeros(N_BUCKETS, np.int64)
    ranges = bucket_ranges(offsets, max(1, threads))
    run_threads([lambda r=r: sort_dedupe(offsets, keys, r[0], r[1], previous.offsets,
                                         previous.keys, before.offsets, before.keys, kept)
                 for r in ranges], cancel)
    new_offsets = np.zeros(N_BUCKETS + 1, np.int64)
    np.cumsum(kept, out=new_offsets[1:])
    new_keys = np.empty(int(new_offsets[-1]), np.uint64)
    run_threads([lambda r=r: compact(offsets, keys, kept, new_offsets, new_keys, r[0], r[1])
                 for r in ranges], cancel)
    return Level(new_offsets, new_keys)


def expand_level(current: Level, previous: Level, before: Level, metric: str, *, depth: int,
                 threads: int = 2, progress=None, cancel: np.ndarray | None = None,
                 batch: int | None = None) -> tuple[Level, int, int]:
    """The classes next to `current`, without those of `previous` and `before`, expanded `batch`
    classes at a time: (level, neighbours generated, bytes held at the peak)."""
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
    return level, candidates, peak


def level_totals(level: Level, threads: int, cancel: np.ndarray) -> tuple[int, int, int]:
    """(positions, classes up to symmetry, classes up to symmetry and inversion) of a level."""
    ranges = split(len(level), max(1, threads))
    stats = [np.zeros(3, np.int64) for _ in ranges]
    run_threads([lambda r=r, st=st: level_stats(level.keys, r[0], r[1], st)
                 for r, st in zip(ranges, stats)], cancel)
    st = np.sum(stats, axis=0) if stats else np.zeros(3, np.int64)
    return int(st[0]), int(st[1]), int(st[2])


def next_level(current: Level, previous: Level, before: Level, metric: str, *, depth: int,
               threads: int = 2, progress=None, cancel: np.ndarray | None = None,
               batch: int | None = None) -> tuple[Level, LevelCount]:
    """The classes at distance depth, from those at depth-1 (current): their neighbours minus
    the classes of `previous` (depth-2) and `before` (depth-1 again in the half-turn metric,
    where a move can keep the distance). Expanded `batch` classes at a time."""
    start_time = time.perf_counter()
    cancel = cancel if cancel is not None else np.zeros(1, np.int32)
    level, candidates, peak = expand_level(current, previous, before, metric, depth=depth,
                                           threads=threads, progress=progress, cancel=cancel,
                                           batch=batch)
    if progress is not None:
        progress(Progress(depth, len(current), len(current), "sort"))
    totals = level_totals(level, threads, cancel)
    return level, LevelCount(depth, *totals, time.perf_counter() - start_time, candidates, peak)


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
    held = levels + 2 * estimated_classes(metric, depth)
    return int(min(before * per_class, budget) + 8 * held)


if __name__ == "__main__":
    import sys
    metric = sys.argv[1] if len(sys.argv) > 1 else "qtm"
    depth = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    for c in count_positions(metric, depth, on_level=lambda c: print(c.as_dict(), flush=True)):
        pass
