"""The insertion alg sets in the store: their uint8 encoding, spec and `AlgSet`.

One row per sequence: byte 0 the kind (0 corners, 1 edges), bytes 1-40 the 3-cycle it
performs (a state row), then its moves (indices into FACE_MOVES) padded with 255; the sequences
of a 3-cycle together, shortest first.
"""

from __future__ import annotations

import numpy as np

from ..spec import TableSpec, register
from ..store import load_or_build
from .algs import KINDS, TARGET_COUNTS, Stopped, kind_of, search

PARAMS = {
    "version": 1,
    "max_len": {"corners": 10, "edges": 10},   # every canonical sequence up to this length
}
"""The search's limits: they define the table's content."""

KIND, ELEMENT, MOVES = 0, 1, 41
PAD = 255


def encode(found: dict[str, dict[bytes, np.ndarray]], width: int) -> np.ndarray:
    rows = []
    for k, kind in enumerate(KINDS):
        for key in sorted(found.get(kind, {})):
            seqs = found[kind][key]
            block = np.full((len(seqs), MOVES + width), PAD, np.uint8)
            block[:, KIND] = k
            block[:, ELEMENT:MOVES] = np.frombuffer(key, np.uint8)
            block[:, MOVES:MOVES + seqs.shape[1]] = np.where(seqs >= 0, seqs, PAD)
            rows.append(block)
    return np.concatenate(rows) if rows else np.zeros((0, MOVES + width), np.uint8)


class AlgSet:
    """The sequences of one kind: for a 3-cycle (row bytes), its sequences as an (N, width)
    int8 array of move indices padded with -1, shortest first; `max_len` the length every
    sequence up to which is there."""

    def __init__(self, kind: str, arr: np.ndarray, max_len: int):
        self.kind, self.max_len = kind, max_len
        mine = arr[arr[:, KIND] == KINDS.index(kind)]
        self.count = len(mine)
        self._algs: dict[bytes, np.ndarray] = {}
        if not len(mine):
            return
        keys = np.ascontiguousarray(mine[:, ELEMENT:MOVES])
        moves = np.where(mine[:, MOVES:] == PAD, -1, mine[:, MOVES:]).astype(np.int8)
        # rows of one 3-cycle are together: cut at each change of element
        change = np.nonzero((keys[1:] != keys[:-1]).any(1))[0] + 1
        for lo, hi in zip(np.r_[0, change], np.r_[change, len(mine)]):
            self._algs[keys[lo].tobytes()] = moves[lo:hi]

    def algs_for(self, element: bytes) -> np.ndarray | None:
        return self._algs.get(element)

    def covers(self) -> int:
        """How many of the kind's 3-cycles have at least one sequence."""
        return len(self._algs)

    def items(self):
        return self._algs.items()


def _build(ctx) -> np.ndarray:
    try:
        found = search(PARAMS["max_len"], progress=ctx.progress, cancel=ctx.cancel)
    except Stopped:
        ctx.check_cancel()
        raise
    return encode(found, max(PARAMS["max_len"].values()))


INSERTION_ALGS = register(TableSpec(
    name="insertions.algs", solver="insertions", params=PARAMS, build=_build,
    description="every face-turn sequence of up to 10 moves that is a corner or an edge "
                "3-cycle", expected_bytes=3_775_000, expected_seconds=15.0))
SPECS = (INSERTION_ALGS,)


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
        for key in list(s._algs)[:1]:
            if kind_of(np.frombuffer(key, np.uint8)) != kind:
                raise RuntimeError(f"{INSERTION_ALGS.name}: a {kind} row is not a 3-cycle")
    return sets
