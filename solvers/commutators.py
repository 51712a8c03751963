"""The search that finds short commutators for every 3-cycle, pair twist and pair flip, and its cache.

Everything here is found, not typed. 3-cycles: every pure commutator [A, B] with A a face-turn
sequence of up to five moves and B a single face turn is computed, and those moving exactly three
pieces kept. Pair twists and pair flips need a longer A that turns one piece of B's layer in place
and leaves the rest of that layer alone (then [A, B] turns just two pieces, the rule that
supports sharing one piece give a commutator of at most three); such A of up to eight moves are
met in the middle (two halves of four whose views of the U layer match), and the 48 symmetries
of the cube spread what they give. Conjugates [X: [A, B]] with one- or two-move setups reach
every remaining target. For each target element the table keeps the shortest algs after
cancellation (and a few near ties, so the solver can pick whichever cancels best with its
neighbours). The search takes about ten seconds; its result is cached as JSON under the data
directory and checked move by move when read back.

Elements are rows of 40 bytes: cp (8), co (8), ep (12), eo (12), products left to right.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from cubelab.cube.moves import FACE_MOVES, move_state
from cubelab.cube.notation import Alg, Commutator, Conjugate, format_moves
from cubelab.cube.paths import data_dir
from cubelab.cube.symmetry import move_conjugation

TABLE_VERSION = 1
KINDS = ("corner", "edge", "twist", "flip")
"""corner / edge: an oriented 3-cycle of that piece type; twist / flip: two pieces turned in place."""

# Search limits; they are part of the cache file's identity.
PARAMS = {
    "version": TABLE_VERSION,
    "insert_max": 5,         # A: every face-turn sequence up to this length
    "in_place_half": 4,      # A for twists and flips: two halves of up to this length each
    "setup_max": 2,          # X in [X: [A, B]]
    "near_ties": 1,          # keep algs up to this many moves longer than the best
    "keep": 6,               # at most this many algs per element
}

IDENTITY = np.concatenate([np.arange(8), np.zeros(8), np.arange(12), np.zeros(12)]).astype(np.uint8)


@lru_cache(maxsize=1)
def move_elements() -> np.ndarray:
    """(18, 40): the face turns in FACE_MOVES order."""
    rows = [np.concatenate([s.cp, s.co, s.ep, s.eo]) for s in map(move_state, FACE_MOVES)]
    out = np.array(rows, dtype=np.uint8)
    out.flags.writeable = False
    return out


def compose(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise a then b (rows broadcast: either may be a single row)."""
    a, b = np.broadcast_arrays(np.atleast_2d(a), np.atleast_2d(b))
    bcp = b[:, :8].astype(np.intp)
    bep = b[:, 16:28].astype(np.intp)
    cp = np.take_along_axis(a[:, :8], bcp, 1)
    co = (np.take_along_axis(a[:, 8:16], bcp, 1) + b[:, 8:16]) % 3
    ep = np.take_along_axis(a[:, 16:28], bep, 1)
    eo = (np.take_along_axis(a[:, 28:40], bep, 1) + b[:, 28:40]) & 1
    return np.concatenate([cp, co, ep, eo], 1).astype(np.uint8)


def inverse(a: np.ndarray) -> np.ndarray:
    a = np.atleast_2d(a)
    cp = np.argsort(a[:, :8], 1)
    ep = np.argsort(a[:, 16:28], 1)
    co = (3 - np.take_along_axis(a[:, 8:16], cp, 1)) % 3
    eo = np.take_along_axis(a[:, 28:40], ep, 1)
    return np.concatenate([cp, co, ep, eo], 1).astype(np.uint8)


def support(a: np.ndarray) -> np.ndarray:
    """Bit mask of the pieces each element moves or turns: bits 0-7 corners, 8-19 edges."""
    a = np.atleast_2d(a)
    c = (a[:, :8] != np.arange(8)) | (a[:, 8:16] != 0)
    e = (a[:, 16:28] != np.arange(12)) | (a[:, 28:40] != 0)
    bits = np.concatenate([c, e], 1).astype(np.int64)
    return (bits << np.arange(20)).sum(1)


def popcount(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.int64).copy()
    n = np.zeros(len(x), dtype=np.int64)
    while x.any():
        n += x & 1
        x >>= 1
    return n


def sequence_element(seq) -> np.ndarray:
    return sequence_elements([seq])[0]


def sequence_elements(seqs) -> np.ndarray:
    """(N, 40): the element of each move-index sequence, computed a column at a time."""
    seqs = list(seqs)
    width = max((len(s) for s in seqs), default=0)
    padded = np.full((len(seqs), width), 18, dtype=np.intp)   # 18: no move
    for i, s in enumerate(seqs):
        padded[i, :len(s)] = s
    table = np.concatenate([move_elements(), IDENTITY[None]])
    out = np.repeat(IDENTITY[None], len(seqs), 0)
    for col in range(width):
        out = compose(out, table[padded[:, col]])
    return out


def invert_seq(seq) -> tuple[int, ...]:
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


def canonical_levels(moves, max_len: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """For L = 1..max_len: (sequences (N, L) int8, elements (N, 40)) of the sequences over
    `moves` that never turn a face twice in a row and turn opposite faces in U R F order."""
    moves = np.asarray(list(moves), dtype=np.int64)
    table = move_elements()
    seqs = np.zeros((1, 0), dtype=np.int8)
    elems = IDENTITY[None].copy()
    last = np.array([-1])
    out = []
    for _ in range(max_len):
        new_s, new_e, new_l = [], [], []
        for m in moves:
            f = m // 3
            lf = last // 3
            ok = (last < 0) | ((lf != f) & ~((lf % 3 == f % 3) & (lf > f)))
            if not ok.any():
                continue
            n = int(ok.sum())
            new_s.append(np.concatenate([seqs[ok], np.full((n, 1), m, np.int8)], 1))
            new_e.append(compose(elems[ok], table[m]))
            new_l.append(np.full(n, m))
        seqs, elems, last = np.concatenate(new_s), np.concatenate(new_e), np.concatenate(new_l)
        out.append((seqs, elems))
    return out


def element_kind(element: np.ndarray) -> str | None:
    """Which target an element is, or None."""
    sup = int(support(element)[0])
    corners, edges = popcount(np.array([sup & 255]))[0], popcount(np.array([sup >> 8]))[0]
    e = np.atleast_2d(element)[0]
    if edges == 0 and corners == 3:
        return "corner"
    if corners == 0 and edges == 3:
        return "edge"
    if edges == 0 and corners == 2 and (e[:8] == np.arange(8)).all():
        return "twist"
    if corners == 0 and edges == 2 and (e[16:28] == np.arange(12)).all():
        return "flip"
    return None


# ---- the search ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Found:
    """One alg for a target element: [setup: [a, b]], its flat moves after cancellation."""

    setup: tuple[int, ...]
    a: tuple[int, ...]
    b: tuple[int, ...]
    flat: tuple[int, ...]

    def notation(self) -> str:
        def alg(seq):
            return Alg(tuple(FACE_MOVES[m] for m in seq))
        node = Commutator(alg(self.a), alg(self.b))
        if self.setup:
            return str(Alg((Conjugate(alg(self.setup), Alg((node,))),)))
        return str(Alg((node,)))

    def flat_text(self) -> str:
        return format_moves(FACE_MOVES[m] for m in self.flat)


def _flat(setup, a, b) -> tuple[int, ...]:
    return cancel(setup + a + b + invert_seq(a) + invert_seq(b) + invert_seq(setup))


class _Best:
    """Per target element, the shortest algs seen (with near ties), keyed by element bytes."""

    def __init__(self, near: int, keep: int):
        self.near, self.keep = near, keep
        self.algs: dict[bytes, dict[tuple, Found]] = {}
        self.best: dict[bytes, int] = {}

    def worth(self, key: bytes, length: int) -> bool:
        best = self.best.get(key)
        return best is None or length <= best + self.near

    def offer(self, key: bytes, found: Found) -> None:
        length = len(found.flat)
        if not self.worth(key, length):
            return
        bucket = self.algs.setdefault(key, {})
        if found.flat in bucket:
            return
        bucket[found.flat] = found
        best = min(length, self.best.get(key, length))
        self.best[key] = best
        kept = sorted((f for f in bucket.values() if len(f.flat) <= best + self.near),
                      key=lambda f: (len(f.flat), len(f.setup), f.flat))[: self.keep]
        self.algs[key] = {f.flat: f for f in kept}


def _pure_commutators(pool, cancel_flag=None) -> list[tuple]:
    """(a, b) pairs with a from the pool and b a single face turn whose commutator is a
    3-cycle (both [a, b] and [b, a] are kept). Every pair is tried: supports that share one
    piece always give at most three moved pieces, but many shorter 3-cycles come from supports
    that share more. An a that starts on b's face or ends on b's axis is left out: that
    commutator is a conjugate or a shorter one in disguise, and reads better written as one."""
    moves = move_elements()
    found = []
    for seqs, elems in pool:
        first_face = seqs[:, 0] // 3
        last_axis = seqs[:, -1] // 3 % 3
        inv = inverse(elems)
        for h in range(18):
            if cancel_flag is not None and cancel_flag[0]:
                return found
            ok = (first_face != h // 3) & (last_axis != h // 3 % 3)
            g, gi, s = elems[ok], inv[ok], seqs[ok]
            comm = compose(compose(compose(g, moves[h]), gi), inverse(moves[h]))
            three = np.nonzero(popcount(support(comm)) == 3)[0]
            for i in three:
                if element_kind(comm[i]) in ("corner", "edge"):
                    a = tuple(int(m) for m in s[i])
                    found.append((a, (h,)))
                    found.append(((h,), a))
    return found


def _u_layer_view(elems: np.ndarray) -> np.ndarray:
    """Where each U-layer piece (corners and edges 0-3) is after each element, and how turned."""
    cpos = np.argsort(elems[:, :8], 1)[:, :4]
    epos = np.argsort(elems[:, 16:28], 1)[:, :4]
    return np.concatenate([cpos, np.take_along_axis(elems[:, 8:16], cpos, 1),
                           epos, np.take_along_axis(elems[:, 28:40], epos, 1)], 1).astype(np.uint8)


def _in_place_inserts(half: int) -> list[tuple[int, ...]]:
    """Sequences A = A1 A2 (each part up to `half` moves) that leave the U layer as it was but
    for one piece turned in place: URF twisted either way or UF flipped. Met in the middle: A1
    must show the U layer as (turn) * A2^-1 does."""
    levels = canonical_levels(range(18), half)
    seqs = [()] + [tuple(int(m) for m in row) for sq, _ in levels for row in sq]
    elems = np.concatenate([IDENTITY[None]] + [e for _, e in levels])
    by_view: dict[bytes, list[int]] = {}
    for i, row in enumerate(_u_layer_view(elems)):
        by_view.setdefault(row.tobytes(), []).append(i)
    inverse_elems = inverse(elems)
    found = set()
    for column, value in ((8, 1), (8, 2), (29, 1)):      # twist URF +, twist URF -, flip UF
        turn = IDENTITY.copy()
        turn[column] = value
        for j, row in enumerate(_u_layer_view(compose(turn, inverse_elems))):
            for i in by_view.get(row.tobytes(), ()):
                a = cancel(seqs[i] + seqs[j])
                if a:
                    found.add(a)
    return sorted(found, key=lambda a: (len(a), a))


def _in_place_commutators(half: int, per_kind: int = 400) -> list[tuple]:
    """Pair twists and pair flips: [A, B] with A an in-place insert and B a U-layer turn. Only
    the shortest of each kind are kept (at most per_kind): symmetry spreads them afterwards."""
    inserts = _in_place_inserts(half)
    if not inserts:
        return []
    elems = sequence_elements(inserts)
    moves = move_elements()
    by_kind: dict[str, list[tuple]] = {}
    for h in (0, 1, 2):
        comm = compose(compose(compose(elems, moves[h]), inverse(elems)), inverse(moves[h]))
        for row, a in zip(comm, inserts):
            kind = element_kind(row)
            if kind in ("twist", "flip"):
                by_kind.setdefault(kind, []).append((a, (h,)))
    found = []
    for pairs in by_kind.values():
        shortest = min(len(a) for a, _ in pairs)
        for a, b in [p for p in pairs if len(p[0]) == shortest][:per_kind]:
            found.append((a, b))
            found.append((b, a))
    return found


def _spread_by_symmetry(pairs) -> set[tuple]:
    """Every image of each (a, b) under the 48 symmetries (mirrors turn faces the other way)."""
    mc = move_conjugation()
    out = set()
    for a, b in pairs:
        for k in range(mc.shape[0]):
            out.add((tuple(int(mc[k, m]) for m in a), tuple(int(mc[k, m]) for m in b)))
    return out


def search(params: dict = PARAMS, progress=None, cancel_flag=None) -> dict[bytes, list[Found]]:
    """Run the whole search: element bytes -> algs, shortest first."""
    def report(done, total=5):
        if progress is not None:
            progress(done, total)

    best = _Best(params["near_ties"], params["keep"])
    pure: dict[bytes, list[Found]] = {}

    report(0)
    pool = canonical_levels(range(18), params["insert_max"])
    pairs = set(_pure_commutators(pool, cancel_flag))
    report(1)
    pairs |= _spread_by_symmetry(_in_place_commutators(params["in_place_half"]))
    report(2)
    founds = [Found((), a, b, _flat((), a, b)) for a, b in sorted(pairs)]
    for f, element in zip(founds, sequence_elements(f.flat for f in founds)):
        key = element.tobytes()
        best.offer(key, f)
        pure.setdefault(key, []).append(f)
    report(3)

    # Conjugates: every setup of up to setup_max moves around the best pure alg of each element.
    base_keys = list(pure)
    base_algs = [min(pure[k], key=lambda f: len(f.flat)) for k in base_keys]
    base = np.array([np.frombuffer(k, np.uint8) for k in base_keys])
    first = np.array([f.flat[0] // 3 % 3 for f in base_algs])
    last = np.array([f.flat[-1] // 3 % 3 for f in base_algs])
    lengths = np.array([len(f.flat) for f in base_algs])
    for seqs, elems in canonical_levels(range(18), params["setup_max"]):
        for x, xe in zip(seqs, elems):
            if cancel_flag is not None and cancel_flag[0]:
                break
            setup = tuple(int(m) for m in x)
            conj = compose(compose(xe, base), inverse(xe))
            axis = setup[-1] // 3 % 3
            touches = (first == axis) | (last == axis)
            plain = lengths + 2 * len(setup)
            # without a shared axis at either seam nothing cancels: the length is known;
            # with one, each seam saves at most twice the setup's length
            bound = np.where(touches, plain - 4 * len(setup), plain)
            for i, row in enumerate(conj):
                key = row.tobytes()
                if not best.worth(key, int(bound[i])):
                    continue
                f = base_algs[i]
                best.offer(key, Found(setup, f.a, f.b, _flat(setup, f.a, f.b)))
    report(4)
    table = {}
    for key, bucket in best.algs.items():
        table[key] = sorted(bucket.values(), key=lambda f: (len(f.flat), len(f.setup), f.flat))
    report(5)
    return table


# ---- the table and its cache ---------------------------------------------------------------

class CommutatorTable:
    """Every target element with its algs; `of_kind(kind)` gives arrays for the solver."""

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

    # JSON: one record per element, moves as index lists (compact and exact).
    def to_json(self, params: dict) -> dict:
        return {
            "params": params,
            "entries": [
                {"element": self.elements[i].tolist(),
                 "algs": [[list(f.setup), list(f.a), list(f.b)] for f in algs]}
                for i, algs in enumerate(self.algs)
            ],
        }

    @classmethod
    def from_json(cls, data: dict) -> "CommutatorTable":
        entries = {}
        for rec in data["entries"]:
            key = np.array(rec["element"], dtype=np.uint8).tobytes()
            algs = []
            for setup, a, b in rec["algs"]:
                setup, a, b = tuple(setup), tuple(a), tuple(b)
                algs.append(Found(setup, a, b, _flat(setup, a, b)))
            entries[key] = algs
        return cls(entries)


def cache_path() -> Path:
    return data_dir() / "commutators" / f"table-v{TABLE_VERSION}.json"


def _valid(table: CommutatorTable) -> bool:
    """Every alg does what its element says (a damaged or edited file is rebuilt)."""
    flats, wanted = [], []
    for element, algs in zip(table.elements, table.algs):
        for f in algs:
            flats.append(f.flat)
            wanted.append(element)
    if not flats or not np.array_equal(sequence_elements(flats), np.array(wanted)):
        return False
    counts = table.counts()
    return counts == {"corner": 1008, "edge": 1760, "twist": 56, "flip": 66}


def load_or_search(progress=None, cancel_flag=None, log=None) -> CommutatorTable:
    """The table from the cache file if it is intact and made with these limits, else searched
    (and saved when the data directory is writable)."""
    path = cache_path()
    problem = None
    try:
        data = json.loads(path.read_text())
        if data.get("params") == PARAMS:
            table = CommutatorTable.from_json(data)
            if _valid(table):
                return table
            problem = "an alg does not do what the file says"
        else:
            problem = "made with other search limits"
    except FileNotFoundError:
        pass
    except (OSError, ValueError, KeyError, TypeError) as e:
        problem = f"unreadable ({e})"
    if problem and log is not None:
        log(f"searching the commutator table again: {problem}")
    table = CommutatorTable(search(PARAMS, progress, cancel_flag))
    if cancel_flag is not None and cancel_flag[0]:
        return table
    _save(path, table.to_json(PARAMS), log)
    return table


def _save(path: Path, data: dict, log) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".commutators.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w") as f:
                json.dump(data, f, separators=(",", ":"))
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except OSError as e:
        if log is not None:
            log(f"cannot save the commutator table in {path.parent}: {e.strerror or e}; "
                "it is kept in memory for this session")


if __name__ == "__main__":
    import time

    t = time.perf_counter()
    tab = load_or_search(log=print)
    print(f"{len(tab)} elements in {time.perf_counter() - t:.1f} s: {tab.counts()}")
    for kind in KINDS:
        idx = tab.of_kind(kind)
        if idx:
            f = tab.algs[idx[0]][0]
            print(f"{kind:>6}: mean {tab.mean_length(kind):.2f} moves, e.g. {f.notation()}"
                  f"  =  {f.flat_text()}")
