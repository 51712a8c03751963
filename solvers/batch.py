"""Solving many positions side by side in worker processes that start once, results in input order.

The parent prepares the solver (builds or loads its tables, compiles its kernels) with its
tables shared, not copied (`tables.memory.share_mappings`), then forks the workers: each starts
with that prepared solver in hand, so a worker costs a fork, and the tables exist once on the
host (file mappings in the page cache) however many workers read them. Where forking is not
possible (no fork on the platform, or the parent already runs threads, which a fork would leave
holding locks) the workers are spawned and prepare the solver themselves, on the tables the
parent built.

Positions travel in batches sized to about BATCH_SECONDS of solving once the rate is known
(one at a time until then): a message each way per position cost the parent more CPU than
a fast solve takes. Each worker has IN_FLIGHT batches sent ahead so it never waits on the parent
between two. A worker that dies (killed, out of memory) is replaced and the positions it held
are sent again, those of the batch it was solving one per batch; a position whose own batch
kills MAX_ATTEMPTS workers comes back as an error record (only a batch of one says which
position killed its worker). Workers ignore Ctrl-C (the terminal sends it to the whole process
group) and end with their parent: the parent stops them at once when it is interrupted, and
the kernel kills them if the parent dies.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from itertools import islice
from multiprocessing.connection import wait
from typing import Callable, Iterable, Iterator

IN_FLIGHT = 2
"""Batches sent ahead to each worker: one being solved, one waiting its turn."""
BATCH_SECONDS = 0.02
"""About how long a worker's batch should take once the rate is known: short enough that the
last batches end together, long enough that a batch of fast solves costs one message."""
MAX_BATCH = 64
MAX_ATTEMPTS = 2
"""A position whose worker died this many times is given up (an error record)."""
_STOP_SECONDS = 2.0
"""How long finished workers get to exit before they are terminated."""


@dataclass(frozen=True)
class BatchSettings:
    """What every worker needs to make and run the solver (small: it travels to each worker)."""

    solver: str
    options: dict = field(default_factory=dict)
    puzzle: str = "3x3"
    max_length: int | None = None
    time_limit: float | None = None
    as_records: bool = False
    """Each result is sent back as its JSON record (result.to_json()): what --json and
    --output write, and a fraction of the unpickling of a SolveResult."""

    def make_solver(self):
        """A new solver (the command line checked the name and the options against its
        declaration; tests use the hidden stand-in)."""
        from .registry import REGISTRY
        return REGISTRY.get_solver(self.solver, self.puzzle, include_hidden=True,
                                   **self.options)

    def solve(self, solver, state):
        result = solve_one(solver, state, self.max_length, self.time_limit)
        return result.to_json() if self.as_records and not isinstance(result, dict) else result


class Batcher:
    """How many positions the next batch gets: one until the rate is known, then about
    `target` seconds of work (at most `largest`), and at most a fair share of what is left
    when that is known."""

    def __init__(self, slots: int, target: float, largest: int):
        self.slots = max(1, slots)
        self.target, self.largest = target, largest
        self.positions = 0
        self.seconds = 0.0

    def learn(self, positions: int, seconds: float) -> None:
        self.positions += positions
        self.seconds += seconds

    def size(self, left: int | None = None) -> int:
        if self.positions == 0:
            return 1
        per = max(self.seconds / self.positions, 1e-6)
        size = max(1, min(self.largest, int(self.target / per)))
        if left is not None:
            size = min(size, max(1, left // (2 * self.slots)))
        return size


def solve_one(solver, state, max_length, time_limit):
    """One solve's SolveResult. A refused position becomes an error record (a dict), and so
    does a failure of the solver itself (marked "internal"), so one position never ends a
    batch of thousands."""
    from cubelab.solvers.protocol import SolverError
    try:
        return solver.solve(state, max_length=max_length, time_limit=time_limit)
    except SolverError as e:
        return {"error": str(e)}
    except Exception as e:  # noqa: BLE001 - reported in the record, the batch goes on
        return {"error": f"internal error: {type(e).__name__}: {e}", "internal": True}


def lost_record(deaths: int) -> dict:
    """The record of a position given up because the workers solving it kept dying."""
    return {"error": f"the worker solving this position died {deaths} times (out of memory, "
                     f"or killed); giving up on it", "internal": True}


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def in_order(pairs: Iterable[tuple[int, dict]], first: int = 0) -> Iterator[dict]:
    """Records given as (index, record) in any order, yielded in index order from `first`
    (each index must come exactly once)."""
    ready: dict[int, dict] = {}
    next_out = first
    for index, record in pairs:
        ready[index] = record
        while next_out in ready:
            yield ready.pop(next_out)
            next_out += 1


def counted(pairs: Iterable[tuple[int, dict]],
            on_done: Callable[[int], None] | None) -> Iterator[tuple[int, dict]]:
    """The pairs unchanged, calling on_done(how many so far) as each arrives."""
    done = 0
    for pair in pairs:
        done += 1
        if on_done is not None:
            on_done(done)
        yield pair


def solve_many(settings: BatchSettings, states: Iterable, *, jobs: int,
               on_done: Callable[[int], None] | None = None, solver=None) -> Iterator:
    """One result per state (a SolveResult, or an error record), in input order, solved by
    `jobs` worker processes. `solver`, if given, is a solver already prepared in this process
    for the workers to inherit."""
    return in_order(counted(solve_unordered(enumerate(states), settings, jobs=jobs,
                                            solver=solver), on_done))


class _Worker:
    """One worker process and the pipe to it, with the positions it holds, oldest first."""

    def __init__(self, ctx, settings: BatchSettings, solver):
        # A forked child flushes the streams it inherits when it exits: empty them first so
        # nothing the parent wrote is printed twice.
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_work, args=(child, settings, solver, os.getpid()),
                                   daemon=True, name="cubelab solve worker")
        self.process.start()
        child.close()
        self.tasks: deque = deque()     # the batches sent, oldest first: lists of (index, state)
        self.dead = False

    def send(self, batch: list) -> None:
        self.tasks.append(batch)
        try:
            self.conn.send(batch)
        except (OSError, ValueError):
            self.dead = True    # it died: the batch is sent again with the others it held

    def stop(self, graceful: bool) -> None:
        if graceful and not self.dead:
            try:
                self.conn.send(None)
            except (OSError, ValueError):
                pass
            self.process.join(_STOP_SECONDS)
        if self.process.is_alive():
            self.process.terminate()    # SIGTERM ends it even inside a kernel
            self.process.join(_STOP_SECONDS)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


ENDING_SECONDS = 0.5
"""How long the workers' start waits for this process's other threads to end (a solve's
cancelled timer, the helper thread that ran the preparation) before giving up forking."""


def _start_method(solver) -> tuple[object, object]:
    """(multiprocessing context, the solver the workers inherit or None)."""
    if (solver is not None and "fork" in multiprocessing.get_all_start_methods()
            and _alone()):
        return multiprocessing.get_context("fork"), solver
    return multiprocessing.get_context("spawn"), None


def _alone() -> bool:
    """Whether this thread is the process's only one, once the threads that are ending have
    ended. The preparation's helper thread and the timer of the solve before are still
    winding down when the workers start: counted as running, they made a batch spawn its
    workers about one time in two, each then importing and preparing the solver again (and
    `solve --file` ran 5x slower on 2 cores)."""
    deadline = time.monotonic() + ENDING_SECONDS
    me = threading.current_thread()
    for t in threading.enumerate():
        if t is not me:
            t.join(max(0.0, deadline - time.monotonic()))
    return threading.active_count() == 1


def solve_unordered(items: Iterable[tuple[int, object]], settings: BatchSettings, *, jobs: int,
                    solver=None) -> Iterator[tuple[int, dict]]:
    """(index, record) for each (index, state) of `items`, as the workers finish them. Closing
    the iterator early (or an interrupt) stops every worker at once."""
    ctx, inherited = _start_method(solver)
    source = iter(items)
    again: deque = deque()              # batches of one whose worker died, to send first
    deaths: dict[int, int] = {}
    workers = [_Worker(ctx, settings, inherited) for _ in range(max(1, jobs))]
    batcher = Batcher(len(workers), BATCH_SECONDS, MAX_BATCH)
    finished = False
    fruitless = 0                       # workers lost since the last answer

    def next_batch() -> list:
        if again:
            return again.popleft()
        return list(islice(source, batcher.size()))

    try:
        while True:
            for w in workers:
                while not w.dead and len(w.tasks) < IN_FLIGHT:
                    batch = next_batch()
                    if not batch:
                        break
                    w.send(batch)
            busy = [w for w in workers if w.tasks]
            if not busy:
                finished = True
                return
            ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy]))
            for w in busy:
                for pairs in _collect(w, batcher):
                    fruitless = 0
                    yield from pairs
                if w.dead or (w.process.sentinel in ready and not w.process.is_alive()):
                    w.dead = True
            for i, w in enumerate(workers):
                if w.dead:
                    fruitless += 1
                    if fruitless > 3 * len(workers):
                        raise RuntimeError(f"the solver's worker processes keep dying (the "
                                           f"last exit status {w.process.exitcode})")
                    yield from _give_back(w, again, deaths)
                    w.stop(graceful=False)
                    workers[i] = _Worker(ctx, settings, inherited)
    finally:
        for w in workers:
            w.stop(graceful=finished)


def _collect(w: _Worker, batcher: Batcher) -> Iterator[list[tuple[int, dict]]]:
    """The answers waiting in a worker's pipe, a batch's [(index, record)] at a time (a worker
    may answer, then die)."""
    try:
        while w.tasks and w.conn.poll():
            pairs, seconds = w.conn.recv()
            batch = w.tasks.popleft()
            assert [i for i, _ in pairs] == [i for i, _ in batch], \
                "a worker answers its batches in the order sent"
            batcher.learn(len(batch), seconds)
            yield pairs
    except (EOFError, OSError):
        w.dead = True


def _give_back(w: _Worker, again: deque, deaths: dict[int, int]) -> Iterator[tuple[int, dict]]:
    """The batches a dead worker held go to the front of the queue. A worker solves its
    batches in order, so only the oldest was under way: the others go back as they were; the
    oldest goes back one position per batch, or, if it held one position, that position is
    charged with the death, and given up after MAX_ATTEMPTS."""
    if not w.tasks:
        return
    first, *rest = w.tasks
    w.tasks.clear()
    again.extendleft(reversed(rest))
    if len(first) > 1:
        again.extendleft([item] for item in reversed(first))
        return
    index = first[0][0]
    deaths[index] = deaths.get(index, 0) + 1
    if deaths[index] >= MAX_ATTEMPTS:
        yield index, lost_record(deaths[index])
    else:
        again.appendleft(first)


def _work(conn, settings: BatchSettings, solver, parent: int) -> None:
    """A worker: solve each batch sent, answering ([(index, record)], seconds), until told to
    stop or the parent goes away."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)    # the parent handles Ctrl-C and stops us
    # a forked worker inherits the command's SIGTERM handler; the parent's terminate() must
    # simply end it, not raise inside its solve and print a traceback
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _end_with_parent(parent)
    if solver is None:     # spawned: prepare our own, reading the tables the parent built
        from cubelab.tables.memory import share_mappings
        share_mappings()
        solver = settings.make_solver()
        solver.prepare()
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        start = time.perf_counter()
        pairs = [(index, settings.solve(solver, state)) for index, state in task]
        conn.send((pairs, time.perf_counter() - start))


def _end_with_parent(parent: int) -> None:
    """Ask the kernel to kill this process when its parent dies (Linux), so a killed client
    leaves no worker solving on."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, int(signal.SIGKILL))     # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:      # the parent died before the request took effect
        os._exit(1)
