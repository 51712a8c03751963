"""The elementary 3-cycle solver: one quarter turn for parity, then commutators, each a step.

The TIPE's method, tuned: a position is even after at most one quarter turn; from there its
corners and edges are solved separately by oriented 3-cycles (a corner 3-cycle also sets the
twists of the pieces it moves) and, where that is cheaper, pair twists, each performed by a
commutator from the searched table (cubelab.tables.threecycle).

Which 3-cycles? Not a fixed buffer: the class distances of `pieces` estimate the moves still
needed from any position, and a small beam search walks down that estimate, choosing among the
3-cycles that keep to it the ones whose algs are short and cancel best with the moves before
them. On a position without twists or flips it uses exactly as many 3-cycles as the textbook
decomposition, cubelab.cube.facts.three_cycles (the tests check it); with twists and flips it
weighs oriented 3-cycles against pair twists and pair flips.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cubelab.cube.facts import corner_cycles, edge_cycles
from cubelab.cube.moves import FACE_MOVES, apply_moves, move_state
from cubelab.cube.state import CubeState, permutation_parity
from cubelab.tables.sequences import cancel
from cubelab.tables.threecycle.commutators import Found
from cubelab.tables.threecycle.specs import SPECS, CommutatorTable, load_table

from ..protocol import NODES, PHASE, Answer, Commutator, Parts, SolveJob, SolverBase, Status
from .about import THREE_CYCLES
from .pieces import PieceSet

BEAM = 12
"""Partial solutions kept at each step of the beam search."""
BRANCH = 10
"""Steps tried from each partial solution (the most promising by table length)."""
SLACK = 0.5
"""How far (in estimated moves) a step may stray above the class distance's best."""


# ---- the beam search -------------------------------------------------------------------------

@dataclass
class _Node:
    moves: tuple[int, ...]          # flat moves so far, cancelled
    parts: list[tuple[np.ndarray, np.ndarray]]
    steps: list[tuple[str, int, Found]]   # (piece set, step index, alg)
    remaining: list[float]
    prefix: tuple[int, ...] = ()    # the parity turn, if any

    @property
    def estimate(self) -> float:
        return len(self.moves) + sum(self.remaining)

    def key(self) -> bytes:
        return b"".join(p.astype(np.uint8).tobytes() + o.astype(np.uint8).tobytes()
                        for p, o in self.parts)


def _append(moves: tuple[int, ...], flat: tuple[int, ...]) -> tuple[int, ...]:
    # cancellation reaches back at most as far as the new moves plus a same-axis pair
    k = len(flat) + 2
    return moves[:-k] + cancel(moves[-k:] + flat) if len(moves) > k else cancel(moves + flat)


def _expand(node: _Node, sets: list[PieceSet], part: int) -> list[_Node]:
    ps = sets[part]
    perm, ori = node.parts[part]
    d_next = ps.step_distances(perm, ori)
    here = node.remaining[part]
    ok = np.nonzero(ps.weight + d_next <= here + SLACK + 1e-9)[0]
    if len(ok) == 0:    # the class estimate always has a successor; guard against rounding
        ok = np.array([int(np.argmin(ps.weight + d_next))])
    order = ok[np.lexsort((ps.best_len[ok], ps.weight[ok] + d_next[ok]))]
    children = []
    for i in order[:BRANCH]:
        best_moves, best_alg = None, None
        for alg in ps.algs[i]:
            m = _append(node.moves, alg.flat)
            if best_moves is None or len(m) < len(best_moves):
                best_moves, best_alg = m, alg
        parts = list(node.parts)
        parts[part] = ps.after_step(perm, ori, i)
        remaining = list(node.remaining)
        remaining[part] = float(d_next[i])
        children.append(_Node(best_moves, parts, node.steps + [(ps.name, int(i), best_alg)],
                              remaining, node.prefix))
    return children


def _beam_search(starts: list[_Node], sets: list[PieceSet], cancel_flag, counters) -> _Node | None:
    beam = starts
    while True:
        if cancel_flag[0]:
            return None
        if all(max(n.remaining) <= 1e-9 for n in beam):
            return min(beam, key=lambda n: len(n.moves))
        children: dict[bytes, _Node] = {}
        for node in beam:
            part = next((k for k, r in enumerate(node.remaining) if r > 1e-9), None)
            kids = [node] if part is None else _expand(node, sets, part)
            counters[NODES] += len(kids)
            for kid in kids:
                k = kid.key() + bytes(kid.moves[-2:])
                old = children.get(k)
                if old is None or len(kid.moves) < len(old.moves):
                    children[k] = kid
        beam = sorted(children.values(), key=lambda n: (n.estimate, len(n.moves)))[:BEAM]


# ---- the solver ------------------------------------------------------------------------------

_CORNER_COLUMNS = (slice(0, 8), slice(8, 16))
_EDGE_COLUMNS = (slice(16, 28), slice(28, 40))


def _describe(name: str, kind: str, alg: Found) -> str:
    state = apply_moves(CubeState.identity(), [FACE_MOVES[m] for m in alg.flat])
    if kind == "corner":
        return f"corner 3-cycle {corner_cycles(state)}"
    if kind == "edge":
        return f"edge 3-cycle {edge_cycles(state)}"
    if kind == "twist":
        return "twist " + corner_cycles(state).replace("(", "").replace(")", "")
    return "flip " + edge_cycles(state).replace("(", "").replace(")", "")


class ThreeCycleSolver(SolverBase):
    """The TIPE's elementary method: parity turn, then commutators from a searched table."""

    description = THREE_CYCLES

    def __init__(self):
        self._sets: list[PieceSet] | None = None
        self.table: CommutatorTable | None = None

    def table_specs(self) -> tuple:
        return SPECS

    def _prepare(self, progress, cancel, log) -> None:
        """Load the commutator table (or search it, about ten seconds, and save it), work out
        the class distances and compile the kernel."""
        table = load_table(progress=progress, cancel=cancel, log=log)
        self.table = table
        sets = [PieceSet("corners", 8, 3, table, ("corner", "twist"), _CORNER_COLUMNS),
                PieceSet("edges", 12, 2, table, ("edge", "flip"), _EDGE_COLUMNS)]
        for ps in sets:     # compile the kernel now rather than inside the first solve
            ps.step_distances(np.arange(ps.n), np.zeros(ps.n, np.int64))
        self._sets = sets

    def _starts(self, s: CubeState) -> list[_Node]:
        sets = self._sets
        prefixes: list[tuple[int, ...]] = [()]
        if permutation_parity(s.cp):
            prefixes = [(m,) for m in range(18) if m % 3 != 1]    # the twelve quarter turns
        starts = []
        for pre in prefixes:
            t = s
            for m in pre:
                t = t * move_state(FACE_MOVES[m])
            parts = [(np.asarray(t.cp, np.intp), np.asarray(t.co, np.int64)),
                     (np.asarray(t.ep, np.intp), np.asarray(t.eo, np.int64))]
            remaining = [float(ps.distance(p, o)[0]) for ps, (p, o) in zip(sets, parts)]
            starts.append(_Node(pre, parts, [], remaining, pre))
        return starts

    def solved_parts(self) -> dict:
        return {"steps": Parts()}

    def search(self, job: SolveJob) -> Answer:
        job.counters[PHASE] = 0
        best = _beam_search(self._starts(job.position), self._sets, job.cancel, job.counters)
        if best is None:
            return Answer(None)
        moves = [FACE_MOVES[m] for m in best.moves]
        if job.max_length is not None and len(moves) > job.max_length:
            return Answer(None, status=Status.NOT_FOUND,
                         detail={"message": f"the 3-cycle method needs {len(moves)} "
                                            f"moves here, more than {job.max_length}"})
        steps = []
        for m in best.prefix:
            steps.append(Commutator("parity: one quarter turn makes both permutations even",
                                    str(FACE_MOVES[m]), str(FACE_MOVES[m])))
        for set_name, i, alg in best.steps:
            ps = next(p for p in self._sets if p.name == set_name)
            steps.append(Commutator(_describe(set_name, ps.kinds[i], alg), alg.notation(),
                                    alg.flat_text()))
        return Answer(moves, steps=Parts(steps))
