"""CFOP's steps as performed, and the solution they cancel to, with the merges at the joins.

Each step of a CFOP solution ends at its milestone (cross, cross and k pairs, oriented last
layer, solved up to a U turn, solved), so its moves are kept exactly as found. Put end to end,
the last turns of one step and the first turns of the next may cancel (`R'` then `R`) or merge
(`U` then `U` into `U2`); the solution a user performs is the cancelled one, and the places where
it differs from the steps are reported as merges, credited to the step they start in, rather than
moving a step's boundary (which would make a step end short of what its name says).
"""

from __future__ import annotations

from dataclasses import dataclass

from cubelab.cube.moves import FACE_MOVES


def _text(seq) -> str:
    return " ".join(str(FACE_MOVES[m]) for m in seq)


@dataclass(frozen=True)
class Merge:
    """Turns of one step (`tail`) and of the steps after it (`head`, from `later`) that cancel
    or merge into `into` in the solution."""

    later: tuple[str, ...]
    tail: tuple[int, ...]
    head: tuple[int, ...]
    into: tuple[int, ...]

    @property
    def saved(self) -> int:
        """How many turns (HTM) the merge saves."""
        return len(self.tail) + len(self.head) - len(self.into)

    def to_json(self) -> dict:
        return {"with": ", ".join(self.later), "tail": _text(self.tail),
                "head": _text(self.head), "into": _text(self.into), "saved": self.saved}


def joined(steps) -> tuple[tuple[int, ...], dict[int, Merge]]:
    """The solution the steps (name, face-turn indices; each step's own turns already free of
    cancellations) cancel to, and the merges at their joins by the index of the step each
    starts in.

    The cancellation is that of cubelab.tables.sequences.cancel (same-face turns merged across
    commuting turns of the same axis), done here keeping, for every turn of the result and
    every pair that cancelled out, which turns of which steps went into it."""
    out: list[tuple[int, list[tuple[int, int]]]] = []      # (turn, its sources (step, index))
    gone: list[list[tuple[int, int]]] = []                 # sources that cancelled to nothing
    for i, (_, seq) in enumerate(steps):
        for j, m in enumerate(seq):
            face, amount = divmod(m, 3)
            k = len(out) - 1
            while k >= 0 and (out[k][0] // 3) % 3 == face % 3:
                if out[k][0] // 3 == face:
                    total = (out[k][0] % 3 + 1 + amount + 1) % 4
                    sources = out[k][1] + [(i, j)]
                    if total:
                        out[k] = (3 * face + total - 1, sources)
                    else:
                        del out[k]
                        gone.append(sources)
                    break
                k -= 1
            else:
                out.append((m, [(i, j)]))
    groups = [(sources, None) for sources in gone]
    groups += [(sources, n) for n, (_, sources) in enumerate(out) if len(sources) > 1]
    by_step: dict[int, list] = {}
    for sources, n in groups:
        first = min(i for i, _ in sources)
        if all(i == first for i, _ in sources):
            raise ValueError(f"step {steps[first][0]!r} cancels within itself")
        by_step.setdefault(first, []).append((sources, n))
    merges = {}
    for first, found in by_step.items():
        sources = sorted(src for group, _ in found for src in group)
        merges[first] = Merge(
            later=tuple(dict.fromkeys(steps[i][0] for i, _ in sources if i != first)),
            tail=tuple(steps[i][1][j] for i, j in sources if i == first),
            head=tuple(steps[i][1][j] for i, j in sources if i != first),
            into=tuple(out[n][0] for n in sorted(n for _, n in found if n is not None)))
    return tuple(m for m, _ in out), merges
