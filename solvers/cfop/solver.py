"""CFOP, the speedcubers' method, as a program: cross, four F2L pairs, OLL, PLL, each a step.

- Cross: an optimal cross by iterative deepening on its exact table (cubelab.tables.cfop).
- F2L: each pair by iterative deepening too, towards whichever unsolved pair is cheapest next
  while the cross and the pairs already in stay solved (so each pair is step-optimal, and the
  order is the greedy cheapest one).
- OLL and PLL from the book of 57 + 21 algorithms (lastlayer.py), recognised from the pieces;
  the U turn before OLL, the OLL algorithm and the PLL's U turns are chosen together to make the
  solution shortest.

The whole method is run with the cross on each of the six faces and the shortest solution is
kept: colour neutrality, as strong cubers do. The solution is held as a cuber holds it: a
rotation first (x2, x, x', z, z' or none) brings the cross face to D, so the last layer is U
and the named algorithms read as they are learnt (`R U R' U R U2 R'`, not `D2 R D R' D R D`).

Every step is reported with its name, moves and length, and ends at its milestone: the cross;
the cross and k pairs; the first two layers with the last layer oriented; solved up to a U
turn; solved. Where the end of one step and the start of the next cancel, the solution is the
cancelled sequence and the step records the merge (joins.py); the step keeps its own moves.
"""

from __future__ import annotations

import numpy as np

from cubelab.cube.alg import Move
from cubelab.cube.moves import FACE_MOVES, alg_state, apply_moves, move_state
from cubelab.cube.notation import format_moves, parse_moves
from cubelab.cube.pieces import COLOUR_OF_FACE, FACES
from cubelab.cube.state import CubeState
from cubelab.tables.cfop.coords import (CROSS_GOAL, PAIR_CORNERS, PAIR_EDGES, corner_code,
                                        cross_of, edge_code)
from cubelab.tables.cfop.specs import SPECS, CfopTables, load_tables
from cubelab.tables.sequences import cancel as cancel_turns

from ..protocol import (PHASE, Answer, Parts, SolveJob, SolverBase, Step, new_cancel,
                        new_counters)
from .about import CFOP
from .joins import joined
from .lastlayer import solve_last_layer
from .search import MAX_DEPTH, search

COLOUR_NAMES = {"W": "white", "R": "red", "G": "green", "Y": "yellow", "O": "orange",
                "B": "blue"}
CROSS_FACES = "DULRFB"
"""The faces tried for the cross, D (yellow) first."""


HOLD_ROTATIONS = ("", "x2", "x'", "x", "z", "z'")
"""The whole-cube turns a cuber starts with to hold the cross face on D (z2 would do as x2)."""


def _holds() -> dict[str, tuple[Move, ...]]:
    """For each face, the rotation of HOLD_ROTATIONS that brings its centre to D."""
    out = {}
    for text in HOLD_ROTATIONS:
        centres = alg_state(text).cc
        out[FACES[int(centres[FACES.index("D")])]] = tuple(parse_moves(text))
    assert sorted(out) == sorted(FACES)
    return out


class CfopSolver(SolverBase):
    """Cross, F2L pair by pair, OLL, PLL: a human method whose steps a cuber can follow. It
    counts half turns as one move (its steps are not optimal in any metric)."""

    description = CFOP

    def __init__(self, faces: str = CROSS_FACES):
        self.faces = faces
        self._tables: CfopTables | None = None
        self._holds = _holds()

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
        """CFOP with the cross on `face`: the rotation that holds that face on D, and the steps
        (name, face turns, each step's own turns cancelled) done after it, each ending at its
        milestone; None when cancelled."""
        hold = self._holds[face]
        # the position as held after the rotation, its face turns named where the centres are
        p = apply_moves(s, hold).normalized()
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
        done = [m for _, seq in steps for m in seq]
        for m in done:
            p = p * move_state(FACE_MOVES[m])
        steps += solve_last_layer(p, before=done)
        return hold, [(name, cancel_turns(seq)) for name, seq in steps]

    @staticmethod
    def _moves(hold, solution) -> list[Move]:
        return list(hold) + [FACE_MOVES[m] for m in solution]

    def solved_parts(self) -> dict:
        return {"steps": Parts()}

    def search(self, job: SolveJob) -> Answer:
        best = None
        for i, face in enumerate(self.faces):
            job.counters[PHASE] = i
            found = self._solve_frame(job.position, face, job.cancel, job.counters)
            if found is None:
                break
            hold, steps = found
            solution, merges = joined(steps)
            if best is None or len(solution) < len(best[3]):
                best = (face, hold, steps, solution, merges)
                # the last one is verified by the template, once
                job.offer(self._moves(hold, solution), verify=False)
        if best is None or (job.max_length is not None and len(best[3]) > job.max_length):
            return Answer(None)
        face, hold, steps, solution, merges = best
        return Answer(
            self._moves(hold, solution),
            detail={"cross_face": face, "cross_colour": COLOUR_NAMES[COLOUR_OF_FACE[face]],
                    # the solution's first move: the steps' turns are named as the cube is
                    # then held
                    "rotation": format_moves(hold)},
            steps=Parts(Step(name, format_moves(FACE_MOVES[m] for m in seq), len(seq),
                             merge=merges[i].to_json() if i in merges else None)
                        for i, (name, seq) in enumerate(steps)
                        if seq or not name.startswith("auf")))
