"""One FMC step searched on the normal scramble, its inverse, or switching between them (NISS).

A step solution is a pair (A, B): moves A done on the normal scramble and moves B done on the
inverse scramble, written `A ^(B)` as FMC solvers write it (nissy writes `A (B)`). B acts as
inverted *premoves*: the position the pair leaves is B' P A (P the position before the step),
and a whole solution is the normal moves of every step followed by the inverse of the inverse
moves of every step, later steps first (`A1 ^(B1) A2 ^(B2)` = A1 A2 B2' B1', which is how
cubelab's notation reads `^( )` too).

The steps' goals (EO, DR, HTR, solved) are subgroups: P meets one exactly when P' does, which
is what makes switching sound. The search is by total length n (all moves of both sides, HTM),
every pair of that length found before the next:
- `never`: A alone (B empty): the goal engine's kernel from P;
- `before`: B alone: the kernel from P' (the step done on the inverse scramble);
- `always`: every split a + b = n. The shorter side is enumerated and the kernel searches the
  other: for a <= b, every normal prefix A of length a (canonical, none meeting the goal) gives
  the start (P A)' and the kernel finds every B of length b with B' P A meeting the goal; for
  b < a, every inverse prefix B gives the start B' P and the kernel finds A. Each pair is found
  exactly once, and all prefixes of one length go to the kernel as one batch of starts.
Only minimal pairs are kept: no shorter pair A[:i] ^(B[:j]) already meets the goal (such a pair
is the same step padded). Every pair is checked on the model (B' P A meets the goal) before it
is returned; a failure raises, it is never shown.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import numpy as np

from cubelab.cube.alg import Move
from cubelab.cube.costs import CostModel
from cubelab.cube.goal_catalog import resolve_goal, resolve_moveset
from cubelab.cube.goals import GoalError, TurnedGoal
from cubelab.cube.moves import move_state
from cubelab.cube.movesets import MoveSet
from cubelab.cube.notation import format_moves, invert_moves
from cubelab.cube.state import CubeState

from ..goals.kernel import CANCELLED, FULL, NO_BOUND
from ..goals.problem import Problem, SolutionBuffer, Unreachable
from cubelab.tables.spec import BuildCancelled

from ..protocol import BEST, BOUND, NODES, Deadline, new_cancel, new_counters
from .prefixes import Side

NISS_MODES = ("never", "before", "always")
"""never: the normal scramble only; before: the inverse scramble only (the step done before,
in the solution's order); always: switching once from one side to the other within the step."""

MAX_STEP_LENGTH = 30
MAX_SOLUTIONS = 10_000


@dataclass(frozen=True)
class StepSolution:
    """A step's moves: `normal` on the scramble, `inverse` on the inverse scramble."""

    normal: tuple[Move, ...]
    inverse: tuple[Move, ...] = ()
    goal: str = ""

    @property
    def length(self) -> int:
        return len(self.normal) + len(self.inverse)

    @property
    def text(self) -> str:
        parts = []
        if self.normal:
            parts.append(format_moves(self.normal))
        if self.inverse:
            parts.append(f"^({format_moves(self.inverse)})")
        return " ".join(parts)

    def sort_key(self):
        return (self.length, len(self.inverse), self.text)

    def after(self, position: CubeState) -> CubeState:
        """The position this step leaves: B' P A."""
        return _apply(_apply(CubeState.identity(), invert_moves(self.inverse)) * position,
                      self.normal)

    def to_json(self) -> dict:
        return {"text": self.text, "normal": format_moves(self.normal),
                "inverse": format_moves(self.inverse), "length": self.length,
                "goal": self.goal}


@dataclass
class StepResult:
    """What a step search returns: solutions ranked by length (then fewer inverse moves)."""

    solutions: list
    goal: str
    moveset: str
    niss: str
    optimal: bool = False
    optimum: int | None = None
    status: str = "solved"      # solved | not found | cancelled | time limit
    nodes: int = 0
    seconds: float = 0.0
    truncated: bool = False

    @property
    def best(self) -> StepSolution | None:
        return self.solutions[0] if self.solutions else None

    def to_json(self) -> dict:
        return {"goal": self.goal, "moveset": self.moveset, "niss": self.niss,
                "optimal": self.optimal, "optimum": self.optimum, "status": self.status,
                "nodes": int(self.nodes), "seconds": round(self.seconds, 6),
                "truncated": self.truncated,
                "solutions": [s.to_json() for s in self.solutions]}


def _apply(state: CubeState, moves) -> CubeState:
    for m in moves:
        state = state * move_state(m)
    return state


def solve_step(position: CubeState, goal, moves, niss: str = "never", *, n: int | None = None,
               all: bool = False, max_length: int | None = None,
               max_solutions: int = MAX_SOLUTIONS, time_limit: float | None = None,
               counters=None, cancel=None, progress=None, log=None,
               on_solution=None) -> StepResult:
    """The optimal (first), all optimal (`all`) or N best (`n`) solutions of a step; `goal` a
    goal name (`eo:fb`, `dr:ud`, `htr`, `solved`; `:any` searches each and merges) or a
    TurnedGoal, `moves` a move set (name, text or MoveSet), `niss` one of NISS_MODES.
    `on_solution(StepSolution)` hears each pair as it is kept (checked, minimal), in the
    order found: a front end lists them while the search goes on (the result ranks them)."""
    if niss not in NISS_MODES:
        raise GoalError(f"unknown NISS mode {niss!r} (choose {', '.join(NISS_MODES)})")
    counters = new_counters() if counters is None else counters
    cancel = new_cancel() if cancel is None else cancel
    moveset = moves if isinstance(moves, MoveSet) else resolve_moveset(moves)
    goals = [goal] if isinstance(goal, TurnedGoal) else resolve_goal(goal, position)
    started = time.perf_counter()
    results = []
    with Deadline(cancel, time_limit) as clock:
        for g in goals:
            try:
                results.append(_solve_one(position, g, moveset, niss, n, all, max_length,
                                          max_solutions, counters, cancel, progress, log,
                                          on_solution))
            except BuildCancelled:
                # stopped while the step's tables were made on demand: nothing found yet
                results.append(StepResult([], g.label or g.goal.name, moveset.text, niss,
                                          status="cancelled"))
            if cancel[0]:
                break
    out = _merge(results, n)
    out.seconds = time.perf_counter() - started
    out.nodes = int(counters[NODES])
    if cancel[0] and not out.optimal:
        out.status = "time limit" if clock.expired else "cancelled"
    return out


def _merge(results: list[StepResult], n: int | None) -> StepResult:
    if len(results) == 1:
        return results[0]
    first = results[0]
    solutions = sorted((s for r in results for s in r.solutions), key=StepSolution.sort_key)
    optimum = min((r.optimum for r in results if r.optimum is not None), default=None)
    out = StepResult(solutions[:n] if n is not None else solutions,
                     ", ".join(r.goal for r in results), first.moveset, first.niss)
    out.optimum = optimum
    out.optimal = all(r.optimal or r.status == "not found" for r in results) and \
        optimum is not None
    out.truncated = any(r.truncated for r in results)
    out.status = "solved" if solutions else next(
        (r.status for r in results if r.status != "not found"), "not found")
    if n is None and optimum is not None:
        # all optimal / first: keep the goals' best only
        out.solutions = [s for s in solutions if s.length == optimum]
    return out


def _solve_one(position, goal: TurnedGoal, moveset, niss, n, all_, max_length, max_solutions,
               counters, cancel, progress, log, on_solution=None) -> StepResult:
    costs = CostModel("htm")
    label = goal.label or goal.goal.name
    result = StepResult([], label, moveset.text, niss)
    if goal.is_met(position):
        result.solutions = [StepSolution((), (), label)]
        result.optimal, result.optimum = True, 0
        if on_solution is not None:
            on_solution(result.solutions[0])
        return result
    problem = Problem(position, goal, moveset, costs, progress=progress, cancel=cancel, log=log)
    # the inverse scramble's own start (its set-up is the one just made: a few lookups)
    inverse = problem if niss == "never" else Problem(position.inverse(), goal, moveset, costs)
    # the empty prefix of each side is the engine's own start: P' (inverse) for "A", P for "B"
    empty = {"A": inverse.starts, "B": problem.starts}
    bases = {"A": position, "B": position.inverse()}
    sides: dict[str, Side] = {}
    if niss == "never":
        bound = problem.lower_bound()
    elif niss == "before":
        bound = inverse.lower_bound()
    else:
        bound = 1
    cap = MAX_STEP_LENGTH if max_length is None else min(int(max_length), MAX_STEP_LENGTH)
    first_only = not all_ and n is None
    buffer = _buffer(1 if first_only and niss != "always" else max_solutions)
    found: dict[str, StepSolution] = {}
    proven = bound - 1            # every total length up to this was searched in full
    while bound <= cap and bound < int(NO_BOUND):
        counters[BOUND] = bound
        next_bound = int(NO_BOUND)
        stopped = False
        for side, k, rest in _branches(niss, bound):
            if k == 0:
                starts = empty[side]
            else:
                if side not in sides:
                    sides[side] = Side(bases[side], problem)
                level = sides[side].level(k, cancel)
                if level is None:
                    stopped = True
                    break
                starts = level.coords
            if not len(starts):
                continue
            problem.starts = starts
            problem.start_frames = np.zeros(len(starts), np.int64)
            buffer.clear()
            status, nb = problem.run(rest, rest - 1, buffer, counters, cancel)
            next_bound = min(next_bound, k + int(nb)) if int(nb) < int(NO_BOUND) else next_bound
            for row in problem.read_rows(buffer, 0, int(buffer.count[0])):
                prefix = sides[side].sequence(k, row.start) if k else ()
                other = tuple(problem.moves_of(row))
                pair = (prefix, other) if side == "A" else (other, prefix)
                kept = _keep(found, position, goal, label, *pair)
                if kept is not None and on_solution is not None:
                    on_solution(kept)
                if first_only and found:
                    break       # the first minimal pair of the least length is enough
            if first_only and found:
                break
            if status == CANCELLED:
                stopped = True
                break
            if status == FULL:
                result.truncated = not first_only
                stopped = True
                break
        if stopped or cancel[0]:
            break
        proven = bound
        if found:
            if first_only or all_:
                break
            if n is not None and len(found) >= n:
                break
        if len(found) >= max_solutions:
            result.truncated = True
            break
        bound = bound + 1 if niss == "always" else max(bound + 1, next_bound)
        proven = bound - 1        # the lengths skipped have no solution (the kernel's bound)
    solutions = sorted(found.values(), key=StepSolution.sort_key)
    if solutions:
        result.optimum = solutions[0].length
        result.optimal = solutions[0].length <= proven + 1
    if first_only:
        solutions = solutions[:1]
    elif n is not None:
        solutions = solutions[:n]
    result.solutions = solutions
    result.status = "solved" if solutions else "not found"
    if solutions:
        counters[BEST] = solutions[0].length
    return result


_LOCAL = threading.local()


def _buffer(capacity: int) -> SolutionBuffer:
    """A solution buffer of this thread, reused (megabytes zeroed per step cost more than
    a short step's search)."""
    cache = getattr(_LOCAL, "buffers", None)
    if cache is None:
        cache = _LOCAL.buffers = {}
    if capacity not in cache:
        cache[capacity] = SolutionBuffer(capacity)
    return cache[capacity]


def _branches(niss: str, n: int):
    """(side, prefix length, the kernel's length) of every split of total length n."""
    if niss == "never":
        return [("B", 0, n)]
    if niss == "before":
        return [("A", 0, n)]
    return [("A", a, n - a) for a in range(n // 2 + 1)] + \
        [("B", b, n - b) for b in range((n - 1) // 2 + 1)]


def _keep(found: dict, position, goal: TurnedGoal, label: str, normal: tuple,
          inverse: tuple) -> StepSolution | None:
    """Keep a pair that is minimal (no shorter pair of its prefixes meets the goal), after
    checking it on the model; the pair kept, or None when it is not new or not minimal."""
    solution = StepSolution(normal, inverse, label)
    if solution.text in found:
        return None
    if normal and inverse:
        pre = position
        for j in range(len(inverse) + 1):
            if j:
                pre = move_state(inverse[j - 1].inverse()) * pre
            state = pre
            for i in range(len(normal) + 1):
                if i:
                    state = state * move_state(normal[i - 1])
                if (i, j) != (len(normal), len(inverse)) and (i or j) and goal.is_met(state):
                    return None
    if not goal.is_met(solution.after(position)):
        raise RuntimeError(f"step search produced {solution.text} for {label}, which does "
                           "not meet it")
    found[solution.text] = solution
    return solution


__all__ = ["NISS_MODES", "StepResult", "StepSolution", "Unreachable", "solve_step"]
