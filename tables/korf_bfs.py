"""The level-by-level breadth-first driver shared by Korf's pattern-database builders.

Each level is done forwards (expand the entries at depth d, mark their unknown neighbours) while
the frontier is small, and backwards (each unknown entry looks for a neighbour at depth d) once
most of the table is still unknown but the frontier is large. Backward levels write only the
entries of their own chunk, so two threads share them safely; forward levels write anywhere and
run on one thread. Kernels receive a chunk [lo, hi) of "rows" (whatever unit keeps the packed
bytes of different chunks apart) and return how many entries they set.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable


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


def _chunks(n_rows: int, chunk: int) -> list[tuple[int, int]]:
    return [(lo, min(n_rows, lo + chunk)) for lo in range(0, n_rows, chunk)]


def run_levels(ctx, *, n_rows: int, total: int, initial: int, chunk_rows: int,
               forward: Callable[[int, int, int, int], int],
               backward: Callable[[int, int, int], int],
               max_depth: int | None = None, threads: int = 2,
               forward_parts: int = 1) -> LevelStats:
    """Fill a table level by level. `initial` entries (depth 0) are already set.

    backward(d, lo, hi) sets the entries of depth d + 1 among rows [lo, hi); forward(d, lo, hi,
    part) expands the depth-d entries of rows [lo, hi) and sets the neighbours that belong to
    `part` (0 <= part < forward_parts: the kernel splits the table into parts that never share a
    byte, so one thread per part may run over all rows at once). Stops when a level adds
    nothing or at max_depth; ctx is a store BuildContext (progress, cancel, log) or None."""
    stats = LevelStats(counts=[initial], modes=["seed"], seconds=[0.0])
    filled = initial
    chunks = _chunks(n_rows, chunk_rows)
    lock = threading.Lock()
    d = 0
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
        d += 1
        if ctx is not None:
            ctx.log(f"  depth {d}: {done[0]:,} entries ({stats.modes[-1]}, "
                    f"{stats.seconds[-1]:.1f} s)")
    return stats
