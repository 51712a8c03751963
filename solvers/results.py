"""What a solve returns: its status, the solutions found, and the named parts of a solution.

`SolveResult.to_json()` is the record of `cubelab solve --json` (its keys are a contract: see
DESIGN.md); `Status` is a string enum, so the record keeps its plain words. A solution's named
parts are typed records that write their own JSON and their own text line: the two phases'
lengths of the two-phase search (`PhaseLengths`), the subgroups of Thistlethwaite's phases
(`Phase`), a human method's steps (`Step`: CFOP, and each step of a pipeline), the 3-cycle
method's commutators (`Commutator`); `Parts` holds a solution's list of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from cubelab.cube.alg import Move
from cubelab.cube.metrics import Metric
from cubelab.cube.notation import format_moves, metric_lengths


class Status(StrEnum):
    """How a solve ended (the JSON's "status" word)."""

    SOLVED = "solved"
    """A solution was found and the search ended on its own (or at its time limit after
    finding one)."""
    CANCELLED = "cancelled"
    """The caller raised the cancel flag (a solution, if any, is the best found so far)."""
    TIME_LIMIT = "time limit"
    """The time limit stopped the search before it found what it looks for."""
    NOT_FOUND = "not found"
    """The search ended with nothing within max_length."""
    TOO_DEEP = "too deep"
    """Beyond what the method can reach (a bounded search); the detail's message says why."""
    INTERRUPTED = "interrupted"
    """Ctrl-C or SIGTERM ended the command: the best solution found so far (the command line's
    word for a record it prints on its way out)."""


# ---- the named parts of a solution ------------------------------------------------------------

@dataclass(frozen=True)
class PhaseLengths:
    """The lengths of a two-phase solution's phases (JSON: a list of numbers)."""

    lengths: tuple[int, ...]

    def to_json(self) -> list:
        return list(self.lengths)

    def summary(self) -> str:
        return "phases " + " + ".join(str(n) for n in self.lengths)

    def line(self) -> str | None:
        return None


@dataclass(frozen=True)
class Phase:
    """One phase of a subgroup method: the subgroup it reaches, its moves and their number."""

    subgroup: str
    moves: str
    length: int

    def to_json(self) -> dict:
        return {"subgroup": self.subgroup, "moves": self.moves, "length": self.length}

    def summary(self) -> str | None:
        return None

    def line(self) -> str:
        return f"  -> {self.subgroup:<30} {self.length:>2}  {self.moves or '-'}"


@dataclass(frozen=True)
class Step:
    """One named step of a method a person follows (cross, f2l 1, oll...): its moves and
    length. `playback` pauses between steps."""

    name: str
    moves: str
    length: int
    merge: dict | None = None
    """Where the step's last turns cancel into the next steps' first (cfop.joins.Merge's
    JSON: with, tail, head, into, saved); the step keeps its own moves."""

    def to_json(self) -> dict:
        d = {"step": self.name, "moves": self.moves, "length": self.length}
        if self.merge:
            d["merge"] = self.merge
        return d

    def summary(self) -> str | None:
        return None

    def line(self) -> str:
        return f"  {self.name:<22} {self.length:>2}  {self.moves or '-'}"


@dataclass(frozen=True)
class Commutator:
    """One step of the 3-cycle method: what it does, the alg as written, its flat moves."""

    does: str
    alg: str
    moves: str

    def to_json(self) -> dict:
        return {"does": self.does, "alg": self.alg, "moves": self.moves}

    def summary(self) -> str | None:
        return None

    def line(self) -> str:
        return f"  {self.does:<34} {self.alg}"


Part = PhaseLengths | Phase | Step | Commutator


class Parts(tuple):
    """A solution's named parts, in order (a tuple of Part records)."""

    def to_json(self) -> list:
        if len(self) == 1 and isinstance(self[0], PhaseLengths):
            return self[0].to_json()
        return [p.to_json() for p in self]

    def summaries(self) -> list[str]:
        return [s for s in (p.summary() for p in self) if s]

    def lines(self) -> list[str]:
        return [s for s in (p.line() for p in self) if s]

    def named_lengths(self) -> tuple[tuple[str, int], ...]:
        """(name, number of moves) of each named step, for playback (none for other parts)."""
        return tuple((p.name, p.length) for p in self if isinstance(p, Step))


# ---- solutions and results --------------------------------------------------------------------

@dataclass
class Solution:
    """One solution found on the way (solvers that improve stream several)."""

    moves: list[Move]
    seconds: float
    nodes: int
    detail: dict = field(default_factory=dict)
    """What the solver says of this one solution (a solver listing several: the goal solver's
    record of it, with its AUF turns and costs), for a front end showing them as they come."""

    @property
    def htm(self) -> int:
        return metric_lengths(self.moves)["htm"]

    @property
    def qtm(self) -> int:
        return metric_lengths(self.moves)["qtm"]

    def length(self, metric: Metric | str) -> int:
        return metric_lengths(self.moves)[Metric(metric).value]

    def text(self) -> str:
        return format_moves(self.moves)


@dataclass
class SolveResult:
    """What a solve returns: the best solution (None if none was found) and how it was found."""

    solver: str
    moves: list[Move] | None
    nodes: int = 0
    seconds: float = 0.0
    optimal: bool = False
    lower_bound: int | None = None
    verified: bool = False
    status: Status = Status.SOLVED
    detail: dict = field(default_factory=dict)
    """Solver-specific plain values (the tables read, the search direction, a message...)."""
    solutions: list[Solution] = field(default_factory=list)
    metric: Metric = Metric.HTM
    """The metric the solver minimised: `optimal` and `lower_bound` count in it."""
    phases: Parts | None = None
    """The solution's phases (two-phase lengths, or subgroup phases), where the method has
    them."""
    steps: Parts | None = None
    """The solution's named steps (a human method's, the 3-cycle method's commutators)."""

    @property
    def found(self) -> bool:
        return self.moves is not None

    @property
    def length(self) -> dict[str, int] | None:
        if self.moves is None:
            return None
        m = metric_lengths(self.moves)
        out = {"htm": m["htm"], "qtm": m["qtm"]}
        own = Metric(self.metric).value     # a solver counting in STM or ETM: that one too
        out.setdefault(own, m[own])
        return out

    def text(self) -> str:
        return format_moves(self.moves) if self.moves is not None else ""

    def to_json(self) -> dict:
        d = {
            "solver": self.solver,
            "solution": self.text() if self.moves is not None else None,
            "length": self.length,
            "optimal": self.optimal,
            "nodes": int(self.nodes),
            "seconds": round(float(self.seconds), 6),
            "verified": self.verified,
            "status": Status(self.status).value,
            "metric": Metric(self.metric).value,
        }
        if self.lower_bound is not None:
            d["lower_bound"] = int(self.lower_bound)
        if self.phases is not None:
            d["phases"] = self.phases.to_json()
        if self.steps is not None:
            d["steps"] = self.steps.to_json()
        d.update(self.detail)
        return d
