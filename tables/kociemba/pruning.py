"""Kociemba's pruning tables, built breadth-first by the shared level driver (cubelab.tables.bfs).

Two big symmetry-reduced tables store the exact distance mod 3 in 2 bits (3 = not reached yet):
phase 1 over (flip-slice class, twist) and phase 2 over (corner-permutation class, UD-edge
permutation). The search recovers exact distances from the mod-3 values because one move
changes a distance by at most one. Four small tables store exact distances in bytes: twist x
slice slots and flip x slice slots for phase 1, corner permutation x slice permutation and
UD-edge permutation x slice permutation for phase 2.

Two more are made from the mod-3 ones for the search's speed (sections at the end): per phase-1
entry, which moves bring the distance closer or further (3 bytes, 423 MB), and the exact phase-2
distance in 4 bits (56 MB).

The big builds sweep class by class: for one class and one move, every neighbour lands in one
class's block (a few hundred bytes to 10 kB), so the sweeps stay in cache. A row of the driver is
one class; rows are handed out in multiples of four classes so that two threads never share a
byte of the 2-bit table (a phase-1 block is 2,187 entries).
"""

from __future__ import annotations

import numpy as np

from cubelab.tables.jit import inline_kernel, kernel

from ..bfs import pair_distances, run_levels
from ..packed import UNKNOWN2, UNKNOWN4, get2, get4, new_packed2, new_packed4, set2, set4
from ..ranks import N_PERM4, N_PERM8, N_TWIST

_CHECK_EVERY = 64
_CHUNK_CLASSES = 256


@kernel
def _fill_images(table, base, t, stab, conj, value):
    """Set the entries that a stabilizing symmetry of the class's representative makes equal."""
    n = 0
    for k in range(1, 16):
        if (stab >> k) & 1:
            idx = base + conj[t, k]
            if get2(table, idx) == UNKNOWN2:
                set2(table, idx, value)
                n += 1
    return n


@kernel
def _sweep_block(table, c, size, nmoves, ncls, nsym, coord_move, conj, stab, cur, nxt, backward,
                 c_lo, c_hi):
    """One depth step over the block of class c (size entries): forward, mark the unreached
    neighbours of entries at `cur` that lie in classes [c_lo, c_hi); backward, mark unreached
    entries with a neighbour at `cur`. Move k sends the class to ncls[k] (through symmetry
    nsym[k]) and the coordinate x to conj[coord_move[x, k], nsym[k]]. Returns the entries set."""
    base = c * size
    added = 0
    for x in range(size):
        val = get2(table, base + x)
        if backward:
            if val != UNKNOWN2:
                continue
            for k in range(nmoves):
                x2 = conj[coord_move[x, k], nsym[k]]
                if get2(table, ncls[k] * size + x2) == cur:
                    set2(table, base + x, nxt)
                    added += 1 + _fill_images(table, base, x, stab[c], conj, nxt)
                    break
        else:
            if val != cur:
                continue
            for k in range(nmoves):
                if ncls[k] < c_lo or ncls[k] >= c_hi:
                    continue
                x2 = conj[coord_move[x, k], nsym[k]]
                nb = ncls[k] * size
                if get2(table, nb + x2) == UNKNOWN2:
                    set2(table, nb + x2, nxt)
                    added += 1 + _fill_images(table, nb, x2, stab[ncls[k]], conj, nxt)
    return added


@kernel
def phase1_sweep(table, d, lo, hi, c_lo, c_hi, backward, fs_cls, fs_rep, fs_stab, flip_move,
                 slice_move, twist_move, twist_conj, cancel):
    """Depth d -> d + 1 over the classes [lo, hi) of the phase-1 table (flip-slice class x twist,
    the twist seen from the class representative)."""
    ncls = np.empty(18, np.int64)
    nsym = np.empty(18, np.int64)
    added = 0
    for c in range(lo, hi):
        if (c & (_CHECK_EVERY - 1)) == 0 and cancel[0]:
            break
        rep = fs_rep[c]
        comb = rep // 2048
        flip = rep % 2048
        for m in range(18):
            v = fs_cls[(slice_move[comb * 24, m] // 24) * 2048 + flip_move[flip, m]]
            ncls[m] = v >> 4
            nsym[m] = v & 15
        added += _sweep_block(table, c, N_TWIST, 18, ncls, nsym, twist_move, twist_conj, fs_stab,
                              d % 3, (d + 1) % 3, backward, c_lo, c_hi)
    return added


@kernel
def phase2_sweep(table, d, lo, hi, c_lo, c_hi, backward, cp_cls, cp_rep, cp_stab, cp_move,
                 edge8_move, edge8_conj, p2moves, cancel):
    """Depth d -> d + 1 over the classes [lo, hi) of the phase-2 table (corner-permutation class
    x UD-edge permutation seen from the representative)."""
    ncls = np.empty(10, np.int64)
    nsym = np.empty(10, np.int64)
    added = 0
    for c in range(lo, hi):
        if cancel[0]:
            break
        rep = cp_rep[c]
        for k in range(10):
            v = cp_cls[cp_move[rep, p2moves[k]]]
            ncls[k] = v >> 4
            nsym[k] = v & 15
        added += _sweep_block(table, c, N_PERM8, 10, ncls, nsym, edge8_move, edge8_conj, cp_stab,
                              d % 3, (d + 1) % 3, backward, c_lo, c_hi)
    return added


def _symmetric_table(ctx, nclass, size, stab0, conj, sweep) -> np.ndarray:
    """Run the driver over a 2-bit table of nclass blocks of `size` entries from the solved
    entry 0; sweep(table, d, lo, hi, c_lo, c_hi, backward) does one chunk."""
    table = new_packed2(nclass * size, ctx.check_cancel if ctx is not None else None)
    set2(table, 0, 0)
    initial = 1 + _fill_images(table, 0, 0, stab0, conj, 0)
    half = (nclass // 2) // 4 * 4
    parts = ((0, half), (half, nclass))
    run_levels(ctx, n_rows=nclass, total=nclass * size, initial=initial,
               chunk_rows=_CHUNK_CLASSES, forward_parts=len(parts),
               forward=lambda d, lo, hi, part: sweep(table, d, lo, hi, *parts[part], False),
               backward=lambda d, lo, hi: sweep(table, d, lo, hi, 0, nclass, True))
    return table


def _built(ctx, sweep, size, rep, stab, conj, *tables) -> np.ndarray:
    """The symmetric table of len(rep) classes x `size`, each chunk done by
    sweep(table, d, lo, hi, c_lo, c_hi, backward, *tables, cancel)."""
    cancel = ctx.cancel
    return _symmetric_table(
        ctx, len(rep), size, stab[0], conj,
        lambda table, d, lo, hi, c_lo, c_hi, back: sweep(table, d, lo, hi, c_lo, c_hi, back,
                                                         *tables, cancel))


def build_phase1(ctx, fs_cls, fs_rep, fs_stab, flip_move, slice_move, twist_move,
                 twist_conj) -> np.ndarray:
    """2-bit table over class * 2187 + twist (twist conjugated into the class's frame)."""
    return _built(ctx, phase1_sweep, N_TWIST, fs_rep, fs_stab, twist_conj, fs_cls, fs_rep,
                  fs_stab, flip_move, slice_move, twist_move, twist_conj)


def build_phase2(ctx, cp_cls, cp_rep, cp_stab, cp_move, edge8_move, edge8_conj,
                 p2moves) -> np.ndarray:
    """2-bit table over corner class * 40320 + UD-edge permutation (conjugated into the frame)."""
    return _built(ctx, phase2_sweep, N_PERM8, cp_rep, cp_stab, edge8_conj, cp_cls, cp_rep,
                  cp_stab, cp_move, edge8_move, edge8_conj, p2moves)


def build_perm_slice(ctx, perm_move, slice_move) -> np.ndarray:
    """Exact phase-2 distance (bytes) over perm * 24 + slice permutation, both move tables over
    the ten phase-2 moves."""
    return pair_distances(perm_move, np.asarray(slice_move)[:N_PERM4], [0], ctx)


def build_coord_slice(ctx, coord_move, slice_move) -> np.ndarray:
    """Exact phase-1 distance (bytes) over coord * 495 + slice slots, for twist or flip: a
    small, cache-resident lower bound the search asks before the big table."""
    comb_move = np.asarray(slice_move)[::24] // 24
    return pair_distances(coord_move, comb_move, [0], ctx)


# ---- phase 1: which moves change the distance, per entry -------------------------------------
#
# A 24-bit word per phase-1 entry (3 bytes, little-endian), one 4-bit group per face: bits 0-2
# say whether the face's quarter turn, half turn and inverse quarter turn change the distance,
# bit 3 whether those that do bring it one closer (set) or one further (clear). One sign per face
# is enough: the three turns of a face are one move from each other, so their distances differ
# by at most one and cannot include both one closer and one further than the entry's own.
# With the parent's exact distance a search then knows every child's exact distance from the
# parent's one entry, and computes coordinates only of the children that stay within the bound.

P1_MOVE_BYTES = 3


@inline_kernel
def move_change(word, m):
    """-1, 0 or +1: how face turn m changes the distance of the entry whose word is given (m in
    the entry's own frame)."""
    g = (word >> (4 * (m // 3))) & 15
    if (g >> (m % 3)) & 1 == 0:
        return 0
    return -1 if g & 8 else 1


@inline_kernel
def move_word(table, j):
    """The 24-bit word of entry j."""
    b = j * P1_MOVE_BYTES
    return np.int64(table[b]) | (np.int64(table[b + 1]) << 8) | (np.int64(table[b + 2]) << 16)


@kernel
def phase1_move_words(out, lo, hi, p1, fs_cls, fs_rep, flip_move, slice_move, twist_move,
                      twist_conj):
    """Fill the words of the classes [lo, hi) from the mod-3 phase-1 table p1 (a move changes
    the distance by the difference of the two values mod 3). Returns -1, or the first entry
    found inconsistent (a face with both signs, or an unreached entry: a damaged p1)."""
    ncls = np.empty(18, np.int64)
    nsym = np.empty(18, np.int64)
    for c in range(lo, hi):
        rep = fs_rep[c]
        comb = rep // 2048
        flip = rep % 2048
        for m in range(18):
            v = fs_cls[(slice_move[comb * 24, m] // 24) * 2048 + flip_move[flip, m]]
            ncls[m] = (v >> 4) * N_TWIST
            nsym[m] = v & 15
        for x in range(N_TWIST):
            j = c * N_TWIST + x
            own = get2(p1, j)
            if own == UNKNOWN2:
                return j
            word = 0
            for f in range(6):
                g = 0
                for q in range(3):
                    m = 3 * f + q
                    val = get2(p1, ncls[m] + twist_conj[twist_move[x, m], nsym[m]])
                    if val == UNKNOWN2:
                        return j
                    diff = (val - own + 3) % 3
                    if diff == 0:
                        continue
                    g |= 1 << q
                    sign = 8 if diff == 2 else 0
                    if g > 1 << q and (g & 8) != sign:
                        return j
                    g = (g & 7) | sign
                word |= g << (4 * f)
            b = j * P1_MOVE_BYTES
            out[b] = word & 255
            out[b + 1] = (word >> 8) & 255
            out[b + 2] = word >> 16
    return -1


def build_phase1_moves(ctx, p1, fs_cls, fs_rep, flip_move, slice_move, twist_move,
                       twist_conj) -> np.ndarray:
    """The move words of every phase-1 entry (class * 2187 + twist, as the mod-3 table), made
    from the mod-3 table in chunks of classes on two threads (the kernel releases the GIL)."""
    import threading

    nclass = len(fs_rep)
    out = np.empty(nclass * N_TWIST * P1_MOVE_BYTES, np.uint8)
    chunks = list(range(0, nclass, _CHUNK_CLASSES))
    lock = threading.Lock()
    state = {"next": 0, "done": 0, "bad": -1, "error": None}

    def worker():
        try:
            work()
        except BaseException as e:  # re-raised below: a failed chunk must fail the build
            with lock:
                state["error"] = state["error"] or e

    def work():
        while True:
            with lock:
                i = state["next"]
                if i >= len(chunks) or state["bad"] >= 0 or state["error"] is not None \
                        or (ctx is not None and ctx.cancelled):
                    return
                state["next"] = i + 1
            lo = chunks[i]
            hi = min(nclass, lo + _CHUNK_CLASSES)
            bad = phase1_move_words(out, lo, hi, p1, fs_cls, fs_rep, flip_move, slice_move,
                                    twist_move, twist_conj)
            with lock:
                if bad >= 0:
                    state["bad"] = bad
                state["done"] += hi - lo
                if ctx is not None:
                    ctx.progress(state["done"] * N_TWIST, nclass * N_TWIST)

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if ctx is not None:
        ctx.check_cancel()
    if state["error"] is not None:
        raise state["error"]
    if state["done"] != nclass:
        raise RuntimeError("the phase-1 move words were not all made")
    if state["bad"] >= 0:
        raise ValueError(f"the phase-1 table is inconsistent at entry {state['bad']}")
    return out


# ---- phase 2: exact distances in 4 bits -------------------------------------------------------
#
# The mod-3 phase-2 table gives an exact distance only by a walk to the subgroup's solved
# state, one step per move of distance with up to ten probes each. This table holds the exact
# distance of every (corner-permutation class, UD-edge permutation) entry in 4 bits (15: 15 or
# more, a lower bound; phase 2 needs at most 18 moves and seldom more than 14), so a leaf's
# distance is one probe. It is made from the mod-3 table level by level: an entry is at depth d
# when its value is d mod 3 and a neighbour is at d - 1.

P2_EXACT_MAX = 15


@kernel
def phase2_exact_level(exact, p2, d, lo, hi, cp_cls, cp_rep, cp_move, edge8_move, edge8_conj,
                       p2moves):
    """Set depth d on the unset entries of classes [lo, hi) that have a neighbour at d - 1.
    Returns how many were set."""
    ncls = np.empty(10, np.int64)
    nsym = np.empty(10, np.int64)
    added = 0
    for c in range(lo, hi):
        rep = cp_rep[c]
        for k in range(10):
            v = cp_cls[cp_move[rep, p2moves[k]]]
            ncls[k] = (v >> 4) * N_PERM8
            nsym[k] = v & 15
        base = c * N_PERM8
        for x in range(N_PERM8):
            if get4(exact, base + x) != UNKNOWN4 or get2(p2, base + x) != d % 3:
                continue
            for k in range(10):
                if get4(exact, ncls[k] + edge8_conj[edge8_move[x, k], nsym[k]]) == d - 1:
                    set4(exact, base + x, d)
                    added += 1
                    break
    return added


def build_phase2_exact(ctx, p2, cp_cls, cp_rep, cp_move, edge8_move, edge8_conj,
                       p2moves) -> np.ndarray:
    """4-bit exact phase-2 distances over corner class * 40320 + UD-edge permutation (the
    mod-3 table's index), levels 1-14 swept on two threads (a class block is 20,160 bytes, so
    threads on different classes never share a byte)."""
    import threading

    nclass = len(cp_rep)
    exact = new_packed4(nclass * N_PERM8, ctx.check_cancel if ctx is not None else None)
    set4(exact, 0, 0)      # the solved position (its conjugates are all itself)
    done = 1
    total = nclass * N_PERM8
    half = nclass // 2
    for d in range(1, P2_EXACT_MAX):
        counts = [0, 0]
        errors = []

        def part(i, lo, hi):
            try:
                counts[i] = phase2_exact_level(exact, p2, d, lo, hi, cp_cls, cp_rep, cp_move,
                                               edge8_move, edge8_conj, p2moves)
            except BaseException as e:  # re-raised below
                errors.append(e)

        threads = [threading.Thread(target=part, args=(0, 0, half), daemon=True),
                   threading.Thread(target=part, args=(1, half, nclass), daemon=True)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            raise errors[0]
        done += counts[0] + counts[1]
        if ctx is not None:
            ctx.progress(done, total)
            ctx.check_cancel()
        if counts[0] + counts[1] == 0:
            break
    return exact

