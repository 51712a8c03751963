"""Solving many positions with one process per core, results handed back in input order.

Each worker process makes its own solver once and prepares it (tables are memory-mapped from
the shared cache, numba code comes from the on-disk cache), then solves the positions it is
sent. Workers are spawned, not forked: forking a process that already runs timer threads and
numba-compiled code is not safe.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Callable, Iterable, Iterator

_solver = None


def _init(name: str, options: dict) -> None:
    global _solver
    # Ctrl-C at a terminal reaches the whole process group: the parent decides, and ends us
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from cubelab.solvers import get_solver
    # the name was checked by the command line; tests use the hidden stand-in
    _solver = get_solver(name, include_hidden=True, **options)
    _solver.prepare()


def solve_one(solver, state, max_length, time_limit) -> dict:
    """A JSON-ready record of one solve; a refused position becomes an error record."""
    from cubelab.solvers.protocol import SolverError
    try:
        return solver.solve(state, max_length=max_length, time_limit=time_limit).to_json()
    except SolverError as e:
        return {"error": str(e)}


def _work(task) -> tuple[int, dict]:
    index, state, max_length, time_limit = task
    return index, solve_one(_solver, state, max_length, time_limit)


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def solve_many(name: str, options: dict, states: Iterable, *, jobs: int, max_length=None,
               time_limit=None, on_done: Callable[[int], None] | None = None) -> Iterator[dict]:
    """Yield one record per state, in input order, solving `jobs` at a time in worker processes.

    At most 2 * jobs positions are in flight, so a long file streams instead of queueing whole.
    """
    ctx = multiprocessing.get_context("spawn")
    pending: dict = {}
    ready: dict[int, dict] = {}
    next_out = 0
    done = 0
    source = enumerate(states)
    exhausted = False
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_init,
                               initargs=(name, options))
    try:
        while True:
            while not exhausted and len(pending) < 2 * jobs:
                try:
                    index, state = next(source)
                except StopIteration:
                    exhausted = True
                    break
                pending[pool.submit(_work, (index, state, max_length, time_limit))] = index
            if not pending:
                break
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in finished:
                pending.pop(fut)
                index, record = fut.result()
                ready[index] = record
                done += 1
                if on_done is not None:
                    on_done(done)
            while next_out in ready:
                yield ready.pop(next_out)
                next_out += 1
    except BaseException:
        # Ctrl-C, SIGTERM or a consumer that stopped reading: end the workers now rather than
        # wait for the solves under way
        _end_workers(pool)
        raise
    pool.shutdown(wait=True)


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """Terminate a pool's worker processes and reap them (no zombie is left)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for p in processes:
        p.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        p.join(1.0)
