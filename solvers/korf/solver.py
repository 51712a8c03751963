"""Korf's optimal solver: IDA* over pattern databases, in HTM or QTM, on two threads.

The search runs bound after bound from the root's heuristic (in QTM from the heuristic rounded
up to the position's parity, two by two: quarter.py). Small bounds are searched from the
root on one thread; larger ones below the nodes SPLIT_DEPTH moves deep, which two threads take
a few at a time (one bound, one node count, one stop flag between them), the start nodes whose
subtrees cost the most at the last bound first (startnodes.by_past_cost). A solution found at
bound b is optimal because every bound below b was searched to the end; a search stopped
earlier (time limit, cancel) reports b as a proven lower bound, and with a time limit it asks
the two-phase solver, where installed, for a (not proven optimal) solution in the time left:
short in HTM, not optimised for QTM. A bound beyond God's number means wrong tables: the solve
stops there and says so.
"""

from __future__ import annotations

import threading
import time

import numpy as np

from cubelab.cube.metrics import Metric, gods_number
from cubelab.cube.moves import FACE_MOVES
from cubelab.cube.puzzles import PUZZLES
from cubelab.cube.state import CubeState
from cubelab.tables.sequences import cancel as merge_turns
from cubelab.tables.spec import TableError

from ..protocol import (
    BOUND, LOWER_BOUND, NODES, PHASE, Answer, SolveJob, SolverBase, SolverError,
    Status, check_solvable, new_cancel, verify,
)
from .about import BY_METRIC
from .fallback import TwoPhaseFallback, two_phase_ready
from .quarter import first_bound
from .sets import KorfSet, Prepared, korf_set
from .startnodes import by_past_cost, distinct_starts

SPLIT_DEPTH = 3
"""Start nodes for the two threads: 3,240 nodes three moves below the root."""
CHUNK = 6
"""Start nodes a thread takes at a time (times the lanes a kernel interleaves)."""
FALLBACK_SHARE = 0.15
"""With a time limit, the share kept for the two-phase solver (at most FALLBACK_MAX seconds)."""
FALLBACK_MAX = 2.0


class KorfSolver(SolverBase):
    """Optimal solutions by IDA* on pattern databases, in the half-turn metric or the
    quarter-turn metric (`metric="qtm"`), on a table set of that metric (sets.py: `layers` by
    default in HTM, `strong-qtm` in QTM)."""

    def __init__(self, tables: str | None = None, *, metric: str = "htm", threads: int = 2,
                 table_depth: int | None = None, fallback: bool = True,
                 split_from: int | None = None, order_starts: bool = True):
        """metric: "htm" or "qtm", the metric whose optimum the search proves; tables: the
        table set (by default the metric's fastest); threads: search threads; table_depth:
        build the tables only that deep (tests); fallback: ask the two-phase solver when a
        time limit stops the search; split_from: the first bound searched below the root by
        all threads (by default the set's own); order_starts: search the start nodes costly
        at the last bound first (False keeps their fixed order: for measuring what the order
        gains)."""
        self.korf_set: KorfSet = korf_set(tables, metric)   # ValueError on a bad name
        self.description = BY_METRIC[self.korf_set.metric]
        self.table_set = self.korf_set.tables(table_depth)
        self.tables = self.korf_set.name
        self.threads = max(1, int(threads))
        self.fallback = fallback
        self.split_from = max(SPLIT_DEPTH + 1, int(split_from or self.korf_set.split_from))
        self.order_starts = order_starts
        self._prepared: Prepared | None = None
        self._fallback = TwoPhaseFallback()

    # ---- tables -----------------------------------------------------------------------------
    def table_specs(self) -> tuple:
        return self.table_set.all_specs

    def _prepare(self, progress, cancel, log) -> None:
        """Load or build the table set and compile the search kernel."""
        arrays = self.table_set.load(progress=progress, cancel=cancel, log=log)
        prepared = self.korf_set.prepare(arrays, self.table_set.max_depth)
        _warm_up(prepared)
        self._prepared = prepared
        # the split into start nodes compiles on first use (about 2 s), where a cancel
        # could not be heard: do it here, where prepare_before_solving watches the flag
        self.start_nodes(prepared.root(CubeState.identity()))

    # ---- solving ----------------------------------------------------------------------------
    def solved_parts(self) -> dict:
        """The solved cube's answer, as a search of bound 0 would give it (no table loaded)."""
        return {"detail": {"tables": self.tables, "nodes_per_second": 0,
                           "bounds": [{"bound": 0, "nodes": 0, "seconds": 0.0}]}}

    def search_seconds(self, job: SolveJob) -> float | None:
        """The time limit less the share kept for the two-phase fallback (which is the rest:
        at most FALLBACK_MAX seconds, where the two-phase solver's tables are at hand)."""
        job.run = {"stop": new_cancel(), "fallback": 0.0}
        if job.time_limit is None:
            return None
        if self.fallback and two_phase_ready():
            job.run["fallback"] = min(FALLBACK_MAX, FALLBACK_SHARE * job.time_limit)
        return max(0.0, job.time_limit - job.run["fallback"])

    def time_up(self, job: SolveJob) -> None:
        """The search stops on its own flag: the caller's stays down for the fallback."""
        job.run["stop"][0] = 1

    def search(self, job: SolveJob) -> Answer:
        counters, cancel = job.counters, job.cancel
        counters[PHASE] = 0
        fallback_seconds = job.run["fallback"]
        if fallback_seconds > 0:
            self._fallback.warm()   # its preparation must not run after the limit
        run = _Run(self, self._prepared, job, job.run["stop"])
        run.search()
        detail = {"tables": self.tables, "nodes_per_second": round(run.nodes / max(run.seconds,
                                                                                   1e-9)),
                  "bounds": run.bound_log}
        if run.moves is not None:
            # a quarter-turn path writes U2 as U U: merged, it counts the same in QTM
            moves = [FACE_MOVES[m] for m in merge_turns(run.moves)]
            self._refuse_unless_right(job, moves, run.lower_bound)
            return Answer(moves, optimal=True, lower_bound=run.lower_bound, detail=detail,
                          nodes=run.nodes)
        answer = Answer(None, lower_bound=run.lower_bound, status=run.status, detail=detail,
                        nodes=run.nodes)
        if run.status == Status.TIME_LIMIT and fallback_seconds > 0 and not cancel[0]:
            self._add_fallback(answer, job, fallback_seconds)
        return answer

    def _refuse_unless_right(self, job: SolveJob, moves, bound: int) -> None:
        """A found path must solve the position in exactly `bound` moves of the metric: else
        the tables or the kernel are wrong, and no answer is better than a wrong one. Then it
        is offered (verified here, once)."""
        self.verify(job.state, moves)
        length = self.metric.length(moves)
        if length != bound:
            raise RuntimeError(f"{self.name} found {length} {self.metric.title} moves at bound "
                               f"{bound}: its search is wrong")
        job.offer(moves, verified=True)

    def _add_fallback(self, answer: Answer, job: SolveJob, seconds: float) -> None:
        """A not-proven-optimal solution from the two-phase solver, in the time kept for it."""
        job.counters[PHASE] = 1
        try:
            other = self._fallback.solve(job.state, seconds, job.cancel)
        except Exception as e:  # the fallback is a courtesy: its failure must not hide ours
            answer.detail["fallback_error"] = f"{type(e).__name__}: {e}"
            return
        if other.moves is None:
            return
        moves = list(other.moves)
        if not PUZZLES[self.puzzle].solves(job.state, moves):
            answer.detail["fallback_error"] = "the two-phase solution does not solve the cube"
            return
        answer.moves = moves
        answer.detail["solution_from"] = "kociemba"
        if self.metric != Metric.HTM:
            answer.detail["solution_note"] = (f"the two-phase fallback's solution is short in "
                                              f"HTM, not searched in {self.metric.title}")
        job.offer(moves, verified=True)

    def start_nodes(self, root: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The nodes SPLIT_DEPTH moves below root, and the moves that reach them."""
        from .lanes import expand_items
        p = self._prepared
        return expand_items(root, SPLIT_DEPTH, p.child, p.order)

    def heuristic(self, state: CubeState) -> int:
        """The lower bound the tables give for a (normalized) state."""
        self.prepare()
        p = self._prepared
        return int(p.heuristic(p.root(check_solvable(state))))


class _Run:
    """One solve: the bound loop, the threads and the live counters."""

    def __init__(self, solver: KorfSolver, p: Prepared, job: SolveJob, stop: np.ndarray):
        self.solver, self.p, self.job, self.target = solver, p, job, job.position
        self.counters, self.cancel = job.counters, job.cancel
        self.max_length = job.max_length
        self.stop = stop
        """Raised when the search's time is up (the caller's cancel flag stays down, so the
        fallback can still run)."""
        self.live = np.zeros(solver.threads, np.int64)
        self.nodes = 0
        self.moves: list[int] | None = None
        self.lower_bound = 0
        self.status = Status.NOT_FOUND
        self.bound_log: list[dict] = []
        self.seconds = 0.0
        self._start_nodes = None

    def search(self) -> None:
        p = self.p
        root = p.root(self.target)
        h = int(p.heuristic(root))
        if h > p.unknown_depth + 1 or h < 0:
            raise SolverError("the Korf tables give an impossible bound: rebuild them")
        metric = self.solver.metric
        gods = gods_number("3x3", metric)
        # in QTM a solution's length has the parity of the corner permutation
        bound, step = (first_bound(h, self.target), 2) if metric == Metric.QTM else (h, 1)
        self.lower_bound = bound
        started = time.perf_counter()
        while True:
            if self.max_length is not None and bound > self.max_length:
                self.status = Status.NOT_FOUND
                break
            if bound > gods:
                raise TableError(f"{self.solver.name}: no solution within {gods} "
                                 f"{metric.title} (God's number): the Korf tables are wrong; "
                                 f"rebuild them (cubelab tables clear)")
            self.counters[BOUND] = bound
            self.counters[LOWER_BOUND] = bound
            t0, n0 = time.perf_counter(), self.nodes
            found = self._search_bound(root, bound)
            self.bound_log.append({"bound": bound, "nodes": self.nodes - n0,
                                   "seconds": round(time.perf_counter() - t0, 3)})
            if found is not None:
                self.moves = found
                self.lower_bound = bound
                self.status = Status.SOLVED
                break
            if self.cancel[0] or self.stop[0]:
                self.status = self.job.stopped() or Status.TIME_LIMIT
                break
            bound += step
            self.lower_bound = bound
        self.seconds = time.perf_counter() - started
        self.counters[NODES] = self.nodes
        self.counters[LOWER_BOUND] = self.lower_bound

    def _search_bound(self, root: np.ndarray, bound: int) -> list[int] | None:
        p = self.p
        # a bound below the split takes milliseconds: searched in this thread, since a thread
        # to watch it would cost more than the search
        short = bound < self.solver.split_from
        if short:
            items, paths, g0 = root[None, :], np.zeros((1, 0), np.int8), 0
            workers = 1
        else:
            # one thread searches the start nodes too: the order by past cost serves it as well
            if self._start_nodes is None:
                starts = self.solver.start_nodes(root)
                # symmetric starts are dropped only where proven: the face-turn move order
                self._start_nodes = (distinct_starts(self.target, *starts)
                                     if self.solver.metric == "htm" else starts)
            items, paths = self._start_nodes
            g0, workers = SPLIT_DEPTH, self.solver.threads
        costs = np.zeros(len(items), np.int64)
        self.live[:] = 0
        base = self.nodes
        lock = threading.Lock()
        next_item = [0]
        solutions: list[list[int]] = []

        def work(slot: int) -> None:
            sol = np.zeros(bound + 1, np.int64)
            while not (self.stop[0] or self.cancel[0]):
                with lock:
                    i0 = next_item[0]
                    next_item[0] = min(len(items), i0 + CHUNK * p.lanes)
                if i0 >= len(items):
                    return
                found, _ = p.kernel(items, paths, i0, next_item[0], g0, bound, *p.args,
                                    self.live, slot, self.stop, self.cancel, sol, costs)
                if found:
                    with lock:
                        solutions.append([int(m) for m in sol[:bound]])
                    return

        if short:
            work(0)
        else:
            threads = [threading.Thread(target=work, args=(slot,), name=f"korf search {slot}",
                                        daemon=True) for slot in range(workers)]
            for t in threads:
                t.start()
            while any(t.is_alive() for t in threads):
                threads[0].join(0.05)
                self.counters[NODES] = base + int(self.live.sum())
            for t in threads:
                t.join()
        self.nodes = base + int(self.live.sum())
        self.counters[NODES] = self.nodes
        if not short and not solutions and self.solver.order_starts:
            self._start_nodes = by_past_cost(items, paths, costs)
        if solutions and not verify(self.target, [FACE_MOVES[m] for m in solutions[0]]):
            # the kernel claims a path that does not solve the cube: its tables or coordinates
            # are wrong, and neither this answer nor the bounds before it can be trusted
            raise SolverError(f"the {p.set_name} search returned a sequence that does not solve "
                              f"the cube: its tables are wrong (cubelab tables clear, then "
                              f"rebuild them)")
        return solutions[0] if solutions else None


def _warm_up(p: Prepared) -> None:
    """Compile (or load from numba's cache) the kernel before the first timed solve."""
    root = p.root(CubeState.identity())
    live = np.zeros(1, np.int64)
    p.kernel(root[None, :], np.zeros((1, 0), np.int8), 0, 1, 0, 1, *p.args,
             live, 0, np.zeros(1, np.int32), np.zeros(1, np.int32), np.zeros(2, np.int64),
             np.zeros(1, np.int64))


if __name__ == "__main__":
    import sys
    from cubelab.cube.moves import alg_state
    alg = " ".join(sys.argv[1:]) or "R U2 F' L D' B2 R' U F2"
    solver = KorfSolver()
    res = solver.solve(alg_state(alg))
    print(res.to_json())
