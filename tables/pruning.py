"""Breadth-first distance tables over products of coordinates, packed 4 bits or 2 bits an entry.

The space is a product of coordinates, each moved by its move table; the table holds, for every
product value, its distance from the start set (the solved value by default) in the moves the
tables were built for. Storage (see packed.py): 4 bits, the distance itself (0..14; 15 = "more
than 14", still a valid lower bound), or 2 bits, the distance mod 3 (a search that knows the
distance of the position it stands on recovers its neighbours' exact distances from it).

Each sweep first goes forward (expand the entries at the current depth, mark unknown
neighbours); once the frontier is large compared with what is still unknown, it goes backward
(every unknown entry looks for a neighbour at the current depth), which touches far fewer
entries near the end.

A coordinate whose moves depend on another one (the flips of tracked edges depend on where
those edges are) joins the product as a dependent factor: new value = add[value, delta[other
value, move]] (see movetables.orientation_delta_table).

The symmetry-reduced variant lives in symclasses.py and shares this module's sweep logic.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import cubelab.tables  # noqa: F401  (numba cache location, before numba)
from numba import njit

from .packed import UNKNOWN2, UNKNOWN4, get2, get4, new_packed2, new_packed4, set2, set4
from .store import BuildCancelled as Cancelled  # builders catch one exception

BACKWARD_RATIO = 3
"""Go backward once frontier * BACKWARD_RATIO exceeds the number of unknown entries."""

CANCELLED = -1


@dataclass(frozen=True)
class Factor:
    """One coordinate of the product: its size and move table (size, n_moves); or, for a
    dependent factor, a delta table (other factor's size, n_moves), the index of that factor
    in the product, and an add table (size, size). `solved` is its value on the solved cube."""

    size: int
    table: np.ndarray
    depends_on: int = -1
    add: np.ndarray | None = None
    solved: int = 0

    @classmethod
    def of(cls, coord, moves=None) -> "Factor":
        """A factor for a coordinate, with its move table for the given moves."""
        from .movetables import move_table
        return cls(coord.size, move_table(coord, moves), solved=coord.solved())

    @classmethod
    def dependent(cls, orientation, positions, on: int, moves=None) -> "Factor":
        """The orientation-by-piece coordinate `orientation`, whose moves depend on the
        positions coordinate `positions`, which is factor number `on` of the product."""
        from .movetables import orientation_add_table, orientation_delta_table
        return cls(orientation.size, orientation_delta_table(orientation, positions, moves),
                   depends_on=on, add=orientation_add_table(orientation),
                   solved=orientation.solved())


def solved_index(factors) -> int:
    idx = 0
    for f in factors:
        idx = idx * f.size + f.solved
    return idx


# ---- packed access by width ---------------------------------------------------------------

@njit(cache=True, nogil=True)
def get_entry(table, bits, i):
    return get4(table, i) if bits == 4 else get2(table, i)


@njit(cache=True, nogil=True)
def set_entry(table, bits, i, value):
    if bits == 4:
        set4(table, i, value)
    else:
        set2(table, i, value)


@njit(cache=True, nogil=True)
def stored_value(bits, depth):
    """What a distance looks like in the table."""
    return depth if bits == 4 else depth % 3


# ---- the product space ----------------------------------------------------------------------

@njit(cache=True, nogil=True)
def split(index, sizes, digits):
    for f in range(sizes.shape[0] - 1, -1, -1):
        digits[f] = index % sizes[f]
        index //= sizes[f]


@njit(cache=True, nogil=True)
def neighbour(digits, m, sizes, dep, mt, mt_off, add, add_off, nm):
    """The product value reached from `digits` by move column m."""
    j = 0
    for f in range(sizes.shape[0]):
        d = dep[f]
        if d < 0:
            v = mt[mt_off[f] + digits[f] * nm + m]
        else:
            delta = mt[mt_off[f] + digits[d] * nm + m]
            v = add[add_off[f] + digits[f] * sizes[f] + delta]
        j = j * sizes[f] + v
    return j


@njit(cache=True, nogil=True)
def bfs_product(table, bits, sizes, dep, mt, mt_off, add, add_off, nm, starts, max_depth,
                cancel, counters):
    """Fill `table` (packed, all unknown) with distances from `starts`; return the largest
    depth reached, or CANCELLED. counters: [done, total, depth, frontier]."""
    n = 1
    for f in range(sizes.shape[0]):
        n *= sizes[f]
    unknown = UNKNOWN4 if bits == 4 else UNKNOWN2
    if bits == 4 and max_depth > UNKNOWN4 - 1:
        max_depth = UNKNOWN4 - 1
    done = 0
    for s in starts:
        if get_entry(table, bits, s) == unknown:
            set_entry(table, bits, s, 0)
            done += 1
    counters[0], counters[1], counters[2], counters[3] = done, n, 0, done
    digits = np.empty(sizes.shape[0], np.int64)
    depth, frontier = 0, done
    while done < n and depth < max_depth:
        cur, nxt = stored_value(bits, depth), stored_value(bits, depth + 1)
        backward = frontier * BACKWARD_RATIO > n - done
        found = 0
        for i in range(n):
            if (i & 8191) == 0:
                if cancel[0]:
                    return CANCELLED
                counters[0] = done + found
            v = get_entry(table, bits, i)
            if backward:
                if v != unknown:
                    continue
                split(i, sizes, digits)
                for m in range(nm):
                    j = neighbour(digits, m, sizes, dep, mt, mt_off, add, add_off, nm)
                    if get_entry(table, bits, j) == cur:
                        set_entry(table, bits, i, nxt)
                        found += 1
                        break
            else:
                # with 2 bits, entries at depth - 3, - 6 ... match too; their neighbours are
                # all known already, so expanding them again costs time, not correctness
                if v != cur:
                    continue
                split(i, sizes, digits)
                for m in range(nm):
                    j = neighbour(digits, m, sizes, dep, mt, mt_off, add, add_off, nm)
                    if get_entry(table, bits, j) == unknown:
                        set_entry(table, bits, j, nxt)
                        found += 1
        if found == 0:
            break
        done += found
        frontier = found
        depth += 1
        counters[0], counters[2], counters[3] = done, depth, found
    counters[0] = done
    return depth


def flatten(tables, dtype=np.int32) -> tuple[np.ndarray, np.ndarray]:
    """Several 2-D tables as one flat array and the offset of each (numba takes one array)."""
    offsets = np.zeros(len(tables), dtype=np.int64)
    total = 0
    for k, t in enumerate(tables):
        offsets[k] = total
        total += t.size
    flat = np.empty(total, dtype=dtype)
    for k, t in enumerate(tables):
        flat[offsets[k]:offsets[k] + t.size] = t.reshape(-1)
    return flat, offsets


def new_table(n: int, bits: int) -> np.ndarray:
    if bits == 4:
        return new_packed4(n)
    if bits == 2:
        return new_packed2(n)
    raise ValueError("bits must be 4 or 2")


def _flags(cancel, counters):
    return (np.zeros(1, np.int32) if cancel is None else cancel,
            np.zeros(4, np.int64) if counters is None else counters)


def distance_table(factors, *, bits: int = 4, starts=None, max_depth: int = 255,
                   cancel=None, counters=None) -> np.ndarray:
    """The packed distance table over the product of `factors` (first most significant),
    from `starts` (product values; the solved one by default).

    Raises store.BuildCancelled if the cancel flag goes up; returns the table otherwise. Entries
    never reached stay unknown (15 or 3)."""
    factors = list(factors)
    nm = {f.table.shape[1] for f in factors}
    if len(nm) != 1:
        raise ValueError("all move tables need the same moves (columns)")
    sizes = np.array([f.size for f in factors], dtype=np.int64)
    for k, f in enumerate(factors):
        if f.depends_on >= 0:
            if f.add is None or f.add.shape != (f.size, f.size):
                raise ValueError(f"factor {k}: a dependent factor needs an add table")
            if not 0 <= f.depends_on < len(factors) or factors[f.depends_on].depends_on >= 0:
                raise ValueError(f"factor {k}: depends on a missing or dependent factor")
            if f.table.shape[0] != factors[f.depends_on].size:
                raise ValueError(f"factor {k}: delta table rows != size of its factor")
        elif f.table.shape[0] != f.size:
            raise ValueError(f"factor {k}: move table rows != size")
    dep = np.array([f.depends_on for f in factors], dtype=np.int64)
    mt, mt_off = flatten([f.table for f in factors])
    adds = [f.add if f.add is not None else np.zeros((0, 0), np.int32) for f in factors]
    add, add_off = flatten(adds)
    n = int(np.prod(sizes))
    if starts is None:
        starts = [solved_index(factors)]
    starts = np.asarray(starts, dtype=np.int64).reshape(-1)
    if starts.size == 0 or starts.min() < 0 or starts.max() >= n:
        raise ValueError("start values out of range")
    table = new_table(n, bits)
    cancel, counters = _flags(cancel, counters)
    if bfs_product(table, bits, sizes, dep, mt, mt_off, add, add_off, nm.pop(), starts,
                   max_depth, cancel, counters) == CANCELLED:
        raise Cancelled()
    return table



def depth_histogram(table: np.ndarray, n: int, bits: int = 4) -> dict[int, int]:
    """How many entries hold each stored value (a quick summary for benchmarks and tests)."""
    from .packed import unpack2, unpack4
    values = unpack4(table, n) if bits == 4 else unpack2(table, n)
    counts = np.bincount(values, minlength=16 if bits == 4 else 4)
    return {v: int(c) for v, c in enumerate(counts) if c}


if __name__ == "__main__":
    from .coords import UD_SLICE, TWIST
    fs = [Factor.of(c) for c in (UD_SLICE, TWIST)]
    t = distance_table(fs)
    print("slice x twist distances:", depth_histogram(t, UD_SLICE.size * TWIST.size))
