"""The commutator table in the store: its uint8 encoding, its spec and `CommutatorTable`.

`CommutatorTable` is what the 3-cycle solver reads.

One row per alg [setup: [A, B]], the algs of an element together and in order of preference
(shortest after cancellation first): bytes 0-39 the element (a state row), 40-42 the lengths of
the setup, of A and of B, then their moves (indices into FACE_MOVES) one after the other, padded
with 255.
"""

from __future__ import annotations

import logging
import shutil

import numpy as np

from cubelab.cube.paths import data_dir

from ..spec import TableSpec, register
from ..store import clear_table, load_or_build
from .commutators import COUNTS, KINDS, Found, Stopped, element_kind, flat_moves, search

PARAMS = {
    "version": 1,
    "insert_max": 5,         # A: every face-turn sequence up to this length
    "in_place_half": 4,      # A for twists and flips: two halves of up to this length each
    "setup_max": 2,          # X in [X: [A, B]]
    "near_ties": 1,          # keep algs up to this many moves longer than the best
    "keep": 6,               # at most this many algs per element
}
"""The search's limits: they define the table's content."""

ELEMENT, LENGTHS, MOVES = 0, 40, 43
PAD = 255


def encode(entries: dict[bytes, list[Found]]) -> np.ndarray:
    """The search's result as rows (see the module docstring), elements in byte order."""
    rows = [(key, f) for key in sorted(entries) for f in entries[key]]
    width = max(len(f.setup) + len(f.a) + len(f.b) for _, f in rows)
    out = np.full((len(rows), MOVES + width), PAD, np.uint8)
    for r, (key, f) in enumerate(rows):
        out[r, ELEMENT:LENGTHS] = np.frombuffer(key, np.uint8)
        out[r, LENGTHS:MOVES] = len(f.setup), len(f.a), len(f.b)
        out[r, MOVES:MOVES + len(f.setup) + len(f.a) + len(f.b)] = f.setup + f.a + f.b
    return out


def decode(arr: np.ndarray) -> dict[bytes, list[Found]]:
    """element bytes -> algs, in the order they were stored."""
    entries: dict[bytes, list[Found]] = {}
    for row in np.asarray(arr):
        ns, na, nb = (int(n) for n in row[LENGTHS:MOVES])
        moves = tuple(int(m) for m in row[MOVES:MOVES + ns + na + nb])
        setup, a, b = moves[:ns], moves[ns:ns + na], moves[ns + na:]
        entries.setdefault(row[ELEMENT:LENGTHS].tobytes(), []).append(
            Found(setup, a, b, flat_moves(setup, a, b)))
    return entries


class CommutatorTable:
    """Every target element with its algs; `of_kind(kind)` gives indices for the solver."""

    def __init__(self, entries: dict[bytes, list[Found]]):
        keys = sorted(entries)
        self.elements = np.array([np.frombuffer(k, np.uint8) for k in keys]).reshape(-1, 40)
        self.elements.flags.writeable = False
        self.algs: list[list[Found]] = [entries[k] for k in keys]
        self.kinds = [element_kind(e) for e in self.elements]
        self._index = {k: i for i, k in enumerate(keys)}

    def __len__(self) -> int:
        return len(self.algs)

    def lookup(self, element: np.ndarray) -> list[Found] | None:
        i = self._index.get(np.asarray(element, np.uint8).tobytes())
        return None if i is None else self.algs[i]

    def of_kind(self, kind: str) -> list[int]:
        return [i for i, k in enumerate(self.kinds) if k == kind]

    def counts(self) -> dict[str, int]:
        return {k: len(self.of_kind(k)) for k in KINDS}

    def mean_length(self, kind: str) -> float:
        idx = self.of_kind(kind)
        return float(np.mean([len(self.algs[i][0].flat) for i in idx])) if idx else 0.0


def _build(ctx) -> np.ndarray:
    shutil.rmtree(data_dir() / "commutators", ignore_errors=True)   # the JSON cache it replaces
    try:
        entries = search(PARAMS, progress=ctx.progress, cancel=ctx.cancel)
    except Stopped:
        ctx.check_cancel()
        raise
    return encode(entries)


COMMUTATORS = register(TableSpec(
    name="threecycle.commutators", solver="threecycle", params=PARAMS, build=_build,
    description="short commutators of every 3-cycle, pair twist and pair flip",
    expected_bytes=788_454))
SPECS = (COMMUTATORS,)


def load_table(progress=None, cancel=None, log=None) -> CommutatorTable:
    """The commutator table, loaded or searched (about ten seconds) and saved.

    A file whose checksum holds but whose rows do not decode to the table the search makes
    (written by something else, or by a broken build) is removed and searched again, once."""
    for attempt in (1, 2):
        arr = load_or_build(COMMUTATORS, progress=progress, cancel=cancel, log=log)
        try:
            return _checked(arr)
        except (ValueError, IndexError) as e:
            if attempt == 2:
                raise RuntimeError(f"the commutator table is wrong after a rebuild: {e}") from None
            message = f"rebuilding {COMMUTATORS.name}: contents wrong ({e})"
            if log is not None:
                log(message)
            else:
                logging.getLogger("cubelab.tables").warning(message)
            clear_table(COMMUTATORS)


def _checked(arr: np.ndarray) -> CommutatorTable:
    """The table in `arr`, or ValueError saying how its rows are not what the search writes."""
    if arr.ndim != 2 or arr.shape[1] <= MOVES or arr.dtype != np.uint8:
        raise ValueError(f"rows of shape {arr.shape[1:]} and type {arr.dtype}")
    lengths = arr[:, LENGTHS:MOVES].astype(np.int64).sum(axis=1)
    if (lengths > arr.shape[1] - MOVES).any():
        raise ValueError("an alg longer than its row")
    width = arr.shape[1] - MOVES
    used = np.arange(width)[None, :] < lengths[:, None]
    if (arr[:, MOVES:][used] >= 18).any():
        raise ValueError("a move index outside the 18 face turns")
    table = CommutatorTable(decode(arr))
    if table.counts() != COUNTS:
        raise ValueError(f"it covers {table.counts()}, not {COUNTS}")
    return table


if __name__ == "__main__":
    import time

    t = time.perf_counter()
    tab = load_table(log=print)
    print(f"{len(tab)} elements in {time.perf_counter() - t:.1f} s: {tab.counts()}")
    for kind in KINDS:
        idx = tab.of_kind(kind)
        if idx:
            f = tab.algs[idx[0]][0]
            print(f"{kind:>6}: mean {tab.mean_length(kind):.2f} moves, e.g. {f.notation()}"
                  f"  =  {f.flat_text()}")
