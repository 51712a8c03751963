"""Every face-turn sequence of up to L moves that is a corner or an edge 3-cycle, or a parity
element (a corner 2-swap with an edge 2-swap), found by search.

An insertion finder is only as good as its algorithms: a cuber's list of commutators misses the
sequences that happen to cancel best with a given skeleton. So the alg sets here are not lists
but *every* canonical sequence (cubelab.tables.cubies.allowed_after: no face twice in a row,
opposite faces in one order) of up to `max_len` face turns whose effect is one oriented 3-cycle
of corners (edges untouched) or of edges (corners untouched), or (for skeletons that leave
parity) that swaps two corners and two edges and moves nothing else; an insertion found with
them is the best among all insertions of algs up to that length, not merely among those of a
list.

How: meet in the middle. Every canonical sequence of length l splits once as P Q with
|P| = ceil(l/2) and the seam canonical, so for a target element g its sequences are the pairs
with P = g Q^-1: the canonical sequences up to ceil(L/2) are enumerated once (about 620,000 for
L = 10), each level hashed (Zobrist over the 40 bytes, matches checked byte by byte), and
one pass over the Q side per length finds every P. Targets come in classes under the cube's 48
symmetries: one target per class is searched and its sequences carried to the others by
renaming their moves (then put back in canonical order), so about 70 searches cover the 2,768
3-cycles and about 150 the 11,088 parity elements; the classes are shared among threads. The
3-cycles are a few seconds' search; the parity algs, which need 11 moves (halves of 6: 8.3
million sequences, 1.3 GB), a minute or two. cubelab.tables.insertions.specs stores both.

Rows are state rows of 40 bytes (cubelab.tables.cubies), products reading left to right.
"""

from __future__ import annotations

import itertools

import numpy as np

from cubelab.cube.state import CubeState
from cubelab.cube.symmetry import conjugate_all, move_conjugation
from cubelab.tables.jit import kernel

from ..cubies import follows_table, move_rows, multiply
from ..sequences import IDENTITY_ROW, canonical_levels, inverses, sequence_elements

KINDS = ("corners", "edges")
"""The 3-cycle kinds. corners: an oriented 3-cycle of corners, edges untouched; edges: the other
way round."""
PARITY = "parity"
"""One corner 2-swap and one edge 2-swap, nothing else moved (pieces twisted or flipped within
the swaps allowed): what an odd skeleton (a quarter turn too many) needs once."""
ALL_KINDS = KINDS + (PARITY,)
"""Every kind of alg set, in the order of the kind byte of a stored row."""
TARGET_COUNTS = {"corners": 1008, "edges": 1760, PARITY: 28 * 3 * 66 * 2}
"""56 corner triples x 2 directions x 9 twists; 220 edge triples x 2 directions x 4 flips;
28 corner pairs x 3 twists x 66 edge pairs x 2 flips."""


class Stopped(Exception):
    """The search saw its cancel flag raised."""


# ---- the targets ----------------------------------------------------------------------------

def three_cycle_rows(kind: str) -> np.ndarray:
    """Every oriented 3-cycle of the kind as a state row, in a fixed order."""
    n, mod, p, o = (8, 3, 0, 8) if kind == "corners" else (12, 2, 16, 28)
    rows = []
    for a, b, c in itertools.combinations(range(n), 3):
        for cycle in ((a, b, c), (a, c, b)):
            for turns in itertools.product(range(mod), repeat=2):
                row = IDENTITY_ROW.copy()
                # the piece in slot cycle[k] comes from slot cycle[k+1]
                for k in range(3):
                    row[p + cycle[k]] = cycle[(k + 1) % 3]
                t = list(turns) + [(-sum(turns)) % mod]
                for k in range(3):
                    row[o + cycle[k]] = t[k]
                rows.append(row)
    return np.array(rows, dtype=np.uint8)


def parity_rows() -> np.ndarray:
    """Every corner 2-swap with every edge 2-swap as a state row: the twists (t, -t) and flips
    (f, f) of the swapped pieces sum to nothing, as in every position of the cube."""
    rows = []
    for a, b in itertools.combinations(range(8), 2):
        for t in range(3):
            for x, y in itertools.combinations(range(12), 2):
                for f in range(2):
                    row = IDENTITY_ROW.copy()
                    row[a], row[b], row[8 + a], row[8 + b] = b, a, t, (3 - t) % 3
                    row[16 + x], row[16 + y], row[28 + x], row[28 + y] = y, x, f, f
                    rows.append(row)
    return np.array(rows, dtype=np.uint8)


def target_rows(kind: str) -> np.ndarray:
    """Every element an alg of the kind may perform, as state rows."""
    return parity_rows() if kind == PARITY else three_cycle_rows(kind)


def kind_of(row: np.ndarray) -> str | None:
    """'corners' or 'edges' when the row is an oriented 3-cycle of that kind, 'parity' when it
    is one corner 2-swap and one edge 2-swap, else None."""
    row = np.asarray(row)
    c_moved = int(((row[0:8] != np.arange(8)) | (row[8:16] != 0)).sum())
    e_moved = int(((row[16:28] != np.arange(12)) | (row[28:40] != 0)).sum())
    c_cycled = int((row[0:8] != np.arange(8)).sum())
    e_cycled = int((row[16:28] != np.arange(12)).sum())
    if e_moved == 0 and c_moved == 3 and c_cycled == 3:
        return "corners"
    if c_moved == 0 and e_moved == 3 and e_cycled == 3:
        return "edges"
    if c_moved == c_cycled == 2 and e_moved == e_cycled == 2:
        return PARITY
    return None


# ---- meet in the middle -----------------------------------------------------------------------

def zobrist() -> np.ndarray:
    rng = np.random.default_rng(0x1D5E27)
    return rng.integers(0, 2 ** 63, size=(40, 24), dtype=np.int64).astype(np.uint64)


@kernel
def row_hashes(elems, z):
    out = np.zeros(elems.shape[0], dtype=np.uint64)
    for r in range(elems.shape[0]):
        h = np.uint64(0)
        for i in range(40):
            h ^= z[i, elems[r, i]]
        out[r] = h
    return out


BUCKET_BITS = 20
"""Top bits of a hash that index a level's bucket starts (8 MB of starts a level)."""


@kernel
def _meet(g, q_inv, q_first, p_elems, p_last, p_sorted_hash, p_order, p_buckets, follows, z,
          out):
    """For each Q (its inverse's row in q_inv), the P of the other level with P = g Q^-1 and
    a canonical seam; writes (p index, q index) pairs into out, returns how many (-1: out is
    too small). p_buckets[b] is where the hashes whose top bits are b start (see _buckets):
    one read instead of a binary search over millions of hashes."""
    n = 0
    need = np.empty(40, dtype=np.uint8)
    shift = np.uint64(64 - BUCKET_BITS)
    for q in range(q_inv.shape[0]):
        multiply(g, q_inv[q], need)     # need = g Q^-1
        h = np.uint64(0)
        for i in range(40):
            h ^= z[i, need[i]]
        k = p_buckets[h >> shift]
        while k < p_sorted_hash.shape[0] and p_sorted_hash[k] < h:
            k += 1
        while k < p_sorted_hash.shape[0] and p_sorted_hash[k] == h:
            p = p_order[k]
            k += 1
            if q_first[q] >= 0 and p_last[p] >= 0 and not follows[p_last[p], q_first[q]]:
                continue
            same = True
            for i in range(40):
                if p_elems[p, i] != need[i]:
                    same = False
                    break
            if same:
                if n >= out.shape[0]:
                    return -1
                out[n, 0] = p
                out[n, 1] = q
                n += 1
    return n


def _buckets(sorted_hash: np.ndarray) -> np.ndarray:
    """For each value b of a hash's top BUCKET_BITS bits, the first index of sorted_hash whose
    hash has top bits >= b (one more entry, the end)."""
    tops = np.arange(1 << BUCKET_BITS, dtype=np.uint64) << np.uint64(64 - BUCKET_BITS)
    return np.r_[np.searchsorted(sorted_hash, tops), len(sorted_hash)].astype(np.int64)


class _Levels:
    """The canonical sequences of each length 0..half, their rows, hashes and seams."""

    def __init__(self, half: int, cancel):
        self.z = zobrist()
        self.follows = follows_table().astype(np.bool_)
        levels = [(np.zeros((1, 0), np.int8), IDENTITY_ROW[None].copy())]
        levels += canonical_levels(range(18), half, cancel)
        if cancel is not None and cancel[0]:
            raise Stopped()
        self.seqs = [s for s, _ in levels]
        self.elems = [np.ascontiguousarray(e) for _, e in levels]
        self.inv = [inverses(e) for e in self.elems]
        self.first = [s[:, 0].astype(np.int64) if s.shape[1] else np.full(1, -1, np.int64)
                      for s in self.seqs]
        self.last = [s[:, -1].astype(np.int64) if s.shape[1] else np.full(1, -1, np.int64)
                     for s in self.seqs]
        self.hash = []
        self.order = []
        self.buckets = []
        for e in self.elems:
            h = row_hashes(e, self.z)
            order = np.argsort(h, kind="stable")
            self.hash.append(np.ascontiguousarray(h[order]))
            self.order.append(order.astype(np.int64))
            self.buckets.append(_buckets(self.hash[-1]))

    def sequences_of(self, g: np.ndarray, max_len: int, min_len: int = 1) -> list[np.ndarray]:
        """For each length min_len..max_len, an (N, length) int8 array of every canonical
        sequence of that length whose effect is g."""
        out = []
        g = np.ascontiguousarray(g, dtype=np.uint8)
        for length in range(min_len, max_len + 1):
            i, j = (length + 1) // 2, length // 2
            buf = np.empty((1 << 16, 2), np.int64)
            while True:
                n = _meet(g, self.inv[j], self.first[j], self.elems[i], self.last[i],
                          self.hash[i], self.order[i], self.buckets[i], self.follows, self.z,
                          buf)
                if n >= 0:
                    break
                buf = np.empty((buf.shape[0] * 4, 2), np.int64)
            pairs = buf[:n]
            seqs = np.concatenate([self.seqs[i][pairs[:, 0]], self.seqs[j][pairs[:, 1]]], 1)
            out.append(seqs.astype(np.int8))
        return out


# ---- symmetry -----------------------------------------------------------------------------------

def canonical_order(seqs: np.ndarray) -> np.ndarray:
    """Rows of move indices with each adjacent opposite-face pair in the canonical order
    (U before D, R before L, F before B); a renamed canonical sequence has no same-face pair,
    so one swap per pair suffices."""
    seqs = seqs.copy()
    for c in range(seqs.shape[1] - 1):
        a, b = seqs[:, c].astype(np.int64), seqs[:, c + 1].astype(np.int64)
        swap = ((a // 3) % 3 == (b // 3) % 3) & (a // 3 > b // 3)
        seqs[swap, c], seqs[swap, c + 1] = b[swap], a[swap]
    return seqs


def search(max_len: dict, progress=None, cancel=None, threads: int | None = None
           ) -> dict[str, dict[bytes, np.ndarray]]:
    """{kind: {target row bytes: (N, max_len) int8 sequences padded with -1, shortest first}}
    for every element of each kind (target_rows), with every canonical sequence of up to
    max_len[kind] moves. One target per class (48 symmetries and the inverse) is searched, the
    classes shared among `threads` threads (the meeting kernel runs without the GIL; default:
    the cores this process may use). progress(done, total) as classes are searched; Stopped
    soon after cancel."""
    import os
    from concurrent.futures import ThreadPoolExecutor
    cancel = cancel if cancel is not None else np.zeros(1, np.int32)
    threads = threads or max(1, min(4, len(os.sched_getaffinity(0))))
    levels = _Levels((max(max_len.values()) + 1) // 2, cancel)
    mc = move_conjugation().astype(np.int64)
    reps = {k: _class_representatives(target_rows(k)) for k in max_len}
    total = sum(len(r) for r in reps.values())
    done = [0]

    def one_class(kind: str, row: np.ndarray) -> np.ndarray:
        if cancel[0]:
            raise Stopped()
        by_len = levels.sequences_of(row, max_len[kind])
        found = np.full((sum(len(s) for s in by_len), max_len[kind]), -1, np.int8)
        at = 0
        for s in by_len:
            found[at:at + len(s), :s.shape[1]] = s
            at += len(s)
        done[0] += 1
        if progress is not None:
            progress(done[0], total)
        return found

    out: dict[str, dict[bytes, np.ndarray]] = {}
    with ThreadPoolExecutor(threads, thread_name_prefix="insertion-algs") as pool:
        for kind, rows in reps.items():
            table: dict[bytes, np.ndarray] = {}
            for row, found in zip(rows, pool.map(lambda r, k=kind: one_class(k, r), rows)):
                # carry the class's sequences to every symmetric target and their inverses
                for inverse in (False, True):
                    seqs = _inverted(found) if inverse else found
                    images = _conjugates(_inverse_row(row) if inverse else row)
                    for k in range(48):
                        key = images[k].tobytes()
                        if key in table:
                            continue
                        mapped = np.where(seqs >= 0, mc[k][np.maximum(seqs, 0)], -1)
                        table[key] = _sorted_canonical(mapped.astype(np.int8))
            out[kind] = table
    return out


def _class_representatives(rows: np.ndarray) -> list[np.ndarray]:
    """One row of each class of the rows under the 48 symmetries and inversion, in order."""
    seen: set[bytes] = set()
    reps = []
    for row in rows:
        if row.tobytes() in seen:
            continue
        reps.append(row)
        for image in (row, _inverse_row(row)):
            seen.update(c.tobytes() for c in _conjugates(image))
    return reps


def _conjugates(row: np.ndarray) -> np.ndarray:
    """S_k row S_k^-1 for the 48 symmetries k, as rows (the order of move_conjugation)."""
    state = CubeState(row[0:8], row[8:16], row[16:28], row[28:40])
    return np.concatenate(conjugate_all(state)[:4], axis=-1).astype(np.uint8)


def _inverse_row(row: np.ndarray) -> np.ndarray:
    return inverses(row)[0]


def _inverted(seqs: np.ndarray) -> np.ndarray:
    """Each padded sequence reversed with each turn inverted (still padded at the end)."""
    out = np.full_like(seqs, -1)
    for r, s in enumerate(seqs):
        moves = s[s >= 0].astype(np.int64)[::-1]
        out[r, :len(moves)] = 3 * (moves // 3) + 2 - moves % 3
    return out


def _sorted_canonical(seqs: np.ndarray) -> np.ndarray:
    lengths = (seqs >= 0).sum(1)
    fixed = np.full_like(seqs, -1)
    for n in np.unique(lengths):
        rows = lengths == n
        fixed[rows, :n] = canonical_order(seqs[rows, :n])
    order = np.lexsort(fixed.T[::-1].astype(np.int64) + 1)
    order = order[np.argsort(lengths[order], kind="stable")]
    return fixed[order]


def check_sequences(row: np.ndarray, seqs: np.ndarray) -> bool:
    """Whether every (padded) sequence has the row as its effect (for tests and spot checks)."""
    got = sequence_elements([tuple(int(m) for m in s if m >= 0) for s in seqs])
    return bool((got == row[None]).all())
