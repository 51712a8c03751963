"""The FMC step session of the workbench and the REPL: a scramble, the steps applied, candidates.

`:fmc start` takes the session's position as the scramble. Each step (`:fmc eo`, `dr`, `htr`,
`fin`) is searched from the position the applied steps leave (solvers/fmc/niss.py), in a
thread (`FmcStepRun`, a runner.Run like the solvers'), its candidates heard as they are kept;
the workbench's FMC panel lists them as they come, the REPL waits and prints them. Applying a
candidate extends the chain (solvers/fmc/pipeline.Chain: each side's moves, cancellations at
the joins) and makes the position the step leaves the session's: with NISS that is B' P A,
which no moves appended to the position reach, so it is set outright (one undo step, with the
moves B' S A when the scramble's own moves S are known). `:fmc undo` goes back one step.
`:fmc inverse` shows the inverse side (the position's inverse: the inverse scramble with the
steps done on it). Textual-free.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cubelab.cube.notation import format_moves, invert_moves
from cubelab.solvers.fmc.steps import LABELS, StepChoice

from .runner import Run

if TYPE_CHECKING:
    # The chain and the step search import the goal kernels, numba with them (~0.15 s): the
    # workbench imports this module to draw its FMC panel, so they load at the first FMC use.
    from cubelab.solvers.fmc.niss import StepSolution
    from cubelab.solvers.fmc.pipeline import Chain

DEFAULT_COUNT = 5
"""Candidates a step lists by default (per axis searched; the best of all kept at the end)."""
MAX_SHOWN = 500
"""Candidates listed at most while a search streams them (the ranked list is `count` long)."""


@dataclass(frozen=True)
class Candidate:
    """A step's solution as the chain would have it: `chain` is the chain with it applied."""

    choice: StepChoice
    solution: StepSolution
    chain: Chain
    seconds: float = 0.0
    """When the search found it."""

    @property
    def label(self) -> str:
        return self.choice.label

    @property
    def text(self) -> str:
        return self.solution.text or "(already done)"

    @property
    def total(self) -> int:
        return self.chain.total

    @property
    def case(self) -> str:
        return self.chain.steps[-1].case

    def rank(self):
        return (self.total, self.solution.sort_key(), self.label)


@dataclass(frozen=True)
class FmcStepRequest:
    """Search step `kind` from `chain`'s position: each of `choices` (an axis, its move set),
    in NISS mode `niss`, the `count` best of each."""

    kind: str
    choices: tuple[StepChoice, ...]
    niss: str
    count: int
    chain: Chain

    def describe(self) -> str:
        axes = ", ".join(c.axis for c in self.choices if c.axis)
        what = LABELS[self.kind] + (f" on {axes}" if axes else "")
        return f"{what} · NISS {self.niss} · {self.count} best"


@dataclass(eq=False, kw_only=True)
class FmcStepRun(Run):
    """One step's searches in a thread: `found` grows as candidates are kept; at the end
    `ranked` holds the `count` best (shortest running total first), `status` how it ended."""

    request: FmcStepRequest
    found: list = field(default_factory=list)
    ranked: list | None = None
    status: str = "search"
    optimal: bool = False

    thread_name = "fmc-step"
    stop_is_cancel = True

    def _work(self) -> None:
        from cubelab.solvers.fmc.blocks import search_choice
        r = self.request
        self.phase = "search"
        self.started = time.perf_counter()
        chain = r.chain
        ranked, statuses, optimal = [], [], True
        for choice in r.choices:
            def heard(solution, choice=choice) -> None:
                if len(self.found) < MAX_SHOWN:
                    self.found.append(Candidate(choice, solution, chain.extend(choice, solution),
                                                self.elapsed()))
            res = search_choice(chain.position, choice, r.niss, n=r.count,
                                counters=self.counters, cancel=self.cancel, on_solution=heard)
            statuses.append(res.status)
            optimal = optimal and res.optimal
            ranked += [Candidate(choice, s, chain.extend(choice, s)) for s in res.solutions]
            if self.cancel[0]:
                break
        found_at = {(c.label, c.solution.text): c.seconds for c in self.found}
        ranked = [Candidate(c.choice, c.solution, c.chain,
                            found_at.get((c.label, c.solution.text), 0.0)) for c in ranked]
        self.ranked = sorted(ranked, key=Candidate.rank)[:r.count]
        self.optimal = optimal and bool(ranked)
        if self.cancel[0] and len(statuses) < len(r.choices) or \
                any(s in ("cancelled", "time limit") for s in statuses):
            self.status = "cancelled"
        else:
            self.status = "done" if ranked else "not found"

    def progress(self) -> str:
        from cubelab.solvers.protocol import BOUND, NODES
        bound = int(self.counters[BOUND])
        found = len(self.found)
        return (f"{found} candidate{'s' if found != 1 else ''} so far"
                + (f" · length {bound}" if bound > 0 else "")
                + f" · {int(self.counters[NODES]):,} nodes · {self.elapsed():.1f}s")

    def summary(self) -> str:
        if self.ranked is None:
            return f"{LABELS[self.request.kind]} search failed: {self.error}" if self.error \
                else "still searching"
        n = len(self.ranked)
        if self.status == "cancelled":
            return f"cancelled: {n} candidate{'s' if n != 1 else ''} found so far"
        if not n:
            return f"no {LABELS[self.request.kind]} found"
        best = self.ranked[0]
        return (f"{n} candidate{'s' if n != 1 else ''} (best {best.solution.length}, total "
                f"{best.total}) · :fmc apply K or Enter on a row applies it")


@dataclass
class FmcState:
    """The FMC attempt under way: the scramble, the chains after each applied step (the first
    is the scramble's, with no step), the candidates of the last step searched."""

    scramble: object
    """The scramble's position (a CubeState)."""
    scramble_moves: tuple | None
    """Moves that make the scramble from solved (the session's), when they are known."""
    line: list = field(default_factory=list)
    """The chains after each step applied (the first: the scramble's, no step), including
    steps undone since, which a redo of the session brings back."""
    at: int = 0
    """The chain the attempt is at (an index of `line`)."""
    candidates: list = field(default_factory=list)
    candidates_for: object = None
    """The chain the candidates extend (they apply only to it)."""
    about: str = ""
    """What the candidates answer (the request's description)."""
    inverse_view: bool = False

    def __post_init__(self):
        if not self.line:
            from cubelab.solvers.fmc.pipeline import Chain
            self.line = [Chain(self.scramble)]

    @property
    def chain(self) -> Chain:
        return self.line[self.at]

    @property
    def position(self):
        return self.chain.position

    def follow(self, state) -> None:
        """After the session's own undo or redo: when `state` is the position of a step of
        the line, the attempt is at that step (so Ctrl+Z undoes a step applied, Ctrl+Y
        brings it back)."""
        if state == self.chain.position:
            return
        for i, chain in enumerate(self.line):
            if chain.position == state:
                self.at = i
                return

    def moves(self) -> tuple:
        """Moves that make the position from solved: B' S A (empty when S is not known)."""
        if self.scramble_moves is None:
            return ()
        chain = self.chain
        return tuple(invert_moves(chain.inverse)) + tuple(self.scramble_moves) + chain.normal

    def apply(self, candidate: Candidate) -> None:
        """The candidate is the next step (the steps undone after this one go)."""
        self.line[self.at + 1:] = [candidate.chain]
        self.at += 1
        self.candidates, self.candidates_for = [], None

    def undo(self) -> Chain | None:
        """Back one step; the chain left, or None at the scramble."""
        if self.at == 0:
            return None
        self.at -= 1
        return self.line[self.at + 1]

    def step_lines(self) -> list[str]:
        """Each step as FMC solvers write it: its moves, `// label (length/total)  case`."""
        steps = self.chain.steps
        if not steps:
            return []
        width = max(14, max(len(s.solution.text) for s in steps))
        return [f"{s.solution.text or '(already done)':<{width}}  // {s.choice.label:<7} "
                f"({s.solution.length}/{s.total}){'  ' + s.case if s.case else ''}"
                for s in steps]

    def total_line(self) -> str:
        """The solution so far: solved (the final, cancelled moves) or `A ^(B)` to go on."""
        chain = self.chain
        if not chain.steps:
            return "no step yet: :fmc eo (or dr, htr, fin) lists candidates"
        if chain.steps[-1].choice.kind == "fin":
            final = chain.final
            return f"solution ({len(final)}): {format_moves(final)}"
        from cubelab.solvers.fmc.niss import StepSolution
        so_far = StepSolution(chain.normal, chain.inverse).text
        return f"so far ({chain.total}): {so_far}"

    def one_line(self) -> str:
        """The chain on one line: `label: moves` per step, then the total."""
        steps = self.chain.steps
        if not steps:
            return "FMC: scramble, no step yet · :fmc eo lists EOs"
        parts = [f"{s.choice.label}: {s.solution.text or '-'}" for s in steps]
        return f"FMC ({self.chain.total}) " + " · ".join(parts)

    def chain_record(self) -> dict:
        """The chain as a record (the REPL's JSON): each step as `cubelab fmc --json` writes
        it, the steps in FMC notation, the total, and the solution once finished."""
        chain = self.chain
        done = bool(chain.steps) and chain.steps[-1].choice.kind == "fin"
        return {"steps": [s.to_json() for s in chain.steps], "niss": chain.niss_text,
                "total": chain.total, "solution": format_moves(chain.final) if done else None,
                "side": "inverse" if self.inverse_view else "normal"}

    def text(self) -> str:
        """What `:fmc` alone shows: the steps, the solution so far, the view."""
        lines = self.step_lines() + [self.total_line()]
        if self.inverse_view:
            lines.append("showing the inverse side (:fmc inverse goes back)")
        return "\n".join(lines)


# ---- the attempt in the session file (session_store.py) ----------------------------------------

def fmc_record(fmc: FmcState) -> dict:
    """The attempt as a JSON-ready record: the scramble (facelets, and its moves when known),
    every step of the line (undone ones too, so a redo after a restore still finds them) with
    its kind, axis, goal name, move set and moves on each side, and the step it is at. The
    candidates are a search's moment and are not kept."""
    from cubelab.cube.facelets import to_facelets
    line = fmc.line[-1]
    return {"scramble": to_facelets(fmc.scramble),
            "scramble_moves": None if fmc.scramble_moves is None
            else format_moves(fmc.scramble_moves),
            "steps": [{"kind": s.choice.kind, "axis": s.choice.axis,
                       "goal": s.choice.goal if isinstance(s.choice.goal, str) else None,
                       "moveset": s.choice.moveset, "normal": format_moves(s.solution.normal),
                       "inverse": format_moves(s.solution.inverse),
                       "found_for": s.solution.goal} for s in line.steps],
            "at": fmc.at, "inverse_view": fmc.inverse_view}


def fmc_from_record(record: dict, parse_facelets, parse_moves) -> FmcState:
    """The attempt a record keeps, each step replayed from the scramble and checked to reach
    its step's goal (ValueError, with the reason, when the record does not hold up)."""
    from cubelab.solvers.fmc.blocks import block_goal, choice_met
    from cubelab.solvers.fmc.niss import StepSolution
    from cubelab.solvers.fmc.steps import STEP_KINDS
    if not isinstance(record, dict):
        raise ValueError("the FMC attempt is not a record")
    scramble = parse_facelets(str(record["scramble"]))
    moves = record.get("scramble_moves")
    fmc = FmcState(scramble, None if moves is None else tuple(parse_moves(str(moves))))
    chain = fmc.line[0]
    steps = record.get("steps", [])
    if not isinstance(steps, list):
        raise ValueError("the FMC steps are not a list")
    for item in steps:
        kind = item["kind"]
        if kind not in STEP_KINDS:
            raise ValueError(f"unknown FMC step {kind!r}")
        axis = item.get("axis")
        goal = item.get("goal") or block_goal(kind, axis)
        choice = StepChoice(kind, axis, goal, str(item["moveset"]))
        solution = StepSolution(tuple(parse_moves(str(item.get("normal", "")))),
                                tuple(parse_moves(str(item.get("inverse", "")))),
                                str(item.get("found_for", "")))
        chain = chain.extend(choice, solution)
        if not choice_met(choice, chain.position):
            raise ValueError(f"the FMC step {choice.label} does not reach its goal")
        fmc.line.append(chain)
    at = record.get("at", len(fmc.line) - 1)
    if not isinstance(at, int) or not 0 <= at < len(fmc.line):
        raise ValueError("the FMC attempt's current step is not one of its steps")
    fmc.at = at
    fmc.inverse_view = bool(record.get("inverse_view", False))
    return fmc
