"""Solutions of a goal search as users get them: one record each, ranked, folded on request.

A solution carries its moves, the goal it meets (one of several for `cross:any`), the AUF
turns it uses (pre: before it; post: after it; neither counted in its length), its length in
each metric, its cost in the search's metric (weights included) and its finger-trick cost
(cubelab.cube.fingertricks). Lists are sorted by cost, then finger-trick cost, then text.

Folding (optional) puts a solution, its mirror (through the L-R plane) and its inverse in one
class when they are all in the list: a symmetric case's algs come in such families, and a
cuber learns one. The class shows its best member and names the others.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cubelab.cube.alg import Move
from cubelab.cube.fingertricks import cost as finger_cost
from cubelab.cube.notation import format_moves, invert_moves, metric_lengths, mirror_moves


@dataclass
class GoalSolution:
    moves: tuple[Move, ...]
    goal: str
    cost: float
    """In the search's metric (weighted when weights were given)."""
    pre: Move | None = None
    post: Move | None = None
    seconds: float = 0.0
    nodes: int = 0
    variants: list = field(default_factory=list)
    """With folding: (relation, text) of the other members of its class."""
    _ergonomics: float | None = field(default=None, repr=False, compare=False)
    _text: str | None = field(default=None, repr=False, compare=False)

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = format_moves(self.moves)
        return self._text

    @property
    def lengths(self) -> dict:
        return metric_lengths(self.moves)

    @property
    def ergonomics(self) -> float:
        if self._ergonomics is None:
            self._ergonomics = finger_cost(self.moves)
        return self._ergonomics

    def sort_key(self):
        return (self.cost, self.ergonomics, self.text)

    def full(self) -> list[Move]:
        """The moves with the AUF turns around them (what to apply to the position)."""
        out = [self.pre] if self.pre is not None else []
        out += list(self.moves)
        if self.post is not None:
            out.append(self.post)
        return out

    def to_json(self) -> dict:
        d = {
            "solution": self.text,
            "length": self.lengths,
            "cost": self.ergonomics,
            "metric_cost": self.cost,
            "auf": {"pre": str(self.pre) if self.pre else None,
                    "post": str(self.post) if self.post else None},
            "goal": self.goal,
        }
        if self.variants:
            d["variants"] = [{"relation": r, "solution": t} for r, t in self.variants]
        return d


def ranked(solutions) -> list[GoalSolution]:
    return sorted(solutions, key=GoalSolution.sort_key)


def fold(solutions: list[GoalSolution]) -> list[GoalSolution]:
    """Mirror and inverse classes (see the module docstring): the best member of each class,
    its `variants` naming the others; the order is that of the best members."""
    ordered = ranked(solutions)
    by_text = {s.text: i for i, s in enumerate(ordered)}
    parent = list(range(len(ordered)))

    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    relation = {}
    for i, s in enumerate(ordered):
        for name, moves in (("mirror", mirror_moves(s.moves)), ("inverse", invert_moves(s.moves)),
                            ("mirror of inverse", mirror_moves(invert_moves(s.moves)))):
            j = by_text.get(format_moves(moves))
            if j is not None and j != i:
                a, b = root(i), root(j)
                if a != b:
                    parent[max(a, b)] = min(a, b)
                relation.setdefault(j, (i, name))
    out = []
    members: dict[int, list[int]] = {}
    for i in range(len(ordered)):
        members.setdefault(root(i), []).append(i)
    for r in sorted(members):
        best = ordered[r]
        best.variants = []
        for j in members[r]:
            if j == r:
                continue
            src, name = relation.get(j, (r, "variant"))
            best.variants.append((name if src == r else f"{name} of #{src}", ordered[j].text))
        out.append(best)
    return out
