"""The algorithm search's driver: the lengths one at a time, and the classes of effects found."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from cubelab.cube.facts import corner_cycles, edge_cycles
from cubelab.cube.moves import FACE_MOVES, apply_moves, move_state
from cubelab.cube.notation import Move, format_moves, metric_lengths
from cubelab.cube.state import CubeState, permutation_cycles
from cubelab.cube.symmetry import morph
from cubelab.tables.cubies import move_rows, state_row, symmetry_rows
from cubelab.tables.sequences import inverses, move_costs, sequence_counts, successor_table

from ..protocol import BEST, BOUND, NODES, SOLUTIONS, new_cancel, new_counters
from .kernels import join_halves, second_halves
from .predicates import PIECE, PIECE_AND_ORIENTATION, Predicate

MAX_TABLE_ENTRIES = 60_000_000
"""Second halves kept at once (16 bytes each): ~1 GB, i.e. up to 12 HTM or 14 QTM."""


# ---- the kernels' tables -------------------------------------------------------------------

@dataclass(frozen=True)
class _Tables:
    moves: np.ndarray        # (18, 40) rows of the face turns
    inverses: np.ndarray     # (18, 40) rows of their inverses
    cost: np.ndarray
    follows: np.ndarray
    fixed: np.ndarray        # (40,) 1 where the effect must equal target
    target: np.ndarray       # (40,)
    test: int
    excluded: np.ndarray     # (k, 40)
    symsets: np.ndarray      # (k, 48) 1 marking the symmetries of each set (test SYMMETRIC)


def _tables(predicate: Predicate, metric: str) -> _Tables:
    fixed = np.zeros(40, np.uint8)
    for i, how in enumerate(predicate.corners):
        fixed[i] = how >= PIECE
        fixed[8 + i] = how >= PIECE_AND_ORIENTATION
    for i, how in enumerate(predicate.edges):
        fixed[16 + i] = how >= PIECE
        fixed[28 + i] = how >= PIECE_AND_ORIENTATION
    excluded = (np.stack([state_row(e) for e in predicate.excluded]) if predicate.excluded
                else np.zeros((0, 40), np.uint8))
    symsets = np.zeros((max(1, len(predicate.symmetries)), 48), np.uint8)
    for r, group in enumerate(predicate.symmetries):
        symsets[r, sorted(group)] = 1
    moves = move_rows("htm")
    return _Tables(moves, inverses(moves), move_costs(metric), successor_table(), fixed,
                   state_row(predicate.target), predicate.test, excluded, symsets)


# ---- results ----------------------------------------------------------------------------------


def unpack(xseq: int, yseq: int) -> list[Move]:
    """The moves of a first and a second half packed by the kernels."""
    out = []
    for s in (int(xseq), int(yseq)):
        while s:
            out.append(FACE_MOVES[(s & 31) - 1])
            s >>= 5
    return out


def cycle_shape(perm, ori, mod: int, what: str) -> str:
    """'3-cycle', '2+2', '3-cycle, 2 twisted'...: lengths of the cycles, then how many pieces
    change orientation ('twisted' for corners, 'flipped' for edges)."""
    lengths = sorted((len(c) for c in permutation_cycles(perm)), reverse=True)
    turned = int((np.asarray(ori) % mod != 0).sum())
    parts = []
    if lengths:
        parts.append(f"{lengths[0]}-cycle" if len(lengths) == 1 else "+".join(map(str, lengths)))
    if turned:
        parts.append(f"{turned} {what}")
    return ", ".join(parts) or "-"


@dataclass
class AlgClass:
    """One class of effects (up to the 48 symmetries and inversion), as first found."""

    moves: list[Move]
    length: int                  # in the search's metric
    effect: CubeState
    morph: int                   # positions in the class
    sequences: dict[int, int] = field(default_factory=dict)   # length -> sequences found

    @property
    def text(self) -> str:
        return format_moves(self.moves)

    @property
    def corner_shape(self) -> str:
        return cycle_shape(self.effect.cp, self.effect.co, 3, "twisted")

    @property
    def edge_shape(self) -> str:
        return cycle_shape(self.effect.ep, self.effect.eo, 2, "flipped")

    def as_dict(self) -> dict:
        lengths = metric_lengths(self.moves)
        return {
            "moves": self.text, "length": {"htm": lengths["htm"], "qtm": lengths["qtm"]},
            "order": self.effect.order(), "corner_cycles": corner_cycles(self.effect),
            "edge_cycles": edge_cycles(self.effect), "corners": self.corner_shape,
            "edges": self.edge_shape, "morph": self.morph,
            "sequences": {str(k): v for k, v in sorted(self.sequences.items())},
        }


@dataclass
class SearchResult:
    predicate: Predicate
    metric: str
    max_length: int
    classes: list[AlgClass]
    sequences: int
    seconds: float
    status: str                  # done | cancelled
    lengths_done: int            # every length up to this one was searched completely
    found: list[list[Move]] | None = None    # every sequence, when asked for


class SearchTooBig(ValueError):
    """The search would need more memory than it may take; the message says how much."""


def _sides(auf: bool) -> np.ndarray:
    u = move_state(Move("U", 1))
    turns = [u.power(k) for k in range(4)] if auf else [CubeState.identity()]
    return np.stack([state_row(s) for s in turns])


def check_size(metric: str, max_length: int) -> None:
    """SearchTooBig if the second halves of the longest length exceed MAX_TABLE_ENTRIES."""
    b = max_length - max_length // 2
    need = sequence_counts(metric, b)[b]
    if need > MAX_TABLE_ENTRIES:
        raise SearchTooBig(
            f"--max-length {max_length} in {metric.upper()} would keep {need:,} half-sequences "
            f"({need * 16 / 2**30:.1f} GiB); at most {MAX_TABLE_ENTRIES:,} are allowed")


def search(predicate: Predicate, max_length: int, metric: str = "htm", *, auf: bool = False,
           on_class: Callable[[AlgClass], None] | None = None,
           on_length: Callable[[int, int], None] | None = None,
           counters: np.ndarray | None = None, cancel: np.ndarray | None = None,
           keep_sequences: bool = False) -> SearchResult:
    """Every canonical sequence of length 1..max_length whose effect satisfies the predicate,
    grouped by class. on_class(c) is called when a class is first met (its shortest length),
    on_length(L, classes so far) when length L is complete. counters: NODES (first halves
    walked), BOUND (length in progress), SOLUTIONS (sequences), BEST (classes)."""
    check_size(metric, max_length)
    start = time.perf_counter()
    counters = new_counters() if counters is None else counters
    cancel = new_cancel() if cancel is None else cancel
    t = _tables(predicate, metric)
    halves: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    classes: dict[tuple[int, int], AlgClass] = {}
    ordered: list[AlgClass] = []
    found_all: list[list[Move]] | None = [] if keep_sequences else None
    total = 0
    done = 0
    kcounter = np.zeros(1, np.int64)

    def half(c: int) -> tuple[np.ndarray, np.ndarray]:
        if c < 0:
            return np.zeros(0, np.uint64), np.zeros(0, np.uint64)
        if c not in halves:
            n = sequence_counts(metric, c)[c]
            keys, seqs = np.empty(n, np.uint64), np.empty(n, np.uint64)
            written = second_halves(c, t.moves, t.cost, t.follows, t.fixed, keys, seqs)
            order = np.argsort(keys[:written], kind="stable")
            halves[c] = (keys[order], seqs[order])
            for old in [k for k in halves if k < c - 1]:
                del halves[old]
        return halves[c]

    sym, sides = symmetry_rows(), _sides(auf)
    status = "done"
    for length in range(1, max_length + 1):
        counters[BOUND] = length
        a = length // 2
        b = length - a
        keys_b, seqs_b = half(b)
        keys_b1, seqs_b1 = half(b - 1)
        for first in ([-1] if a == 0 else range(18)):
            if cancel[0]:
                break
            capacity = 1024
            while True:
                out_x = np.empty(capacity, np.uint64)
                out_y = np.empty(capacity, np.uint64)
                out_cls = np.empty((capacity, 2), np.uint64)
                kcounter[0] = 0
                n = join_halves(first, a, t.moves, t.inverses, t.cost, t.follows, t.fixed,
                                t.target, t.test, t.excluded, t.symsets, sym, sides, keys_b,
                                seqs_b, keys_b1, seqs_b1, metric == "qtm", out_x, out_y, out_cls,
                                kcounter, cancel)
                if n != -2:
                    break
                capacity *= 8
            counters[NODES] += kcounter[0]
            if n <= 0:
                continue
            total += n
            counters[SOLUTIONS] = total
            if found_all is not None:
                found_all.extend(unpack(x, y) for x, y in zip(out_x[:n], out_y[:n]))
            uniq, first_at, counts = np.unique(out_cls[:n], axis=0, return_index=True,
                                               return_counts=True)
            for (bucket, key), i, k in sorted(zip(uniq.tolist(), first_at, counts),
                                              key=lambda t: t[1]):
                cls = classes.get((bucket, key))
                if cls is None:
                    moves = unpack(out_x[i], out_y[i])
                    effect = apply_moves(CubeState.identity(), moves)
                    cls = AlgClass(moves, length, effect, morph(effect))
                    classes[(bucket, key)] = cls
                    ordered.append(cls)
                    counters[BEST] = len(ordered)
                    if on_class is not None:
                        on_class(cls)
                cls.sequences[length] = cls.sequences.get(length, 0) + int(k)
        if cancel[0]:
            status = "cancelled"
            break
        done = length
        if on_length is not None:
            on_length(length, len(ordered))
    return SearchResult(predicate, metric, max_length, ordered, total,
                        time.perf_counter() - start, status, done, found_all)


if __name__ == "__main__":
    import sys
    from .predicates import last_layer
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    metric = sys.argv[2] if len(sys.argv) > 2 else "qtm"
    res = search(last_layer(), n, metric,
                 on_class=lambda c: print(c.length, c.text, c.corner_shape, "|", c.edge_shape,
                                          flush=True))
    print(f"{len(res.classes)} classes, {res.sequences} sequences, {res.seconds:.1f} s")
