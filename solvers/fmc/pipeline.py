"""The FMC pipeline: EO -> DR -> HTR -> finish (or the steps asked: a leave-slice end, or the
blocks 2x2x2 -> 2x2x3 -> F2L-1), the best K candidates of
each step kept for each candidate of the step before, complete solutions ranked by the length
of the final, cancelled solution. A leave-slice chain is a skeleton: the slice's edges it
leaves are then solved by insertions (solvers.fmc.insertions), as a cuber finishes one, and the
solution is the skeleton with its insertions, cancelled.

Candidates are explored depth first, best first (the shortest EO's best DR's best HTR's best
finish comes first), so a time limit or a cancel still leaves the complete solutions found so
far. A chain's moves are kept per side: the normal moves of every step, and the inverse moves
of every step; the final solution is normal + inverse(inverse moves) (`A1 ^(B1) A2 ^(B2)` =
A1 A2 B2' B1'), cancelled (same-face turns merged across commuting opposite turns). Each step
shows its length and the running total with the cancellations at the joins applied (the
normal moves and the inverse moves each cancelled). Every final solution is checked on the
model: the scramble followed by it is solved.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from cubelab.cube.alg import Move
from cubelab.cube.goals import turned_back
from cubelab.cube.moves import FACE_MOVES, move_state
from cubelab.cube.notation import format_moves, invert_moves, simplify
from cubelab.cube.state import CubeState

from ..protocol import PHASE, Deadline, new_cancel, new_counters
from .cases import case_after, dr_case, eo_case
from .blocks import choice_met, search_choice
from .niss import StepSolution
from .steps import LABELS, StepChoice, choices, detect_previous

DEFAULT_NISS = {"eo": "always", "dr": "always", "htr": "never", "fin": "never", "ls": "never",
                "2x2x2": "always", "2x2x3": "always", "f2l-1": "always"}
DEFAULT_KEEP = {"eo": 3, "dr": 3, "htr": 2, "fin": 1, "ls": 1, "2x2x2": 3, "2x2x3": 3,
                "f2l-1": 2}


@dataclass(frozen=True)
class DoneStep:
    choice: StepChoice
    solution: StepSolution
    total: int
    """The running total after this step, cancellations at the joins applied."""
    case: str
    """The case the position after this step leaves the next step (EO: the DR case)."""

    def to_json(self) -> dict:
        return {"step": self.choice.label, "kind": self.choice.kind, "axis": self.choice.axis,
                "moveset": self.choice.moveset, "moves": self.solution.text,
                "normal": format_moves(self.solution.normal),
                "inverse": format_moves(self.solution.inverse),
                "length": self.solution.length, "total": self.total, "case": self.case}


@dataclass(frozen=True)
class Chain:
    """Steps done so far from the scramble."""

    position: CubeState
    steps: tuple[DoneStep, ...] = ()
    normal: tuple[Move, ...] = ()
    inverse: tuple[Move, ...] = ()

    @property
    def total(self) -> int:
        return len(self.normal) + len(self.inverse)

    def extend(self, choice: StepChoice, solution: StepSolution) -> "Chain":
        normal = tuple(simplify(self.normal + solution.normal))
        inverse = tuple(simplify(self.inverse + solution.inverse))
        after = solution.after(self.position)
        case = case_after(choice.kind, after, choice.axis)
        done = DoneStep(choice, solution, len(normal) + len(inverse), case)
        return Chain(after, self.steps + (done,), normal, inverse)

    @property
    def final(self) -> list[Move]:
        return simplify(list(self.normal) + invert_moves(self.inverse))

    @property
    def niss_text(self) -> str:
        """The steps written one after another in FMC notation."""
        return " ".join(s.solution.text for s in self.steps if s.solution.text)

    @property
    def previous(self) -> dict:
        return {s.choice.kind: s.choice.axis for s in self.steps}


@dataclass
class FmcSolution:
    """A chain of steps. When it ends solved, its solution is the final cancelled moves; a
    chain that stops earlier (no finish step) is a skeleton's start, written `A ^(B)` with
    each side cancelled (its moves alone do not reach the step's goal: B' S A does)."""

    chain: Chain
    insertion: object = None
    """For a leave-slice skeleton: its InsertionSolution (the insertions that finish it)."""

    @property
    def solves(self) -> bool:
        return bool(self.chain.steps) and self.chain.steps[-1].choice.kind == "fin" or \
            self.insertion is not None

    @property
    def moves(self) -> list[Move]:
        if self.insertion is not None:
            return [FACE_MOVES[m] for m in self.insertion.moves]
        if self.solves:
            return self.chain.final
        return list(self.chain.normal) + list(self.chain.inverse)

    @property
    def skeleton_text(self) -> str:
        """The chain as FMC notation: the whole solution, or the skeleton insertions go into."""
        return StepSolution(self.chain.normal, self.chain.inverse).text

    @property
    def text(self) -> str:
        if self.solves:
            return format_moves(self.moves)
        return self.skeleton_text

    @property
    def length(self) -> int:
        return len(self.moves)

    def to_json(self) -> dict:
        out = {"solution": self.text, "length": self.length, "niss": self.chain.niss_text,
               "steps": [s.to_json() for s in self.chain.steps]}
        if self.insertion is not None:
            out["skeleton"] = self.skeleton_text
            out["insertions"] = [i.to_json(k)
                                 for k, i in enumerate(self.insertion.insertions, 1)]
        return out


@dataclass
class FmcResult:
    scramble_cases: dict
    solutions: list = field(default_factory=list)
    status: str = "solved"      # solved | not found | cancelled | time limit
    complete: bool = True
    """Every candidate the settings ask for was explored."""
    seconds: float = 0.0
    nodes: int = 0
    searches: int = 0

    @property
    def best(self) -> FmcSolution | None:
        return self.solutions[0] if self.solutions else None


def run_pipeline(scramble: CubeState, kinds: list[str], *, start: CubeState | None = None,
                 after: tuple = ((), ()), axes: dict | None = None,
                 niss: dict | None = None, keep: dict | None = None, count: int = 3,
                 time_limit: float | None = None, counters=None, cancel=None,
                 on_solution=None, progress=None, log=None, insert: bool = True) -> FmcResult:
    """Run the steps `kinds` (checked by steps.check_steps) from `scramble`; `axes` kind ->
    axes (eo, dr), `niss` kind -> mode, `keep` kind -> candidates kept per parent, `count`
    complete solutions returned (the shortest). `start` is the position `after` (normal,
    inverse moves already done after the scramble) leaves; the chain starts with those moves.
    `on_solution(FmcSolution)` hears each new best complete solution. With `insert`, a chain
    ending in a leave slice gets the best insertions of edge 3-cycle algs (its skeleton and
    those insertions, ranked by the cancelled result); without, it stays a skeleton."""
    axes = axes or {}
    niss = {**DEFAULT_NISS, **(niss or {})}
    keep = {**DEFAULT_KEEP, **(keep or {})}
    counters = new_counters() if counters is None else counters
    cancel = new_cancel() if cancel is None else cancel
    started = time.perf_counter()
    result = FmcResult({"eo": {a: eo_case(scramble, a) for a in ("fb", "ud", "rl")},
                        "dr": {a: dr_case(scramble, a) for a in ("ud", "fb", "rl")}})
    found: dict[str, FmcSolution] = {}
    best = [None]
    finish = _Insertions(scramble, cancel, progress, log) \
        if insert and kinds and kinds[-1] == "ls" else None

    def expand(chain: Chain, i: int) -> None:
        if cancel[0]:
            result.complete = False
            return
        if i == len(kinds):
            solution = FmcSolution(chain, finish(chain) if finish is not None else None)
            _verify(scramble, solution)
            if solution.text not in found:
                found[solution.text] = solution
                if best[0] is None or solution.length < best[0]:
                    best[0] = solution.length
                    if on_solution is not None:
                        on_solution(solution)
            return
        kind = kinds[i]
        counters[PHASE] = i
        children = []
        previous = chain.previous if chain.steps else detect_previous(chain.position, kind)
        for choice in choices(kind, previous, tuple(axes.get(kind, ("fb", "ud", "rl")))):
            res = search_choice(chain.position, choice, niss[kind], n=keep[kind],
                                counters=counters, cancel=cancel, progress=progress, log=log)
            result.searches += 1
            if res.status in ("cancelled", "time limit"):
                result.complete = False
            children += [chain.extend(choice, s) for s in res.solutions]
            if cancel[0]:
                break
        children.sort(key=lambda c: (c.total, c.steps[-1].solution.sort_key()))
        for child in children[:keep[kind]]:
            expand(child, i + 1)

    with Deadline(cancel, time_limit) as clock:
        expand(Chain(scramble if start is None else start, (), tuple(after[0]),
                     tuple(after[1])), 0)
    result.seconds = time.perf_counter() - started
    result.nodes = int(counters[0])
    result.solutions = sorted(found.values(), key=lambda s: (s.length, s.chain.total,
                                                             s.text))[:count]
    if cancel[0]:
        result.status = "time limit" if clock.expired else "cancelled"
        result.complete = False
    elif not result.solutions:
        result.status = "not found"
    return result


class _Insertions:
    """Finishes leave-slice skeletons with insertions (the alg table loaded on first use)."""

    def __init__(self, scramble: CubeState, cancel, progress, log):
        self.scramble, self.cancel, self.progress, self.log = scramble, cancel, progress, log
        self.sets = None

    def __call__(self, chain: Chain):
        from .insertions import InsertionError, find_insertions
        if self.sets is None:
            from cubelab.tables.insertions.specs import load_alg_sets
            self.sets = load_alg_sets(progress=self.progress, cancel=self.cancel, log=self.log)
        skeleton = tuple(FACE_MOVES.index(m) for m in chain.final)
        try:
            res = find_insertions((), skeleton, position=self.scramble, count=1,
                                  sets=self.sets, cancel=self.cancel)
        except InsertionError:
            return None
        return res.best


def _verify(scramble: CubeState, solution: FmcSolution) -> None:
    """On the model: the scramble followed by the final solution is solved; for a chain that
    stops before the finish, B' S A meets the last step's goal (raises if not)."""
    chain = solution.chain
    if solution.solves:
        state = scramble
        for m in solution.moves:
            state = state * move_state(m)
        ok = turned_back(state).is_identity()
    else:
        last = chain.steps[-1].choice
        ok = choice_met(last, StepSolution(chain.normal, chain.inverse).after(scramble))
    if not ok:
        raise RuntimeError(f"the FMC pipeline produced {solution.text}, which does not "
                           f"{'solve the scramble' if solution.solves else 'reach its goal'}")


__all__ = ["DEFAULT_KEEP", "DEFAULT_NISS", "FmcResult", "FmcSolution", "LABELS",
           "run_pipeline"]
