"""Pos(n) on a Dask cluster: each worker owns a shard of every level, chosen by bucket.

The classes of a level are split among the workers by a hash of their bucket (the rank of the
representative's corner permutation, which the counter already groups keys by): worker k owns
the buckets whose hash is k mod n, and holds its share of depths d-2, d-1 and d, nothing more.
One level is three rounds of tasks, each pinned to its worker:

1. expand: each worker expands its shard of depth d-1 (in batches, as the one-process count
   does) into its neighbours' classes, sorted and without repeats, and cuts them into n parts
   by owner;
2. the parts travel worker to worker (Dask moves task results directly between workers; the
   scheduler sees only their names and sizes);
3. absorb: each worker merges the parts it owns, removes its own shards of depths d-2 and d-1
   (every class removed lives in the same bucket, hence on the same worker), keeps the result
   as its new shard, and returns three counts and its memory figures.

So each worker's memory is about 1/n of the single process's levels, plus its batch of
neighbours; Dask spills held parts to the worker's local disk when a worker runs short. A worker
lost mid-count takes its shard with it: the count stops with a message (start it again).
"""

from __future__ import annotations

import operator
import resource
import threading
import time
import uuid
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..classkeys import N_BUCKETS
from .count import LevelCount, expand_level, level_totals, sorted_without, warm_up
from .levels import Level, identity_level, merge

_RUNS: dict[str, dict] = {}     # run id -> this worker's shard state (a worker process's own)
_RUNS_LOCK = threading.Lock()


def owners(n: int) -> np.ndarray:
    """The worker owning each bucket: a multiplicative hash of the bucket mod n (neighbouring
    buckets hold similar numbers of classes, so plain ranges would load workers unevenly)."""
    mixed = (np.arange(N_BUCKETS, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(40)
    return (mixed % np.uint64(n)).astype(np.uint16)


def split_by_owner(level: Level, owner: np.ndarray, n: int) -> list[Level]:
    """The level cut into n levels, part k holding only the buckets worker k owns."""
    sizes = np.diff(level.offsets)
    key_owner = np.repeat(owner, sizes)
    parts = []
    for k in range(n):
        mine = owner == k
        offsets = np.zeros(N_BUCKETS + 1, np.int64)
        np.cumsum(np.where(mine, sizes, 0), out=offsets[1:])
        parts.append(Level(offsets, level.keys[key_owner == k]))
    return parts


@dataclass
class ShardReport:
    """What one worker returns for a level: its shard's counts and its memory."""

    positions: int
    classes_sym: int
    classes_sym_inv: int
    candidates: int
    peak_bytes: int       # the count's own arrays at their peak on this worker
    max_rss: int          # the worker process's peak resident memory so far


def _threads() -> int:
    try:
        from distributed import get_worker
        return max(1, int(get_worker().state.nthreads))
    except (ImportError, ValueError, AttributeError):
        return 1


def _state(run: str) -> dict:
    with _RUNS_LOCK:
        state = _RUNS.get(run)
    if state is None:
        raise RuntimeError("this worker holds no shard of the count (it was restarted)")
    return state


def start_shard(run: str, index: int, n: int, metric: str) -> int:
    """Worker side: hold shard `index` of n for a new count (depth 0); returns its class count."""
    warm_up()
    owner = owners(n)
    current = split_by_owner(identity_level(), owner, n)[index]
    with _RUNS_LOCK:
        _RUNS[run] = {"index": index, "n": n, "metric": metric, "owner": owner,
                      "current": current, "previous": Level.empty(), "peak": 0}
    return len(current)


def expand_shard(run: str, depth: int, batch: int | None = None) -> tuple[list[Level], int]:
    """Worker side: the neighbours of this shard of depth-1, cut by owner; and how many
    neighbours were generated."""
    state = _state(run)
    empty = Level.empty()
    level, candidates, peak = expand_level(state["current"], empty, empty, state["metric"],
                                           depth=depth, threads=_threads(), batch=batch)
    parts = split_by_owner(level, state["owner"], state["n"])
    state["peak"] = max(peak, level.keys.nbytes * 2 + _held(state))
    return parts, candidates


def absorb_shard(run: str, depth: int, candidates: int, *parts: Level) -> ShardReport:
    """Worker side: this shard of depth `depth` from the parts the workers sent it."""
    state = _state(run)
    threads = _threads()
    cancel = np.zeros(1, np.int32)
    merged = Level.empty()
    for part in parts:
        merged = merge(merged, part, threads, cancel)
    # A half turn can keep the distance (HTM), a quarter turn cannot (QTM): see count.py.
    before = state["current"] if state["metric"] == "htm" else Level.empty()
    level = sorted_without(merged, state["previous"], before, threads, cancel)
    peak = max(state["peak"], _held(state) + merged.keys.nbytes + level.keys.nbytes
               + sum(p.keys.nbytes for p in parts))
    del merged
    state["previous"], state["current"] = state["current"], level
    totals = level_totals(level, threads, cancel)
    return ShardReport(*totals, candidates, peak,
                       resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)


def end_shard(run: str) -> None:
    """Worker side: forget the count's shard."""
    with _RUNS_LOCK:
        _RUNS.pop(run, None)


def _held(state: dict) -> int:
    return state["current"].keys.nbytes + state["previous"].keys.nbytes


@dataclass
class ClusterLevel:
    """A level's counts on the cluster, with each worker's memory."""

    count: LevelCount
    peak_bytes: list[int]      # per worker: the count's arrays at their peak
    max_rss: list[int]         # per worker: the process's peak resident memory


def count_on_cluster(client, metric: str, depth: int, *,
                     on_level: Callable[[ClusterLevel], None] | None = None,
                     batch: int | None = None) -> list[ClusterLevel]:
    """Pos(n) for n = 0..depth, each level sharded over the cluster's workers."""
    from cubelab.tables.cluster import workers
    addrs = list(workers(client))
    n = len(addrs)
    run = uuid.uuid4().hex
    watch = _Watch(client, addrs)

    def on(addr, fn, *args):
        return client.submit(fn, *args, workers=[addr], allow_other_workers=False, pure=False)

    levels: list[ClusterLevel] = []
    try:
        watch.gather([on(a, start_shard, run, k, n, metric) for k, a in enumerate(addrs)])
        first = ClusterLevel(LevelCount(0, 1, 1, 1, 0.0), [0] * n, [0] * n)
        levels.append(first)
        if on_level is not None:
            on_level(first)
        for d in range(1, depth + 1):
            t0 = time.perf_counter()
            expanded = [on(a, expand_shard, run, d, batch) for a in addrs]
            made = [on(a, operator.itemgetter(1), f) for a, f in zip(addrs, expanded)]
            parts = [[on(a, _part, f, k) for k in range(n)] for a, f in zip(addrs, expanded)]
            absorbed = [on(addrs[k], absorb_shard, run, d, made[k], *[parts[j][k] for j in range(n)])
                        for k in range(n)]
            reports = watch.gather(absorbed)
            del expanded, made, parts, absorbed
            count = LevelCount(d, sum(r.positions for r in reports),
                               sum(r.classes_sym for r in reports),
                               sum(r.classes_sym_inv for r in reports),
                               time.perf_counter() - t0, sum(r.candidates for r in reports),
                               max(r.peak_bytes for r in reports))
            level = ClusterLevel(count, [r.peak_bytes for r in reports],
                                 [r.max_rss for r in reports])
            levels.append(level)
            if on_level is not None:
                on_level(level)
    finally:
        try:
            watch.gather([on(a, end_shard, run) for a in watch.alive()], quiet=True)
        except Exception:   # noqa: BLE001 - best effort: a lost worker's shard is gone anyway
            pass
    return levels


def _part(expanded: tuple[list[Level], int], k: int) -> Level:
    return expanded[0][k]


class _Watch:
    """Waits for pinned tasks, failing at once if one of the count's workers goes away (its
    tasks could then never run: they are pinned to it)."""

    def __init__(self, client, addrs: list[str]):
        self.client = client
        self.addrs = addrs

    def alive(self) -> list[str]:
        info = self.client.scheduler_info().get("workers", {})
        return [a for a in self.addrs if a in info]

    def gather(self, futures: list, quiet: bool = False) -> list:
        from cubelab.tables.cluster import ClusterError
        while True:
            _, pending = _wait(futures)
            if not pending:
                return self.client.gather(futures)
            if len(self.alive()) < len(self.addrs):
                if quiet:
                    return []
                raise ClusterError("a worker left the cluster during the count and took its "
                                   "shard with it; start the count again")


def _wait(futures: list):
    from distributed import wait
    try:
        return wait(futures, timeout=1.0)
    except TimeoutError:
        done = [f for f in futures if f.done()]
        return done, [f for f in futures if not f.done()]
