"""Algorithm search: every canonical move sequence up to N moves whose effect meets a predicate.

A predicate names slots whose content is fixed (the pieces that must stay home, or the parts of
a target position that matter) and then a final test on the whole effect (a pure 3-cycle, not a
mere U turn...). The fixed slots make a meet in the middle possible: a sequence X Y has effect
P = X Y, and P agrees with the target T on slot i exactly when Y agrees with X^-1 T there. So
the second halves Y are listed once per length with a hash of their fixed slots, sorted, and a
depth-first walk over the first halves X looks each X^-1 T up: about 2 * 13.3^(N/2) steps
instead of 13.3^N. Every canonical sequence (no face turned twice in a row, opposite faces in
one order, in QTM a half turn counted as two quarters) splits into X and Y in exactly one way,
so each is found once. Results stream one per class of effects up to the 48 symmetries and
inversion (the TIPE's morph classes), shortest lengths first.

No Textual here: the command line and the TUI's `:search` drive `search()` from a thread,
read the shared counters and raise the cancel flag.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable

import numpy as np

from cubelab.cube.facts import corner_cycles, edge_cycles
from cubelab.cube.moves import FACE_MOVES, move_state
from cubelab.cube.notation import Move, format_moves, metric_lengths
from cubelab.cube.pieces import CORNER_NAMES, EDGE_NAMES, corner_slot, edge_slot
from cubelab.cube.state import CubeState, permutation_cycles
from cubelab.cube.symmetry import morph
from cubelab.solvers.protocol import BEST, BOUND, NODES, SOLUTIONS, new_cancel, new_counters
from cubelab.tables.classkeys import KEY_BITS, canonicalize, encode
from cubelab.tables.cubies import invert, state_row, symmetry_rows

from numba import njit

MAX_TABLE_ENTRIES = 60_000_000
"""Second halves kept at once (16 bytes each): ~1 GB, i.e. up to 12 HTM or 14 QTM."""

# Final tests on the whole effect, after the fixed slots matched.
ANY, CORNER_3CYCLE, EDGE_3CYCLE = 0, 1, 2
# How a slot is fixed: not at all, its piece, its piece and orientation.
FREE, PIECE, PIECE_AND_ORIENTATION = 0, 1, 2


# ---- predicates ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Predicate:
    """What the effect of a sequence must satisfy.

    corners[i] / edges[i] say how slot i is fixed (FREE, PIECE, PIECE_AND_ORIENTATION) to the
    content the target state has there; `test` is a final check (ANY or a pure 3-cycle) and
    effects in `excluded` are dropped (the identity, a plain U turn...)."""

    name: str
    description: str
    corners: tuple[int, ...]
    edges: tuple[int, ...]
    target: CubeState = field(default_factory=CubeState.identity)
    test: int = ANY
    excluded: tuple[CubeState, ...] = ()

    def accepts(self, effect: CubeState) -> bool:
        """The predicate on one effect, in plain Python (the kernels do the same)."""
        t = self.target
        for i, how in enumerate(self.corners):
            if how and (effect.cp[i] != t.cp[i] or (how == 2 and effect.co[i] != t.co[i])):
                return False
        for i, how in enumerate(self.edges):
            if how and (effect.ep[i] != t.ep[i] or (how == 2 and effect.eo[i] != t.eo[i])):
                return False
        if any(effect.key() == e.key() for e in self.excluded):
            return False
        if self.test == CORNER_3CYCLE:
            return _moved(effect.cp) == 3 and not effect.co.any()
        if self.test == EDGE_3CYCLE:
            return _moved(effect.ep) == 3 and not effect.eo.any()
        return True


def _moved(perm) -> int:
    return int((np.asarray(perm) != np.arange(len(perm))).sum())


_FIXED = PIECE_AND_ORIENTATION
_U_CORNERS = (0, 1, 2, 3)
_U_EDGES = (0, 1, 2, 3)


def last_layer() -> Predicate:
    """Only the U layer changes (the TIPE's ALGr), and the effect is not a mere U turn."""
    corners = tuple(0 if i in _U_CORNERS else _FIXED for i in range(8))
    edges = tuple(0 if i in _U_EDGES else _FIXED for i in range(12))
    u = move_state(Move("U", 1))
    return Predicate("ll", "only the U layer changes (not a U turn)", corners, edges,
                     excluded=tuple(u.power(k) for k in range(4)))


def parse_pieces(names: Iterable[str]) -> tuple[set[int], set[int]]:
    """Corner and edge slots named like 'UFR', 'FU' (commas or spaces between names)."""
    corners, edges = set(), set()
    for word in names:
        for name in word.replace(",", " ").split():
            try:
                if len(name) == 3:
                    corners.add(corner_slot(name))
                elif len(name) == 2:
                    edges.add(edge_slot(name))
                else:
                    raise KeyError(name)
            except KeyError:
                raise ValueError(f"no piece named {name!r} (corners like UFR, edges like UF)") \
                    from None
    return corners, edges


def only_pieces(names: Iterable[str]) -> Predicate:
    """Only the named pieces move (or twist, or flip); every other piece stays home."""
    corners, edges = parse_pieces(names)
    if not corners and not edges:
        raise ValueError("name at least one piece that may move")
    listing = " ".join([CORNER_NAMES[i] for i in sorted(corners)] +
                       [EDGE_NAMES[i] for i in sorted(edges)])
    return Predicate("only", f"only {listing} move",
                     tuple(0 if i in corners else _FIXED for i in range(8)),
                     tuple(0 if i in edges else _FIXED for i in range(12)),
                     excluded=(CubeState.identity(),))


def corner_3cycle() -> Predicate:
    """A pure 3-cycle of corners: edges untouched, three corners cycled, nothing twisted."""
    return Predicate("corner-3cycle", "a pure 3-cycle of corners", (0,) * 8, (_FIXED,) * 12,
                     test=CORNER_3CYCLE)


def edge_3cycle() -> Predicate:
    """A pure 3-cycle of edges: corners untouched, three edges cycled, nothing flipped."""
    return Predicate("edge-3cycle", "a pure 3-cycle of edges", (_FIXED,) * 8, (0,) * 12,
                     test=EDGE_3CYCLE)


def orients() -> Predicate:
    """Orients without permuting: every piece stays in its slot, some twist or flip."""
    return Predicate("orient", "twists or flips without permuting", (PIECE,) * 8, (PIECE,) * 12,
                     excluded=(CubeState.identity(),))


def equals(target: CubeState, ignore: Iterable[str] = ()) -> Predicate:
    """The effect equals the target, except on the pieces named in `ignore` (a partial
    position: those pieces may end anywhere)."""
    target = target.normalized()
    corners, edges = parse_pieces(ignore)
    what = "equals the position" + (f" (ignoring {' '.join(ignore)})" if corners or edges else "")
    return Predicate("equals", what,
                     tuple(0 if i in corners else _FIXED for i in range(8)),
                     tuple(0 if i in edges else _FIXED for i in range(12)), target=target)


PREDICATES = {
    "ll": "only the U layer changes (the TIPE's ALGr; U turns themselves excluded)",
    "only PIECE...": "only the named pieces move, e.g. only UFR URB UBL",
    "corner-3cycle": "a pure 3-cycle of corners",
    "edge-3cycle": "a pure 3-cycle of edges",
    "orient": "twists and/or flips pieces without permuting any",
    "equals ALG": "the effect equals a position (--ignore pieces for a partial one)",
}


def parse_predicate(words: list[str], ignore: Iterable[str] = ()) -> Predicate:
    """A predicate from words as typed: 'll', 'only UFR UF', 'corner-3cycle', 'edge-3cycle',
    'orient', 'equals R U R' U'' or 'equals facelets: ...'. ValueError says what is wrong."""
    if not words:
        raise ValueError("name a predicate: " + ", ".join(PREDICATES))
    head, rest = words[0].lower(), words[1:]
    if head in ("ll", "last-layer", "algr") and not rest:
        return last_layer()
    if head == "only":
        return only_pieces(rest)
    if head in ("corner-3cycle", "corner3", "c3") and not rest:
        return corner_3cycle()
    if head in ("edge-3cycle", "edge3", "e3") and not rest:
        return edge_3cycle()
    if head in ("orient", "orients") and not rest:
        return orients()
    if head == "equals":
        from cubelab.cube.positions import PositionError, parse_position
        try:
            target = parse_position(" ".join(rest)).state
        except PositionError as e:
            raise ValueError(str(e)) from None
        from cubelab.cube.facts import unreachable_reason
        reason = unreachable_reason(target)
        if reason:
            raise ValueError(f"no sequence reaches that position ({reason})")
        return equals(target, ignore)
    raise ValueError(f"unknown predicate {' '.join(words)!r}; choose from " + ", ".join(PREDICATES))


# ---- metrics and canonical sequences ------------------------------------------------------

def move_costs(metric: str) -> np.ndarray:
    if metric == "htm":
        return np.ones(18, np.int64)
    if metric == "qtm":
        return np.array([2 if m.amount == 2 else 1 for m in FACE_MOVES], np.int64)
    raise ValueError(f"unknown metric {metric!r} (choose htm or qtm)")


def follows() -> np.ndarray:
    """follows[p, m]: move m may come right after move p in a canonical sequence (a different
    face, and of two opposite faces U before D, R before L, F before B). Row 18: no move yet."""
    ok = np.ones((19, 18), np.uint8)
    for p in range(18):
        for m in range(18):
            fp, fm = p // 3, m // 3
            ok[p, m] = fp != fm and not (fp % 3 == fm % 3 and fm < fp)
    return ok


def sequence_counts(metric: str, max_cost: int) -> list[int]:
    """How many canonical sequences have each total cost 0..max_cost."""
    cost, ok = move_costs(metric), follows()
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
    return _Tables(
        np.stack([state_row(move_state(m)) for m in FACE_MOVES]),
        np.stack([state_row(move_state(m.inverse())) for m in FACE_MOVES]),
        move_costs(metric), follows(), fixed, state_row(predicate.target), predicate.test,
        excluded)


# ---- kernels --------------------------------------------------------------------------------

@njit(cache=True, nogil=True)
def _times(a, b, out):
    """out = a then b (rows of 40)."""
    for i in range(8):
        j = b[i]
        out[i] = a[j]
        out[8 + i] = (a[8 + j] + b[8 + i]) % 3
    for i in range(12):
        j = b[16 + i]
        out[16 + i] = a[16 + j]
        out[28 + i] = a[28 + j] ^ b[28 + i]


@njit(cache=True, nogil=True)
def _hash(row, fixed):
    """A 64-bit hash of the fixed entries of a row."""
    h = np.uint64(0xCBF29CE484222325)
    for i in range(40):
        if fixed[i]:
            h = (h ^ np.uint64(row[i] + 1 + (i << 3))) * np.uint64(0x100000001B3)
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xFF51AFD7ED558CCD)
    h ^= h >> np.uint64(33)
    return h


@njit(cache=True, nogil=True)
def _accepts(p, fixed, target, test, excluded):
    for i in range(40):
        if fixed[i] and p[i] != target[i]:
            return False
    for r in range(excluded.shape[0]):
        same = True
        for i in range(40):
            if p[i] != excluded[r, i]:
                same = False
                break
        if same:
            return False
    if test == 1 or test == 2:
        base, n, ori = (0, 8, 8) if test == 1 else (16, 12, 28)
        moved = 0
        for i in range(n):
            if p[base + i] != i:
                moved += 1
            if p[ori + i] != 0:
                return False
        return moved == 3
    return True


@njit(cache=True, nogil=True)
def _halves(cost_wanted, moves, cost, follows, fixed, keys, seqs):
    """Every canonical sequence of total cost `cost_wanted`: the hash of its effect's fixed
    entries, and the sequence packed 5 bits a move (move + 1, first move lowest). Returns the
    number written."""
    depth_max = cost_wanted + 1
    states = np.zeros((depth_max + 1, 40), np.uint8)
    for i in range(8):
        states[0, i] = i
    for i in range(12):
        states[0, 16 + i] = i
    chosen = np.full(depth_max + 1, -1, np.int64)
    spent = np.zeros(depth_max + 1, np.int64)
    packed = np.zeros(depth_max + 1, np.uint64)
    n = 0
    if cost_wanted == 0:
        keys[0] = _hash(states[0], fixed)
        seqs[0] = 0
        return 1
    d = 0
    while d >= 0:
        chosen[d] += 1
        m = chosen[d]
        if m >= 18:
            chosen[d] = -1
            d -= 1
            continue
        last = 18 if d == 0 else chosen[d - 1]
        c = spent[d] + cost[m]
        if not follows[last, m] or c > cost_wanted:
            continue
        _times(states[d], moves[m], states[d + 1])
        spent[d + 1] = c
        packed[d + 1] = packed[d] | (np.uint64(m + 1) << np.uint64(5 * d))
        if c == cost_wanted:
            keys[n] = _hash(states[d + 1], fixed)
            seqs[n] = packed[d + 1]
            n += 1
        else:
            d += 1
            chosen[d] = -1
    return n


@njit(cache=True, nogil=True)
def _play(seq, moves, out, tmp):
    for i in range(8):
        out[i] = i
        out[8 + i] = 0
    for i in range(12):
        out[16 + i] = i
        out[28 + i] = 0
    s = seq
    while s:
        m = np.int64(s & np.uint64(31)) - 1
        _times(out, moves[m], tmp)
        out[:] = tmp
        s >>= np.uint64(5)


@njit(cache=True, nogil=True)
def _join(first, a, moves, inverses, cost, follows, fixed, target, test, excluded, sym, sides,
          keys_b, seqs_b, keys_b1, seqs_b1, halves_ok, out_x, out_y, out_cls, counters, cancel):
    """Walk the first halves X that start with move `first` (all of them if first < 0, which
    only the empty half allows): X of cost a pairs with second halves of cost b (keys_b), X of
    cost a + 1 ending in a half turn with those of cost b - 1 (keys_b1, QTM). Writes matching
    (X, Y) packed pairs and the class of their effect (see _class_of); returns their number,
    -1 if cancelled, -2 if out_x is full."""
    depth_max = a + 2
    xs = np.zeros((depth_max + 1, 40), np.uint8)     # X
    zs = np.zeros((depth_max + 1, 40), np.uint8)     # X^-1 target
    for i in range(40):
        zs[0, i] = target[i]
    for i in range(8):
        xs[0, i] = i
    for i in range(12):
        xs[0, 16 + i] = i
    chosen = np.full(depth_max + 1, -1, np.int64)
    spent = np.zeros(depth_max + 1, np.int64)
    packed = np.zeros(depth_max + 1, np.uint64)
    work = np.empty((6, 40), np.uint8)
    found = 0
    leaves = 0
    d = 0
    if first < 0:
        # only the empty first half: look it up directly
        found = _lookup(xs[0], zs[0], 18, np.uint64(0), moves, follows, fixed, target, test,
                        excluded, sym, sides, keys_b, seqs_b, out_x, out_y, out_cls, found, work)
        if found < 0:
            return -2
        counters[0] += 1
        return found
    while d >= 0:
        chosen[d] += 1
        m = chosen[d]
        if d == 0 and m != first:
            if m > first:
                break
            continue
        if m >= 18:
            chosen[d] = -1
            d -= 1
            continue
        last = 18 if d == 0 else chosen[d - 1]
        c = spent[d] + cost[m]
        if not follows[last, m] or c > a + 1:
            continue
        if c == a + 1 and cost[m] != 2:
            continue
        _times(xs[d], moves[m], xs[d + 1])
        # (X m)^-1 T = m^-1 (X^-1 T): multiply on the left
        _times(inverses[m], zs[d], zs[d + 1])
        spent[d + 1] = c
        packed[d + 1] = packed[d] | (np.uint64(m + 1) << np.uint64(5 * d))
        if c >= a:
            leaves += 1
            if c == a:
                found = _lookup(xs[d + 1], zs[d + 1], m, packed[d + 1], moves, follows, fixed,
                                target, test, excluded, sym, sides, keys_b, seqs_b, out_x,
                                out_y, out_cls, found, work)
            elif halves_ok:
                found = _lookup(xs[d + 1], zs[d + 1], m, packed[d + 1], moves, follows, fixed,
                                target, test, excluded, sym, sides, keys_b1, seqs_b1, out_x,
                                out_y, out_cls, found, work)
            if found < 0:
                return -2
            if leaves & 4095 == 0:
                counters[0] += 4096
                if cancel[0]:
                    return -1
        else:
            d += 1
            chosen[d] = -1
    counters[0] += leaves & 4095
    return found


@njit(cache=True, nogil=True)
def _lookup(x, z, last, xseq, moves, follows, fixed, target, test, excluded, sym, sides, keys,
            seqs, out_x, out_y, out_cls, found, work):
    y, tmp, p = work[0], work[1], work[2]
    h = _hash(z, fixed)
    lo = np.searchsorted(keys, h)
    while lo < keys.shape[0] and keys[lo] == h:
        yseq = seqs[lo]
        lo += 1
        if yseq:
            head = np.int64(yseq & np.uint64(31)) - 1
            if not follows[last, head]:
                continue
        _play(yseq, moves, y, tmp)
        _times(x, y, p)
        if not _accepts(p, fixed, target, test, excluded):
            continue
        if found >= out_x.shape[0]:
            return -1
        out_x[found] = xseq
        out_y[found] = yseq
        bucket, key = _class_of(p, sym, sides, work)
        out_cls[found, 0] = bucket
        out_cls[found, 1] = key
        found += 1
    return found


@njit(cache=True, nogil=True)
def _class_of(p, sym, sides, work):
    """The least (bucket, key) of the canonical forms of s p s' over the rows s, s' of `sides`
    (the identity alone, or the four U turns when classes ignore AUF)."""
    left, q, qinv, best = work[3], work[4], work[5], work[1]
    best_bucket, best_key = np.int64(1) << 62, np.uint64(0)
    for i in range(sides.shape[0]):
        _times(sides[i], p, left)
        for j in range(sides.shape[0]):
            _times(left, sides[j], q)
            invert(q, qinv)
            a, b = canonicalize(q, qinv, sym, best)
            bucket, key = encode(best, a, b)
            key &= np.uint64((1 << KEY_BITS) - 1)
            if bucket < best_bucket or (bucket == best_bucket and key < best_key):
                best_bucket, best_key = bucket, key
    return best_bucket, best_key


# ---- results ----------------------------------------------------------------------------------

def unpack(xseq: int, yseq: int) -> list[Move]:
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
            written = _halves(c, t.moves, t.cost, t.follows, t.fixed, keys, seqs)
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
                n = _join(first, a, t.moves, t.inverses, t.cost, t.follows, t.fixed, t.target,
                          t.test, t.excluded, sym, sides, keys_b, seqs_b, keys_b1, seqs_b1,
                          metric == "qtm", out_x, out_y, out_cls, kcounter, cancel)
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
                    effect = _effect(moves)
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


def _effect(moves: list[Move]) -> CubeState:
    state = CubeState.identity()
    for m in moves:
        state = state * move_state(m)
    return state


if __name__ == "__main__":
    import sys
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    metric = sys.argv[2] if len(sys.argv) > 2 else "qtm"
    res = search(last_layer(), n, metric,
                 on_class=lambda c: print(c.length, c.text, c.corner_shape, "|", c.edge_shape,
                                          flush=True))
    print(f"{len(res.classes)} classes, {res.sequences} sequences, {res.seconds:.1f} s")
