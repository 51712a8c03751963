"""CFOP, the speedcubers' method, as a program: cross, four F2L pairs, OLL, PLL, each a step.

- Cross: an optimal cross by iterative deepening on its exact table (cubelab.tables.cfop).
- F2L: each pair by iterative deepening too, towards whichever unsolved pair is cheapest next
  while the cross and the pairs already in stay solved (so each pair is step-optimal, and the
  order is the greedy cheapest one).
- OLL and PLL from the book of 57 + 21 algorithms (lastlayer.py), recognised from the pieces;
  the U turn before OLL, the OLL algorithm and the PLL's U turns are chosen together to make the
  last layer shortest.

The whole method is run with the cross on each of the six faces (by conjugating the position
with a rotation, so the search always builds a D cross, and turning the moves back) and the
shortest total is kept: colour neutrality, as strong cubers do. Every step is reported with its
name, moves and length; the steps together are the solution.
"""

from __future__ import annotations


import numpy as np

from cubelab.cube.moves import FACE_MOVES, move_state
from cubelab.cube.pieces import COLOUR_OF_FACE, FACES
from cubelab.cube.state import CubeState
from cubelab.cube.symmetry import conjugate, is_mirrored, move_conjugation, symmetry_inverse_index
from cubelab.tables.cfop.coords import (CROSS_GOAL, PAIR_CORNERS, PAIR_EDGES, corner_code,
                                        cross_of, edge_code)
from cubelab.tables.cfop.specs import SPECS, CfopTables, load_tables
from cubelab.tables.sequences import cancel

from ..protocol import PHASE, Answer, Parts, SolveJob, SolverBase, Step, new_cancel, new_counters
from .about import CFOP
from .lastlayer import solve_last_layer
from .search import MAX_DEPTH, search

COLOUR_NAMES = {"W": "white", "R": "red", "G": "green", "Y": "yellow", "O": "orange",
                "B": "blue"}
CROSS_FACES = "DULRFB"
"""The faces tried for the cross, D (yellow) first."""


def _frames() -> dict[str, int]:
    """For each face, a rotation (index of cubelab.cube.symmetry) carrying it to D."""
    conj = move_conjugation()
    d_turn = FACES.index("D") * 3
    out = {}
    for k in range(48):
        if is_mirrored(k):
            continue
        for f in FACES:
            if f not in out and int(conj[k, FACES.index(f) * 3]) == d_turn:
                out[f] = k
    return out


def join_steps(steps: list[tuple[str, tuple[int, ...]]]) -> list[tuple[str, tuple[int, ...]]]:
    """Steps whose boundary turns are on the same face merged into the earlier step, so that
    the steps, put end to end, are the solution with nothing left to cancel at the joins."""
    out: list[tuple[str, list[int]]] = []
    for name, seq in steps:
        seq = list(seq)
        while seq:
            prev = next((p for _, p in reversed(out) if p), None)
            if prev is None or prev[-1] // 3 != seq[0] // 3:
                break
            prev[-1:] = cancel((prev[-1], seq.pop(0)))
        out.append((name, seq))
    return [(name, tuple(seq)) for name, seq in out]


class CfopSolver(SolverBase):
    """Cross, F2L pair by pair, OLL, PLL: a human method whose steps a cuber can follow. It
    counts half turns as one move (its steps are not optimal in any metric)."""

    description = CFOP

    def __init__(self, faces: str = CROSS_FACES):
        self.faces = faces
        self._tables: CfopTables | None = None
        self._frames = _frames()
        self._conj = move_conjugation()
        self._inv = symmetry_inverse_index()

    def table_specs(self) -> tuple:
        return SPECS

    def _prepare(self, progress, cancel, log) -> None:
        """Load (or build, about ten seconds the first time) the tables; compile the kernel."""
        self._tables = load_tables(progress=progress, cancel=cancel, log=log)
        from .lastlayer import book
        book()
        from cubelab.cube.moves import alg_state
        self._solve_frame(alg_state("R U F"), "D", new_cancel(), new_counters())

    def _search(self, codes, keep, want, cancel, counters):
        t = self._tables
        out = np.zeros(MAX_DEPTH + 1, np.int64)
        n, slot = search(codes[0], codes[1], codes[2], keep, want, MAX_DEPTH, t.cross_move,
                         t.corner_move, t.edge_move, t.cross, t.cross_corner, t.cross_edge, out,
                         counters, cancel)
        if n < 0:
            return None, -1
        return tuple(int(m) for m in out[:n]), int(slot)

    def _advance(self, codes, seq):
        t = self._tables
        x, cc, ec = codes[0], codes[1].copy(), codes[2].copy()
        for m in seq:
            x = t.cross_move[x, m]
            cc = t.corner_move[cc, m]
            ec = t.edge_move[ec, m]
        return (int(x), cc, ec)

    @staticmethod
    def _solved_slots(codes) -> int:
        """The F2L slots whose corner and edge are both home, as bits."""
        return sum(1 << j for j in range(4)
                   if codes[1][j] == PAIR_CORNERS[j] * 3 and codes[2][j] == PAIR_EDGES[j] * 2)

    def _solve_frame(self, s: CubeState, face: str, cancel, counters):
        """The steps (name, moves in the original frame) of CFOP with the cross on `face`, or
        None when cancelled."""
        k = self._frames[face]
        p = conjugate(s, k)
        codes = (cross_of(p.ep, p.eo),
                 np.array([corner_code(p.cp, p.co, c) for c in PAIR_CORNERS], np.int64),
                 np.array([edge_code(p.ep, p.eo, e) for e in PAIR_EDGES], np.int64))
        steps = []
        seq, _ = self._search(codes, 0, 0, cancel, counters)
        if seq is None:
            return None
        steps.append(("cross", seq))
        codes = self._advance(codes, seq)
        solved = self._solved_slots(codes)
        while solved != 15:
            before = bin(solved).count("1")
            seq, slot = self._search(codes, solved, 15 & ~solved, cancel, counters)
            if seq is None:
                return None
            codes = self._advance(codes, seq)
            # one search may solve more than one pair: name the step by the pairs it brings in
            solved = self._solved_slots(codes) | solved | (1 << slot)
            after = bin(solved).count("1")
            steps.append((f"f2l {after}" if after == before + 1 else f"f2l {before + 1}-{after}",
                          seq))
        assert codes[0] == CROSS_GOAL
        for _, seq in steps:
            for m in seq:
                p = p * move_state(FACE_MOVES[m])
        steps += solve_last_layer(p)
        back = self._conj[self._inv[k]]
        return [(name, tuple(int(back[m]) for m in seq)) for name, seq in join_steps(steps)]

    def solved_parts(self) -> dict:
        return {"steps": Parts()}

    def search(self, job: SolveJob) -> Answer:
        best = None
        for i, face in enumerate(self.faces):
            job.counters[PHASE] = i
            steps = self._solve_frame(job.position, face, job.cancel, job.counters)
            if steps is None:
                break
            total = sum(len(seq) for _, seq in steps)
            if best is None or total < best[0]:
                best = (total, face, steps)
                # the last one is verified by the template, once
                job.offer([FACE_MOVES[m] for _, seq in steps for m in seq], verify=False)
        if best is None or (job.max_length is not None and best[0] > job.max_length):
            return Answer(None)
        _, face, steps = best
        return Answer(
            [FACE_MOVES[m] for _, seq in steps for m in seq],
            detail={"cross_face": face, "cross_colour": COLOUR_NAMES[COLOUR_OF_FACE[face]]},
            steps=Parts(Step(name, " ".join(str(FACE_MOVES[m]) for m in seq), len(seq))
                        for name, seq in steps if seq or not name.startswith("auf")))
