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

from cubelab.tables.jit import inline_kernel, kernel

from ..bfs import LevelStats, run_levels
from ..memory import prefetch
from ..packed import LOW_BITS, get2, lowest_bit, new_packed2, set2
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


@inline_kernel
def entry_index(layer, flip, twist, info, flip_conj, cslot):
    """The 2-bit slot of a state's entry from its raw (layer, flip, twist)."""
    x = info[layer]
    k = (x >> 11) & 15
    row = (np.int64(x >> 15) << 11) | (flip_conj[k, flip] ^ (x & 2047))
    return row * SLOTS_PER_ROW + cslot[k, twist]


@inline_kernel
def lower_bound(table, idx, base):
    """The distance bound an entry gives: base + code, or the line's minimum for code 0."""
    v = get2(table, idx)
    if v != 0:
        return base + v
    return table[((idx >> 8) << 6) + 63] >> 4


# ---- the builder ----------------------------------------------------------------------------

@kernel
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


@inline_kernel
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


@kernel
def _neighbour_rows(c, f, rep, layer_move, flip_move, info, flip_conj, rows1, syms1):
    v = rep[c]
    for m in range(18):
        v1 = layer_move[v, m]
        x = info[v1]
        k = (x >> 11) & 15
        syms1[m] = k
        rows1[m] = (np.int64(x >> 15) << 11) | (flip_conj[k, flip_move[f, m]] ^ (x & 2047))


def slot_moves(twist_move: np.ndarray, tslot_conj: np.ndarray) -> np.ndarray:
    """(16, 18, SLOTS_PER_ROW) uint16: the slot that the entry in slot s goes to under move m
    seen through symmetry k (its twist moved, conjugated and placed in one lookup; the padding
    slots read 0). The builder's probes read this instead of three tables in a row."""
    slots = twist_slots()
    moved = np.asarray(tslot_conj, np.int64)[:, np.asarray(twist_move, np.int64).T]
    out = np.zeros((tslot_conj.shape[0], twist_move.shape[1], SLOTS_PER_ROW), np.uint16)
    out[:, :, slots] = moved
    return out


@inline_kernel
def _slot_twist(s):
    """The twist in slot s of a row."""
    return (s >> 8) * PER_LINE + (s & 255)


@kernel
def _next_row(words, r, hi, unknown, active, mask, rep, layer_move, flip_move, info, flip_conj,
              rows1, syms1):
    """The first row from r below hi with entries to look at (see _row_mask, which fills
    `mask`), its neighbour rows in rows1/syms1; hi if none. Looking for the frontier, the rows
    the last sweep saw no frontier in (active[r] == 0) are not read."""
    while r < hi:
        if (unknown or active[r]) and _row_mask(words, r, unknown, mask):
            _neighbour_rows(r >> 11, r & 2047, rep, layer_move, flip_move, info, flip_conj, rows1,
                            syms1)
            return r
        r += 1
    return hi


@kernel
def layer_level(table, lo, hi, forward, active, c_lo, c_hi, rep, stab, n_stab, rep_fmask, info,
                flip_conj, tslot_conj, layer_move, flip_move, slot_move, cancel):
    """One level over rows [lo, hi): forward, expand the frontier entries, setting only
    neighbours in classes [c_lo, c_hi) (the part of the table this thread owns); backward,
    unknown entries with a frontier neighbour become NEXT. Rows with nothing to do are skipped
    by a scan of their words.

    A level reads the table at random (the 18 neighbour rows of each row, 2.75 GB apart), so
    the rows are pipelined: while one row is worked on, the table lines the next one will read
    are already being fetched (a prefetch of every one), instead of a miss at a time."""
    words = table.view(np.uint64)
    rows1 = np.empty((2, 18), np.int64)
    syms1 = np.empty((2, 18), np.int64)
    mask = np.empty((2, ROW_WORDS), np.uint64)
    todo = np.empty(SLOTS_PER_ROW, np.int64)
    staged = np.empty((2, N_TWIST * 18), np.int64)
    n_staged = np.zeros(2, np.int64)
    n = 0
    cur = 0
    r = _next_row(words, lo, hi, not forward, active, mask[cur], rep, layer_move, flip_move, info,
                  flip_conj, rows1[cur], syms1[cur])
    if r < hi and forward:
        n_staged[cur] = _stage_row(table, mask[cur], c_lo, c_hi, rows1[cur], syms1[cur],
                                   slot_move, staged[cur])
    elif r < hi:
        _prefetch_rows(table, rows1[cur])
    checked = lo
    while r < hi:
        if r - checked >= _CHECK_EVERY:
            checked = r
            if cancel[0]:
                break
        nxt = 1 - cur
        r1 = _next_row(words, r + 1, hi, not forward, active, mask[nxt], rep, layer_move,
                       flip_move, info, flip_conj, rows1[nxt], syms1[nxt])
        if forward:
            if r1 < hi:
                n_staged[nxt] = _stage_row(table, mask[nxt], c_lo, c_hi, rows1[nxt],
                                           syms1[nxt], slot_move, staged[nxt])
            n += _expand_staged(table, staged[cur], n_staged[cur], stab, n_stab, rep_fmask,
                                flip_conj, tslot_conj)
        else:
            if r1 < hi:
                _prefetch_rows(table, rows1[nxt])
            n += _fill_row(table, words, r, mask[cur], rows1[cur], syms1[cur], todo, slot_move)
        r = r1
        cur = nxt
    return n


@inline_kernel
def _prefetch_rows(table, rows1):
    """Start fetching every line of the 18 rows in rows1."""
    for m in range(18):
        b = rows1[m] * ROW_BYTES
        for line in range(LINES_PER_ROW):
            prefetch(table, b + line * 64)


@kernel
def _stage_row(table, mask, c_lo, c_hi, rows1, syms1, slot_move, staged):
    """Forward, first half: the neighbour entries of a row's frontier entries (in `mask`) that
    this thread owns, into `staged`, with a prefetch of each; returns how many."""
    k = 0
    for w in range(ROW_WORDS):
        rest = mask[w]
        while rest:
            s = w * 32 + np.int64(lowest_bit(rest) >> np.uint64(1))
            rest &= rest - np.uint64(1)
            for m in range(18):
                c1 = rows1[m] >> 11
                if c1 < c_lo or c1 >= c_hi:
                    continue
                j = rows1[m] * SLOTS_PER_ROW + slot_move[syms1[m], m, s]
                prefetch(table, j >> 2)
                staged[k] = j
                k += 1
    return k


@kernel
def _expand_staged(table, staged, k, stab, n_stab, rep_fmask, flip_conj, tslot_conj):
    """Forward, second half: each staged neighbour entry still unknown becomes NEXT, with its
    images under the symmetries fixing its class representative (see _set_variants; an entry's
    slot says its twist as seen from the representative)."""
    n = 0
    for i in range(k):
        j = staged[i]
        if get2(table, j) != UNKNOWN:
            continue
        row = j // SLOTS_PER_ROW
        c1 = row >> 11
        if n_stab[c1] == 1:
            set2(table, j, NEXT)
            n += 1
        else:
            n += _set_variants(table, c1, row & 2047, _slot_twist(j - row * SLOTS_PER_ROW),
                               NEXT, stab, n_stab, rep_fmask, flip_conj, tslot_conj)
    return n


@kernel
def _fill_row(table, words, r, mask, rows1, syms1, todo, slot_move):
    """Backward: row r's unknown entries (in `mask`) with a frontier neighbour become NEXT.
    The probes only shorten the list of entries still looking (no write to the table in the
    loop, whose byte updates chained through memory); the entries found are then set a word
    at a time (UNKNOWN 11 -> NEXT 10 is clearing the low bit)."""
    k = 0
    for w in range(ROW_WORDS):
        rest = mask[w]
        while rest:
            todo[k] = w * 32 + np.int64(lowest_bit(rest) >> np.uint64(1))
            rest &= rest - np.uint64(1)
            k += 1
    n0 = k
    for m in range(18):
        nb = rows1[m] * SLOTS_PER_ROW
        sm = slot_move[syms1[m], m]
        left = 0
        for i in range(k):
            s = todo[i]
            j = nb + sm[s]
            hit = ((table[j >> 2] >> ((j & 3) << 1)) & 3) == FRONTIER
            todo[left] = s
            left += 1 - np.int64(hit)
        k = left
        if k == 0:
            break
    # the entries still looking leave the mask: what is left there was found
    for i in range(k):
        s = todo[i]
        mask[s >> 5] &= ~(np.uint64(1) << np.uint64((s & 31) << 1))
    for w in range(ROW_WORDS):
        if mask[w]:
            words[r * ROW_WORDS + w] &= ~mask[w]
    return n0 - k


@kernel
def _clear_padding(table, lo, hi):
    """The slots after the last twist of rows [lo, hi) read 0, so no scan takes them for
    unknown entries."""
    first = (LINES_PER_ROW - 1) * 256 + (N_TWIST - (LINES_PER_ROW - 1) * PER_LINE)
    for r in range(lo, hi):
        for s in range(first, (LINES_PER_ROW - 1) * 256 + PER_LINE):
            set2(table, r * SLOTS_PER_ROW + s, 0)


@kernel
def layer_sweep(table, lo, hi, depth, promote, active):
    """After a level: in rows [lo, hi), a line with a FRONTIER entry and no minimum yet gets
    `depth` as its minimum; with promote, FRONTIER becomes 0 and NEXT becomes FRONTIER, and
    active[r] says whether row r now has a FRONTIER entry (the next level's forward pass reads
    only those rows: the early levels' frontiers are a few rows of millions). A word
    (32 entries) at a time: with h and l the high and low bits of each entry, the new entry is
    (h & l, h) (00, 01 -> 00; 10 -> 01; 11 stays); a word left as it was is not written back,
    so the lines nothing reached are only read."""
    words = table.view(np.uint64)
    one = np.uint64(1)
    unset = np.uint64(UNSET_MIN) << np.uint64(60)
    mark = np.uint64(depth) << np.uint64(60)
    for r in range(lo, hi):
        nxt = np.uint64(0)
        for line in range(LINES_PER_ROW):
            w0 = (r * LINES_PER_ROW + line) * 8
            has = np.uint64(0)
            for q in range(8):
                x = words[w0 + q]
                e = x & ~_MIN_BITS if q == 7 else x
                lo_ = e & LOW_BITS
                hi_ = (e >> one) & LOW_BITS
                has |= lo_ & ~hi_
                nxt |= hi_ & ~lo_
                if promote:
                    y = hi_ | ((hi_ & lo_) << one) | (x & ~e)
                    if y != x:
                        words[w0 + q] = y
            if has != 0 and (words[w0 + 7] & _MIN_BITS) == unset:
                words[w0 + 7] = (words[w0 + 7] & ~_MIN_BITS) | mark
        if promote:
            active[r] = nxt != 0


@kernel
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
    slot_move = slot_moves(twist_move, tslot_conj)
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
    # rows that may hold a FRONTIER entry, as the last sweep saw them (all, before the first:
    # a resumed build starts from the table alone)
    active = np.ones(rows, np.uint8)
    parts = 2
    bounds = [lt.n_classes * i // parts for i in range(parts + 1)]

    def level(forward, lo, hi, part=0):
        return layer_level(table, lo, hi, forward, active, bounds[part], bounds[part + 1], lt.rep,
                           lt.stab, lt.n_stab, lt.rep_fmask, lt.info, lt.flip_conj,
                           tslot_conj, lt.layer_move, flip_move, slot_move, cancel)

    def forward(d, lo, hi, part):
        return level(True, lo, hi, part)

    def backward(d, lo, hi):
        return level(False, lo, hi)

    def after_level(d):
        # level d made depth d + 1 (NEXT) from depth d (FRONTIER); depth base + 2 stays NEXT
        if d <= base:
            over_rows(layer_sweep, d, True, active)

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
