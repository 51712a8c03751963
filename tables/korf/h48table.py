"""The H48 table: distances of the 48-symmetric coset coordinate, 2 bits an entry, and its builder.

An entry is (corner class, membership, flip class) with the edge part seen from the corner
class's representative (h48coords). A row, one corner class and one membership, is the 256 flip
classes: 64 bytes, one cache line. An entry holds its distance mod 3, plus one (0: not reached,
so a table starts as zero pages the system maps only where the search writes, which lets the
tests build one a few moves deep in little memory); a search knows its parent's exact distance
and a move changes the distance by at most one, so the residue names the child's distance (the
builder's own frontier is read the same way).

The builder is a breadth-first search through the shared driver (bfs.py). Forward levels split
the work between the threads by the class an entry leads to, and also set the images of an entry
under the symmetries fixing its corner class's representative (the same position seen another
way); backward levels each settle the unknown entries of their own corner classes, so two
threads never write the same byte, and a position's images settle together because their
neighbours are images of each other.
"""

from __future__ import annotations

import numpy as np

from cubelab.tables.jit import inline_kernel, kernel

from ..bfs import LevelStats, run_levels
from ..memory import prefetch, zeroed
from ..packed import LOW_BITS, bit_count, get2, lowest_bit, set2
from .h48coords import N_CCLASS, N_ERAW, coords_of, corner_tables, edge_affine
from .h48probe import N_MEMBER, N_SYM, UNKNOWN, apply_affine, entry_index, moved, stand_ins

ROW_BYTES = 64
MAX_DISTANCE = 14
"""The largest distance in the table (1,603 entries; measured by the build)."""
TABLE_BYTES = N_CCLASS * N_MEMBER * ROW_BYTES
COMPOSE_AT = 24
"""Rows with at least this many entries to map get the composed flip map (measured: 15 % off a
backward level; the maps' 32 evaluations cost more on sparser rows)."""
AHEAD = 8
"""How many rows ahead the builder prefetches (8 and 16 measured the same)."""


def class_moves() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(trans[c, move] = new class * 64 + symmetry taking the moved representative to its own
    class's representative; stabs[c, :n_stab[c]] = the symmetries other than the identity fixing
    rep[c])."""
    ct = corner_tables()
    moved = ct.move[ct.rep].astype(np.int64)
    trans = (ct.cls[moved].astype(np.int64) << 6) | ct.sym_of[moved].astype(np.int64)
    stabs = np.zeros((N_CCLASS, N_SYM), np.int64)
    n_stab = np.zeros(N_CCLASS, np.int64)
    for c in range(N_CCLASS):
        fixers = [k for k in range(1, N_SYM) if int(ct.stab[c]) >> k & 1]
        stabs[c, :len(fixers)] = fixers
        n_stab[c] = len(fixers)
    return trans, stabs, n_stab




@inline_kernel
def _dest_word(mem_move, mem_conj, mv, k, m, c2):
    """Membership m after move mv (m1), then seen from class c2's representative through
    symmetry k (m2), and the first word of row (c2, m2)."""
    m1 = np.int64(mem_move[mv, m])
    m2 = np.int64(mem_conj[k, m1])
    return m1, m2, (c2 * N_MEMBER + m2) * 8


@kernel
def _masks(words, c, pattern, masks, active):
    """masks[m, q]: the entries of row (c, m), word q, whose code is `pattern` (one bit per
    entry, at the entry's low bit), active[m] how many; returns how many rows have any."""
    rows = 0
    for m in range(N_MEMBER):
        base = (c * N_MEMBER + m) * 8
        count = 0
        for q in range(8):
            x = words[base + q] ^ pattern
            eq = ~(x | (x >> np.uint64(1))) & LOW_BITS
            masks[m, q] = eq
            count += bit_count(eq)
        active[m] = count
        if count:
            rows += 1
    return rows


@inline_kernel
def _compose(flip_move, flip_conj, mv, m, k, m1, g):
    """g[:16], g[16:]: move mv's flip map then symmetry k's as one affine map (the lookups
    _apply makes), worth its 32 evaluations on a row with many entries to map."""
    g0 = apply_affine(flip_conj, k, m1, apply_affine(flip_move, mv, m, 0))
    for e in range(16):
        g[e] = apply_affine(flip_conj, k, m1, apply_affine(flip_move, mv, m, e))
        g[16 + e] = apply_affine(flip_conj, k, m1, apply_affine(flip_move, mv, m, e << 4)) ^ g0


@inline_kernel
def _row_ahead(rows, n_rows, j, mv, k, c2, mem_move, mem_conj, table, fc_flat, m1s, m2s):
    """Note row rows[j]'s destination under (mv, k) in m1s/m2s and prefetch what reading it
    needs, AHEAD rows before its turn: the destinations are scattered over a class's 2.2 MB."""
    if j < n_rows:
        m1, m2, w = _dest_word(mem_move, mem_conj, mv, k, rows[j], c2)
        m1s[j % AHEAD] = m1
        m2s[j % AHEAD] = m2
        prefetch(table, w * 8)
        prefetch(fc_flat, (k * N_MEMBER + m1) * 32)


@inline_kernel
def _rows_first(rows, n_rows, mv, k, c2, mem_move, mem_conj, table, fc_flat, m1s, m2s):
    """The first AHEAD rows' destinations, noted and prefetched before the first turn."""
    for i in range(AHEAD):
        _row_ahead(rows, n_rows, i, mv, k, c2, mem_move, mem_conj, table, fc_flat, m1s, m2s)


@inline_kernel
def _row_turn(j, rows, n_rows, mv, k, c2, mem_move, mem_conj, table, fc_flat, m1s, m2s):
    """Row rows[j]'s turn: (m1, m2) as noted AHEAD rows before, with the row AHEAD further on
    noted and prefetched in its turn."""
    m1 = m1s[j % AHEAD]
    m2 = m2s[j % AHEAD]
    _row_ahead(rows, n_rows, j + AHEAD, mv, k, c2, mem_move, mem_conj, table, fc_flat, m1s, m2s)
    return m1, m2


@kernel
def _scratch():
    """A builder thread's working arrays: (masks, active, rows, m1s, m2s, g)."""
    return (np.zeros((N_MEMBER, 8), np.uint64), np.zeros(N_MEMBER, np.int64),
            np.zeros(N_MEMBER, np.int64), np.zeros(AHEAD, np.int64), np.zeros(AHEAD, np.int64),
            np.zeros(32, np.int64))


@inline_kernel
def _list_rows(active, rows):
    """rows[:n] = the memberships whose rows have entries left; returns n."""
    n = 0
    for m in range(N_MEMBER):
        if active[m]:
            rows[n] = m
            n += 1
    return n


@inline_kernel
def _flip_dest(composed, g, flip_move, flip_conj, mv, m, k, m1, x):
    """Flip class x of row m after move mv and symmetry k."""
    if composed:
        return g[x & 15] ^ g[16 + (x >> 4)]
    return apply_affine(flip_conj, k, m1, apply_affine(flip_move, mv, m, x))


@kernel
def _forward(table, words, d, lo, hi, part, parts, trans, stabs, n_stab, mem_move, flip_move,
             mem_conj, flip_conj, cancel):
    """Expand the entries of classes [lo, hi) whose code is d mod 3 (older entries with the same
    code only find known neighbours), setting the neighbours in classes c2 = part mod parts;
    returns the entries set to d + 1. One move at a time, so the writes stay in one class's
    2.2 MB; each row's entries are walked by their set bits."""
    pattern = np.uint64(d % 3 + 1) * LOW_BITS
    new = np.uint64((d + 1) % 3 + 1)
    n = 0
    masks, active, rows, m1s, m2s, g = _scratch()
    fc_flat = flip_conj.reshape(-1)
    for c in range(lo, hi):
        if cancel[0]:
            return n
        if _masks(words, c, pattern, masks, active) == 0:
            continue
        n_rows = _list_rows(active, rows)
        for mv in range(trans.shape[1]):
            t = trans[c, mv]
            c2 = t >> 6
            if c2 % parts != part:
                continue
            k = t & 63
            ns = n_stab[c2]
            _rows_first(rows, n_rows, mv, k, c2, mem_move, mem_conj, table, fc_flat, m1s, m2s)
            for j in range(n_rows):
                m = rows[j]
                m1, m2 = _row_turn(j, rows, n_rows, mv, k, c2, mem_move, mem_conj, table, fc_flat,
                                   m1s, m2s)
                dw = (c2 * N_MEMBER + m2) * 8
                composed = active[m] >= COMPOSE_AT
                if composed:
                    _compose(flip_move, flip_conj, mv, m, k, m1, g)
                for q in range(8):
                    rest = masks[m, q]
                    while rest:
                        b = lowest_bit(rest)
                        rest &= rest - np.uint64(1)
                        x = q * 32 + np.int64(b >> np.uint64(1))
                        f2 = _flip_dest(composed, g, flip_move, flip_conj, mv, m, k, m1, x)
                        wi = dw + (f2 >> 5)
                        shift = np.uint64(2 * (f2 & 31))
                        w = words[wi]
                        fresh = ((w >> shift) & np.uint64(3)) == UNKNOWN
                        words[wi] = w | (np.uint64(fresh) * new << shift)
                        n += np.int64(fresh)
                        if ns and fresh:
                            for s in range(ns):
                                sk = stabs[c2, s]
                                i3 = (c2 * N_MEMBER + mem_conj[sk, m2]) * 256 + \
                                    apply_affine(flip_conj, sk, m2, f2)
                                if get2(table, i3) == UNKNOWN:
                                    set2(table, i3, new)
                                    n += 1
    return n


@kernel
def _backward(table, words, d, lo, hi, trans, mem_move, flip_move, mem_conj, flip_conj, cancel):
    """Settle the unknown entries of classes [lo, hi) having a neighbour at depth d, one move
    at a time (the reads stay in one class's 2.2 MB); returns how many. A row's hits are
    gathered in a mask and written a word at a time."""
    want = np.uint64(d % 3 + 1)
    new = np.uint64((d + 1) % 3 + 1)
    n = 0
    masks, active, rows, m1s, m2s, g = _scratch()
    fc_flat = flip_conj.reshape(-1)
    unknown = np.uint64(UNKNOWN) * LOW_BITS
    for c in range(lo, hi):
        if cancel[0]:
            return n
        _masks(words, c, unknown, masks, active)
        for mv in range(trans.shape[1]):
            n_rows = _list_rows(active, rows)
            if n_rows == 0:
                break
            t = trans[c, mv]
            c2 = t >> 6
            k = t & 63
            _rows_first(rows, n_rows, mv, k, c2, mem_move, mem_conj, table, fc_flat, m1s, m2s)
            for j in range(n_rows):
                m = rows[j]
                m1, m2 = _row_turn(j, rows, n_rows, mv, k, c2, mem_move, mem_conj, table, fc_flat,
                                   m1s, m2s)
                composed = active[m] >= COMPOSE_AT
                if composed:
                    _compose(flip_move, flip_conj, mv, m, k, m1, g)
                dw = (c2 * N_MEMBER + m2) * 8
                rw = (c * N_MEMBER + m) * 8
                for q in range(8):
                    u = masks[m, q]
                    found = np.uint64(0)
                    rest = u
                    while rest:
                        b = lowest_bit(rest)
                        rest &= rest - np.uint64(1)
                        x = q * 32 + np.int64(b >> np.uint64(1))
                        f2 = _flip_dest(composed, g, flip_move, flip_conj, mv, m, k, m1, x)
                        v = (words[dw + (f2 >> 5)] >> np.uint64(2 * (f2 & 31))) & np.uint64(3)
                        found |= np.uint64(v == want) << b
                    if found:
                        words[rw + q] |= found * new
                        masks[m, q] = u & ~found
                        hits = np.int64(bit_count(found))
                        active[m] -= hits
                        n += hits
    return n


def operation_first(af) -> tuple[np.ndarray, ...]:
    """The affine maps with the operation first, as the builder reads them: one pass handles
    one move or symmetry over many memberships."""
    return tuple(np.ascontiguousarray(np.moveaxis(a, 1, 0)) for a in af)


def seed(table: np.ndarray) -> None:
    """Set the solved position's entry: distance 0 (code 1)."""
    set2(table, solved_index(), 1)


def build(ctx=None, threads: int = 2,
          max_depth: int | None = None) -> tuple[np.ndarray, LevelStats]:
    """The whole table (7.5 GB) and how the levels went; max_depth stops after that level
    (tests: the entries further away stay unknown, and only the pages written cost memory)."""
    trans, stabs, n_stab = class_moves()
    af = edge_affine()
    table = zeroed(TABLE_BYTES, huge_pages=max_depth is None)
    words = table.view(np.uint64)
    seed(table)
    cancel = ctx.cancel if ctx is not None else np.zeros(1, np.int32)
    aff = operation_first(af)

    def forward(d, lo, hi, part):
        return _forward(table, words, d, lo, hi, part, threads, trans, stabs, n_stab, *aff,
                        cancel)

    def backward(d, lo, hi):
        return _backward(table, words, d, lo, hi, trans, *aff, cancel)

    stats = run_levels(ctx, n_rows=N_CCLASS, total=N_CCLASS * N_ERAW, initial=1, chunk_rows=1,
                       forward=forward, backward=backward, max_depth=max_depth,
                       threads=threads, forward_parts=threads)
    return table, stats


# ---- reading the table in a search -----------------------------------------------------------
@kernel
def distance(table, cr, m, f, look):
    """The exact distance of a coordinate, found by walking down to the solved entry (at most
    14 steps of 18 probes: a root's cost, not a node's); the table's depth + 1 beyond it."""
    cmove, cls, sym_of, mem_move, flip_move, mem_conj, flip_conj, solved, unknown = look
    cr = np.int64(cr)
    m = np.int64(m)
    f = np.int64(f)
    d = 0
    while True:
        i = entry_index(cr, m, f, cls, sym_of, mem_conj, flip_conj)
        v = get2(table, i)
        if v == UNKNOWN:
            return unknown
        if i == solved:
            return d
        want = (v + 1) % 3 + 1     # the residue of one move closer, plus one
        for mv in range(cmove.shape[1]):
            c2, m2, f2 = moved(cr, m, f, mv, cmove, mem_move, flip_move)
            if get2(table, entry_index(c2, m2, f2, cls, sym_of, mem_conj, flip_conj)) == want:
                cr, m, f = c2, m2, f2
                break
        else:
            return 0   # no neighbour one closer: a damaged table; 0 is the safe bound
        d += 1


def solved_index() -> int:
    """The solved cube's entry."""
    from cubelab.cube.state import CubeState
    ct, af = corner_tables(), edge_affine()
    c_raw, e_raw = coords_of(CubeState.identity())
    m, f = divmod(e_raw, 256)
    return int(entry_index(c_raw, m, f, ct.cls, ct.sym_of, af.mem_conj, af.flip_conj))


def lookup_arrays(small: bool = False, max_depth: int | None = None) -> tuple:
    """What a search reads beside the table: (corner moves, corner classes, their symmetries,
    membership moves, flip maps, membership conjugations, flip conjugations, solved entry,
    the bound an unknown entry gives: the table's depth + 1); small=True gives stand-ins of
    the same types for searches without the table."""
    if small:
        return stand_ins()
    ct, af = corner_tables(), edge_affine()
    return (ct.move, ct.cls, ct.sym_of, af.mem_move, af.flip_move, af.mem_conj, af.flip_conj,
            solved_index(), (MAX_DISTANCE if max_depth is None else max_depth) + 1)
