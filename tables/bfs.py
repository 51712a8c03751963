"""Distance tables by breadth-first search: the one level-by-level driver every builder uses.

The one level-by-level driver every table builder uses, and the generic kernels for exact byte
tables over pairs of coordinates.

Each level is done forwards (expand the entries at depth d, mark their unknown neighbours) while
that is cheaper, and backwards (each unknown entry looks for a neighbour at depth d) once most of
the table is still unknown but the frontier is large: the choice compares the two costs
(`_backward_is_cheaper`), the same rule for every table. Backward levels write only the entries
of their own chunk, so threads share them safely; forward levels write anywhere, so they run on
one thread unless the kernel splits the table into parts that never share a byte. Kernels
receive a chunk [lo, hi) of "rows" (whatever unit keeps the packed bytes of different chunks
apart: with 2 or 4 bits an entry, rows must hold a whole number of bytes) and return how many
entries they set. A backward level needs moves closed under inverse (every face-turn set of the
solvers is).

A builder whose whole state between levels is one array can hand it to the driver (`state`):
the build then goes on from the checkpoint an earlier, stopped build of the table kept, and keeps
checkpoints of its own as it goes (checkpoint.py).

Storage of distances (packed.py): exact bytes (255 = unknown), 4 bits (15 = unknown or beyond
the depth built), or 2 bits holding the distance mod 3 (3 = unknown), which a search decodes
from its parent's exact distance since one move changes a distance by at most one.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

import cubelab.tables  # noqa: F401  (numba cache location, before numba)
from numba import njit


# Choosing a level's direction: a forward level probes 18 neighbours of each frontier entry; a
# backward level probes up to 18 neighbours of each unknown entry, stopping at the first hit
# (about PROBES_PER_HIT probes when there is one). The next level's size is guessed from the last
# growth ratio, damped because growth slows as the table fills.
GROWTH_DAMPING = 0.4
PROBES_PER_HIT = 3


def _backward_is_cheaper(counts: list[int], unknown: int, threads: int,
                         forward_parts: int) -> bool:
    d = len(counts) - 1
    ratio = counts[d] / counts[d - 1] if d >= 1 and counts[d - 1] else 13.0
    hits = min(unknown, counts[d] * ratio * GROWTH_DAMPING)
    backward = (18 * (unknown - hits) + PROBES_PER_HIT * hits) / max(1, threads)
    forward = 18 * counts[d] / max(1, min(threads, forward_parts))
    return backward < forward


@dataclass
class LevelStats:
    """What a build did: entries per depth and how each level was done."""

    counts: list[int] = field(default_factory=list)
    modes: list[str] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)

    @property
    def max_depth(self) -> int:
        return len(self.counts) - 1

    def notes(self) -> dict:
        """The levels done, as a checkpoint keeps them."""
        return {"counts": [int(n) for n in self.counts], "modes": list(self.modes),
                "seconds": [round(float(t), 3) for t in self.seconds]}

    @classmethod
    def from_notes(cls, notes: dict, total: int) -> "LevelStats":
        """The levels a checkpoint says were done (ValueError if they cannot be)."""
        counts = [int(n) for n in notes["counts"]]
        modes, seconds = list(notes["modes"]), [float(t) for t in notes["seconds"]]
        if not counts or len(modes) != len(counts) or len(seconds) != len(counts) \
                or min(counts) < 0 or sum(counts) > total:
            raise ValueError("levels that do not add up")
        return cls(counts, modes, seconds)


CHECKPOINT_KIND = "bfs-levels/1"
"""What the driver's checkpoints hold (the state array after its last complete level, and
LevelStats.notes()): a change of either needs a new kind, so old checkpoints are not read. The
builder's `state_format` follows it in a checkpoint's kind."""


def _resume(ctx, state, total: int, kind: str) -> LevelStats | None:
    """The levels an earlier build kept in a checkpoint, copied into `state`; None if none."""
    checkpoints = getattr(ctx, "checkpoints", None)
    if checkpoints is None:
        return None
    return checkpoints.resume(state, kind,
                              read=lambda notes: LevelStats.from_notes(notes, total))


def _chunks(n_rows: int, chunk: int) -> list[tuple[int, int]]:
    return [(lo, min(n_rows, lo + chunk)) for lo in range(0, n_rows, chunk)]


def run_levels(ctx, *, n_rows: int, total: int, initial: int, chunk_rows: int,
               forward: Callable[[int, int, int, int], int],
               backward: Callable[[int, int, int], int],
               max_depth: int | None = None, threads: int = 2,
               forward_parts: int = 1,
               after_level: Callable[[int], None] | None = None,
               state=None, state_format: str = "") -> LevelStats:
    """Fill a table level by level. `initial` entries (depth 0) are already set.

    backward(d, lo, hi) sets the entries of depth d + 1 among rows [lo, hi); forward(d, lo, hi,
    part) expands the depth-d entries of rows [lo, hi) and sets the neighbours that belong to
    `part` (0 <= part < forward_parts: the kernel splits the table into parts that never share a
    byte, so one thread per part may run over all rows at once). Stops when a level adds
    nothing or at max_depth; ctx is a store BuildContext (progress, cancel, log) or None.
    after_level(d), if given, runs once level d is complete (a table that relabels its frontier
    between levels does it there). `state`: the array holding the whole build between levels
    (everything else the kernels read is made the same way every time), for checkpoints: the
    build goes on from one an earlier build kept, and keeps its own (ctx.checkpoints);
    `state_format` names what the array holds between levels (a builder changes it whenever
    that changes, even if the finished table does not: older checkpoints are then not read)."""
    if state is not None and not state_format:
        raise ValueError("a build that keeps checkpoints names the format of its state")
    kind = f"{CHECKPOINT_KIND} {state_format}"
    stats = LevelStats(counts=[initial], modes=["seed"], seconds=[0.0])
    if state is not None and ctx is not None:
        resumed = _resume(ctx, state, total, kind)
        if resumed is not None:
            stats = resumed
            ctx.log(f"resuming {ctx.spec.name} from its checkpoint: depth "
                    f"{stats.max_depth} done ({sum(stats.counts):,} of {total:,} entries)")
            ctx.progress(sum(stats.counts), total)
    filled = sum(stats.counts)
    chunks = _chunks(n_rows, chunk_rows)
    lock = threading.Lock()
    d = stats.max_depth
    while max_depth is None or d < max_depth:
        unknown = total - filled
        if unknown == 0:
            break
        go_back = _backward_is_cheaper(stats.counts, unknown, threads, forward_parts)
        start = time.perf_counter()
        done = [0]

        def add(n):
            with lock:
                done[0] += n
                if ctx is not None:
                    ctx.progress(filled + done[0], total)

        def stopped():
            return ctx is not None and ctx.cancelled

        if go_back:
            pending = iter(chunks)

            def work():
                while True:
                    with lock:
                        item = next(pending, None)
                    if item is None or stopped():
                        return
                    add(backward(d, item[0], item[1]))

            workers = [threading.Thread(target=work, name=f"bfs level {d}")
                       for _ in range(max(1, threads))]
        else:
            def sweep(part):
                for lo, hi in chunks:
                    if stopped():
                        return
                    add(forward(d, lo, hi, part))

            workers = [threading.Thread(target=sweep, args=(part,), name=f"bfs level {d}")
                       for part in range(max(1, forward_parts))]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        if ctx is not None:
            ctx.check_cancel()
        stats.seconds.append(time.perf_counter() - start)
        stats.modes.append("backward" if go_back else "forward")
        if done[0] == 0:
            stats.seconds.pop()
            stats.modes.pop()
            break
        stats.counts.append(done[0])
        filled += done[0]
        if after_level is not None:
            after_level(d)
            if ctx is not None:
                ctx.check_cancel()
        d += 1
        if ctx is not None and total >= LOG_LEVELS_FROM:
            ctx.log(f"  depth {d}: {done[0]:,} entries ({stats.modes[-1]}, "
                    f"{stats.seconds[-1]:.1f} s)")
        checkpoints = getattr(ctx, "checkpoints", None)
        if state is not None and checkpoints is not None and filled < total:
            if checkpoints.keep(state, stats.notes(), kind, sum(stats.seconds)):
                ctx.log(f"kept a checkpoint of {ctx.spec.name}: depth {d} done "
                        f"({filled:,} of {total:,} entries)")
    return stats


LOG_LEVELS_FROM = 10_000_000
"""Tables this big say how each level went (small ones take a moment and say nothing)."""


# ---- exact byte tables over a pair of coordinates ---------------------------------------------
# entry a * size_b + b, one byte each (255 = unknown); move k sends a to move_a[a, k] and b to
# move_b[b, k] (the two tables have the same columns). A row is one value of a.

UNKNOWN8 = 255
_CHECK_EVERY = 256


@njit(cache=True, nogil=True)
def pair_sweep(dist, d, lo, hi, move_a, move_b, backward, cancel):
    """Depth d -> d + 1 over the rows [lo, hi): forward from the depth-d entries, or backward
    from the unknown entries (the one with a depth-d neighbour is set, which is the same set)."""
    size_b = move_b.shape[0]
    nm = move_a.shape[1]
    want = UNKNOWN8 if backward else d
    n = 0
    for a in range(lo, hi):
        if (a & (_CHECK_EVERY - 1)) == 0 and cancel[0]:
            break
        base = a * size_b
        for b in range(size_b):
            if dist[base + b] != want:
                continue
            for k in range(nm):
                j = move_a[a, k] * size_b + move_b[b, k]
                if backward:
                    if dist[j] == d:
                        dist[base + b] = d + 1
                        n += 1
                        break
                elif dist[j] == UNKNOWN8:
                    dist[j] = d + 1
                    n += 1
    return n


def pair_distances(move_a: np.ndarray, move_b: np.ndarray, goals, ctx=None,
                   threads: int = 2) -> np.ndarray:
    """Exact distances (uint8, 255 = never reached) over a * size_b + b from the goal entries,
    moves acting through the two move tables (same columns). ctx: a store BuildContext or None."""
    if move_a.shape[1] != move_b.shape[1]:
        raise ValueError("the two move tables need the same moves (columns)")
    move_a = np.ascontiguousarray(move_a, dtype=np.int64)
    move_b = np.ascontiguousarray(move_b, dtype=np.int64)
    size_a, size_b = move_a.shape[0], move_b.shape[0]
    dist = np.full(size_a * size_b, UNKNOWN8, np.uint8)
    goals = np.unique(np.asarray(goals, dtype=np.int64).reshape(-1))
    dist[goals] = 0
    cancel = ctx.cancel if ctx is not None else np.zeros(1, np.int32)
    chunk = max(1, (1 << 16) // size_b)
    run_levels(ctx, n_rows=size_a, total=dist.size, initial=len(goals), chunk_rows=chunk,
               threads=threads,
               forward=lambda d, lo, hi, part: pair_sweep(dist, d, lo, hi, move_a, move_b,
                                                          False, cancel),
               backward=lambda d, lo, hi: pair_sweep(dist, d, lo, hi, move_a, move_b, True,
                                                     cancel))
    return dist
