"""What a move costs: the four metrics (HTM, QTM, STM, ETM) and weights users give per move.

A metric counts each move as `notation.metric_lengths` does: in HTM a slice turn is two face
turns and a rotation nothing; in QTM a half turn is two quarters; in STM every turn of layers is
one; in ETM every move, rotations included, is one. Weights replace the metric's count for the
moves they name, for ergonomic searches:

    "R=1, U=1, F=1.5, D=2"        every power of R, U, F and D
    "R2=1.2, U'=0.9"              one power only (a power named wins over its family)

A weight is a positive number with at most two decimals (at most 100); the moves a weight list
does not name keep the metric's count. `CostModel` turns a metric and weights into the integer
costs a search adds up (`scale` units per move of cost 1) and says how to turn a distance counted
in the metric into an admissible bound in those units.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

from .alg import ColumnError, Move, NotationError
from .notation import metric_lengths, parse_moves

METRICS = ("htm", "qtm", "stm", "etm")
"""The metrics a goal search counts in."""

MAX_WEIGHT = 100
WEIGHT_DECIMALS = 2


class CostError(ColumnError):
    """A metric or weight list that cannot be used; the message says where (column, 1-based)."""


def check_metric(metric: str) -> str:
    """The metric's canonical name, or CostError listing the four."""
    name = str(metric).strip().lower()
    if name not in METRICS:
        raise CostError(f"unknown metric {metric!r} (choose {', '.join(METRICS)})")
    return name


def metric_cost(move: Move, metric: str) -> int:
    """What one move counts in a metric (0 for a rotation outside ETM)."""
    return metric_lengths((move,))[metric]


_ENTRY = re.compile(r"\s*([^=,\s][^=,]*?)\s*=\s*([^,]*?)\s*(?:,|$)")
_NUMBER = re.compile(r"^[0-9]+(?:\.[0-9]+)?$")


@dataclass(frozen=True)
class Weights:
    """Weights by move family ("R") and by single move ("R2"), as exact fractions."""

    families: tuple[tuple[str, Fraction], ...] = ()
    moves: tuple[tuple[Move, Fraction], ...] = ()
    text: str = ""

    def weight(self, move: Move) -> Fraction | None:
        for m, w in self.moves:
            if m == move:
                return w
        for f, w in self.families:
            if f == move.family:
                return w
        return None

    def __bool__(self) -> bool:
        return bool(self.families or self.moves)


def parse_weights(text: str) -> Weights:
    """`"R=1,U=1,F=1.5,D=2"` as Weights; CostError naming the entry and its column."""
    if text is None or not text.strip():
        return Weights()
    families: dict[str, Fraction] = {}
    moves: dict[Move, Fraction] = {}
    pos = 0
    while pos < len(text):
        if not text[pos:].strip():
            break
        m = _ENTRY.match(text, pos)
        if m is None:
            col = pos + len(text[pos:]) - len(text[pos:].lstrip()) + 1
            raise CostError(f"expected MOVE=WEIGHT at column {col} (e.g. \"R=1,U=1,F=1.5\")", col)
        name, value = m.group(1), m.group(2)
        name_col, value_col = m.start(1) + 1, m.start(2) + 1
        try:
            parsed = parse_moves(name)
        except NotationError as e:
            raise CostError(f"weight for {name!r} at column {name_col}: {e}", name_col) from None
        if len(parsed) != 1:
            raise CostError(f"weight for {name!r} at column {name_col}: name one move or one "
                            "move family", name_col)
        if not value:
            raise CostError(f"missing weight after '{name}=' at column {value_col}", value_col)
        if not _NUMBER.match(value):
            raise CostError(f"weight {value!r} at column {value_col} is not a number "
                            "(write 1, 1.5 or 0.75)", value_col)
        weight = Fraction(value)
        decimals = len(value.split(".")[1]) if "." in value else 0
        if decimals > WEIGHT_DECIMALS:
            raise CostError(f"weight {value} at column {value_col}: at most "
                            f"{WEIGHT_DECIMALS} decimals", value_col)
        if weight <= 0 or weight > MAX_WEIGHT:
            raise CostError(f"weight {value} at column {value_col}: give a number above 0 and "
                            f"at most {MAX_WEIGHT}", value_col)
        move = parsed[0]
        bare = name.strip().rstrip("'’`").rstrip("0123456789") == name.strip()
        if bare and move.amount == 1:
            if move.family in families:
                raise CostError(f"{move.family} is weighted twice (column {name_col})", name_col)
            families[move.family] = weight
        else:
            if move in moves:
                raise CostError(f"{move} is weighted twice (column {name_col})", name_col)
            moves[move] = weight
        pos = m.end()
    return Weights(tuple(families.items()), tuple(moves.items()), text.strip())


class CostModel:
    """The cost of each move in a metric, with weights: exact values and integer units.

    `units(move)` is the cost in units of 1/scale (an int), what a search adds up. A distance
    table counted in the metric (`metric` costs) bounds a weighted cost from below by
    `bound_units(d)`: every move costs at least `ratio` times its metric count."""

    def __init__(self, metric: str = "htm", weights: Weights | str | None = None):
        self.metric = check_metric(metric)
        if isinstance(weights, str) or weights is None:
            weights = parse_weights(weights or "")
        self.weights = weights
        denominators = [w.denominator for _, w in weights.families + weights.moves]
        self.scale = math.lcm(*denominators) if denominators else 1
        self._memo: dict = {}

    @property
    def weighted(self) -> bool:
        return bool(self.weights)

    @property
    def name(self) -> str:
        """How the metric reads in output: 'htm', or 'htm+weights'."""
        return self.metric + ("+weights" if self.weighted else "")

    def cost(self, move: Move) -> Fraction:
        hit = self._memo.get(move)
        if hit is None:
            w = self.weights.weight(move)
            hit = self._memo[move] = Fraction(metric_cost(move, self.metric)) if w is None else w
        return hit

    def units(self, move: Move) -> int:
        c = self.cost(move) * self.scale
        assert c.denominator == 1
        return int(c)

    def value(self, units: int) -> float:
        """Units back to the cost users read (a float when weighted, else an int)."""
        return units / self.scale if self.scale != 1 else units

    def check_moves(self, moves) -> None:
        """CostError when a move would cost nothing (a rotation outside ETM, unweighted): a
        search could then repeat it forever."""
        for m in moves:
            if self.cost(m) <= 0:
                raise CostError(f"{m} counts 0 in {self.metric.upper()}; use --metric etm or "
                                f"give it a weight (\"{m.family}=1\")")

    def ratio(self, moves) -> Fraction:
        """The least cost per metric unit over the moves (moves counting 0 in the metric are
        left out: they never shorten a distance the metric counts)."""
        out = None
        for m in moves:
            base = metric_cost(m, self.metric)
            if base > 0:
                r = self.cost(m) * self.scale / base
                out = r if out is None else min(out, r)
        return out if out is not None else Fraction(self.scale)

    def bound_table(self, moves, size: int = 256) -> list[int]:
        """bound[d]: the least cost in units of any sequence the metric counts d for."""
        r = self.ratio(moves)
        return [math.ceil(d * r) for d in range(size)]

    def lengths(self, moves) -> dict:
        """The four metric lengths of a sequence and its cost in this model."""
        out = dict(metric_lengths(moves))
        if self.weighted:
            total = sum((self.cost(m) for m in moves), Fraction(0))
            out["weighted"] = float(total)
        return out
