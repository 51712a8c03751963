"""Korf's 1997 pattern databases: all 8 corners and six edges, 4 bits an entry.

All 8 corners (88,179,840 entries) and six edges (42,577,920 entries), exact distances at 4 bits
an entry (15 = beyond the depth the table was built to).
"""

from __future__ import annotations

import numpy as np

import cubelab.tables  # noqa: F401  (numba cache location, before numba)
from numba import njit

from ..bfs import LevelStats, run_levels
from ..packed import UNKNOWN4, get4, new_packed4, set4
from ..ranks import rank_placement, unrank_placement
from ..store import load_or_build
from .coords import N_CORNERS, N_CPERM, N_EDGE6, N_PLACE6, N_TWIST, corner_sym_tables, move_tables

_CHECK_EVERY = 1024


# ---- corners: entry = corner permutation * 2187 + twist; a "row" is one permutation ----------

@njit(cache=True, nogil=True)
def corner_sweep(table, d, lo, hi, cperm_move, twist_move, backward, cancel):
    """Depth d -> d + 1 over the permutations [lo, hi): forward from the depth-d entries, or
    backward from the unknown ones (an entry with a depth-d neighbour is set)."""
    want = UNKNOWN4 if backward else d
    n = 0
    for c in range(lo, hi):
        if (c & (_CHECK_EVERY - 1)) == 0 and cancel[0]:
            break
        base = c * N_TWIST
        for t in range(N_TWIST):
            if get4(table, base + t) != want:
                continue
            for m in range(cperm_move.shape[1]):
                j = cperm_move[c, m] * N_TWIST + twist_move[t, m]
                if backward:
                    if get4(table, j) == d:
                        set4(table, base + t, d + 1)
                        n += 1
                        break
                elif get4(table, j) == UNKNOWN4:
                    set4(table, j, d + 1)
                    n += 1
    return n


# ---- six edges: entry = placement * 64 + flips; a "row" is one placement --------------------

@njit(cache=True, nogil=True, inline="always")
def _edge_step(m, pos, npos, edge_cubie):
    """Placement rank after move m from placement p (positions in pos), and the flip mask."""
    mask = 0
    for j in range(6):
        c = edge_cubie[m, 2 * pos[j]]
        npos[j] = c >> 1
        mask = 2 * mask + (c & 1)
    return rank_placement(npos, 6, 12), mask


@njit(cache=True, nogil=True)
def edge_forward(table, d, lo, hi, edge_cubie, cancel):
    pos = np.empty(6, np.int64)
    npos = np.empty(6, np.int64)
    n = 0
    for p in range(lo, hi):
        if (p & (_CHECK_EVERY - 1)) == 0 and cancel[0]:
            break
        base = p * 64
        found = False
        for o in range(64):
            if get4(table, base + o) == d:
                found = True
                break
        if not found:
            continue
        unrank_placement(p, 6, 12, pos)
        for m in range(18):
            q, mask = _edge_step(m, pos, npos, edge_cubie)
            for o in range(64):
                if get4(table, base + o) == d:
                    j = q * 64 + (o ^ mask)
                    if get4(table, j) == UNKNOWN4:
                        set4(table, j, d + 1)
                        n += 1
    return n


@njit(cache=True, nogil=True)
def edge_backward(table, d, lo, hi, edge_cubie, cancel):
    pos = np.empty(6, np.int64)
    npos = np.empty(6, np.int64)
    todo = np.empty(64, np.int64)
    n = 0
    for p in range(lo, hi):
        if (p & (_CHECK_EVERY - 1)) == 0 and cancel[0]:
            break
        base = p * 64
        k = 0
        for o in range(64):
            if get4(table, base + o) == UNKNOWN4:
                todo[k] = o
                k += 1
        if k == 0:
            continue
        unrank_placement(p, 6, 12, pos)
        for m in range(18):
            q, mask = _edge_step(m, pos, npos, edge_cubie)
            i = 0
            while i < k:
                o = todo[i]
                if get4(table, q * 64 + (o ^ mask)) == d:
                    set4(table, base + o, d + 1)
                    n += 1
                    k -= 1
                    todo[i] = todo[k]
                else:
                    i += 1
            if k == 0:
                break
    return n


@njit(cache=True, nogil=True)
def _gather_rows(raw, rep, out):
    for c in range(len(rep)):
        src = np.int64(rep[c]) * N_TWIST
        dst = c * N_TWIST
        for t in range(N_TWIST):
            set4(out, dst + t, get4(raw, src + t))


def reduce_corners(raw: np.ndarray, load=load_or_build) -> np.ndarray:
    """The corner database restricted to the UD-symmetry class representatives of the corner
    permutation (2,768 x 2,187 entries, 3 MB: it stays in the caches). Look a state up by
    conjugating it onto its representative (see coords.CornerSymTables)."""
    rep = corner_sym_tables(load).rep
    out = new_packed4(len(rep) * N_TWIST)
    _gather_rows(raw, rep, out)
    out.flags.writeable = False
    return out


# ---- builders -------------------------------------------------------------------------------

def move_columns(moves, *tables: np.ndarray) -> tuple[np.ndarray, ...]:
    """The move tables restricted to the columns `moves` (None: all of them, as they are)."""
    if moves is None:
        return tables
    cols = np.asarray(moves, dtype=np.int64)
    return tuple(np.ascontiguousarray(t[:, cols]) for t in tables)


def _cancel_of(ctx) -> np.ndarray:
    return ctx.cancel if ctx is not None else np.zeros(1, np.int32)


def _load_of(ctx):
    return ctx.load if ctx is not None else load_or_build


def build_corners(ctx=None, max_depth: int | None = None, moves=None
                  ) -> tuple[np.ndarray, LevelStats]:
    """The corner database (4-bit, exact), and how the build went. moves: the columns of the
    move tables that count as one move (all 18 face turns by default; the quarter turns for
    the quarter-turn metric)."""
    mt = move_tables(_load_of(ctx))
    cancel = _cancel_of(ctx)
    cperm, twist = move_columns(moves, mt.cperm, mt.twist)
    table = new_packed4(N_CORNERS, ctx.check_cancel if ctx is not None else None)
    set4(table, 0, 0)
    stats = run_levels(
        ctx, n_rows=N_CPERM, total=N_CORNERS, initial=1, chunk_rows=256, max_depth=max_depth,
        forward=lambda d, lo, hi, part: corner_sweep(table, d, lo, hi, cperm, twist, False,
                                                     cancel),
        backward=lambda d, lo, hi: corner_sweep(table, d, lo, hi, cperm, twist, True, cancel))
    return table, stats


def edge6_goal(first: int) -> int:
    """The entry of the solved state for the six edges first..first+5."""
    return int(rank_placement(np.arange(first, first + 6, dtype=np.int64), 6, 12)) * 64


def build_edges(first: int, ctx=None, max_depth: int | None = None
                ) -> tuple[np.ndarray, LevelStats]:
    """The database of the six edges first..first+5 (4-bit, exact)."""
    mt = move_tables(_load_of(ctx))
    cancel = _cancel_of(ctx)
    table = new_packed4(N_EDGE6, ctx.check_cancel if ctx is not None else None)
    set4(table, edge6_goal(first), 0)
    stats = run_levels(
        ctx, n_rows=N_PLACE6, total=N_EDGE6, initial=1, chunk_rows=4096, max_depth=max_depth,
        forward=lambda d, lo, hi, part: edge_forward(table, d, lo, hi, mt.edge_cubie, cancel),
        backward=lambda d, lo, hi: edge_backward(table, d, lo, hi, mt.edge_cubie, cancel))
    return table, stats


if __name__ == "__main__":
    import time
    for name, fn in (("corners", lambda: build_corners()),
                     ("edges 0-5", lambda: build_edges(0))):
        t0 = time.perf_counter()
        tab, st = fn()
        print(f"{name}: {time.perf_counter() - t0:.1f} s, depths {st.counts}, modes {st.modes}")
