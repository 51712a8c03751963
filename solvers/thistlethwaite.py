"""Thistlethwaite's algorithm: four phases down the chain G0 > G1 > G2 > G3 > {solved}.

Each phase has an exact distance table over its cosets (cubelab.tables.thistlethwaite_tables),
so its optimal solutions are the paths that lower the distance by one at every move. The textbook
takes one optimal solution per phase (31.5 moves on average here). This search goes further: a
depth-first branch and bound over the phases at once, which tries every combination of optimal
solutions of phases 1-3 and, in a second round, phase-2 solutions one move longer than optimal,
carrying the cube from one phase into the next and keeping the shortest total (moves merge
across phase boundaries; phase 4 is read straight off its table). A total can only beat the best
so far if the moves made plus the current phase's exact distance do, which prunes most of the
tree. Each round stops after a node budget (about a tenth of a second), or earlier at the time
limit. Every improvement is reported.
"""

from __future__ import annotations

import threading
import time

import numpy as np

import cubelab.tables  # noqa: F401  (numba cache location, before numba)
from numba import njit

from cubelab.cube.moves import FACE_MOVES
from cubelab.cube.state import CubeState
from cubelab.tables.thistlethwaite_tables import (
    E_SLOTS, LR_STICKER, M_SLOTS, NON_M, PHASE_MOVES, S_SLOTS, SUBGROUPS, ThistlethwaiteTables,
    apply_move, cclass_of, edges4_of, eslice_of, flip_of, h_index_of, load_tables, move_cubies,
    mslice_of, phase_coordinates, twist_lr_of,
)

from .commutators import cancel as cancel_moves
from .protocol import (BEST, NODES, PHASE, Deadline, Solution, SolveResult, check_solvable,
                       missing_tables, new_cancel, new_counters, verify)

MAX_PLY = 64
ROUNDS = ((0, 0, 0), (0, 1, 0))
"""Extra moves allowed in phases 1-3, round by round: first every combination of optimal phase
solutions, then phase 2 one move longer too (measured: that helps more than slack in phase 1
or 3, and more than slack everywhere within the same node budget)."""
NODE_BUDGET = 200_000
"""Nodes per round (about a tenth of a second each)."""


@njit(cache=True, nogil=True)
def _coords(phase, cp, co, ep, eo, lr, non_m, cclass, h_index, m_slots, e_slots, s_slots):
    if phase == 0:
        return flip_of(eo), 0
    if phase == 1:
        return twist_lr_of(cp, co, lr), mslice_of(ep)
    if phase == 2:
        return cclass_of(cp, cclass), eslice_of(ep, non_m)
    return h_index_of(cp, h_index), edges4_of(ep, m_slots, e_slots, s_slots)


@njit(cache=True, nogil=True)
def _search(cube0, mcp, mco, mep, meo, moves, move_a, move_b, dist, lr, non_m, cclass,
            h_index, m_slots, e_slots, s_slots, slack, bound, best_moves, best_ends,
            max_nodes, counters, cancel):
    """Branch and bound over phases 1-3 (phase 4 read from its table). Returns the best total
    below `bound` (or `bound` if none); its moves go to best_moves and the plies where phases
    1, 2 and 3 end to best_ends. `cube0` is cp co ep eo as 40 int64."""
    phase = np.zeros(MAX_PLY + 1, np.int64)
    ca = np.zeros(MAX_PLY + 1, np.int64)
    cb = np.zeros(MAX_PLY + 1, np.int64)
    nxt = np.zeros(MAX_PLY + 1, np.int64)
    mv = np.zeros(MAX_PLY + 1, np.int64)
    plen = np.zeros(MAX_PLY + 1, np.int64)
    start = np.zeros(4, np.int64)      # ply at which each phase starts
    limit = np.zeros(4, np.int64)      # last ply each phase may reach
    snap = np.zeros((4, 40), np.int64)  # the cube at the start of each phase
    snap[0] = cube0
    size_b = np.zeros(4, np.int64)
    for k in range(4):
        size_b[k] = move_b[k].shape[0]
    cur = np.empty(40, np.int64)
    nxt_cube = np.empty(40, np.int64)
    best = bound
    nodes = 0

    # settle ply 0: it may already lie in G1, G2 or G3
    a, b = _coords(0, cube0[0:8], cube0[8:16], cube0[16:28], cube0[28:40], lr, non_m, cclass,
                   h_index, m_slots, e_slots, s_slots)
    phase[0], ca[0], cb[0] = 0, a, b
    start[0] = 0
    limit[0] = dist[0][a * size_b[0] + b] + slack[0]
    p = 0
    settle = dist[0][a * size_b[0] + b] == 0
    while p >= 0:
        if settle:
            settle = False
            # phases complete at ply p: carry the cube into the next phase(s)
            while True:
                k = phase[p]
                cur[:] = snap[k]
                for q in range(start[k], p):
                    apply_move(cur[0:8], cur[8:16], cur[16:28], cur[28:40], mcp, mco, mep, meo,
                               mv[q], nxt_cube[0:8], nxt_cube[8:16], nxt_cube[16:28],
                               nxt_cube[28:40])
                    cur[:] = nxt_cube
                a, b = _coords(k + 1, cur[0:8], cur[8:16], cur[16:28], cur[28:40], lr, non_m,
                               cclass, h_index, m_slots, e_slots, s_slots)
                d = dist[k + 1][a * size_b[k + 1] + b]
                if k + 1 == 3:
                    total = plen[p] + d
                    if total < best:
                        best = total
                        best_moves[:p] = mv[:p]
                        best_ends[0] = start[1]
                        best_ends[1] = start[2]
                        best_ends[2] = p
                        counters[BEST] = best
                    nxt[p] = 99          # a leaf
                    break
                snap[k + 1] = cur
                phase[p], ca[p], cb[p] = k + 1, a, b
                start[k + 1] = p
                limit[k + 1] = p + d + slack[k + 1]
                nxt[p] = 0
                if plen[p] + d >= best:
                    nxt[p] = 99
                    break
                if d != 0:
                    break
        k = phase[p]
        pm = moves[k]
        if nxt[p] >= len(pm):
            p -= 1
            continue
        col = nxt[p]
        nxt[p] += 1
        m = pm[col]
        face = m // 3
        newlen = plen[p] + 1
        if p > 0:
            prev = mv[p - 1]
            pface = prev // 3
            if p > start[k]:
                # inside a phase: no face twice, opposite faces in one order
                if pface == face or (pface % 3 == face % 3 and pface > face):
                    continue
            elif pface == face:
                # across a phase boundary the two turns merge (or cancel)
                newlen = plen[p] if (prev % 3 + m % 3 + 2) % 4 != 0 else plen[p] - 1
        a = move_a[k][ca[p], col]
        b = move_b[k][cb[p], col]
        d = dist[k][a * size_b[k] + b]
        if p + 1 + d > limit[k] or newlen + d >= best or p + 1 >= MAX_PLY:
            continue
        nodes += 1
        if (nodes & 4095) == 0:
            counters[NODES] += 4096
            if cancel[0] or nodes >= max_nodes:
                break
        mv[p] = m
        p += 1
        phase[p], ca[p], cb[p], plen[p], nxt[p] = k, a, b, newlen, 0
        settle = d == 0
    counters[NODES] += nodes & 4095
    return best


class ThistlethwaiteSolver:
    """Four phases with exact tables; all optimal (then near-optimal) phase solutions tried."""

    name = "thistlethwaite"
    description = ("Thistlethwaite's four phases G0 > G1 > G2 > G3 > solved with exact "
                   "distance tables; tries every optimal and near-optimal solution of phases 1-3 "
                   "and keeps the shortest total.")
    puzzle = "3x3"

    def __init__(self, rounds=ROUNDS, node_budget: int = NODE_BUDGET):
        self.rounds = tuple(tuple(r) for r in rounds)
        self.node_budget = node_budget
        self._tables: ThistlethwaiteTables | None = None
        self._lock = threading.Lock()

    def table_specs(self) -> tuple:
        from cubelab.tables.thistlethwaite_tables import DISTANCE_SPECS, LOOKUP_SPEC, MOVE_SPECS
        return (LOOKUP_SPEC,) + MOVE_SPECS + DISTANCE_SPECS

    def missing_tables(self) -> list:
        return [] if self._tables is not None else missing_tables(self.table_specs())

    def prepare(self, progress=None, cancel=None, log=None) -> None:
        with self._lock:
            if self._tables is not None:
                return
            t = load_tables(progress=progress, cancel=cancel, log=log)
            self._mc = move_cubies()
            self._moves = tuple(np.ascontiguousarray(m, dtype=np.int64) for m in PHASE_MOVES)
            self._move_a = tuple(np.ascontiguousarray(m) for m in t.move_a)
            self._move_b = tuple(np.ascontiguousarray(m) for m in t.move_b)
            self._tables = t
            # compile (or load the compiled kernel) now rather than inside the first solve
            from cubelab.cube.moves import alg_state
            self._run(alg_state("R U F"), self.rounds[:1], new_cancel(), new_counters(), None)

    def _kernel(self, s: CubeState, slack, bound, cancel, counters, budget):
        t = self._tables
        cube0 = np.concatenate([s.cp, s.co, s.ep, s.eo]).astype(np.int64)
        best_moves = np.zeros(MAX_PLY, np.int64)
        best_ends = np.zeros(3, np.int64)
        best = _search(cube0, *self._mc, self._moves, self._move_a, self._move_b, t.dist,
                       LR_STICKER, NON_M, t.lookups.cclass, t.lookups.h_index, M_SLOTS, E_SLOTS,
                       S_SLOTS, np.asarray(slack, np.int64), bound, best_moves, best_ends,
                       budget, counters, cancel)
        if best >= bound:
            return None
        ends = [int(e) for e in best_ends]
        return [int(m) for m in best_moves[:ends[2]]], ends

    def _phase4(self, s: CubeState, first_three: list[int]) -> list[int]:
        """An optimal phase 4 from the cube after phases 1-3, by walking down its table;
        among the moves that go down, one that merges with the move before it is preferred."""
        t = self._tables
        mcp, mco, mep, meo = self._mc
        cp, co, ep, eo = (np.asarray(x, np.int64) for x in (s.cp, s.co, s.ep, s.eo))
        for m in first_three:
            cp, co, ep, eo = cp[mcp[m]], (co[mcp[m]] + mco[m]) % 3, ep[mep[m]], (eo[mep[m]] + meo[m]) & 1
        a, b = phase_coordinates(3, cp, co, ep, eo, t.lookups)
        size_b = t.move_b[3].shape[0]
        out: list[int] = []
        last = first_three[-1] if first_three else -1
        while t.dist[3][a * size_b + b] > 0:
            d = t.dist[3][a * size_b + b]
            options = [col for col in range(len(PHASE_MOVES[3]))
                       if t.dist[3][t.move_a[3][a, col] * size_b + t.move_b[3][b, col]] == d - 1]
            col = next((c for c in options if PHASE_MOVES[3][c] // 3 == last // 3), options[0])
            m = int(PHASE_MOVES[3][col])
            out.append(m)
            last = m
            a, b = t.move_a[3][a, col], t.move_b[3][b, col]
        return out

    def _run(self, s: CubeState, rounds, cancel, counters, on_solution, max_length=None,
             started=None):
        started = time.perf_counter() if started is None else started
        best = None          # (total moves, phases as lists of move indices)
        bound = 99 if max_length is None else max_length + 1
        budget = self.node_budget
        for r, slack in enumerate(rounds):
            if cancel[0]:
                break
            counters[PHASE] = r
            found = self._kernel(s, slack, bound, cancel, counters, budget)
            if found is not None:
                first_three, ends = found
                p4 = self._phase4(s, first_three)
                phases = [first_three[:ends[0]], first_three[ends[0]:ends[1]],
                          first_three[ends[1]:], p4]
                flat = list(cancel_moves(first_three + p4))
                if best is None or len(flat) < len(best[0]):
                    best = (flat, phases)
                    counters[BEST] = len(flat)
                    if on_solution is not None:
                        on_solution(Solution([FACE_MOVES[m] for m in flat],
                                             time.perf_counter() - started, int(counters[NODES])))
                bound = len(best[0])
            if cancel[0]:
                break
        return best

    def solve(self, state: CubeState, *, max_length=None, time_limit=None, on_solution=None,
              counters=None, cancel=None) -> SolveResult:
        s = check_solvable(state)
        cancel = cancel if cancel is not None else new_cancel()
        counters = counters if counters is not None else new_counters()
        started = time.perf_counter()
        if s.is_identity():
            return SolveResult(self.name, [], verified=True, optimal=True, lower_bound=0,
                               detail={"phases": [{"subgroup": g, "moves": "", "length": 0}
                                                  for g in SUBGROUPS]})
        with Deadline(cancel, time_limit) as clock:
            self.prepare(cancel=cancel)
            if self._tables is None:
                return SolveResult(self.name, None, status="cancelled", seconds=clock.elapsed())
            best = self._run(s, self.rounds, cancel, counters, on_solution, max_length, started)
        seconds = time.perf_counter() - started
        nodes = int(counters[NODES])
        if best is None:
            status = ("time limit" if clock.expired else "cancelled") if cancel[0] else "not found"
            return SolveResult(self.name, None, nodes=nodes, seconds=seconds, status=status)
        flat, phases = best
        moves = [FACE_MOVES[m] for m in flat]
        if not verify(state, moves):
            raise RuntimeError("Thistlethwaite produced a sequence that does not solve the cube")
        detail = {"phases": [
            {"subgroup": g, "moves": " ".join(str(FACE_MOVES[m]) for m in ph), "length": len(ph)}
            for g, ph in zip(SUBGROUPS, phases)]}
        # cancelled by the caller (not by the time limit): the best found so far, so marked
        status = "cancelled" if cancel[0] and not clock.expired else "solved"
        return SolveResult(self.name, moves, nodes=nodes, seconds=seconds, verified=True,
                           status=status, detail=detail,
                           solutions=[Solution(moves, seconds, nodes)])
