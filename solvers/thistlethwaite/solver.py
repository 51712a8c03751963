"""Thistlethwaite's algorithm: four phases down the chain G0 > G1 > G2 > G3 > {solved}.

Each phase has an exact distance table over its cosets (cubelab.tables.thistlethwaite),
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


import numpy as np

from cubelab.cube.moves import FACE_MOVES
from cubelab.cube.state import CubeState
from cubelab.tables.cubies import CO, CP, EO, EP, face_turn_arrays, state_row
from cubelab.tables.sequences import cancel as cancel_moves, products, sequence_elements
from cubelab.tables.thistlethwaite.coords import (
    PHASE_MOVES, SUBGROUPS, coordinate_args, phase_coordinates,
)
from cubelab.tables.thistlethwaite.specs import SPECS, ThistlethwaiteTables, load_tables

from ..protocol import (
    NODES, PHASE, Answer, Parts, Phase, SolveJob, SolverBase, new_cancel, new_counters,
)
from .about import THISTLETHWAITE
from .search import MAX_PLY, search

ROUNDS = ((0, 0, 0), (0, 1, 0))
"""Extra moves allowed in phases 1-3, round by round: first every combination of optimal phase
solutions, then phase 2 one move longer too (measured: that helps more than slack in phase 1
or 3, and more than slack everywhere within the same node budget)."""
NODE_BUDGET = 200_000
"""Nodes per round (about a tenth of a second each)."""


class ThistlethwaiteSolver(SolverBase):
    """Four phases with exact tables; all optimal (then near-optimal) phase solutions tried."""

    description = THISTLETHWAITE

    def __init__(self, rounds=ROUNDS, node_budget: int = NODE_BUDGET):
        self.rounds = tuple(tuple(r) for r in rounds)
        self.node_budget = node_budget
        self._tables: ThistlethwaiteTables | None = None

    def table_specs(self) -> tuple:
        return SPECS

    def _prepare(self, progress, cancel, log) -> None:
        """Load (or build, a few seconds the first time) the tables and compile the kernel."""
        t = load_tables(progress=progress, cancel=cancel, log=log)
        self._kernel_tables = (
            *face_turn_arrays(), tuple(np.ascontiguousarray(m, np.int64) for m in PHASE_MOVES),
            tuple(np.ascontiguousarray(m) for m in t.move_a),
            tuple(np.ascontiguousarray(m) for m in t.move_b), t.dist,
            *coordinate_args(t.lookups))
        self._tables = t
        # compile (or load the compiled kernel) now rather than inside the first solve
        from cubelab.cube.moves import alg_state
        s = alg_state("R U F")
        self._run(SolveJob(self, s, s, None, None, new_counters(), new_cancel()),
                  self.rounds[:1])

    def _kernel(self, s: CubeState, slack, bound, cancel, counters, budget):
        best_moves = np.zeros(MAX_PLY, np.int64)
        best_ends = np.zeros(3, np.int64)
        best = search(state_row(s).astype(np.int64), *self._kernel_tables,
                      np.asarray(slack, np.int64), bound, best_moves, best_ends, budget, counters,
                      cancel)
        if best >= bound:
            return None
        ends = [int(e) for e in best_ends]
        return [int(m) for m in best_moves[:ends[2]]], ends

    def _phase4(self, s: CubeState, first_three: list[int]) -> list[int]:
        """An optimal phase 4 from the cube after phases 1-3, by walking down its table;
        among the moves that go down, one that merges with the move before it is preferred."""
        t = self._tables
        row = products(state_row(s), sequence_elements([first_three]))[0]
        a, b = phase_coordinates(3, row[CP:CO], row[CO:EP], row[EP:EO], row[EO:], t.lookups)
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

    def _run(self, job: SolveJob, rounds):
        """The best (total moves, phases as lists of move indices) over the rounds, each
        improvement offered as it is found; None when none was (cancelled, or max_length)."""
        s, cancel, counters = job.position, job.cancel, job.counters
        best = None
        bound = 99 if job.max_length is None else job.max_length + 1
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
                    # the last one is verified by the template, once
                    job.offer([FACE_MOVES[m] for m in flat], verify=False)
                bound = len(best[0])
            if cancel[0]:
                break
        return best

    def solved_parts(self) -> dict:
        return {"phases": Parts(Phase(g, "", 0) for g in SUBGROUPS)}

    def search(self, job: SolveJob) -> Answer:
        best = self._run(job, self.rounds)
        if best is None:
            return Answer(None)
        flat, phases = best
        return Answer([FACE_MOVES[m] for m in flat], phases=Parts(
            Phase(g, " ".join(str(FACE_MOVES[m]) for m in ph), len(ph))
            for g, ph in zip(SUBGROUPS, phases)))
