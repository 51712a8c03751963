"""The metrics a sequence's length is counted in, and God's number of each cube in each.

A `Metric` is a string enum: it compares equal to the word users type ("htm") and is written
as that word in JSON, so records and options keep their plain strings while the code handles
one type. HTM counts face turns (a half turn is one move), QTM quarter turns (a half turn is
two), STM slice turns (a slice is one move, as a face turn is), ETM every turn of the hand,
rotations included (notation.metric_lengths counts them all).
"""

from __future__ import annotations

from enum import StrEnum


class Metric(StrEnum):
    """A way of counting the moves of a sequence."""

    HTM = "htm"
    QTM = "qtm"
    STM = "stm"
    ETM = "etm"

    @property
    def title(self) -> str:
        """How the metric is written in prose and tables: "HTM"."""
        return self.value.upper()

    @property
    def meaning(self) -> str:
        return _MEANING[self]

    @classmethod
    def parse(cls, text: str) -> "Metric":
        """The metric a user typed ("qtm", "QTM"); ValueError naming the choices."""
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise ValueError(f"unknown metric {text!r} (choose "
                             f"{', '.join(m.value for m in cls)})") from None

    def length(self, moves) -> int:
        """The length of a 3x3x3 sequence (notation.metric_lengths) in this metric."""
        from .notation import metric_lengths
        return metric_lengths(moves)[self.value]


_MEANING = {
    Metric.HTM: "half-turn metric: any turn of a face is one move",
    Metric.QTM: "quarter-turn metric: a half turn is two moves",
    Metric.STM: "slice-turn metric: a turn of any layer, slices too, is one move",
    Metric.ETM: "execution-turn metric: every turn of the hand, rotations too, is one move",
}

GODS_NUMBERS: dict[str, dict[Metric, int]] = {
    "3x3": {Metric.HTM: 20, Metric.QTM: 26},
    "2x2": {Metric.HTM: 11, Metric.QTM: 14},
}
"""Puzzle name -> the proven diameter of its group in each metric where it is known: every
position is solved within it and one needs it (the 3x3x3: Rokicki, Kociemba, Davidson and
Dethridge 2010 in HTM, Rokicki and Davidson 2014 in QTM; the 2x2x2 by complete enumeration).
The 3x3x3's in STM and ETM are not known."""


def gods_number(puzzle: str, metric: Metric | str) -> int | None:
    """God's number of the puzzle ("3x3", "2x2") in the metric, or None where not known."""
    return GODS_NUMBERS.get(puzzle, {}).get(Metric(metric))


if __name__ == "__main__":
    for m in Metric:
        print(f"{m.title}  {m.meaning}; God's number 3x3x3 {gods_number('3x3', m)}, "
              f"2x2x2 {gods_number('2x2', m)}")
