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
from dataclasses import dataclass

import numpy as np

from cubelab.cube.moves import FACE_MOVES
from cubelab.cube.state import CubeState
from cubelab.tables.cubies import canonical_successors
from cubelab.tables.sequences import cancel as merge_turns
from cubelab.tables.spec import TableError

from ..protocol import (
    BEST, BOUND, LOWER_BOUND, NODES, PHASE, Deadline, Solution, SolveResult,
    SolverError, check_solvable, missing_tables, new_cancel, new_counters,
    prepare_before_solving, verify,
)
from .fallback import TwoPhaseFallback, two_phase_ready
from .lanes import LANES, face_turn_order
from .quarter import GODS_NUMBER, first_bound, quarter_turn_order
from .startnodes import by_past_cost, distinct_starts

SPLIT_DEPTH = 3
"""Start nodes for the two threads: 3,240 nodes three moves below the root."""
SPLIT_FROM = {"strong": 13, "korf1997": 10, "strong-qtm": 15, "layers-small": 12, "layers": 14,
              "layers-h48": 14}
"""Bounds below these are searched from the root on one thread (they take milliseconds)."""
CHUNK = 6
"""Start nodes a thread takes at a time (times the lanes a kernel interleaves)."""
FALLBACK_SHARE = 0.15
"""With a time limit, the share kept for the two-phase solver (at most FALLBACK_MAX seconds)."""
FALLBACK_MAX = 2.0


@dataclass
class _Prepared:
    """Tables and kernel arguments of one table set, ready to search."""

    set_name: str
    kernel: object
    args: tuple              # kernel arguments after (items, paths, i0, i1, g0, bound)
    root: object             # state -> node array
    child: object            # (node, move, out) -> None
    heuristic: object        # node -> int
    unknown_depth: int
    lanes: int = 1           # depth-first searches one kernel call interleaves
    order: tuple = ()        # the move order (lists, counts, rows) the kernel walks


class KorfSolver:
    """Optimal solutions by IDA* on pattern databases, in the half-turn metric (`tables`
    "layers", the default, "strong", "korf1997", "layers-small" or, with 11 GB to spare,
    "layers-h48") or the quarter-turn metric
    (`metric="qtm"`: "strong-qtm")."""

    name = "korf"
    description = "Korf's optimal IDA* with pattern databases (proves the optimal length)"
    puzzle = "3x3"
    metrics = ("htm",)
    """What korf honours; a solver made with metric="qtm" (korf-qtm) honours QTM instead."""

    def __init__(self, tables: str | None = None, *, metric: str = "htm", threads: int = 2,
                 table_depth: int | None = None, fallback: bool = True,
                 split_from: int | None = None, order_starts: bool = True):
        """metric: "htm" or "qtm", the metric whose optimum the search proves; tables: the
        table set (by default the metric's fastest: layers in HTM, strong-qtm in QTM);
        threads: search threads; table_depth: build the tables only that deep (tests);
        fallback: ask the two-phase solver when a time limit stops the search; split_from:
        the first bound searched below the root by all threads; order_starts: search the
        start nodes costly at the last bound first (False keeps their fixed order: for
        measuring what the order gains)."""
        from cubelab.tables.korf.qtm import QTM_SET_NAMES, STRONG_QTM, qtm_table_set
        from cubelab.tables.korf.specs import DEFAULT_SET, TABLE_SET_NAMES, table_set
        if metric == "htm":
            tables = tables or DEFAULT_SET
            if tables in QTM_SET_NAMES:
                raise ValueError(f"table set {tables} counts quarter turns: use it with metric "
                                 f"qtm")
            self.table_set = table_set(tables, table_depth)   # ValueError on a bad name
        elif metric == "qtm":
            tables = tables or STRONG_QTM
            if tables in TABLE_SET_NAMES:
                raise ValueError(f"table set {tables} counts half turns as one move: in QTM "
                                 f"use {', '.join(QTM_SET_NAMES)}")
            self.table_set = qtm_table_set(tables, table_depth)
        else:
            raise ValueError(f"unknown metric {metric!r} (choose htm or qtm)")
        self.metric = metric
        self.metrics = (metric,)
        self.name = "korf" if metric == "htm" else f"korf-{metric}"
        self.tables = tables
        self.threads = max(1, int(threads))
        self.fallback = fallback
        self.split_from = max(SPLIT_DEPTH + 1, int(split_from or SPLIT_FROM[tables]))
        self.order_starts = order_starts
        self._prepared: _Prepared | None = None
        self._lock = threading.Lock()
        self._fallback = TwoPhaseFallback()

    # ---- tables -----------------------------------------------------------------------------
    def table_specs(self) -> tuple:
        return self.table_set.all_specs

    def missing_tables(self) -> list:
        return [] if self._prepared is not None else missing_tables(self.table_specs())

    def prepare(self, progress=None, cancel=None, log=None) -> None:
        """Load or build the table set and compile the search kernel."""
        with self._lock:
            if self._prepared is not None:
                return
            arrays = self.table_set.load(progress=progress, cancel=cancel, log=log)
            if self.tables in ("strong", "strong-qtm"):
                prepared = _prepare_strong(arrays, self.table_set.max_depth, self.metric)
            elif self.tables in ("layers", "layers-small", "layers-h48"):
                from .layersearch import prepare_layers
                kernel, args, root, child, bound, top = prepare_layers(
                    arrays, self.table_set.max_depth, corners=self.tables != "layers-small")
                prepared = _Prepared(self.tables, kernel, args, root, child, bound, top, LANES,
                                     face_turn_order())
            else:
                prepared = _prepare_korf1997(arrays, self.table_set.max_depth)
            _warm_up(prepared)
            self._prepared = prepared
            # the split into start nodes compiles on first use (about 2 s), where a cancel
            # could not be heard: do it here, where prepare_before_solving watches the flag
            self.start_nodes(prepared.root(CubeState.identity()))

    # ---- solving ----------------------------------------------------------------------------
    def solve(self, state: CubeState, *, max_length: int | None = None,
              time_limit: float | None = None, on_solution=None, counters=None,
              cancel=None) -> SolveResult:
        start = time.perf_counter()
        target = check_solvable(state)
        counters = counters if counters is not None else new_counters()
        cancel = cancel if cancel is not None else new_cancel()
        counters[PHASE] = 0
        if max_length is not None and max_length < 0:
            raise SolverError("max_length must be at least 0")
        refused = prepare_before_solving(self, cancel)
        if refused is not None:
            refused.seconds = time.perf_counter() - start
            return refused
        p = self._prepared
        fallback_seconds = 0.0
        if time_limit is not None and self.fallback and two_phase_ready():
            fallback_seconds = min(FALLBACK_MAX, FALLBACK_SHARE * time_limit)
            self._fallback.warm()   # its preparation must not run after the limit
        search_limit = None if time_limit is None else max(0.0, time_limit - fallback_seconds -
                                                           (time.perf_counter() - start))
        run = _Run(self, p, target, counters, cancel, max_length, search_limit)
        run.search()
        seconds = time.perf_counter() - start
        detail = {"tables": self.tables, "nodes_per_second": round(run.nodes / max(run.seconds,
                                                                                   1e-9)),
                  "bounds": run.bound_log}
        if run.moves is not None:
            # a quarter-turn path writes U2 as U U: merged, it counts the same in QTM
            moves = [FACE_MOVES[m] for m in merge_turns(run.moves)]
            sol = Solution(moves, seconds, run.nodes)
            self._refuse_unless_right(state, sol, run.lower_bound)
            if on_solution is not None:
                on_solution(sol)
            counters[BEST] = run.lower_bound
            return SolveResult(self.name, moves, nodes=run.nodes, seconds=seconds, optimal=True,
                               lower_bound=run.lower_bound, verified=True, status="solved",
                               detail=detail, solutions=[sol], metric=self.metric)
        result = SolveResult(self.name, None, nodes=run.nodes, seconds=seconds, optimal=False,
                             lower_bound=run.lower_bound, status=run.status, detail=detail,
                             metric=self.metric)
        if run.status == "time limit" and fallback_seconds > 0 and not cancel[0]:
            self._add_fallback(result, state, fallback_seconds, counters, cancel, on_solution,
                               start)
        return result

    def _refuse_unless_right(self, state: CubeState, sol: Solution, bound: int) -> None:
        """A found path must solve the position in exactly `bound` moves of the metric: else
        the tables or the kernel are wrong, and no answer is better than a wrong one."""
        if not verify(state, sol.moves):
            raise RuntimeError(f"{self.name} produced a sequence that does not solve the cube "
                               f"({sol.text()}): rebuild its tables (cubelab tables clear)")
        length = sol.qtm if self.metric == "qtm" else sol.htm
        if length != bound:
            raise RuntimeError(f"{self.name} found {length} {self.metric.upper()} moves at bound "
                               f"{bound}: its search is wrong")

    def _add_fallback(self, result, state, seconds, counters, cancel, on_solution, start):
        """A not-proven-optimal solution from the two-phase solver, in the time kept for it."""
        counters[PHASE] = 1
        try:
            other = self._fallback.solve(state, seconds, cancel)
        except Exception as e:  # the fallback is a courtesy: its failure must not hide ours
            result.detail["fallback_error"] = f"{type(e).__name__}: {e}"
            return
        if other.moves is None:
            return
        moves = list(other.moves)
        if not verify(state, moves):
            result.detail["fallback_error"] = "the two-phase solution does not solve the cube"
            return
        result.moves = moves
        result.verified = True
        result.detail["solution_from"] = "kociemba"
        if self.metric != "htm":
            result.detail["solution_note"] = (f"the two-phase fallback's solution is short in "
                                              f"HTM, not searched in {self.metric.upper()}")
        result.seconds = time.perf_counter() - start
        sol = Solution(moves, result.seconds, result.nodes)
        result.solutions.append(sol)
        counters[BEST] = sol.qtm if self.metric == "qtm" else sol.htm
        if on_solution is not None:
            on_solution(sol)

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

    def __init__(self, solver: KorfSolver, p: _Prepared, target: CubeState, counters, cancel,
                 max_length, time_limit):
        self.solver, self.p, self.target = solver, p, target
        self.counters, self.cancel = counters, cancel
        self.max_length, self.time_limit = max_length, time_limit
        self.stop = new_cancel()
        self.live = np.zeros(solver.threads, np.int64)
        self.nodes = 0
        self.moves: list[int] | None = None
        self.lower_bound = 0
        self.status = "not found"
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
        # in QTM a solution's length has the parity of the corner permutation
        bound, step = (first_bound(h, self.target), 2) if metric == "qtm" else (h, 1)
        self.lower_bound = bound
        started = time.perf_counter()
        with Deadline(self.stop, self.time_limit) as deadline:
            while True:
                if self.max_length is not None and bound > self.max_length:
                    self.status = "not found"
                    break
                if bound > GODS_NUMBER[metric]:
                    raise TableError(f"{self.solver.name}: no solution within "
                                     f"{GODS_NUMBER[metric]} {metric.upper()} (God's number): "
                                     f"the Korf tables are wrong; rebuild them "
                                     f"(cubelab tables clear)")
                self.counters[BOUND] = bound
                self.counters[LOWER_BOUND] = bound
                t0, n0 = time.perf_counter(), self.nodes
                found = self._search_bound(root, bound)
                self.bound_log.append({"bound": bound, "nodes": self.nodes - n0,
                                       "seconds": round(time.perf_counter() - t0, 3)})
                if found is not None:
                    self.moves = found
                    self.lower_bound = bound
                    self.status = "solved"
                    break
                if self.cancel[0] or deadline.expired:
                    self.status = "cancelled" if self.cancel[0] else "time limit"
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


# ---- preparing the table sets ----------------------------------------------------------------

def _prepare_strong(arrays, max_depth, metric="htm") -> _Prepared:
    """The strong set's search, in HTM, or in QTM over the quarter turns' tables (the same
    layouts: only the move order, the phase table's walk down and the corners' depth differ)."""
    from cubelab.tables.korf.coords import (
        axis_move_maps, axis_phase_coords, corner_sym_tables, cperm_of, move_tables, sym_tables,
    )
    from cubelab.tables.korf.pdb import move_columns, reduce_corners
    from cubelab.tables.korf.qtm import QUARTER_TURNS, corner_depth
    from cubelab.tables.korf.slicephase import solved_coords
    from cubelab.tables.memory import resident
    from . import strong as kst
    from .lanes import mod3_decoder
    ptab, ctab = arrays
    ptab = resident(ptab)
    csym = reduce_corners(ctab)
    mt, st, cst = move_tables(), sym_tables(), corner_sym_tables()
    unknown = 99 if max_depth is None else max_depth + 1
    dec = mod3_decoder(unknown)
    axmove = axis_move_maps()
    solved_ss = solved_coords()[0]
    if metric == "qtm":
        order = quarter_turn_order()
        walk = move_columns(QUARTER_TURNS, mt.sslice, mt.flip, mt.twist)
        corner_unknown = corner_depth(max_depth) + 1
    else:
        order, walk, corner_unknown = face_turn_order(), (mt.sslice, mt.flip, mt.twist), unknown
    cp_info = cst.cp_info
    ss_info = kst.pack_ss_info(st.ss_cls, st.ss_sym, st.ss_fmask)
    args = (*order, mt.cperm, mt.twist, mt.sslice, mt.flip, axmove, csym, cp_info,
            corner_unknown, ptab, dec, ss_info, st.flip_conj, st.twist_conj)

    def root(state: CubeState) -> np.ndarray:
        node = np.empty(kst.S_LEN, np.int64)
        node[kst.S_CP] = cperm_of(state.cp)
        for a, (ss, f, t) in enumerate(axis_phase_coords(state)):
            d = kst.phase_distance(ptab, ss, f, t, unknown, st.ss_cls, st.ss_sym, st.ss_fmask,
                                   st.flip_conj, st.twist_conj, *walk, solved_ss)
            if d < 0:
                raise SolverError("the Korf phase table is inconsistent: rebuild it "
                                  "(cubelab tables clear)")
            node[kst.S_AXIS + 4 * a: kst.S_AXIS + 4 * a + 4] = (ss, f, t, d)
        return node

    def child(node, m, out):
        kst.strong_child(node, m, out, mt.cperm, mt.twist, mt.sslice, mt.flip, axmove, ptab, dec,
                         st.ss_cls, st.ss_sym, st.ss_fmask, st.flip_conj, st.twist_conj)

    return _Prepared("strong" if metric == "htm" else f"strong-{metric}", kst.strong_search,
                     args, root, child,
                     lambda node: kst.start_h(node, csym, cp_info, st.twist_conj,
                                              corner_unknown),
                     max(unknown, corner_unknown), LANES, order)


def _prepare_korf1997(arrays, max_depth) -> _Prepared:
    from cubelab.tables.korf.coords import cperm_of, edge_cubies, move_tables
    from cubelab.tables.memory import resident
    from cubelab.tables.ranks import twist_of
    from . import korf1997 as k97
    ctab, etab_a, etab_b = (resident(a) for a in arrays)
    mt = move_tables()
    unknown = 99 if max_depth is None else max_depth + 1
    lists, counts = canonical_successors()
    args = (lists, counts, mt.cperm, mt.twist, mt.edge_cubie, ctab, etab_a, etab_b, unknown)

    def root(state: CubeState) -> np.ndarray:
        node = np.empty(k97.K_LEN, np.int64)
        node[k97.K_CP] = cperm_of(state.cp)
        node[k97.K_TW] = twist_of(np.asarray(state.co, np.int64))
        node[k97.K_EDGE:] = edge_cubies(state)
        return node

    def child(node, m, out):
        k97.korf_child(node, m, out, mt.cperm, mt.twist, mt.edge_cubie)

    return _Prepared("korf1997", k97.korf_search, args, root, child,
                     lambda node: k97.korf_h(node, ctab, etab_a, etab_b, unknown), unknown,
                     LANES, face_turn_order())


def _warm_up(p: _Prepared) -> None:
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
