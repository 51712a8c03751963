"""Solving many positions on a Dask cluster: batched tasks, results in input order, retries.

Each worker thread makes and prepares its solver once (the first task it runs), from the
worker's own data directory: tables are memory-mapped and shared by the worker processes of a
host (`tables.memory.share_mappings`), built once under the store's lock, and never shipped
through the scheduler. A task is a batch of positions, so the per-task cost of the scheduler
(a few milliseconds a round trip) is spread over them: the first task each worker thread gets
holds one position (so slow solvers start at once and the rate is learned), later ones hold as
many as take about TARGET_SECONDS at the rate seen so far, never more than a fair share of what
is left (so the last tasks still split evenly over the workers). Two tasks per worker thread are
in flight, so no worker waits for the client between two tasks.

A worker that dies mid-task (killed, out of memory) loses its tasks to Dask, which runs them
again on the others; a task that kills workers `distributed.scheduler.allowed-failures` times
comes back as error records for its positions.
"""

from __future__ import annotations

import threading
import time
from typing import Callable, Iterable, Iterator

from cubelab.tables.cluster import require_dask, workers

from .batch import BatchSettings, Batcher, counted, in_order, lost_record

TARGET_SECONDS = 2.0
"""About how long one task should take once the rate is known."""
MAX_BATCH = 256
_LOCAL = threading.local()


def worker_solver(settings: BatchSettings):
    """This worker thread's solver for the settings, made and prepared on first use."""
    cache = getattr(_LOCAL, "solvers", None)
    if cache is None:
        cache = _LOCAL.solvers = {}
    key = (settings.solver, settings.puzzle, tuple(sorted(settings.options.items())))
    solver = cache.get(key)
    if solver is None:
        from cubelab.tables.memory import share_mappings
        share_mappings()
        solver = settings.make_solver()
        solver.prepare()
        cache[key] = solver
    return solver


def prepare_task(settings: BatchSettings, warm_up=None) -> float:
    """Prepare the solver on the worker running this (and solve `warm_up`, a state, once, to
    load whatever kernels prepare() leaves lazy); returns the seconds it took."""
    t = time.perf_counter()
    solver = worker_solver(settings)
    if warm_up is not None:
        settings.solve(solver, warm_up)
    return time.perf_counter() - t


def solve_task(settings: BatchSettings, items: list) -> tuple[list, float]:
    """Solve a batch of (index, state): ([(index, record)], seconds spent solving)."""
    solver = worker_solver(settings)
    t = time.perf_counter()
    out = [(index, settings.solve(solver, state)) for index, state in items]
    return out, time.perf_counter() - t


def trial_task(settings: BatchSettings, items: list) -> tuple[list, float]:
    """Time a batch of (index, (depth, number, scramble text, state)) with the bench's limit
    (settings.time_limit): ([(index, Trial)], seconds)."""
    from .experiment import one_trial
    solver = worker_solver(settings)
    t = time.perf_counter()
    out = [(index, one_trial(settings.solver, solver, *item, settings.time_limit))
           for index, item in items]
    return out, time.perf_counter() - t


def prepare_everywhere(client, settings: BatchSettings, warm_up=None) -> dict[str, float]:
    """Prepare the solver on every worker before the clock starts: address -> seconds."""
    futures = {addr: client.submit(prepare_task, settings, warm_up, workers=[addr], pure=False)
               for addr in workers(client)}
    return {addr: f.result() for addr, f in futures.items()}


def solve_unordered(client, items: Iterable[tuple[int, object]], settings: BatchSettings, *,
                    total: int | None = None, task=solve_task,
                    lost=None) -> Iterator[tuple[int, object]]:
    """(index, record) for each (index, state), as the cluster finishes them (`task` runs a
    batch; `lost(index)` stands for an item whose workers kept dying)."""
    distributed = require_dask()
    slots = sum(workers(client).values())
    batcher = Batcher(slots, TARGET_SECONDS, MAX_BATCH)
    source = iter(items)
    sent = 0
    pending = distributed.as_completed([], with_results=False)
    held: dict = {}                 # future -> its items
    exhausted = False

    def submit() -> bool:
        nonlocal sent, exhausted
        left = None if total is None else total - sent
        chunk = []
        for _ in range(batcher.size(left)):
            item = next(source, None)
            if item is None:
                exhausted = True
                break
            chunk.append(item)
        if not chunk:
            return False
        future = client.submit(task, settings, chunk, pure=False)
        held[future] = chunk
        pending.add(future)
        sent += len(chunk)
        return True

    try:
        while not exhausted and len(held) < 2 * slots and submit():
            pass
        for future in pending:
            chunk = held.pop(future)
            try:
                pairs, seconds = future.result()
                batcher.learn(len(chunk), seconds)
            except distributed.KilledWorker:
                pairs = [(index, (lost or _lost)(index)) for index, _ in chunk]
            future.release()
            yield from pairs
            while not exhausted and len(held) < 2 * slots and submit():
                pass
    finally:
        if held:
            client.cancel(list(held))


def _lost(index: int) -> dict:
    import dask
    return lost_record(int(dask.config.get("distributed.scheduler.allowed-failures", 3)) + 1)


def solve_many(client, settings: BatchSettings, states: Iterable, *, total: int | None = None,
               on_done: Callable[[int], None] | None = None) -> Iterator[dict]:
    """One record per state, in input order, solved on the cluster."""
    return in_order(counted(solve_unordered(client, enumerate(states), settings, total=total),
                            on_done))


def run_experiment(client, names: list[str], positions, limit: float,
                   progress: Callable[[int, int, str], None] | None = None) -> tuple[list, dict]:
    """The bench's experiment on the cluster: (trials in the one-process order, seconds each
    solver took to prepare on its slowest worker)."""
    from .experiment import Trial
    trials, prep = [], {}
    total, done = len(names) * len(positions.items), 0
    for name in names:
        settings = BatchSettings(name, time_limit=limit)
        prep[name] = max(prepare_everywhere(client, settings,
                                            warm_up=positions.items[0][3]).values())

        def lost(index, name=name):
            depth, number, text, _ = positions.items[index]
            return Trial(name, depth, number, text, 0.0, False, None, 0, False, False,
                         "lost: its workers kept dying")

        pairs = solve_unordered(client, enumerate(positions.items), settings,
                                total=len(positions.items), task=trial_task, lost=lost)
        for trial in in_order(pairs):
            trials.append(trial)
            done += 1
            if progress is not None:
                progress(done, total, name)
    return trials, prep
