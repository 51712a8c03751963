"""The quarter-turn metric for Korf's search: the canonical order of quarter turns, the bounds.

In QTM a half turn is two quarter turns, so the search walks the 12 quarter turns (as FACE_MOVES
indices, so paths, the move tables and the axis maps stay those of HTM) in a canonical order
that writes each element of an axis' group <U, D> once:
- the same face twice only as the same clockwise quarter turn twice (U U is U2; U' U' would be
  U2 again and U U U is U'), never a third time;
- of two opposite faces (they commute) only U before D, R before L, F before B, as in HTM.
So an axis block is (nothing, U, U' or U U) then (nothing, D, D' or D D): 15 non-empty blocks
for the 15 elements of <U, D> besides the identity.

Every quarter turn is a 4-cycle of corners, so the corner permutation's parity is the parity of
a position's distance: IDA* bounds start at the heuristic rounded up to that parity and step by
2. God's number in QTM is 26 (Rokicki, Kociemba, Davidson and Dethridge, 2014): a search that
finds no solution within 26 has wrong tables.
"""

from __future__ import annotations

import numpy as np

from cubelab.cube.moves import FACE_MOVES
from cubelab.cube.state import CubeState, permutation_parity

from .lanes import NO_MOVE

_DOUBLED = 1 + NO_MOVE
"""Rows after a doubled quarter turn (U U) start here: one per face."""


def _allowed(prev2: int, prev: int, m: int) -> bool:
    """Whether quarter turn m may follow prev (after prev2) in the canonical order."""
    if prev == NO_MOVE:
        return True
    face, last = m // 3, prev // 3
    if face == last:
        return m == prev and m % 3 == 0 and prev2 != prev
    return not (face % 3 == last % 3 and face < last)


def quarter_turn_order() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The canonical order of the 12 quarter turns as the kernels read it (see
    lanes.face_turn_order): (lists, counts, rows), rows[move two back, last move]."""
    quarter = [i for i, m in enumerate(FACE_MOVES) if m.amount != 2]
    n_rows = _DOUBLED + 6
    lists = np.zeros((n_rows, len(quarter)), np.int64)
    counts = np.zeros(n_rows, np.int64)
    rows = np.zeros((NO_MOVE + 1, NO_MOVE + 1), np.int64)

    def fill(row, prev2, prev):
        ms = [m for m in quarter if _allowed(prev2, prev, m)]
        lists[row, :len(ms)] = ms
        counts[row] = len(ms)

    fill(0, NO_MOVE, NO_MOVE)
    for prev in quarter:
        fill(1 + prev, NO_MOVE, prev)
        rows[:, prev] = 1 + prev
        if prev % 3 == 0:   # a clockwise quarter turn may come twice: then no more of its face
            fill(_DOUBLED + prev // 3, prev, prev)
            rows[prev, prev] = _DOUBLED + prev // 3
    return lists, counts, rows


def parity(state: CubeState) -> int:
    """The parity of every solution's length in QTM (that of the corner permutation)."""
    return int(permutation_parity(state.cp))


def first_bound(h: int, state: CubeState) -> int:
    """The first QTM bound worth searching: the heuristic h rounded up to the position's
    parity (a bound of the other parity has no solution)."""
    return h + ((h - parity(state)) & 1)


if __name__ == "__main__":
    from cubelab.tables.sequences import sequence_counts
    lists, counts, rows = quarter_turn_order()
    # canonical sequences by length, against the count of canonical face-turn sequences by cost
    level = {(NO_MOVE, NO_MOVE): 1}
    for n in range(1, 7):
        nxt: dict = {}
        for (a, b), k in level.items():
            r = rows[a, b]
            for m in lists[r, :counts[r]]:
                nxt[(b, int(m))] = nxt.get((b, int(m)), 0) + k
        level = nxt
        print(n, sum(level.values()), sequence_counts("qtm", n)[n])
