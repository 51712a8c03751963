"""The exact-slice phase table: distance to <U, D, R2, L2, F2, B2> with the slice in place.

Distance to <U, D, R2, L2, F2, B2> with the four UD-slice edges in their own places, over
(sorted slice, flip, twist), reduced by the 16 UD symmetries, 2 bits an entry holding the
distance mod 3 (3 = unknown), as Michael Reid and Kociemba used it.

Layout: the 11,880 sorted-slice values fall into 788 classes; an entry is
(class, flip seen from the class representative, twist seen from it), in rows of one class and
flip holding ROW (2,192 >= 2,187) twists, so rows start on byte boundaries. A state is looked up
by conjugating it onto its class representative (phase_entry). Equivalent entries inside a class
(when the representative has symmetries of its own) are all filled.
"""

from __future__ import annotations

import numpy as np

from cubelab.tables.jit import inline_kernel, kernel

from ..bfs import LevelStats, run_levels
from ..packed import UNKNOWN2, get2, new_packed2, set2, settle2
from ..ranks import N_FLIP, N_TWIST
from ..store import load_or_build
from .coords import PHASE_CLASSES, PHASE_ROW as ROW, move_tables, sym_tables
from .pdb import move_columns

ROW_BYTES = ROW // 4
_CHECK_EVERY = 256


def n_rows() -> int:
    return PHASE_CLASSES * N_FLIP


def n_entries() -> int:
    """Real entries (the padding at the end of each row is not counted)."""
    return n_rows() * N_TWIST


def n_bytes() -> int:
    return n_rows() * ROW_BYTES


@inline_kernel
def phase_entry(ss, flip, twist, ss_cls, ss_sym, ss_fmask, flip_conj, twist_conj):
    """The table entry of a state with these raw coordinates."""
    k = ss_sym[ss]
    row = (np.int64(ss_cls[ss]) << 11) | (flip_conj[k, flip] ^ ss_fmask[ss])
    return row * ROW + twist_conj[k, twist]


@kernel
def _set_class_variants(table, c, f, t, value, stab, n_stab, rep_fmask, flip_conj, twist_conj):
    """Set entry (c, f, t) and its images under the symmetries fixing the class representative,
    where unknown; return how many were set."""
    n = 0
    for i in range(n_stab[c]):
        s = stab[c, i]
        j = ((np.int64(c) << 11) | (flip_conj[s, f] ^ rep_fmask[c, s])) * ROW + twist_conj[s, t]
        if get2(table, j) == UNKNOWN2:
            set2(table, j, value)
            n += 1
    return n


@kernel
def _row_has(table, r, v):
    base = r * ROW_BYTES
    for b in range(ROW_BYTES):
        x = table[base + b]
        if x == 0xFF:
            continue
        for q in range(4):
            if 4 * b + q < N_TWIST and ((x >> (2 * q)) & 3) == v:
                return True
    return False


@inline_kernel
def _neighbour_row(r, m, rep, ss_cls, ss_sym, ss_fmask, flip_conj, sslice_move, flip_move):
    """The row move m takes row r to, and the symmetry that brings its twists into that row's
    frame."""
    ss1 = sslice_move[rep[r >> 11], m]
    k = ss_sym[ss1]
    return (np.int64(ss_cls[ss1]) << 11) | (flip_conj[k, flip_move[r & 2047, m]]
                                            ^ ss_fmask[ss1]), k


@kernel
def phase_forward(table, d, lo, hi, c_lo, c_hi, rep, stab, n_stab, rep_fmask, ss_cls, ss_sym,
                  ss_fmask, flip_conj, twist_conj, sslice_move, flip_move, twist_move, cancel):
    """Expand the depth-d entries of rows [lo, hi), setting only neighbours of classes
    [c_lo, c_hi) (a class's rows are the part of the table one thread owns)."""
    v = d % 3
    nv = (d + 1) % 3
    rows1 = np.empty(sslice_move.shape[1], np.int64)
    syms1 = np.empty(sslice_move.shape[1], np.int64)
    n = 0
    for r in range(lo, hi):
        if (r & (_CHECK_EVERY - 1)) == 0 and cancel[0]:
            break
        if not _row_has(table, r, v):
            continue
        for m in range(sslice_move.shape[1]):
            rows1[m], syms1[m] = _neighbour_row(r, m, rep, ss_cls, ss_sym, ss_fmask, flip_conj,
                                                sslice_move, flip_move)
        owned = False
        for m in range(sslice_move.shape[1]):
            c1 = rows1[m] >> 11
            if c_lo <= c1 < c_hi:
                owned = True
            else:
                rows1[m] = -1
        if not owned:
            continue
        base = r * ROW
        for t in range(N_TWIST):
            if get2(table, base + t) != v:
                continue
            for m in range(sslice_move.shape[1]):
                if rows1[m] < 0:
                    continue
                t1 = twist_conj[syms1[m], twist_move[t, m]]
                if get2(table, rows1[m] * ROW + t1) == UNKNOWN2:
                    n += _set_class_variants(table, rows1[m] >> 11, rows1[m] & 2047, t1, nv,
                                             stab, n_stab, rep_fmask, flip_conj, twist_conj)
    return n


@kernel
def phase_backward(table, d, lo, hi, rep, ss_cls, ss_sym, ss_fmask, flip_conj, twist_conj,
                   sslice_move, flip_move, twist_move, cancel):
    v = d % 3
    nv = (d + 1) % 3
    todo = np.empty(N_TWIST, np.int64)
    own = np.arange(N_TWIST)
    n = 0
    for r in range(lo, hi):
        if (r & (_CHECK_EVERY - 1)) == 0 and cancel[0]:
            break
        base = r * ROW
        k = 0
        for b in range(ROW_BYTES):
            x = table[r * ROW_BYTES + b]
            if (x & (x >> 1) & 0x55) == 0:
                continue
            for q in range(4):
                t = 4 * b + q
                if t < N_TWIST and ((x >> (2 * q)) & 3) == UNKNOWN2:
                    todo[k] = t
                    k += 1
        if k == 0:
            continue
        for m in range(sslice_move.shape[1]):
            row1, s = _neighbour_row(r, m, rep, ss_cls, ss_sym, ss_fmask, flip_conj, sslice_move,
                                     flip_move)
            left = settle2(table, todo, k, base, own, row1 * ROW, twist_conj[s], twist_move, m,
                           v, nv)
            n += k - left
            k = left
            if k == 0:
                break
    return n


def solved_coords() -> tuple[int, int, int]:
    """(sorted slice, flip, twist) of the solved cube (the shared coordinates are 0 there)."""
    return 0, 0, 0


def build_phase(ctx=None, max_depth: int | None = None, moves=None
                ) -> tuple[np.ndarray, LevelStats]:
    """The phase table (2-bit, distance mod 3), and how the build went. moves: the columns of
    the move tables that count as one move (all 18 face turns by default)."""
    load = ctx.load if ctx is not None else load_or_build
    st, mt = sym_tables(load), move_tables(load)
    sslice, flip, twist = move_columns(moves, mt.sslice, mt.flip, mt.twist)
    if st.n_classes != PHASE_CLASSES:
        raise AssertionError(f"{st.n_classes} sorted-slice classes, the layout says "
                             f"{PHASE_CLASSES}")
    cancel = ctx.cancel if ctx is not None else np.zeros(1, np.int32)
    table = new_packed2(n_rows() * ROW, ctx.check_cancel if ctx is not None else None)
    ss, f, t = solved_coords()
    j = phase_entry(ss, f, t, st.ss_cls, st.ss_sym, st.ss_fmask, st.flip_conj, st.twist_conj)
    row = j // ROW
    initial = _set_class_variants(table, row >> 11, row & 2047, j % ROW, 0, st.stab, st.n_stab,
                                  st.rep_fmask, st.flip_conj, st.twist_conj)

    parts = 2
    bounds = [PHASE_CLASSES * i // parts for i in range(parts + 1)]

    def forward(d, lo, hi, part):
        return phase_forward(table, d, lo, hi, bounds[part], bounds[part + 1], st.rep, st.stab,
                             st.n_stab, st.rep_fmask,
                             st.ss_cls, st.ss_sym, st.ss_fmask, st.flip_conj, st.twist_conj,
                             sslice, flip, twist, cancel)

    def backward(d, lo, hi):
        return phase_backward(table, d, lo, hi, st.rep, st.ss_cls, st.ss_sym, st.ss_fmask,
                              st.flip_conj, st.twist_conj, sslice, flip, twist, cancel)

    stats = run_levels(ctx, n_rows=n_rows(), total=n_entries(), initial=initial,
                       chunk_rows=8192, max_depth=max_depth, forward=forward, backward=backward,
                       forward_parts=parts)
    return table, stats


if __name__ == "__main__":
    import sys
    import time
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else None
    t0 = time.perf_counter()
    tab, stats = build_phase(None, max_depth=depth)
    print(f"{time.perf_counter() - t0:.1f} s, {tab.nbytes:,} bytes, depths {stats.counts}")
