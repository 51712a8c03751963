"""Face-turn sequences as move indices: inverse, cancellation, canonical ones, their effects.

How many canonical sequences there are of each cost, and every one of a length with its effect.

Move indices are those of cubelab.cube.moves.FACE_MOVES (face = index // 3, amount = index % 3
+ 1); effects are 40-byte state rows (cubelab.tables.cubies), products reading left to right.
"""

from __future__ import annotations

import numpy as np

from cubelab.cube.moves import FACE_MOVES
from cubelab.tables.jit import kernel

from .cubies import ROW_BYTES, follows_table, invert, move_rows, multiply

IDENTITY_ROW = np.concatenate([np.arange(8), np.zeros(8), np.arange(12), np.zeros(12)]
                              ).astype(np.uint8)
IDENTITY_ROW.flags.writeable = False
NO_MOVE = 18
"""Pads sequences of different lengths (its row is the identity)."""


def invert_seq(seq) -> tuple[int, ...]:
    """The inverse sequence: reversed, each turn inverted."""
    return tuple(3 * (m // 3) + 2 - m % 3 for m in reversed(seq))


def cancel(seq) -> tuple[int, ...]:
    """Move indices with same-face turns merged across commuting turns of the same axis (the
    rule of cubelab.cube.notation.simplify, on indices, for speed)."""
    out: list[int] = []
    for m in seq:
        face, amount = divmod(m, 3)
        axis = face % 3
        j = len(out) - 1
        while j >= 0 and (out[j] // 3) % 3 == axis:
            if out[j] // 3 == face:
                total = (out[j] % 3 + 1 + amount + 1) % 4
                if total:
                    out[j] = 3 * face + total - 1
                else:
                    del out[j]
                break
            j -= 1
        else:
            out.append(m)
    return tuple(out)


# ---- canonical sequences ------------------------------------------------------------------

def successor_table() -> np.ndarray:
    """follows[p, m] (uint8) of cubelab.tables.cubies.follows_table for the 18 face turns, plus a
    row NO_MOVE where every move may come first: (19, 18)."""
    return np.vstack([follows_table(), np.ones((1, 18), bool)]).astype(np.uint8)


def move_costs(metric: str) -> np.ndarray:
    """What each face turn costs in the metric (a half turn is two quarter turns in QTM)."""
    if metric == "htm":
        return np.ones(18, np.int64)
    if metric == "qtm":
        return np.array([2 if m.amount == 2 else 1 for m in FACE_MOVES], np.int64)
    raise ValueError(f"unknown metric {metric!r} (choose htm or qtm)")


def sequence_counts(metric: str, max_cost: int) -> list[int]:
    """How many canonical sequences have each total cost 0..max_cost."""
    cost, ok = move_costs(metric), successor_table()
    by_last = [[0] * 19 for _ in range(max_cost + 1)]
    by_last[0][18] = 1
    for c in range(max_cost + 1):
        for last in range(19):
            n = by_last[c][last]
            if n:
                for m in range(18):
                    if ok[last, m] and c + cost[m] <= max_cost:
                        by_last[c + cost[m]][m] += n
    return [sum(row) for row in by_last]


# ---- many rows at once ------------------------------------------------------------------------

@kernel
def _products(a, b, out):
    sa = a.shape[0] > 1
    sb = b.shape[0] > 1
    for r in range(out.shape[0]):
        multiply(a[r if sa else 0], b[r if sb else 0], out[r])


@kernel
def _inverses(a, out):
    for r in range(a.shape[0]):
        invert(a[r], out[r])


def products(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise a then b; either side may be a single row (it then meets every row of the other)."""
    a = np.ascontiguousarray(np.atleast_2d(a), dtype=np.uint8)
    b = np.ascontiguousarray(np.atleast_2d(b), dtype=np.uint8)
    if a.shape[0] != b.shape[0] and 1 not in (a.shape[0], b.shape[0]):
        raise ValueError(f"cannot pair {a.shape[0]} rows with {b.shape[0]}")
    out = np.empty((max(a.shape[0], b.shape[0]), ROW_BYTES), np.uint8)
    _products(a, b, out)
    return out


def inverses(a: np.ndarray) -> np.ndarray:
    """Each row's inverse."""
    a = np.ascontiguousarray(np.atleast_2d(a), dtype=np.uint8)
    out = np.empty_like(a)
    _inverses(a, out)
    return out


def sequence_elements(seqs) -> np.ndarray:
    """(N, 40): the effect of each move-index sequence, computed a column at a time."""
    seqs = list(seqs)
    width = max((len(s) for s in seqs), default=0)
    padded = np.full((len(seqs), width), NO_MOVE, dtype=np.intp)
    for i, s in enumerate(seqs):
        padded[i, :len(s)] = s
    table = np.concatenate([move_rows("htm"), IDENTITY_ROW[None]])
    out = np.repeat(IDENTITY_ROW[None], len(seqs), 0)
    for col in range(width):
        out = products(out, table[padded[:, col]])
    return out


def canonical_levels(moves, max_len: int, cancel=None) -> list[tuple[np.ndarray, np.ndarray]]:
    """For L = 1..max_len: (sequences (N, L) int8, effects (N, 40)) of the canonical sequences
    (cubelab.tables.cubies.allowed_after) over the given move indices, in lexicographic order of
    their positions in `moves`. A raised cancel flag (int32[1]) cuts the list short."""
    moves = np.asarray(list(moves), dtype=np.int64)
    follows = successor_table().astype(bool)
    table = move_rows("htm")
    seqs = np.zeros((1, 0), dtype=np.int8)
    elems = IDENTITY_ROW[None].copy()
    last = np.array([NO_MOVE])
    out = []
    for _ in range(max_len):
        new_s, new_e, new_l = [], [], []
        for m in moves:
            if cancel is not None and cancel[0]:
                return out
            ok = follows[last, m]
            if not ok.any():
                continue
            n = int(ok.sum())
            new_s.append(np.concatenate([seqs[ok], np.full((n, 1), m, np.int8)], 1))
            new_e.append(products(elems[ok], table[m]))
            new_l.append(np.full(n, m))
        seqs, elems, last = np.concatenate(new_s), np.concatenate(new_e), np.concatenate(new_l)
        out.append((seqs, elems))
    return out


if __name__ == "__main__":
    print("R U R' U' R2 U2 R2 cancelled:", cancel((3, 0, 5, 2, 4, 1, 4)))
    print("canonical sequences of 1..3 face turns:",
          [len(s) for s, _ in canonical_levels(range(18), 3)])
