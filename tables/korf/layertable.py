"""The layer table: coset distances of the layer coordinate, 2 bits above a base, and its builder.

Entries are (layer class, flip seen from the class representative, twist seen from it), as in
the exact-slice phase table, but each 64-byte line holds 254 entries and, in its last four bits,
the smallest distance among them (Rokicki's nxopt and Tronto's H48 do the like). An entry is 0
for a distance at most BASE, 1 or 2 for BASE + 1 or BASE + 2 exactly, 3 for BASE + 3 or more; a
0 is read as the line's minimum, which sits in the cache line just fetched. A row (class, flip)
is 9 lines: 2,187 twists in 2,286 slots, so rows start on line boundaries and the threads of
the builder never share a byte.

The builder is a breadth-first search to depth BASE + 2 through the shared driver (bfs.py):
while it runs, 1 marks the frontier, 2 the next level, 0 what is older and 3 what is unknown;
after each level a sweep turns 1 into 0 (noting the line's minimum the first time a line gets
an entry) and 2 into 1. Everything still unknown at the end is BASE + 3 or more. Between levels
the table alone is the build's state, so a long build keeps checkpoints of it
(tables/checkpoint.py) and a stopped one goes on from the last.
"""

from __future__ import annotations

import numpy as np

import cubelab.tables  # noqa: F401  (numba cache location, before numba)
from numba import njit

from ..bfs import LevelStats, run_levels
from ..packed import LOW_BITS, get2, lowest_bit, new_packed2, set2, settle2
from ..ranks import N_FLIP, N_TWIST
from ..store import load_or_build
from .. import movetables
from .layercoords import layer_tables

LAYER_CLASSES = {True: 2329, False: 45}
"""Classes of the layer values under the 16 UD symmetries, with the corner separation (34,650
values) and without it (the small variant, 495): checked by the builder."""
BASE = 9
"""Distances up to BASE share the code 0 (nxopt's choice for this coset space, half turns)."""
PER_LINE = 254
"""Entries in a 64-byte line; the last 4 bits hold their minimum distance."""
LINES_PER_ROW = -(-N_TWIST // PER_LINE)
SLOTS_PER_ROW = LINES_PER_ROW * 256
ROW_BYTES = LINES_PER_ROW * 64
ROW_WORDS = ROW_BYTES // 8
_MIN_BITS = np.uint64(0xF) << np.uint64(60)
"""A line's last 4 bits (its last word's top bits): the line's minimum, not entries."""
UNSET_MIN = 15
"""A line minimum not known yet (the packed table starts as all ones)."""
FRONTIER, NEXT, UNKNOWN = 1, 2, 3
_CHECK_EVERY = 256
LEVEL_STATE = "korf-layers/1"
"""What the table holds between levels (the codes above, the line minima set so far): change
it with them, so that a checkpoint of the old meaning is never resumed."""


def twist_slots() -> np.ndarray:
    """slot[t]: where twist t sits in its row (254 to a line, the line's last 2 slots skipped)."""
    t = np.arange(N_TWIST, dtype=np.int64)
    return (t // PER_LINE) * 256 + t % PER_LINE


def conj_slots(twist_conj: np.ndarray) -> np.ndarray:
    """(16, 2187) int32: the slot of twist t seen through symmetry k (conjugation and slot in
    one lookup, for the search)."""
    out = twist_slots()[np.asarray(twist_conj, np.int64)].astype(np.int32)
    out.flags.writeable = False
    return out


def table_base(max_depth: int | None) -> int:
    """The base of the full table, or of one built only max_depth deep (tests)."""
    if max_depth is None:
        return BASE
    if max_depth < 2:
        raise ValueError("a layer table needs a depth of at least 2")
    return min(BASE, max_depth - 2)


def n_rows(n_classes: int) -> int:
    return n_classes * N_FLIP


def n_bytes(n_classes: int) -> int:
    return n_rows(n_classes) * ROW_BYTES


@njit(cache=True, nogil=True, inline="always")
def entry_index(layer, flip, twist, info, flip_conj, cslot):
    """The 2-bit slot of a state's entry from its raw (layer, flip, twist)."""
    x = info[layer]
    k = (x >> 11) & 15
    row = (np.int64(x >> 15) << 11) | (flip_conj[k, flip] ^ (x & 2047))
    return row * SLOTS_PER_ROW + cslot[k, twist]


@njit(cache=True, nogil=True, inline="always")
def lower_bound(table, idx, base):
    """The distance bound an entry gives: base + code, or the line's minimum for code 0."""
    v = get2(table, idx)
    if v != 0:
        return base + v
    return table[((idx >> 8) << 6) + 63] >> 4


# ---- the builder ----------------------------------------------------------------------------

@njit(cache=True, nogil=True)
def _set_variants(table, c, f, t, value, stab, n_stab, rep_fmask, flip_conj, tslot_conj):
    """Set entry (class c, flip f, twist t) and its images under the symmetries fixing the class
    representative, where unknown; return how many were set."""
    n = 0
    for i in range(n_stab[c]):
        s = stab[c, i]
        j = ((np.int64(c) << 11) | (flip_conj[s, f] ^ rep_fmask[c, s])) * SLOTS_PER_ROW + \
            tslot_conj[s, t]
        if get2(table, j) == UNKNOWN:
            set2(table, j, value)
            n += 1
    return n


@njit(cache=True, nogil=True, inline="always")
def _row_mask(words, r, unknown, mask):
    """mask[w]: row r's entries in its word w that are UNKNOWN (unknown) or FRONTIER, one bit
    at each entry's low bit (a line's last 4 bits, its minimum, never count; the padding after
    a row's last twist is 0, see _clear_padding); returns whether any are."""
    any_ = np.uint64(0)
    for w in range(ROW_WORDS):
        x = words[r * ROW_WORDS + w]
        if (w & 7) == 7:
            x &= ~_MIN_BITS
        e = x & (x >> np.uint64(1)) if unknown else x & ~(x >> np.uint64(1))
        mask[w] = e & LOW_BITS
        any_ |= e & LOW_BITS
    return any_ != 0


@njit(cache=True, nogil=True, inline="always")
def _twist_at(w, b):
    """The twist of the entry at bit b of a row's word w (254 twists to a 256-slot line)."""
    s = w * 32 + np.int64(b >> np.uint64(1))
    return (s >> 8) * PER_LINE + (s & 255)


@njit(cache=True, nogil=True)
def _neighbour_rows(c, f, rep, layer_move, flip_move, info, flip_conj, rows1, syms1):
    v = rep[c]
    for m in range(18):
        v1 = layer_move[v, m]
        x = info[v1]
        k = (x >> 11) & 15
        syms1[m] = k
        rows1[m] = (np.int64(x >> 15) << 11) | (flip_conj[k, flip_move[f, m]] ^ (x & 2047))


@njit(cache=True, nogil=True)
def layer_level(table, lo, hi, forward, c_lo, c_hi, rep, stab, n_stab, rep_fmask, info,
                flip_conj, twist_conj, tslot_conj, layer_move, flip_move, twist_move, cancel):
    """One level over rows [lo, hi): forward, expand the frontier entries, setting only
    neighbours in classes [c_lo, c_hi) (the part of the table this thread owns); backward,
    unknown entries with a frontier neighbour become NEXT. Rows with nothing to do are skipped
    by a byte scan."""
    rows1 = np.empty(18, np.int64)
    syms1 = np.empty(18, np.int64)
    todo = np.empty(N_TWIST, np.int64)
    mask = np.empty(ROW_WORDS, np.uint64)
    words = table.view(np.uint64)
    n = 0
    for r in range(lo, hi):
        if (r & (_CHECK_EVERY - 1)) == 0 and cancel[0]:
            break
        if not _row_mask(words, r, not forward, mask):
            continue
        _neighbour_rows(r >> 11, r & 2047, rep, layer_move, flip_move, info, flip_conj, rows1,
                        syms1)
        if forward:
            n += _expand_row(table, mask, c_lo, c_hi, rows1, syms1, stab, n_stab, rep_fmask,
                             flip_conj, twist_conj, tslot_conj, twist_move)
        else:
            n += _fill_row(table, r, mask, rows1, syms1, todo, tslot_conj, twist_move)
    return n


@njit(cache=True, nogil=True)
def _expand_row(table, mask, c_lo, c_hi, rows1, syms1, stab, n_stab, rep_fmask, flip_conj,
                twist_conj, tslot_conj, twist_move):
    """Forward from the frontier entries in `mask` (a row's) into the neighbour rows this
    thread owns."""
    owned = False
    for m in range(18):
        if c_lo <= (rows1[m] >> 11) < c_hi:
            owned = True
        else:
            rows1[m] = -1
    if not owned:
        return 0
    n = 0
    for w in range(ROW_WORDS):
        rest = mask[w]
        while rest:
            t = _twist_at(w, lowest_bit(rest))
            rest &= rest - np.uint64(1)
            for m in range(18):
                if rows1[m] < 0:
                    continue
                t1 = twist_move[t, m]
                j = rows1[m] * SLOTS_PER_ROW + tslot_conj[syms1[m], t1]
                if get2(table, j) == UNKNOWN:
                    n += _set_variants(table, rows1[m] >> 11, rows1[m] & 2047,
                                       twist_conj[syms1[m], t1], NEXT, stab, n_stab, rep_fmask,
                                       flip_conj, tslot_conj)
    return n


@njit(cache=True, nogil=True)
def _fill_row(table, r, mask, rows1, syms1, todo, tslot_conj, twist_move):
    """Backward: row r's unknown entries (in `mask`) with a frontier neighbour become NEXT."""
    k = 0
    for w in range(ROW_WORDS):
        rest = mask[w]
        while rest:
            todo[k] = _twist_at(w, lowest_bit(rest))
            rest &= rest - np.uint64(1)
            k += 1
    base = r * SLOTS_PER_ROW
    tslot = tslot_conj[0]
    n = 0
    for m in range(18):
        left = settle2(table, todo, k, base, tslot, rows1[m] * SLOTS_PER_ROW,
                       tslot_conj[syms1[m]], twist_move, m, FRONTIER, NEXT)
        n += k - left
        k = left
        if k == 0:
            break
    return n


@njit(cache=True, nogil=True)
def _clear_padding(table, lo, hi):
    """The slots after the last twist of rows [lo, hi) read 0, so no scan takes them for
    unknown entries."""
    first = (LINES_PER_ROW - 1) * 256 + (N_TWIST - (LINES_PER_ROW - 1) * PER_LINE)
    for r in range(lo, hi):
        for s in range(first, (LINES_PER_ROW - 1) * 256 + PER_LINE):
            set2(table, r * SLOTS_PER_ROW + s, 0)


@njit(cache=True, nogil=True)
def _sweep_lut():
    """Byte -> byte turning each 2-bit FRONTIER into 0 and NEXT into FRONTIER."""
    lut = np.empty(256, np.uint8)
    for b in range(256):
        out = 0
        for q in range(4):
            v = (b >> (2 * q)) & 3
            if v == FRONTIER:
                v = 0
            elif v == NEXT:
                v = FRONTIER
            out |= v << (2 * q)
        lut[b] = out
    return lut


@njit(cache=True, nogil=True)
def layer_sweep(table, lo, hi, depth, promote):
    """After a level: in rows [lo, hi), a line with a FRONTIER entry and no minimum yet gets
    `depth` as its minimum; with promote, FRONTIER becomes 0 and NEXT becomes FRONTIER."""
    lut = _sweep_lut()
    for r in range(lo, hi):
        for line in range(LINES_PER_ROW):
            b0 = r * ROW_BYTES + line * 64
            has = False
            for b in range(64):
                x = table[b0 + b]
                if b == 63:
                    x &= 15
                # a byte has a FRONTIER (01) entry where a low bit is set and its high bit not
                if (x & ~(x >> 1) & 0x55) != 0:
                    has = True
                if promote:
                    if b == 63:
                        table[b0 + b] = (table[b0 + b] & 0xF0) | (lut[x] & 15)
                    else:
                        table[b0 + b] = lut[x]
            if has and (table[b0 + 63] >> 4) == UNSET_MIN:
                table[b0 + 63] = (table[b0 + 63] & 15) | (depth << 4)


@njit(cache=True, nogil=True)
def layer_finish(table, lo, hi, floor):
    """Lines that never got a minimum (every entry beyond the base) get `floor`."""
    for r in range(lo, hi):
        for line in range(LINES_PER_ROW):
            b = r * ROW_BYTES + line * 64 + 63
            if (table[b] >> 4) == UNSET_MIN:
                table[b] = (table[b] & 15) | (floor << 4)


SWEEP_PIECES = 64
"""Pieces each thread's half of the table is swept in, between which a build looks at its
cancel flag."""


def build_layers(ctx=None, max_depth: int | None = None,
                 corners: bool = True) -> tuple[np.ndarray, LevelStats]:
    """The layer table and how the build went. max_depth (tests) stops the search there: the
    table then reads BASE + 3 for everything deeper, so it is only admissible with a base no
    larger than max_depth - 2, which is the base such a table gets."""
    import threading
    load = ctx.load if ctx is not None else load_or_build
    base = table_base(max_depth)
    depth = base + 2
    lt = layer_tables(corners)
    if lt.n_classes != LAYER_CLASSES[corners]:
        raise AssertionError(f"{lt.n_classes} layer classes, the layout says "
                             f"{LAYER_CLASSES[corners]}")
    twist_move = np.asarray(load(movetables.TWIST))
    flip_move = np.asarray(load(movetables.FLIP))
    tslot_conj = conj_slots(lt.twist_conj)
    cancel = ctx.cancel if ctx is not None else np.zeros(1, np.int32)
    check = ctx.check_cancel if ctx is not None else None
    rows = n_rows(lt.n_classes)
    table = new_packed2(rows * SLOTS_PER_ROW, check)

    def over_rows(kernel, *args):
        # two threads, each over its half in pieces, the cancel flag looked at between pieces
        # (a sweep of the 2.8 GB table takes seconds, longer on a busy machine)
        half = -(-rows // 2)
        piece = max(1, -(-half // SWEEP_PIECES))

        def run(lo, hi):
            for start in range(lo, hi, piece):
                if cancel[0]:
                    return
                kernel(table, start, min(hi, start + piece), *args)

        threads = [threading.Thread(target=run, args=(lo, min(rows, lo + half)))
                   for lo in range(0, rows, half)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        if check is not None:
            check()

    over_rows(_clear_padding)
    x = int(lt.info[_solved_layer(lt.n_csep)])
    k = (x >> 11) & 15
    initial = _set_variants(table, x >> 15, int(lt.flip_conj[k, 0] ^ (x & 2047)),
                            int(lt.twist_conj[k, 0]), FRONTIER, lt.stab, lt.n_stab, lt.rep_fmask,
                            lt.flip_conj, tslot_conj)
    parts = 2
    bounds = [lt.n_classes * i // parts for i in range(parts + 1)]

    def level(forward, lo, hi, part=0):
        return layer_level(table, lo, hi, forward, bounds[part], bounds[part + 1], lt.rep,
                           lt.stab, lt.n_stab, lt.rep_fmask, lt.info, lt.flip_conj,
                           lt.twist_conj, tslot_conj, lt.layer_move, flip_move, twist_move,
                           cancel)

    def forward(d, lo, hi, part):
        return level(True, lo, hi, part)

    def backward(d, lo, hi):
        return level(False, lo, hi)

    def after_level(d):
        # level d made depth d + 1 (NEXT) from depth d (FRONTIER); depth base + 2 stays NEXT
        if d <= base:
            over_rows(layer_sweep, d, True)

    # between levels the table is the whole state (the sweep has run): a stopped build keeps
    # checkpoints of it and the next one goes on from there
    stats = run_levels(ctx, n_rows=rows, total=rows * N_TWIST, initial=initial,
                       chunk_rows=4096, max_depth=depth, forward=forward, backward=backward,
                       forward_parts=parts, after_level=after_level, state=table,
                       state_format=LEVEL_STATE)
    over_rows(layer_finish, base + 1)
    return table, stats


def _solved_layer(n_csep: int) -> int:
    from cubelab.cube.state import CubeState
    from .layercoords import layer_coords
    return layer_coords(CubeState.identity(), n_csep)[0]
