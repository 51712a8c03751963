"""The insertion alg sets in the store: their uint8 encoding, specs and `AlgSet`.

Two tables: the 3-cycles (every sequence of up to 10 moves, a few seconds' search, used by
every insertion) and the parity algs (one corner 2-swap with one edge 2-swap, every sequence of
up to 11 moves: a minute or two's search with 1.3 GB at its peak, made the first time a
skeleton leaves an odd permutation). One row per sequence: byte 0 the kind (its index in
ALL_KINDS), bytes 1-40 the element it performs (a state row), then its moves (indices into
FACE_MOVES) padded with 255; the sequences of an element together, shortest first.
"""

from __future__ import annotations

import numpy as np

from ..spec import TableSpec, register
from ..store import load_or_build
from .algs import (
    ALL_KINDS, KINDS, PARITY, TARGET_COUNTS, Stopped, kind_of, row_hashes, search, zobrist,
)

PARAMS = {
    "version": 1,
    "max_len": {"corners": 10, "edges": 10},   # every canonical sequence up to this length
}
"""The search's limits: they define the table's content."""

KIND, ELEMENT, MOVES = 0, 1, 41
PAD = 255


def encode(found: dict[str, dict[bytes, np.ndarray]], width: int) -> np.ndarray:
    rows = []
    for k, kind in enumerate(ALL_KINDS):
        for key in sorted(found.get(kind, {})):
            seqs = found[kind][key]
            block = np.full((len(seqs), MOVES + width), PAD, np.uint8)
            block[:, KIND] = k
            block[:, ELEMENT:MOVES] = np.frombuffer(key, np.uint8)
            block[:, MOVES:MOVES + seqs.shape[1]] = np.where(seqs >= 0, seqs, PAD)
            rows.append(block)
    return np.concatenate(rows) if rows else np.zeros((0, MOVES + width), np.uint8)


class AlgSet:
    """The sequences of one kind, indexed by the element (3-cycle, parity) they perform.

    `moves` (N, width) int8: every sequence, padded with -1, a 3-cycle's together and shortest
    first; `rows` (E, 40): the 3-cycles that have sequences, sorted by hash, each with its
    block `starts[e]:starts[e] + counts[e]` of `moves`; `max_len`: the length every sequence up
    to which is there. `lookup(rows)` finds many 3-cycles at once."""

    def __init__(self, kind: str, arr: np.ndarray, max_len: int):
        self.kind, self.max_len = kind, max_len
        mine = arr[arr[:, KIND] == ALL_KINDS.index(kind)]
        self.count = len(mine)
        self.moves = np.where(mine[:, MOVES:] == PAD, -1, mine[:, MOVES:]).astype(np.int8)
        keys = np.ascontiguousarray(mine[:, ELEMENT:MOVES])
        # rows of one 3-cycle are together: cut at each change of element
        change = np.nonzero((keys[1:] != keys[:-1]).any(1))[0] + 1 if len(mine) else \
            np.zeros(0, np.int64)
        starts = np.r_[0, change].astype(np.int64) if len(mine) else np.zeros(0, np.int64)
        counts = np.diff(np.r_[starts, len(mine)]).astype(np.int64)
        rows = keys[starts] if len(mine) else np.zeros((0, 40), np.uint8)
        self._z = zobrist()
        h = row_hashes(np.ascontiguousarray(rows), self._z)
        order = np.argsort(h, kind="stable")
        self.hashes, self.rows = h[order], np.ascontiguousarray(rows[order])
        self.starts, self.counts = starts[order], counts[order]

    def lookup(self, rows: np.ndarray) -> np.ndarray:
        """For each row, the index of its 3-cycle in `rows`, or -1 (none, or not a 3-cycle)."""
        rows = np.ascontiguousarray(rows, np.uint8)
        if not len(self.rows):
            return np.full(len(rows), -1, np.int64)
        h = row_hashes(rows, self._z)
        i = np.minimum(np.searchsorted(self.hashes, h), len(self.hashes) - 1)
        hit = (self.hashes[i] == h) & (self.rows[i] == rows).all(1)
        return np.where(hit, i, -1)

    def algs_for(self, element: bytes) -> np.ndarray | None:
        """The sequences of one 3-cycle (row bytes), or None."""
        e = int(self.lookup(np.frombuffer(element, np.uint8)[None])[0])
        return None if e < 0 else self.moves[self.starts[e]:self.starts[e] + self.counts[e]]

    def covers(self) -> int:
        """How many of the kind's 3-cycles have at least one sequence."""
        return len(self.rows)

    def items(self):
        """(row bytes, sequences) of every 3-cycle that has some."""
        for e in range(len(self.rows)):
            yield self.rows[e].tobytes(), self.moves[self.starts[e]:self.starts[e] + self.counts[e]]


PARITY_PARAMS = {
    "version": 1,
    "max_len": {PARITY: 11},
}
"""The parity search's limits. No corner-and-edge 2-swap is shorter than 10 moves; at 10 only
960 sequences reach a few of the 11,088 elements, so 11 is the least that makes a parity
insertion likely to be found."""


def _builder(params: dict):
    def build(ctx) -> np.ndarray:
        try:
            found = search(params["max_len"], progress=ctx.progress, cancel=ctx.cancel)
        except Stopped:
            ctx.check_cancel()
            raise
        return encode(found, max(params["max_len"].values()))
    return build


INSERTION_ALGS = register(TableSpec(
    name="insertions.algs", solver="insertions", params=PARAMS, build=_builder(PARAMS),
    description="every face-turn sequence of up to 10 moves that is a corner or an edge "
                "3-cycle", expected_bytes=3_767_472, expected_seconds=15.0))
PARITY_ALGS = register(TableSpec(
    name="insertions.parity", solver="insertions", params=PARITY_PARAMS,
    build=_builder(PARITY_PARAMS),
    description="every face-turn sequence of up to 11 moves that swaps two corners and two "
                "edges (parity algs)", expected_bytes=401_856, expected_seconds=75.0))
SPECS = (INSERTION_ALGS, PARITY_ALGS)


def load_alg_sets(progress=None, cancel=None, log=None) -> dict[str, AlgSet]:
    """{kind: AlgSet}, loaded or searched (about ten seconds) and saved. The rows are checked:
    each kind's block names only 3-cycles of that kind (a damaged file is rebuilt by the
    store when its checksum fails; this catches rows that are well-formed but wrong)."""
    arr = load_or_build(INSERTION_ALGS, progress=progress, cancel=cancel, log=log)
    if arr.ndim != 2 or arr.shape[1] != MOVES + max(PARAMS["max_len"].values()):
        raise RuntimeError(f"{INSERTION_ALGS.name}: rows of shape {arr.shape[1:]}")
    sets = {kind: AlgSet(kind, arr, PARAMS["max_len"][kind]) for kind in KINDS}
    for kind, s in sets.items():
        if s.covers() > TARGET_COUNTS[kind]:
            raise RuntimeError(f"{INSERTION_ALGS.name}: more {kind} 3-cycles than there are")
        for e in range(min(1, s.covers())):
            if kind_of(s.rows[e]) != kind:
                raise RuntimeError(f"{INSERTION_ALGS.name}: a {kind} row is not a 3-cycle")
    return sets


def load_parity_set(progress=None, cancel=None, log=None) -> AlgSet:
    """The parity algs, loaded or searched (a minute or two, once) and saved; checked as
    load_alg_sets checks its rows."""
    arr = load_or_build(PARITY_ALGS, progress=progress, cancel=cancel, log=log)
    width = max(PARITY_PARAMS["max_len"].values())
    if arr.ndim != 2 or arr.shape[1] != MOVES + width:
        raise RuntimeError(f"{PARITY_ALGS.name}: rows of shape {arr.shape[1:]}")
    algset = AlgSet(PARITY, arr, width)
    if algset.covers() > TARGET_COUNTS[PARITY] or (algset.covers() and
                                                    kind_of(algset.rows[0]) != PARITY):
        raise RuntimeError(f"{PARITY_ALGS.name}: a row is not a parity element")
    return algset
