"""Insertions into an FMC skeleton: 3-cycle and parity algs placed inside it so that the whole
cancels best.

A skeleton is a sequence that, after the scramble, leaves a few pieces unsolved: L = scramble
skeleton is a product of a few corner and edge 3-cycles (twisted corners and flipped edges
in place are two 3-cycles each), and, when the skeleton leaves an odd permutation, of one
parity element too: a corner 2-swap with an edge 2-swap. Inserting an alg A after the first p
moves of a sequence S leaves L (T^-1 A T), T being S's moves after the place, so A must perform
T c T^-1 for a 3-cycle c that brings L one 3-cycle nearer to solved (exactly L^-1 when one is
left). The algs are every canonical sequence of up to 10 face turns that is that 3-cycle, or
of up to 11 that is that parity element (cubelab.tables.insertions), so a single insertion
found here is the best single insertion of any alg up to that length, not just of the
commutators and parity algs a cuber knows by heart.

The places: before each move, after the last, and between two moves of one axis (U D) also in
the other order (D ^ U), since those commute. The result of each (place, alg) is the sequence
with the alg inserted and everything cancelled (same-face turns merged across turns of the
opposite face, as cubelab.tables.sequences.cancel does); its length is computed by a kernel for
every candidate at once, and only the ones kept are built and checked in Python.

Several insertions: the fewest possible (the number of 3-cycles the leftover needs, counted
exactly by a search over cycle classes, plus one parity alg for an odd leftover), each taking
one off, searched level by level:
at each level every candidate of every kept sequence is scored, the sequences are merged when
equal, and the `beam` shortest go on. When no level had more distinct sequences than the beam,
every way of making those insertions was tried and the result is *optimal* among them (the
record says so); otherwise it is the best the beam found. Every final solution is checked on
the model before it is returned.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from cubelab.cube.facts import corner_cycles, edge_cycles
from cubelab.cube.moves import FACE_MOVES, apply_moves
from cubelab.cube.notation import format_moves
from cubelab.cube.state import CubeState, permutation_parity
from cubelab.tables.cubies import move_rows, multiply, state_row
from cubelab.tables.insertions.algs import ALL_KINDS, KINDS, PARITY
from cubelab.tables.insertions.specs import AlgSet, load_alg_sets, load_parity_set
from cubelab.tables.jit import kernel
from cubelab.tables.sequences import IDENTITY_ROW, inverses, products, sequence_elements
from cubelab.tables.sequences import cancel as cancel_moves

from ..protocol import NODES, PHASE, new_cancel, new_counters
from .cycle_count import PARTS, distances

DEFAULT_BEAM = 100
"""Sequences kept at each level of a several-insertion search."""
MAX_INSERTIONS = 4
"""The most insertions searched by default: a skeleton that needs more is refused."""

_NAMES = {"corners": "corner", "edges": "edge", PARITY: "parity"}


class InsertionError(ValueError):
    """A skeleton (or a request) no insertion of the chosen algs can finish."""


# ---- the lengths of many insertions at once ---------------------------------------------------

@kernel
def _insert_lengths(bases, lens, splits, cand_place, cand_algs, out):
    """For each candidate k: the length of bases[place] (its first lens[place] moves) with
    cand_algs[k] (padded with -1) inserted after its first splits[place] moves, everything
    cancelled. Every base is reduced, so once two moves of the base's tail sit unchanged on
    top of the stack, the rest of it stays as it is."""
    stack = np.empty(bases.shape[1] + cand_algs.shape[1] + 2, dtype=np.int64)
    for k in range(cand_place.shape[0]):
        b = bases[cand_place[k]]
        n = lens[cand_place[k]]
        split = splits[cand_place[k]]
        top = 0
        for i in range(split):
            stack[top] = b[i]
            top += 1
        total = -1
        for step in range(cand_algs.shape[1] + n - split):
            if step < cand_algs.shape[1]:
                m = cand_algs[k, step]
                if m < 0:
                    continue
                from_base = -1
            else:
                from_base = split + step - cand_algs.shape[1]
                m = b[from_base]
            face = m // 3
            amount = m % 3 + 1
            axis = face % 3
            j = top - 1
            merged = False
            while j >= 0 and (stack[j] // 3) % 3 == axis:
                if stack[j] // 3 == face:
                    t = (stack[j] % 3 + 1 + amount) % 4
                    if t:
                        stack[j] = 3 * face + t - 1
                    else:
                        for q in range(j, top - 1):
                            stack[q] = stack[q + 1]
                        top -= 1
                    merged = True
                    break
                j -= 1
            if not merged:
                stack[top] = m
                top += 1
                if (from_base >= 1 and top >= 2 and stack[top - 1] == b[from_base]
                        and stack[top - 2] == b[from_base - 1]):
                    total = top + n - from_base - 1
                    break
        out[k] = top if total < 0 else total


# ---- results ------------------------------------------------------------------------------------

def moves_text(seq) -> str:
    return format_moves(FACE_MOVES[m] for m in seq)


@dataclass(frozen=True)
class Insertion:
    """One alg put into a sequence: after the first `place` moves of `into` (with the two
    commuting moves around the place read in the other order when `swapped`)."""

    into: tuple[int, ...]
    place: int
    swapped: bool
    alg: tuple[int, ...]
    kind: str
    after: tuple[int, ...]

    @property
    def cancelled(self) -> int:
        return len(self.into) + len(self.alg) - len(self.after)

    def shown_into(self) -> tuple[int, ...]:
        """The sequence as the insertion reads it (a swapped commuting pair swapped)."""
        s = list(self.into)
        if self.swapped:
            s[self.place - 1], s[self.place] = s[self.place], s[self.place - 1]
        return tuple(s)

    def marked(self, mark: str = "^") -> str:
        s = self.shown_into()
        words = [str(FACE_MOVES[m]) for m in s[:self.place]] + [mark] + \
            [str(FACE_MOVES[m]) for m in s[self.place:]]
        return " ".join(words)

    def what(self) -> str:
        state = apply_moves(CubeState.identity(), [FACE_MOVES[m] for m in self.alg])
        if self.kind == PARITY:
            return f"parity: corners {corner_cycles(state)}, edges {edge_cycles(state)}"
        return (f"corner 3-cycle {corner_cycles(state)}" if self.kind == "corners"
                else f"edge 3-cycle {edge_cycles(state)}")

    def to_json(self, n: int) -> dict:
        return {"skeleton": moves_text(self.shown_into()), "place": self.place,
                "swapped": self.swapped, "marked": self.marked(f"[{n}]"),
                "alg": moves_text(self.alg), "alg_length": len(self.alg), "kind": self.kind,
                "cycle": self.what(), "cancelled": self.cancelled,
                "result": moves_text(self.after), "length": len(self.after)}


@dataclass(frozen=True)
class InsertionSolution:
    insertions: tuple[Insertion, ...]
    moves: tuple[int, ...]

    @property
    def length(self) -> int:
        return len(self.moves)

    @property
    def text(self) -> str:
        return moves_text(self.moves)

    @property
    def cancelled(self) -> int:
        return sum(i.cancelled for i in self.insertions)

    def to_json(self) -> dict:
        return {"solution": self.text, "length": self.length, "cancelled": self.cancelled,
                "insertions": [ins.to_json(k) for k, ins in enumerate(self.insertions, 1)]}


@dataclass
class InsertionResult:
    scramble: tuple[int, ...]
    skeleton: tuple[int, ...]           # as given
    reduced: tuple[int, ...]            # cancelled: what the insertions go into
    leftover: dict                      # corner_cycles / edge_cycles texts, insertions needed
    needed: int
    solutions: list[InsertionSolution] = field(default_factory=list)
    optimal: bool = False
    status: str = "not found"
    nodes: int = 0
    seconds: float = 0.0
    beam: int = DEFAULT_BEAM
    kinds: tuple[str, ...] = ALL_KINDS
    max_len: dict = field(default_factory=dict)
    truncated_levels: list[int] = field(default_factory=list)

    @property
    def best(self) -> InsertionSolution | None:
        return self.solutions[0] if self.solutions else None


# ---- the search ---------------------------------------------------------------------------------

def move_indices(moves) -> tuple[int, ...]:
    """Face turns (cubelab Moves) as indices into FACE_MOVES; ValueError for anything else."""
    out = []
    for m in moves:
        if m not in FACE_MOVES:
            raise InsertionError(f"{m} is not a face turn (U R F D L B with ', 2)")
        out.append(FACE_MOVES.index(m))
    return tuple(out)


def _row(seq) -> np.ndarray:
    return sequence_elements([tuple(seq)])[0]


def leftover_of(scramble, skeleton, position: CubeState | None = None) -> np.ndarray:
    """The row of what the skeleton leaves after the scramble (or after `position`)."""
    if position is None:
        return _row(tuple(scramble) + tuple(skeleton))
    return products(state_row(position), _row(skeleton))[0]


def check_skeleton(left: np.ndarray, kinds, max_insertions: int) -> tuple[int, dict]:
    """(insertions needed, {kind: needed}) for the leftover, or InsertionError saying why no
    insertion of the chosen kinds can solve it. An odd leftover needs one parity alg, and for
    each 3-cycle kind the fewest 3-cycles left once it is made."""
    cp, ep = left[0:8], left[16:28]
    state = CubeState(left[0:8], left[8:16], left[16:28], left[28:40])
    odd = bool(permutation_parity(cp))
    if odd and PARITY not in kinds:
        raise InsertionError(
            "the skeleton leaves an odd permutation (corners "
            f"{corner_cycles(state)}, edges {edge_cycles(state)}): 3-cycle insertions cannot "
            "solve parity; allow parity algs (--algs corners,edges,parity) or end the "
            "skeleton with a quarter turn more or less")
    need = {PARITY: int(odd)}
    for kind in KINDS:
        dist = distances(kind, max_insertions)
        d = dist.of_row(left)
        if d and kind not in kinds:
            raise InsertionError(
                f"the skeleton leaves {_NAMES[kind]}s unsolved "
                f"{corner_cycles(state) if kind == 'corners' else edge_cycles(state)} "
                f"but only {', '.join(_NAMES[k] for k in kinds)} 3-cycles may be inserted")
        need[kind] = d
    total = sum(need.values())
    if total > max_insertions:
        moved_c = int(((cp != np.arange(8)) | (left[8:16] != 0)).sum())
        moved_e = int(((ep != np.arange(12)) | (left[28:40] != 0)).sum())
        needs = f"more than {max_insertions} insertions" \
            if any(d > max_insertions - odd for k, d in need.items() if k != PARITY) \
            else f"{total} insertions, more than {max_insertions}"
        raise InsertionError(
            f"the skeleton leaves {moved_c} corners and {moved_e} edges unsolved: it needs "
            f"{needs} (the most searched; a skeleton leaves a few pieces)")
    return total, need


class _Node:
    __slots__ = ("seq", "row", "insertions")

    def __init__(self, seq, row, insertions):
        self.seq, self.row, self.insertions = seq, row, insertions


def _places(seq: tuple[int, ...]):
    """Every place: before each move and after the last, then inside each commuting pair in
    the other order. (bases (P, n): the sequence as each place reads it, splits (P,): moves
    before the place, swapped (P,) bool)."""
    n = len(seq)
    arr = np.array(seq, dtype=np.int64)
    pair = np.nonzero(arr[:-1] // 3 % 3 == arr[1:] // 3 % 3)[0] + 1 if n > 1 else \
        np.zeros(0, np.int64)
    bases = np.tile(arr, (n + 1 + len(pair), 1)).reshape(n + 1 + len(pair), n)
    rows = np.arange(n + 1, n + 1 + len(pair))
    bases[rows, pair - 1], bases[rows, pair] = arr[pair], arr[pair - 1]
    splits = np.r_[np.arange(n + 1), pair].astype(np.int64)
    swapped = np.r_[np.zeros(n + 1, bool), np.ones(len(pair), bool)]
    return bases, splits, swapped


@kernel
def _level_places(seqs, lens, moves, bases, plens, splits, swapped, owner, ts):
    """Every place of every sequence (rows of seqs, lens[i] moves each; see _places) into the
    output arrays, with T, the effect of the moves after the place; returns how many."""
    longest = seqs.shape[1]
    suffix = np.empty((longest + 1, 40), np.uint8)
    tmp = np.empty(40, np.uint8)
    k = 0
    for i in range(seqs.shape[0]):
        n = lens[i]
        for c in range(40):
            suffix[n, c] = 0
        for c in range(8):
            suffix[n, c] = c
        for c in range(12):
            suffix[n, 16 + c] = c
        for p in range(n - 1, -1, -1):
            multiply(moves[seqs[i, p]], suffix[p + 1], suffix[p])
        for p in range(n + 1):
            for c in range(n):
                bases[k, c] = seqs[i, c]
            plens[k] = n
            splits[k] = p
            swapped[k] = False
            owner[k] = i
            ts[k, :] = suffix[p]
            k += 1
        for p in range(1, n):
            a = seqs[i, p - 1]
            b = seqs[i, p]
            if (a // 3) % 3 == (b // 3) % 3:
                for c in range(n):
                    bases[k, c] = seqs[i, c]
                bases[k, p - 1] = b
                bases[k, p] = a
                plens[k] = n
                splits[k] = p
                swapped[k] = True
                owner[k] = i
                # D ^ U in place of U D: T is the first of the pair (now after the place),
                # then the rest after the pair
                multiply(moves[a], suffix[p + 1], tmp)
                ts[k, :] = tmp
                k += 1
    return k


@dataclass
class _Expansion:
    """Every candidate of a level: its node, place, alg, kind and the 3-cycle (end frame) it
    takes off, and the length of the sequence it makes."""

    bases: np.ndarray           # (places, longest) each place's sequence, padded
    lens: np.ndarray
    splits: np.ndarray
    swapped: np.ndarray
    node: np.ndarray            # per candidate
    place: np.ndarray
    algs: np.ndarray
    kind: np.ndarray
    cycle: np.ndarray           # rows
    lengths: np.ndarray


def _expand(level: list[_Node], steps: list[dict[str, np.ndarray]], sets: dict[str, AlgSet],
            width: int) -> _Expansion | None:
    """Every (place, alg) of every node that takes one of its useful 3-cycles c off: at a
    place whose moves after it do T, the alg must do T c T^-1. All places of all nodes are
    handled together: their T, the algs looked up, the lengths in one kernel call."""
    moves = move_rows("htm")
    longest = max(len(n.seq) for n in level)
    seqs = np.zeros((len(level), longest), np.int64)
    seq_lens = np.zeros(len(level), np.int64)
    for i, node in enumerate(level):
        seqs[i, :len(node.seq)] = node.seq
        seq_lens[i] = len(node.seq)
    room = int((2 * seq_lens + 1).sum())
    bases = np.zeros((room, longest), np.int64)
    lens, splits, owner = (np.zeros(room, np.int64) for _ in range(3))
    swapped = np.zeros(room, np.bool_)
    ts = np.zeros((room, 40), np.uint8)
    k = _level_places(seqs, seq_lens, moves, bases, lens, splits, swapped, owner, ts)
    bases, lens, splits, swapped, owner, ts = \
        bases[:k], lens[:k], splits[:k], swapped[:k], owner[:k], ts[:k]
    ts_inv = inverses(ts)
    parts = []
    for kind in ALL_KINDS:
        algset = sets.get(kind)
        # (place, element) pairs: every place of a node with every useful element of it
        cycles = [st.get(kind, np.zeros((0, 40), np.uint8)) for st in steps]
        counts = np.array([len(c) for c in cycles], np.int64)
        if algset is None or not counts.any():
            continue
        all_cycles = np.concatenate(cycles)
        first_cycle = np.cumsum(counts) - counts
        per_place = counts[owner]
        pair_place = np.repeat(np.arange(len(owner)), per_place)
        pair_cycle = np.repeat(first_cycle[owner], per_place) + \
            (np.arange(len(pair_place)) - np.repeat(np.cumsum(per_place) - per_place, per_place))
        need = products(products(ts[pair_place], all_cycles[pair_cycle]), ts_inv[pair_place])
        ids = algset.lookup(need)
        hit = np.nonzero(ids >= 0)[0]
        if not len(hit):
            continue
        n_algs = algset.counts[ids[hit]]
        group = np.repeat(np.arange(len(hit)), n_algs)
        within = np.arange(int(n_algs.sum())) - np.repeat(np.cumsum(n_algs) - n_algs, n_algs)
        alg_idx = algset.starts[ids[hit]][group] + within
        pairs = hit[group]
        parts.append((pair_place[pairs], algset.moves[alg_idx], ALL_KINDS.index(kind),
                      all_cycles[pair_cycle[pairs]]))
    if not parts:
        return None
    place = np.concatenate([p for p, _, _, _ in parts])
    algs = np.full((len(place), width), -1, np.int8)
    at = 0
    for _, a, _, _ in parts:
        algs[at:at + len(a), :a.shape[1]] = a
        at += len(a)
    kind = np.concatenate([np.full(len(p), k, np.int8) for p, _, k, _ in parts])
    cycle = np.concatenate([c for _, _, _, c in parts])
    lengths = np.empty(len(place), np.int64)
    _insert_lengths(bases, lens, splits, place, algs, lengths)
    return _Expansion(bases, lens, splits, swapped, owner[place], place, algs, kind, cycle,
                      lengths)


def _steps_many(rows, kinds, depth: int) -> list[dict[str, np.ndarray]]:
    """For each leftover, the useful elements (in the end frame) per kind: those that bring it
    one insertion nearer to solved. For an odd leftover, a 3-cycle is useful when it lowers
    the 3-cycles needed after the parity alg; a parity element, when its corner swap and its
    edge swap each leave no more 3-cycles than the leftover needed after the best swap."""
    rows = np.array(rows, dtype=np.uint8)
    cycle_kinds = [k for k in kinds if k != PARITY]
    per_kind = {kind: distances(kind, depth).steps_down_many(rows) for kind in cycle_kinds}
    out = [{kind: per_kind[kind][r] for kind in cycle_kinds} for r in range(len(rows))]
    if PARITY in kinds:
        corners, edges = distances("corners", depth), distances("edges", depth)
        c_swaps, e_swaps = corners.swaps_down_many(rows), edges.swaps_down_many(rows)
        for r in range(len(rows)):
            cs, es = c_swaps[r], e_swaps[r]
            elems = np.tile(IDENTITY_ROW, (len(cs) * len(es), 1))
            if len(elems):
                ci, ei = np.repeat(cs, len(es)), np.tile(es, len(cs))
                elems[:, 0:8], elems[:, 8:16] = corners.sp[ci], corners.so[ci]
                elems[:, 16:28], elems[:, 28:40] = edges.sp[ei], edges.so[ei]
            out[r][PARITY] = elems
    return out



def _last_steps(rows, kinds) -> list[dict[str, np.ndarray]]:
    """With one insertion left in each row: the element that finishes it (its inverse), under
    its kind (a parity element, or a corner or an edge 3-cycle), when that kind may be
    inserted."""
    rows = np.array(rows, dtype=np.uint8)
    inv = inverses(rows)
    corners_moved = ((rows[:, 0:8] != np.arange(8)) | (rows[:, 8:16] != 0)).any(1)
    edges_moved = ((rows[:, 16:28] != np.arange(12)) | (rows[:, 28:40] != 0)).any(1)
    empty = np.zeros((0, 40), np.uint8)
    out = []
    for r in range(len(rows)):
        kind = PARITY if corners_moved[r] and edges_moved[r] else \
            "corners" if corners_moved[r] else "edges"
        out.append({kind: inv[r:r + 1]} if kind in kinds else {kind: empty})
    return out


def find_insertions(scramble, skeleton, *, position: CubeState | None = None, kinds=ALL_KINDS,
                    max_insertions: int = MAX_INSERTIONS,
                    beam: int = DEFAULT_BEAM, count: int = 5, counters=None, cancel=None,
                    sets: dict[str, AlgSet] | None = None, progress=None, log=None
                    ) -> InsertionResult:
    """The shortest solutions made of the skeleton and insertions of 3-cycle and parity algs.

    scramble, skeleton: face turns (cubelab Moves or indices); or `position`, the scrambled
    cube itself (the scramble then unused, give ()). InsertionError when the
    skeleton leaves a position no insertions of the chosen kinds can solve (parity without
    parity algs, a kind not allowed, more insertions than max_insertions). The parity algs are
    loaded (or made, once) only for an odd leftover."""
    t0 = time.perf_counter()
    counters = counters if counters is not None else new_counters()
    cancel = cancel if cancel is not None else new_cancel()
    scramble = tuple(scramble) if not scramble or isinstance(scramble[0], int) \
        else move_indices(scramble)
    skeleton = tuple(skeleton) if not skeleton or isinstance(skeleton[0], int) \
        else move_indices(skeleton)
    kinds = tuple(k for k in ALL_KINDS if k in kinds)
    if not kinds:
        raise InsertionError(f"no alg set chosen ({', '.join(ALL_KINDS)})")
    start = position if position is not None else \
        apply_moves(CubeState.identity(), [FACE_MOVES[m] for m in scramble])
    if (np.asarray(start.cc) != np.arange(6)).any():
        raise InsertionError("the position has its centres turned (a rotation or slice move): "
                             "insertions work on a cube held in place")
    left = leftover_of((), skeleton, position=start)
    state = CubeState(left[0:8], left[8:16], left[16:28], left[28:40])
    needed, per_kind = check_skeleton(left, kinds, max_insertions)
    if sets is None:
        sets = load_alg_sets(progress=progress, cancel=cancel, log=log)
    if per_kind[PARITY] and PARITY not in sets:
        sets = dict(sets, **{PARITY: load_parity_set(progress=progress, cancel=cancel, log=log)})
    reduced = cancel_seq(skeleton)
    result = InsertionResult(
        scramble, skeleton, reduced,
        {"corners": corner_cycles(state), "edges": edge_cycles(state),
         "corner_3cycles": per_kind["corners"], "edge_3cycles": per_kind["edges"],
         "parity": per_kind[PARITY]},
        needed, beam=beam, kinds=kinds,
        max_len={k: sets[k].max_len for k in kinds if k in sets})
    if needed == 0:
        result.solutions = [InsertionSolution((), reduced)]
        result.optimal, result.status = True, "solved"
        _verify(start, result.solutions[0])
        result.seconds = time.perf_counter() - t0
        return result
    width = max(sets[k].max_len for k in kinds if k in sets)
    root = _Node(reduced, left, ())
    search = dict(needed=needed, kinds=kinds, sets=sets, width=width, count=count,
                  max_insertions=max_insertions, counters=counters, cancel=cancel)
    found: list[_Node] = []
    if needed > 1 and beam > 1:
        # a greedy pass first (a few milliseconds): an answer even if the wide search is
        # stopped before its last level
        found, _, _, _ = _beam_search(root, beam=1, **search)
    level, exhaustive, truncated, stopped = _beam_search(root, beam=beam, **search)
    result.truncated_levels = truncated
    found = {n.seq: n for n in found + level}
    if found:
        sols = [InsertionSolution(n.insertions, n.seq) for n in found.values()]
        for sol in sols:
            _verify(start, sol)
        result.solutions = sorted(sols, key=lambda s: (s.length, s.text))[:count]
    result.status = "cancelled" if stopped else "solved" if found else "not found"
    result.optimal = bool(found) and exhaustive and not stopped
    result.nodes = int(counters[NODES])
    result.seconds = time.perf_counter() - t0
    return result


def _beam_search(root: _Node, *, needed, kinds, sets, width, count, beam, max_insertions,
                 counters, cancel) -> tuple[list[_Node], bool, list[int], bool]:
    """Insertions level by level from the root: (the final sequences, at most `count`, whether
    no level was cut, the levels cut, whether it was stopped)."""
    level = [root]
    exhaustive, truncated = True, []
    for depth in range(needed):
        counters[PHASE] = depth
        left_total = needed - depth
        last = left_total == 1
        children: dict[tuple, _Node] = {}
        if cancel[0]:
            return [], False, truncated, True
        steps = _last_steps([n.row for n in level], kinds) if last else \
            _steps_many([n.row for n in level], kinds, max_insertions)
        ex = _expand(level, steps, sets, width)
        if ex is None:
            return [], exhaustive, truncated, False
        counters[NODES] += len(ex.lengths)
        if cancel[0]:
            return [], False, truncated, True
        keep = count if last else beam
        for length, i, k in _shortest_first(ex.lengths, ex.node, np.arange(len(ex.lengths)),
                                            keep):
            if len(children) >= keep:
                # a full level: the candidates left (none shorter) are not followed
                if not last:
                    exhaustive = False
                    truncated.append(depth + 1)
                break
            node = level[i]
            j = int(ex.place[k])
            base, split = tuple(int(m) for m in ex.bases[j, :ex.lens[j]]), int(ex.splits[j])
            alg = tuple(int(m) for m in ex.algs[k] if m >= 0)
            after = cancel_moves(base[:split] + alg + base[split:])
            if len(after) != length:
                raise AssertionError(f"insertion length {len(after)} != kernel's {length}")
            if after in children:
                continue
            ins = Insertion(node.seq, split, bool(ex.swapped[j]), alg, ALL_KINDS[int(ex.kind[k])],
                            after)
            row = products(node.row, ex.cycle[k])[0]
            children[after] = _Node(after, row, node.insertions + (ins,))
        level = list(children.values())
    return level, exhaustive, truncated, False


def _shortest_first(lengths, parent, cand, keep: int):
    """(length, parent, candidate) in order of length (then parent, candidate), lazily: the
    shortest few thousand sorted first, the rest only if the level has not filled by then."""
    n = len(lengths)
    first = min(n, max(8 * keep, 4096))
    if first < n:
        head = np.argpartition(lengths, first - 1)[:first]
        cut = lengths[head].max()
        head = np.nonzero(lengths < cut)[0]          # whole lengths only, so ties stay in order
    else:
        head = np.arange(n)
    order = head[np.lexsort((cand[head], parent[head], lengths[head]))]
    for j in order:
        yield int(lengths[j]), int(parent[j]), int(cand[j])
    if len(head) < n:
        rest = np.setdiff1d(np.arange(n), head, assume_unique=True)
        for j in rest[np.lexsort((cand[rest], parent[rest], lengths[rest]))]:
            yield int(lengths[j]), int(parent[j]), int(cand[j])


def cancel_seq(seq) -> tuple[int, ...]:
    return cancel_moves(tuple(seq))


def _verify(start: CubeState, solution: InsertionSolution) -> None:
    """The solution solves the cube on the model (CubeState), or AssertionError: never shown."""
    state = apply_moves(start, [FACE_MOVES[m] for m in solution.moves])
    if state != CubeState.identity():
        raise AssertionError(f"insertion result {solution.text} does not solve the scramble")
