"""Component coordinates: every arrangement of some tracked items the moves reach, numbered.

A component is a set of items of one orbit (cubelab.cube.goal_codes): their codes, each
group's sorted, packed 5 bits an item into a key. Starting from the solved keys, a breadth-first
walk applies every element (the move set's, and the inverses the set lacks) to the codes,
numbering each new key as it is met (an open-addressing hash table finds them again, or, when
the code tuples are few enough to number them all, a plain index of them: no hashing and no
probing, the same walk and so the same numbers): the numbers are the coordinate, and the walk
writes the move table on the way. Only reachable
arrangements get a number, so a component under `<U,D,R2,L2,F2,B2>` is as small as that group's
action on it (twsearch enumerates derived patterns the same way; this is our own kernel).

The stored table is int32 (n, 2 + columns): the key's low and high 32 bits, then the
coordinate after each element.
"""

from __future__ import annotations

import numpy as np

import cubelab.tables  # noqa: F401  (numba cache location, before numba)
from cubelab.tables.jit import inline_kernel, kernel

from ..memory import prefetch

KEY_BITS = 5
KEY_COLUMNS = 2
HARD_CAP = 1 << 23
"""The most arrangements a component may have (the plan keeps them far smaller)."""


@inline_kernel
def mix64(x):
    """A 64-bit finaliser (splitmix64's), for hashing keys."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@inline_kernel
def _home(table, key):
    """The first slot a key probes."""
    mask = np.int64((table.shape[0] >> 1) - 1)
    return np.int64(mix64(np.uint64(key)) >> np.uint64(1)) & mask


@kernel
def _find(table, key):
    """(slot, index) of a key in the hash table; index -1 when absent (slot: where it goes).
    The table holds (key + 1, index) pairs side by side: one probe, one cache line."""
    mask = np.int64((table.shape[0] >> 1) - 1)
    h = _home(table, key)
    stored = np.int64(key) + 1
    while True:
        k = table[2 * h]
        if k == 0:
            return h, np.int64(-1)
        if k == stored:
            return h, table[2 * h + 1]
        h = (h + 1) & mask


@kernel
def rehash(keys, n, table):
    """Fill an empty hash table with keys[:n]."""
    for i in range(n):
        h, _ = _find(table, keys[i])
        table[2 * h] = keys[i] + 1
        table[2 * h + 1] = i


@kernel
def _canonical(codes, gstart, ngroups):
    """Sort each group's codes in place (insertion sort: groups are short)."""
    for g in range(ngroups):
        lo, hi = gstart[g], gstart[g + 1]
        for i in range(lo + 1, hi):
            v = codes[i]
            j = i - 1
            while j >= lo and codes[j] > v:
                codes[j + 1] = codes[j]
                j -= 1
            codes[j + 1] = v


@kernel
def pack(codes, nitems):
    key = np.int64(0)
    for i in range(nitems):
        key |= np.int64(codes[i]) << np.int64(KEY_BITS * i)
    return key


@inline_kernel
def _neighbour(codes, e, new, kinds, gstart, ngroups, fullmap, slotmap):
    """new = the canonical codes of the tuple `codes` after move column e."""
    for i in range(kinds.shape[0]):
        if kinds[i] == 0:
            new[i] = fullmap[e, codes[i]]
        else:
            new[i] = slotmap[e, codes[i]]
    _canonical(new, gstart, ngroups)


@kernel
def walk(keys, moves, row, n, table, kinds, gstart, ngroups, fullmap, slotmap, cancel,
         counters):
    """Continue the walk from `row` with n keys numbered; returns (row, n, status): status 0
    done, 1 the arrays are full (grow them and call again from `row`), 2 cancelled."""
    nitems = kinds.shape[0]
    ncols = moves.shape[1]
    cap = keys.shape[0]
    codes = np.empty(nitems, np.int64)
    new = np.empty(nitems, np.int64)
    nkeys = np.empty(ncols, np.int64)
    mask5 = np.int64((1 << KEY_BITS) - 1)
    while row < n:
        if (row & 1023) == 0:
            counters[0] = row
            counters[1] = n
            if cancel[0]:
                return row, n, 2
        key = keys[row]
        for i in range(nitems):
            codes[i] = (key >> np.int64(KEY_BITS * i)) & mask5
        # every neighbour's key first, their hash slots asked for at once: the probes that
        # follow then wait for memory together rather than one after another
        for e in range(ncols):
            _neighbour(codes, e, new, kinds, gstart, ngroups, fullmap, slotmap)
            nkeys[e] = pack(new, nitems)
            prefetch(table, 2 * _home(table, nkeys[e]))
        for e in range(ncols):
            k = nkeys[e]
            h, idx = _find(table, k)
            if idx < 0:
                if n >= cap:
                    return row, n, 1
                table[2 * h] = k + 1
                table[2 * h + 1] = n
                keys[n] = k
                idx = n
                n += 1
            moves[row, e] = idx
        row += 1
    counters[0] = row
    counters[1] = n
    return row, n, 0


@kernel
def walk_dense(keys, moves, row, n, index, radix, kinds, gstart, ngroups, fullmap, slotmap,
               cancel, counters):
    """`walk` for a component whose codes are few enough to number every tuple of them
    (mixed radix: `radix[i]` codes for item i): index[number] is the coordinate (-1: not met
    yet), found without hashing or probing. The walk is the same, so the coordinates are."""
    nitems = kinds.shape[0]
    ncols = moves.shape[1]
    cap = keys.shape[0]
    codes = np.empty(nitems, np.int64)
    new = np.empty(nitems, np.int64)
    nkeys = np.empty(ncols, np.int64)
    mask5 = np.int64((1 << KEY_BITS) - 1)
    while row < n:
        if (row & 1023) == 0:
            counters[0] = row
            counters[1] = n
            if cancel[0]:
                return row, n, 2
        key = keys[row]
        for i in range(nitems):
            codes[i] = (key >> np.int64(KEY_BITS * i)) & mask5
        # every neighbour's number first, their index entries asked for at once
        for e in range(ncols):
            _neighbour(codes, e, new, kinds, gstart, ngroups, fullmap, slotmap)
            at = np.int64(0)
            for i in range(nitems - 1, -1, -1):
                at = at * radix[i] + new[i]
            nkeys[e] = at
            prefetch(index, at)
        for e in range(ncols):
            at = nkeys[e]
            idx = index[at]
            if idx < 0:
                if n >= cap:
                    return row, n, 1
                idx = n
                index[at] = n
                keys[n] = _unnumber(at, radix, nitems)
                n += 1
            moves[row, e] = idx
        row += 1
    counters[0] = row
    counters[1] = n
    return row, n, 0


@inline_kernel
def _unnumber(at, radix, nitems):
    """The packed key of a tuple's mixed-radix number."""
    key = np.int64(0)
    for i in range(nitems):
        key |= (at % radix[i]) << np.int64(KEY_BITS * i)
        at //= radix[i]
    return key


DENSE_MAX = 1 << 21
"""Components whose code tuples number at most this many walk with a plain index (`walk_dense`,
4 bytes a tuple) instead of the hash table."""


def _dense_number(key: int, radix) -> int:
    at = 0
    for i in range(len(radix) - 1, -1, -1):
        at = at * int(radix[i]) + ((key >> (KEY_BITS * i)) & ((1 << KEY_BITS) - 1))
    return at


def _hash_size(cap: int) -> int:
    return 1 << max(10, (2 * cap - 1).bit_length())


def enumerate_component(kinds, groups, fullmap, slotmap, seeds, cancel=None, counters=None,
                        first_cap: int = 1 << 16) -> np.ndarray:
    """The component table (see the module docstring) from canonical seed code tuples.

    kinds[i]: 0 full code, 1 slot code; groups[i]: group ids (equal ids adjacent); fullmap,
    slotmap: (columns, codes) code maps of each element."""
    kinds = np.asarray(kinds, np.int64)
    groups = list(groups)
    gstart = [0] + [i for i in range(1, len(groups)) if groups[i] != groups[i - 1]] \
        + [len(groups)]
    gstart = np.asarray(gstart, np.int64)
    fullmap = np.ascontiguousarray(fullmap, np.int64)
    slotmap = np.ascontiguousarray(slotmap, np.int64)
    ncols = fullmap.shape[0]
    cancel = np.zeros(1, np.int32) if cancel is None else cancel
    counters = np.zeros(4, np.int64) if counters is None else counters
    seed_keys = sorted({int(sum(int(c) << (KEY_BITS * i) for i, c in enumerate(s)))
                        for s in seeds})
    cap = max(first_cap, 2 * len(seed_keys))
    keys = np.zeros(cap, np.int64)
    moves = np.full((cap, ncols), -1, np.int32)
    keys[:len(seed_keys)] = seed_keys
    n = len(seed_keys)
    radix = np.where(kinds == 0, fullmap.shape[1], slotmap.shape[1]).astype(np.int64)
    dense = int(np.prod(radix.astype(float))) <= DENSE_MAX
    if dense:
        index = np.full(int(np.prod(radix)), -1, np.int32)
        for i, k in enumerate(seed_keys):
            index[_dense_number(k, radix)] = i
    else:
        table = np.zeros(2 * _hash_size(cap), np.int64)
        rehash(keys, n, table)
    row = 0
    while True:
        if dense:
            row, n, status = walk_dense(keys, moves, row, n, index, radix, kinds, gstart,
                                        len(gstart) - 1, fullmap, slotmap, cancel, counters)
        else:
            row, n, status = walk(keys, moves, row, n, table, kinds, gstart,
                                  len(gstart) - 1, fullmap, slotmap, cancel, counters)
        if status == 0:
            break
        if status == 2:
            from ..spec import BuildCancelled
            raise BuildCancelled("component")
        if cap >= HARD_CAP:
            raise ValueError(f"component larger than {HARD_CAP:,} arrangements")
        cap = min(HARD_CAP, cap * 4)
        keys = np.concatenate([keys, np.zeros(cap - keys.shape[0], np.int64)])
        grown = np.full((cap, ncols), -1, np.int32)
        grown[:moves.shape[0]] = moves
        moves = grown
        if not dense:
            table = np.zeros(2 * _hash_size(cap), np.int64)
            rehash(keys, n, table)
    out = np.empty((n, KEY_COLUMNS + ncols), np.int32)
    k = keys[:n].astype(np.uint64)
    out[:, 0] = (k & np.uint64(0xFFFFFFFF)).astype(np.uint32).view(np.int32)
    out[:, 1] = (k >> np.uint64(32)).astype(np.uint32).view(np.int32)
    out[:, KEY_COLUMNS:] = moves[:n]
    return out


def table_keys(table: np.ndarray) -> np.ndarray:
    """The keys of a component table (int64)."""
    lo = table[:, 0].view(np.uint32).astype(np.int64)
    hi = table[:, 1].view(np.uint32).astype(np.int64)
    return lo | (hi << 32)


def key_of(codes) -> int:
    return int(sum(int(c) << (KEY_BITS * i) for i, c in enumerate(codes)))


class KeyIndex:
    """Coordinates of code tuples in one component: the first few by a scan of its keys, then
    by a sorted copy of them (a goal's first search asks for one or a few starts, and sorting
    a component's keys cost it more than its distance table; a hundred crosses pay the sort
    once)."""

    SCANS = 16
    """Look-ups done by scanning before the keys are sorted."""

    def __init__(self, table: np.ndarray):
        self.keys = table_keys(table)
        self.scans = 0
        self._order = self._sorted = None

    @property
    def order(self) -> np.ndarray:
        """Coordinates in the order of their keys (`sorted`): for look-ups in bulk."""
        if self._order is None:
            self._order = np.argsort(self.keys)      # keys are distinct: any sort will do
            self._sorted = self.keys[self._order]
        return self._order

    @property
    def sorted(self) -> np.ndarray:
        """The component's keys, sorted."""
        self.order
        return self._sorted

    def index(self, codes) -> int:
        """The coordinate of a canonical code tuple, -1 when the walk never met it."""
        k = key_of(codes)
        if self._sorted is None and self.scans < self.SCANS:
            self.scans += 1
            hit = np.flatnonzero(self.keys == k)
            return int(hit[0]) if hit.shape[0] else -1
        i = int(np.searchsorted(self.sorted, k))
        if i < len(self.sorted) and int(self.sorted[i]) == k:
            return int(self.order[i])
        return -1
