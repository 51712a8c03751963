"""Kociemba's two-phase solver behind the protocol: short solutions fast, optimal ones when it can tell.

Stopping rules:
- neither max_length nor time_limit: keep improving for `budget` seconds (DEFAULT_BUDGET), and
  stop as soon as the best solution is proven optimal; with budget=None, stop at the first
  solution of at most 20 moves (the fast mode, and what bench/bench_kociemba.py measures);
- max_length only: stop at the first solution of at most max_length moves (or when the search
  proves there is none: status "not found");
- time_limit only: keep improving until the time is up or the best solution is proven optimal
  (if the time is up before any solution, go on to the first one: it comes within milliseconds);
- both: stop at the first solution within max_length, or when the time is up.
Every improvement goes to on_solution as it is found. The search runs in six directions (the
cube conjugated onto each of its three axes, and its inverse likewise) as min2phase does. While
it improves (given PROVE_FROM seconds or more), a second thread tries to prove the best solution
optimal (prove.py): short positions, those of 12 moves or so, come back optimal and marked so
well within the budget.
Loading or building the tables never counts against a time limit or a budget.
"""

from __future__ import annotations

import threading
import time

import numpy as np

from cubelab.cube.moves import FACE_MOVES
from cubelab.cube.state import CubeState
from cubelab.solvers.protocol import (
    LOWER_BOUND, NODES, Deadline, Answer, Parts, PhaseLengths, Solution, SolveJob, SolveResult,
    SolverBase, Status, new_cancel, new_counters,
)
from cubelab.tables.cubies import face_turn_arrays, symmetry_rows
from cubelab.tables.kociemba.specs import PHASE2_MOVES, SPECS, load_tables
from cubelab.tables.memory import resident
from cubelab.tables.ranks import BINOM
from cubelab.tables.udsym import axis_symmetries

from . import prove as kp
from . import roots as kr
from . import search as ks
from .about import TWO_PHASE

DEFAULT_MAX_LENGTH = 20
DEFAULT_BUDGET = 1.0
"""Seconds a solve with neither max_length nor time_limit keeps improving (it stops sooner as
soon as its solution is proven optimal)."""
SETTLED_UP_TO = 12
"""A budgeted solve does not stop for its budget before the prover has settled every length up
to this: a position of 12 moves or fewer always comes back optimal, however busy the machine
(settling them takes milliseconds on a random position, a tenth of a second on a 12-mover)."""
FIRST_PHASE2_CAP = 12
"""Phase-2 moves a search for the first solution within a length tries at most (until it has
searched everything so): on random states as fast as no cap (median phase-1 nodes to the first
of <= 20 moves 5,243 either way, 9,771 with a cap of 10), and easy positions keep their short
answers (a 7-move scramble: 16 moves, not the 19 an uncapped phase 2 reaches first)."""
PROVE_FROM = 0.05
"""Seconds: an improving solve given less time runs no optimality prover beside its search. On
a busy two-core machine the prover's thread takes the search's time (at a 10 ms limit, 100
random states: mean 19.81 moves with it, 19.56 without, the same states interleaved), and in
so little time it settles only positions of a few moves."""
NEXT_DEPTH_RATIO = (4.0, 20.0, 10.0)
"""(least, most, before two depths are timed): how many times the prover's last depth the next
one is expected to take. A depth of 13 takes it about 20 ms on a random state, 14 about 0.1
to 0.4 s, each next one about ten times the last."""
MAX_LENGTH = ks.MAX_DEPTH - 1
"""The longest solution the search looks for; two-phase never needs more than 30 moves."""

_AXIS_NAMES = ("UD", "RL", "FB")
_FACE_OF = {str(m.family): i for i, m in enumerate(FACE_MOVES[::3])}
_MOVE = type(FACE_MOVES[0])
_WARM_UP = "R U F' L2 D B R' U2 F D' L B2 U R2 F'"


class KociembaSolver(SolverBase):
    """Two-phase search on symmetry-reduced exact distance tables (see the module docstring)."""

    description = TWO_PHASE

    def __init__(self, directions: int = 6, phase2_cap: int = 10, threads: int = 1,
                 budget: float | None = DEFAULT_BUDGET, prove: bool = True,
                 first: bool = False):
        """first: stop at the first solution of at most 20 moves (the same as budget=None)."""
        if not 1 <= directions <= 6:
            raise ValueError("directions must be between 1 and 6")
        self.directions = directions
        self.threads = max(1, int(threads))
        """Search threads (the directions are shared out among them); the kernels release the
        GIL, so two threads use two cores."""
        self.phase2_cap = phase2_cap
        """Once an improving solve seeks solutions of 20 moves or less, phase 2 is tried with at
        most this many moves (lifted again to prove optimality); a solve for the first solution
        within a length, with at least FIRST_PHASE2_CAP."""
        if first:
            budget = None
        if budget is not None and not budget > 0:
            raise ValueError(f"budget must be a positive number of seconds or None, not {budget!r}")
        self.budget = budget
        """Seconds an unlimited solve keeps improving; None: stop at the first solution of at
        most 20 moves."""
        self.prove = prove
        """Whether improving solves run the optimality prover beside the search."""
        self._tables = None
        self.load_seconds = 0.0
        self.compile_seconds = 0.0

    # ---- tables and kernels ---------------------------------------------------------------
    def table_specs(self) -> tuple:
        return SPECS

    def _prepare(self, progress, cancel, log) -> None:
        """Load (or build, about a minute the first time) the tables and compile the kernels."""
        start = time.perf_counter()
        t = load_tables(progress=progress, cancel=cancel, log=log)
        mcp, _, mep, _ = face_turn_arrays()
        self._kernel_tables = tuple(resident(a) for a in (
            t.twist_move, t.flip_move, t.slice_move, t.corner_move, t.edge8_move,
            t.twist_conj, t.edge8_conj, t.flipslice_class, t.corner_class, t.phase1_prune,
            t.twist_slice_prune, t.flip_slice_prune, t.phase2_prune, t.corner_slice_prune,
            t.edge_slice_prune, mcp, mep, PHASE2_MOVES, t.phase1_moves, _ud_move_conjugation(),
            t.phase2_exact))
        kt = self._kernel_tables
        # what the search kernel reads: all but the mod-3 tables (the roots' distances come
        # with them), and the moves into the subgroup
        self._search_tables = kt[:9] + kt[12:] + (
            ks.subgroup_moves(t.flip_move, t.twist_move, t.slice_move, PHASE2_MOVES),)
        self._root_tables = (BINOM, kt[1], kt[0], kt[2], kt[7], kt[5], kt[18], kt[19])
        from cubelab.cube.symmetry import move_conjugation, symmetry_inverse_index
        self._axes = axis_symmetries()
        self._axes_array = np.array(self._axes, np.int64)
        self._symmetry_rows = symmetry_rows()
        self._turn_arrays = face_turn_arrays()
        mc, inv = move_conjugation(), symmetry_inverse_index()
        # a move found in the frame of symmetry k, seen on the cube itself
        self._unconjugate = {k: np.asarray(mc[inv[k]], dtype=np.int64) for k in self._axes}
        self._phase2_mask = np.zeros(18, np.bool_)
        self._phase2_mask[PHASE2_MOVES] = True
        # the prover: face turn m seen in each axis's frame, and the tables it reads
        self._frame_moves = np.ascontiguousarray(
            [np.asarray(mc[k], dtype=np.int64) for k in self._axes])
        self._prover_tables = (kt[0], kt[1], kt[2], kt[5], kt[7], kt[9], kt[10], kt[11],
                               kt[15], kt[16])
        self._tables = t
        self.load_seconds = time.perf_counter() - start
        if log is not None:
            log("compiling the search (the first run on this machine takes a while)")
        start = time.perf_counter()
        from cubelab.cube.moves import alg_state
        self._warm_up(alg_state(_WARM_UP), max_length=DEFAULT_MAX_LENGTH, seconds=None)
        self._warm_up(alg_state("R U F"), max_length=None, seconds=1.0)
        self.compile_seconds = time.perf_counter() - start

    def _warm_up(self, state: CubeState, max_length, seconds) -> None:
        """Compile (or load from numba's cache) the kernels on one solve of `state`, with a
        time limit of `seconds` kept here (the template's is not running)."""
        job = SolveJob(self, state, state, max_length, seconds, new_counters(), new_cancel())
        with Deadline(job.cancel, seconds, lambda: self._time_up(job)):
            self._run(job, limited=seconds is not None)

    # ---- solving ----------------------------------------------------------------------------
    def solve(self, state, *, max_length: int | None = None, time_limit: float | None = None,
              on_solution=None, counters: np.ndarray | None = None,
              cancel: np.ndarray | None = None) -> SolveResult:
        """The template's solve; the commonest call, the first solution within a length of a
        position alone on one thread (what `solve --file` and a library caller make), first
        goes the short way of _first_alone, with the same answer."""
        if time_limit is None and on_solution is None and counters is None and cancel is None \
                and self.threads == 1 and self._prepared \
                and (max_length is not None or self.budget is None) \
                and (max_length is None or max_length >= 0):
            found = self._first_alone(state, DEFAULT_MAX_LENGTH if max_length is None
                                      else max_length)
            if found is not None:
                return found
        return super().solve(state, max_length=max_length, time_limit=time_limit,
                             on_solution=on_solution, counters=counters, cancel=cancel)

    def _first_alone(self, state, target: int) -> SolveResult | None:
        """The first solution of at most `target` moves found by the search in this thread,
        with no clock, flag, stream or prover to serve: the template's result, verified, built
        directly (None where the template must answer: a position it checks or answers
        itself, a search that proves there is no such solution).

        Why a second way: a solve's Python (the job, the run shared by threads, the offers,
        the answer) is a few dozen microseconds, but after another program has had the
        processor, its objects are out of the caches, and it cost a quarter of a random
        position's solve (80 us of 300, measured after a rob-twophase solve each time)."""
        if type(state) is not CubeState or state.is_identity() \
                or not kr.reachable(state.cp, state.co, state.ep, state.eo, state.cc):
            return None
        started = time.perf_counter()
        roots = self._roots(state)
        n = roots.n
        root_coords = roots.coords[:n]
        dists = root_coords[:, kr.R_DIST].tolist()
        first_n1 = min(dists)
        w = _work_arrays()
        st, flags = w["st"], w["flags"]
        flags[:] = 0
        limit = min(target, MAX_LENGTH)
        shared = np.array([limit], np.int64)
        _start(st, n, first_n1, limit, True, self._first_cap())
        while True:
            r = ks.search(st, shared, w["lv"], w["kids"], w["cps"], w["eps"], w["stack"],
                          w["out"], w["work"], root_coords, roots.cps[:n], roots.eps[:n],
                          w["counters"], flags[0:1], flags[1:2], *self._search_tables)
            if r == ks.FOUND:
                break
            if r != ks.EXHAUSTED or not _search_again(st, first_n1):
                return None
        k, inv = roots.direction(st[ks.S_OUTDIR], self._axes)
        index, moves, phases = self._translate(w["out"], int(st[ks.S_OUTLEN]), k, inv)
        self._verify_turns(state, index, moves)
        nodes = int(w["work"][4] + w["work"][0])
        seconds = time.perf_counter() - started
        return SolveResult(
            self.name, moves, nodes=nodes, seconds=seconds,
            lower_bound=min(max(dists), len(moves)), verified=True,
            detail={"direction": _direction_name(self._axes, k, inv), "stopped": "target"},
            solutions=[Solution(list(moves), seconds, nodes)], metric=self.metric,
            phases=Parts([PhaseLengths(tuple(phases))]))

    def _first_cap(self) -> int:
        """The phase-2 cap of a search for the first solution within a length."""
        return max(self.phase2_cap, FIRST_PHASE2_CAP)

    def solved_parts(self) -> dict:
        return {"phases": Parts([PhaseLengths((0, 0))])}

    def search_seconds(self, job: SolveJob) -> float | None:
        """Without max_length or time limit, the improving budget (None: no clock at all)."""
        if job.max_length is None and job.time_limit is None:
            return self.budget
        return job.time_limit

    def time_up(self, job: SolveJob) -> None:
        """A time limit promises a solution: the search runs on to its first one (or, with a
        max_length too, stops), and a budgeted solve waits for the prover's short lengths."""
        run = job.run
        if run is not None:
            run.time_is_up()

    def search(self, job: SolveJob) -> Answer:
        job.counters[:] = new_counters()[:len(job.counters)]
        budgeted = job.max_length is None and job.time_limit is None and self.budget is not None
        return self._run(job, limited=self.search_seconds(job) is not None, settle=budgeted)

    def check(self, state):
        """The template's check, at the cost of one kernel call for a reachable position held
        with its centres home (once prepared: the kernel is compiled with the others); anything
        else goes the model's way, which says what is wrong."""
        if self._tables is not None and type(state) is CubeState and \
                kr.reachable(state.cp, state.co, state.ep, state.eo, state.cc):
            return state
        return super().check(state)

    def verify(self, state, moves) -> None:
        """The template's check of an answer, done on the cubie arrays when the answer is face
        turns and the position is held with its centres home (the model's way otherwise)."""
        self._verify_turns(state, _face_turn_indices(moves), moves)

    def _verify_turns(self, state, index, moves) -> None:
        """verify, given the moves as indices into FACE_MOVES too (None: not all face turns)."""
        if index is None or self._tables is None or type(state) is not CubeState \
                or not kr.reachable(state.cp, state.co, state.ep, state.eo, state.cc):
            return super().verify(state, moves)
        if not kr.sequence_solves(state.cp, state.co, state.ep, state.eo, index,
                                  *self._turn_arrays):
            raise RuntimeError(f"{self.name} produced a sequence that does not solve the cube: "
                               f"rebuild its tables (cubelab tables clear)")

    def _roots(self, normal: CubeState) -> "_Roots":
        """The distinct search directions of the position (held with its centres home): the
        cube turned onto each axis, and its inverse likewise; a symmetric cube repeats some,
        and each is searched once."""
        row = np.empty(40, np.uint8)
        row[0:8], row[8:16], row[16:28], row[28:40] = normal.cp, normal.co, normal.ep, normal.eo
        r = _thread_roots()
        r.n = kr.directions(row, self.directions, self._axes_array, self._symmetry_rows,
                            r.coords, r.cps, r.eps, r.dirs, r.axis_coords, *self._root_tables)
        return r

    def _run(self, job: SolveJob, limited: bool, settle: bool = False) -> Answer:
        """Search job.position; `limited`: a clock runs (the template's, or the warm-up's), so
        an unbounded search improves until it is told the time is up."""
        normal, max_length, counters = job.position, job.max_length, job.counters
        target = DEFAULT_MAX_LENGTH if max_length is None and not limited else max_length
        limit = MAX_LENGTH if target is None else min(target, MAX_LENGTH)
        roots = self._roots(normal)
        n = roots.n
        root_coords, root_cp, root_ep = roots.coords[:n], roots.cps[:n], roots.eps[:n]
        lower = max(root_coords[:, kr.R_DIST].tolist())
        counters[LOWER_BOUND] = lower

        run = _Run(self, job, roots, target, limit)
        run.proven_lower = lower
        run.settle = settle and self.prove
        nthreads = max(1, min(self.threads, n))
        parts = [range(i, n, nthreads) for i in range(nthreads)]
        prover = None
        seconds = self.search_seconds(job)
        if target is None and self.prove and (seconds is None or seconds >= PROVE_FROM):
            # improving: a second thread tries to prove the best solution optimal
            deadline = None if seconds is None else job.started + seconds
            prover = threading.Thread(target=run.prove,
                                      args=(roots.axis_coords, np.asarray(normal.cp, np.int64),
                                            np.asarray(normal.ep, np.int64), deadline),
                                      daemon=True, name="kociemba prover")
            run.proving = True      # before the clock can look
            prover.start()
        job.run = run
        if job.expired:             # the clock ran out before the run was there to hear it
            run.time_is_up()
        try:
            args = (root_coords, root_cp, root_ep)
            if nthreads == 1:
                run.work(parts[0], *args)
            else:
                workers = [threading.Thread(target=run.work, args=(part, *args), daemon=True,
                                            name=f"kociemba {i}") for i, part in enumerate(parts)]
                for t in workers:
                    t.start()
                for t in workers:
                    t.join()
        finally:
            if prover is not None:
                with run.lock:
                    run.stop[0] = 1         # the search is over, whyever it ended
                prover.join()
        if run.error is not None:
            raise run.error
        stopped = run.stopped or (job.stopped() or Status.TIME_LIMIT).value
        counters[NODES] = run.nodes
        best = run.best
        optimal = stopped in ("exhausted", "proven") and best is not None
        lower = max(lower, run.proven_lower)
        if stopped == "exhausted":
            # every solution of at most the final limit would have been found
            lower = max(lower, int(run.shared[0]) + 1)
        if best is not None:
            lower = min(lower, len(best.moves))
        counters[LOWER_BOUND] = lower
        phases = run.detail.pop("phases", None)
        return Answer(best.moves if best else None, optimal=optimal, lower_bound=lower,
                     detail=dict(run.detail, stopped=stopped), nodes=run.nodes,
                     phases=Parts([PhaseLengths(tuple(phases))]) if phases else None)

    def _translate(self, frame, n, k, inv):
        """The n moves frame[:n] found in the search frame of direction (k, inv), as face turns
        on the cube itself (their indices into FACE_MOVES, and the moves), and the lengths of
        the two phases."""
        idx = np.empty(n, np.int64)
        n1 = kr.translate(frame, n, self._unconjugate[k], inv, self._phase2_mask, idx)
        return idx, [FACE_MOVES[i] for i in idx.tolist()], [n1, n - n1]


class _Run:
    """One solve shared by its search threads: the best solution so far, the limit every
    thread's kernel reads, and the flag that stops them all."""

    def __init__(self, solver, job: SolveJob, roots, target, limit):
        self.solver = solver
        self.job = job
        self.original = job.state
        self.roots = roots
        self.target = target
        self.limit = limit
        self.counters = job.counters
        self.cancel = job.cancel
        self.lock = threading.Lock()
        self.shared = np.array([limit], np.int64)
        self.stop = np.zeros(1, np.int32)
        self.best: Solution | None = None
        self.detail: dict = {}
        self.stopped: str | None = None
        self.expired = False
        self.nodes = 0
        self.error: BaseException | None = None
        self.proven_lower = 0       # no solution is shorter (raised by the prover)
        self.settle = False         # hold a budgeted solve until short lengths are settled
        self.proving = False        # the prover is at work

    def time_is_up(self) -> None:
        with self.lock:
            self.expired = True
            # a time limit alone promises a solution: let the search reach its first one
            if (self.best is not None or self.target is not None) and not self._holding():
                self.stop[0] = 1

    def _holding(self) -> bool:
        """Whether a budgeted solve must go on past its budget: the prover is still settling
        the lengths up to SETTLED_UP_TO (call with the lock held)."""
        return self.settle and self.proving and self.proven_lower <= SETTLED_UP_TO

    def _check_expired(self) -> None:
        """End a solve held past its time once nothing holds it (call with the lock held)."""
        if self.expired and self.best is not None and not self._holding():
            self._finish("time limit")

    def _finish(self, why: str) -> None:
        """Stop every thread (call with the lock held)."""
        if self.stopped is None:
            self.stopped = why
        self.stop[0] = 1

    def _check_proven(self) -> None:
        """Stop everything once the best solution is no longer than the proven lower bound
        (call with the lock held)."""
        if self.best is not None and len(self.best.moves) <= self.proven_lower:
            self._finish("proven")

    def prove(self, roots, root_cp, root_ep, deadline: float | None = None) -> None:
        """Raise the lower bound one IDA* iteration at a time until it meets the best solution
        (or the first iteration that finds one finds an optimal one). With a `deadline`
        (perf_counter seconds), past the lengths a budgeted solve always settles, it gives up
        before a depth it is not expected to finish in time: on two cores its thread takes
        the search's time, and a depth left half done proves nothing."""
        work = kp.new_work()
        path = np.zeros(ks.MAX_DEPTH, np.int64)
        tables = self.solver._prover_tables
        depth = max(1, int(roots[:, kp.A_DIST].max()))
        took = (None, None)         # the seconds of the last two depths searched whole
        try:
            while depth < MAX_LENGTH:
                if deadline is not None and depth > SETTLED_UP_TO and \
                        time.perf_counter() + _next_depth_seconds(*took) > deadline:
                    return
                with self.lock:
                    self.proven_lower = max(self.proven_lower, depth)
                    self._check_proven()
                    self._check_expired()
                    if self.stopped is not None:
                        return
                start = time.perf_counter()
                r = kp.prove_depth(depth, roots, self.solver._frame_moves, root_cp, root_ep,
                                   path, work, self.counters, self.cancel, self.stop,
                                   self.shared, *tables)
                took = (took[1], time.perf_counter() - start)
                if r == ks.FOUND:
                    index = path[:depth].copy()
                    self._offer_moves([FACE_MOVES[i] for i in index.tolist()], None,
                                      proven=True, index=index)
                    return
                if r == ks.EXHAUSTED:
                    depth += 1
                    continue
                if r == kp.MOOT:
                    with self.lock:
                        self._check_proven()
                return
        except BaseException as e:   # re-raised in the calling thread
            with self.lock:
                self.error = self.error or e
                self._finish("error")
        finally:
            with self.lock:
                self.nodes += int(work[0] + work[1])
                self.proving = False
                self._check_expired()

    def offer(self, frame, n, k, inv) -> None:
        """The search's solution frame[:n], found in direction (k, inv)."""
        index, moves, phases = self.solver._translate(frame, n, k, inv)
        detail = {"phases": phases, "direction": _direction_name(self.solver._axes, k, inv)}
        self._offer_moves(moves, detail, index=index)

    def _offer_moves(self, moves, detail: dict | None, proven: bool = False,
                     index: np.ndarray | None = None) -> None:
        """A solution found by the search (`detail`: its phases and direction) or, `proven`
        optimal, by the prover; `index`: the moves as indices into FACE_MOVES."""
        # verified outside the lock: the others search on
        self.solver._verify_turns(self.original, index, moves)
        with self.lock:
            if self.best is not None and len(moves) >= len(self.best.moves):
                return      # another thread got there first
            self.best = self.job.offer(moves, verified=True)
            self.detail = detail if detail is not None else {"found_by": "optimality prover"}
            self.shared[0] = min(int(self.shared[0]), len(moves) - 1)
            if proven:
                self.proven_lower = max(self.proven_lower, len(moves))
                self._finish("proven")
            elif self.target is not None and len(moves) <= self.target:
                self._finish("target")
            else:
                self._check_proven()
                self._check_expired()       # the first solution, found after the time

    def work(self, part, root_coords, root_cp, root_ep) -> None:
        """Search the directions `part` (indices into roots) until told to stop."""
        try:
            if len(part) < len(root_coords):    # one thread's share of the directions
                root_coords, root_cp, root_ep = (a[part] for a in (root_coords, root_cp, root_ep))
            self._work(part, root_coords, root_cp, root_ep)
        except BaseException as e:   # re-raised in the calling thread
            with self.lock:
                self.error = self.error or e
                self._finish("error")

    def _work(self, part, root_coords, root_cp, root_ep) -> None:
        w = _work_arrays()
        st = w["st"]
        first_n1 = min(root_coords[:, kr.R_DIST].tolist())
        first = self.target is not None
        _start(st, len(part), first_n1, self.limit, first,
               self.solver._first_cap() if first else self.solver.phase2_cap)
        tables = self.solver._search_tables
        try:
            while True:
                r = ks.search(st, self.shared, w["lv"], w["kids"], w["cps"], w["eps"], w["stack"],
                              w["out"], w["work"], root_coords, root_cp, root_ep,
                              self.counters, self.cancel, self.stop, *tables)
                if r == ks.FOUND:
                    k, inv = self.roots.direction(part[st[ks.S_OUTDIR]], self.solver._axes)
                    self.offer(w["out"], int(st[ks.S_OUTLEN]), k, inv)
                    if self.stop[0]:
                        return      # done (its target met): no call just to hear it
                elif r == ks.EXHAUSTED:
                    if _search_again(st, first_n1):
                        continue
                    with self.lock:
                        self._finish("exhausted")   # one direction searched out is a proof
                    return
                else:
                    return
        finally:
            with self.lock:
                self.nodes += int(w["work"][4] + w["work"][0])


class _Roots:
    """A position's search directions (roots.directions): n of them; coords, cps, eps, dirs
    (0-2: the cube on axis 0-2, 3-5: its inverse) in their first n rows; axis_coords, the
    position's coordinates on each axis (the prover's start)."""

    __slots__ = ("n", "coords", "cps", "eps", "dirs", "axis_coords")

    def __init__(self):
        self.n = 0
        self.coords = np.empty((kr.N_DIRECTIONS, 4), np.int64)
        self.cps = np.empty((kr.N_DIRECTIONS, 8), np.int64)
        self.eps = np.empty((kr.N_DIRECTIONS, 12), np.int64)
        self.dirs = np.empty(kr.N_DIRECTIONS, np.int64)
        self.axis_coords = np.empty((kp.N_AXES, 4), np.int64)

    def __len__(self) -> int:
        return self.n

    def direction(self, i: int, axes) -> tuple[int, bool]:
        """(symmetry k, inverse?) of the i-th direction."""
        j = int(self.dirs[i])
        return axes[j % 3], j >= 3


def _start(st, ndir: int, first_n1: int, limit: int, first: bool, cap: int) -> None:
    """Set a search's state (zeroed) to its start over ndir directions: solutions of at most
    `limit` moves, phase 1 from first_n1 moves, phase 2 capped at `cap` moves. A first
    solution within a target (`first`) has phase 2 capped at FIRST_PHASE2_CAP or more (on
    200 random states the cap of 10 doubled the median phase-1 nodes to the first of <= 20
    moves: a longer phase 1 is dearer than a longer phase 2), and the redundant phase-1 tails
    skipped (2-4 % fewer nodes); an exhausted search goes again without either
    (_search_again)."""
    st[ks.S_LIMIT] = limit
    st[ks.S_NDIR] = ndir
    st[ks.S_N1] = first_n1
    st[ks.S_CAP] = cap
    st[ks.S_SKIP] = 1 if first else 0


def _search_again(st, first_n1: int) -> bool:
    """After an exhausted search: whether the cap on phase 2 (or the skipped tails) may have
    hidden shorter solutions; if so the state is set to search again without them, which
    proves optimality when it ends."""
    if not (st[ks.S_CAPPED] and (st[ks.S_CAP] < MAX_LENGTH or st[ks.S_SKIP])):
        return False
    st[ks.S_DIR], st[ks.S_N1], st[ks.S_INIT] = 0, first_n1, 0
    st[ks.S_CAP], st[ks.S_CAPPED], st[ks.S_SKIP] = MAX_LENGTH, 0, 0
    return True


def _direction_name(axes, k: int, inv: bool) -> str:
    return _AXIS_NAMES[axes.index(k)] + (" inverse" if inv else "")


_THREAD = threading.local()


def _thread_roots() -> _Roots:
    """This thread's _Roots, reused from one solve to the next (a thread solves one position
    at a time, and nothing reads a solve's roots once it has returned)."""
    r = getattr(_THREAD, "roots", None)
    if r is None:
        r = _THREAD.roots = _Roots()
    return r


def _work_arrays() -> dict:
    """The search's work arrays for this thread, kept from one solve to the next (making them
    anew cost about 15 us, a tenth of an easy position's solve); the state and the counts
    start from zero, the rest the kernel writes before it reads."""
    w = getattr(_THREAD, "work", None)
    if w is None:
        w = _THREAD.work = ks.new_work_arrays()
        # _first_alone's own flags (cancel, stop: never raised) and counters
        w["flags"] = np.zeros(2, np.int32)
        w["counters"] = new_counters()
    else:
        w["st"][:] = 0
        w["work"][:] = 0
    return w


def _next_depth_seconds(before: float | None, last: float | None) -> float:
    """What the prover's next depth is expected to take, from the seconds of its last two."""
    least, most, guess = NEXT_DEPTH_RATIO
    if last is None:
        return 0.0
    ratio = guess if not before else min(most, max(least, last / before))
    return last * ratio


def _ud_move_conjugation() -> np.ndarray:
    """[k, m]: face turn m seen in the frame of UD symmetry k (S_k m S_k^-1), the frame a
    phase-1 entry's move word is stored in."""
    from cubelab.cube.symmetry import move_conjugation
    return np.ascontiguousarray(move_conjugation()[:16], dtype=np.int64)


def _face_turn_indices(moves) -> np.ndarray | None:
    """The moves as indices into FACE_MOVES, or None if one is not a face turn."""
    out = []
    for m in moves:
        if type(m) is not _MOVE:
            return None
        face = _FACE_OF.get(m.family)
        if face is None:
            return None
        out.append(3 * face + m.amount - 1)     # a Move's amount is 1, 2 or 3
    return np.array(out, np.int64)
