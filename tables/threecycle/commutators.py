"""The search that finds short commutators for every 3-cycle, pair twist and pair flip.

Everything here is found, not typed. 3-cycles: every pure commutator [A, B] with A a face-turn
sequence of up to five moves and B a single face turn is computed, and those moving exactly three
pieces kept. Pair twists and pair flips need a longer A that turns one piece of B's layer in place
and leaves the rest of that layer alone (then [A, B] turns just two pieces, the rule that
supports sharing one piece give a commutator of at most three); such A of up to eight moves are
met in the middle (two halves of four whose views of the U layer match), and the 48 symmetries
of the cube spread what they give. Conjugates [X: [A, B]] with one- or two-move setups reach
every remaining target. For each target element the search keeps the shortest algs after
cancellation (and a few near ties, so the solver can pick whichever cancels best with its
neighbours). It takes about ten seconds; cubelab.tables.threecycle.specs stores its result.

Elements are state rows of 40 bytes (cubelab.tables.cubies), products left to right.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cubelab.cube.moves import FACE_MOVES
from cubelab.cube.notation import Alg, Commutator, Conjugate, format_moves
from cubelab.cube.symmetry import move_conjugation

from ..cubies import move_rows
from ..sequences import cancel as cancel_moves
from ..sequences import (
    IDENTITY_ROW, canonical_levels, inverses, invert_seq, products, sequence_elements,
)

KINDS = ("corner", "edge", "twist", "flip")
"""corner / edge: an oriented 3-cycle of that piece type; twist / flip: two pieces turned in
place."""
COUNTS = {"corner": 1008, "edge": 1760, "twist": 56, "flip": 66}
"""How many elements of each kind there are (all of them are reached)."""


class Stopped(Exception):
    """The search saw its cancel flag raised."""


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


def flat_moves(setup, a, b) -> tuple[int, ...]:
    """The moves of [setup: [a, b]] written out, after cancellation."""
    return cancel_moves(setup + a + b + invert_seq(a) + invert_seq(b) + invert_seq(setup))


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


def _pure_commutators(pool, cancel) -> list[tuple]:
    """(a, b) pairs with a from the pool and b a single face turn whose commutator is a
    3-cycle (both [a, b] and [b, a] are kept). Every pair is tried: supports that share one
    piece always give at most three moved pieces, but many shorter 3-cycles come from supports
    that share more. An a that starts on b's face or ends on b's axis is left out: that
    commutator is a conjugate or a shorter one in disguise, and reads better written as one."""
    moves = move_rows("htm")
    found = []
    for seqs, elems in pool:
        first_face = seqs[:, 0] // 3
        last_axis = seqs[:, -1] // 3 % 3
        inv = inverses(elems)
        for h in range(18):
            if cancel[0]:
                raise Stopped()
            ok = (first_face != h // 3) & (last_axis != h // 3 % 3)
            g, gi, s = elems[ok], inv[ok], seqs[ok]
            comm = products(products(products(g, moves[h]), gi), inverses(moves[h]))
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


def _in_place_inserts(half: int, cancel) -> list[tuple[int, ...]]:
    """Sequences A = A1 A2 (each part up to `half` moves) that leave the U layer as it was but
    for one piece turned in place: URF twisted either way or UF flipped. Met in the middle: A1
    must show the U layer as (turn) * A2^-1 does."""
    levels = canonical_levels(range(18), half, cancel)
    if cancel[0]:
        raise Stopped()
    seqs = [()] + [tuple(int(m) for m in row) for sq, _ in levels for row in sq]
    elems = np.concatenate([IDENTITY_ROW[None]] + [e for _, e in levels])
    by_view: dict[bytes, list[int]] = {}
    for i, row in enumerate(_u_layer_view(elems)):
        by_view.setdefault(row.tobytes(), []).append(i)
    inverse_elems = inverses(elems)
    found = set()
    for column, value in ((8, 1), (8, 2), (29, 1)):      # twist URF +, twist URF -, flip UF
        if cancel[0]:
            raise Stopped()
        turn = IDENTITY_ROW.copy()
        turn[column] = value
        for j, row in enumerate(_u_layer_view(products(turn, inverse_elems))):
            for i in by_view.get(row.tobytes(), ()):
                a = cancel_moves(seqs[i] + seqs[j])
                if a:
                    found.add(a)
    return sorted(found, key=lambda a: (len(a), a))


def _in_place_commutators(half: int, cancel, per_kind: int = 400) -> list[tuple]:
    """Pair twists and pair flips: [A, B] with A an in-place insert and B a U-layer turn. Only
    the shortest of each kind are kept (at most per_kind): symmetry spreads them afterwards."""
    inserts = _in_place_inserts(half, cancel)
    if not inserts:
        return []
    elems = sequence_elements(inserts)
    moves = move_rows("htm")
    by_kind: dict[str, list[tuple]] = {}
    for h in (0, 1, 2):
        comm = products(products(products(elems, moves[h]), inverses(elems)), inverses(moves[h]))
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


def search(params: dict, progress=None, cancel=None) -> dict[bytes, list[Found]]:
    """Run the whole search with the limits in `params` (insert_max, in_place_half, setup_max,
    near_ties, keep): element bytes -> algs, shortest first. progress(done, 5) after each stage;
    Stopped soon after cancel (an int32[1] flag) is raised."""
    cancel = cancel if cancel is not None else np.zeros(1, np.int32)

    def report(done):
        if cancel[0]:
            raise Stopped()
        if progress is not None:
            progress(done, 5)

    best = _Best(params["near_ties"], params["keep"])
    pure: dict[bytes, list[Found]] = {}

    report(0)
    pool = canonical_levels(range(18), params["insert_max"], cancel)
    pairs = set(_pure_commutators(pool, cancel))
    report(1)
    pairs |= _spread_by_symmetry(_in_place_commutators(params["in_place_half"], cancel))
    report(2)
    founds = [Found((), a, b, flat_moves((), a, b)) for a, b in sorted(pairs)]
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
            if cancel[0]:
                raise Stopped()
            setup = tuple(int(m) for m in x)
            conj = products(products(xe, base), inverses(xe))
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
                best.offer(key, Found(setup, f.a, f.b, flat_moves(setup, f.a, f.b)))
    report(4)
    table = {}
    for key, bucket in best.algs.items():
        table[key] = sorted(bucket.values(), key=lambda f: (len(f.flat), len(f.setup), f.flat))
    report(5)
    return table
