"""The algorithm search's kernels: listing second halves, and joining first halves to them.

Second halves are listed with a hash of their fixed slots; a depth-first walk over first halves X
looks X^-1 T up among them (meet in the middle).

Effects are 40-byte state rows (cubelab.tables.cubies); sequences are packed 5 bits a move
(move index + 1, first move lowest). A found effect is named by its class under the 48
symmetries and inversion (cubelab.tables.classkeys).
"""

from __future__ import annotations

import numpy as np

from cubelab.tables.classkeys import KEY_BITS, canonicalize, encode
from cubelab.tables.cubies import conjugate_into, invert, multiply
from cubelab.tables.jit import inline_kernel, kernel


@kernel
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


@kernel
def _symmetric(p, symsets, sym, q):
    """Whether some row of `symsets` (1 marking a symmetry) holds only symmetries that fix p."""
    for r in range(symsets.shape[0]):
        fixed_by_all = True
        for k in range(48):
            if symsets[r, k]:
                conjugate_into(p, sym, k, q)
                for i in range(40):
                    if q[i] != p[i]:
                        fixed_by_all = False
                        break
                if not fixed_by_all:
                    break
        if fixed_by_all:
            return True
    return False


@kernel
def _accepts(p, fixed, target, test, excluded, symsets, sym, q):
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
    if test == 3:
        return _symmetric(p, symsets, sym, q)
    return True


@kernel
def _identity(out):
    """out = the solved state's row."""
    for i in range(8):
        out[i] = i
        out[8 + i] = 0
    for i in range(12):
        out[16 + i] = i
        out[28 + i] = 0


@inline_kernel
def _next_choice(chosen, spent, d, cost, follows, max_cost):
    """Move the walk's choice at depth d on to the next move that may follow chosen[d - 1]
    within a total cost of max_cost; -1 (and the choice reset) when depth d has none left."""
    last = 18 if d == 0 else chosen[d - 1]
    while True:
        chosen[d] += 1
        m = chosen[d]
        if m >= 18:
            chosen[d] = -1
            return -1
        if follows[last, m] and spent[d] + cost[m] <= max_cost:
            return m


@kernel
def second_halves(cost_wanted, moves, cost, follows, fixed, keys, seqs):
    """Every canonical sequence of total cost `cost_wanted`: the hash of its effect's fixed
    entries, and the sequence packed 5 bits a move (move + 1, first move lowest). Returns the
    number written."""
    depth_max = cost_wanted + 1
    states = np.zeros((depth_max + 1, 40), np.uint8)
    _identity(states[0])
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
        m = _next_choice(chosen, spent, d, cost, follows, cost_wanted)
        if m < 0:
            d -= 1
            continue
        c = spent[d] + cost[m]
        multiply(states[d], moves[m], states[d + 1])
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


@kernel
def _play(seq, moves, out, tmp):
    """out = the effect of a packed sequence."""
    _identity(out)
    s = seq
    while s:
        m = np.int64(s & np.uint64(31)) - 1
        multiply(out, moves[m], tmp)
        out[:] = tmp
        s >>= np.uint64(5)


@kernel
def join_halves(first, a, moves, inverses, cost, follows, fixed, target, test, excluded, symsets,
                sym, sides, keys_b, seqs_b, keys_b1, seqs_b1, halves_ok, out_x, out_y, out_cls,
                counters, cancel):
    """Walk the first halves X that start with move `first` (all of them if first < 0, which
    only the empty half allows): X of cost a pairs with second halves of cost b (keys_b), X of
    cost a + 1 ending in a half turn with those of cost b - 1 (keys_b1, QTM). Writes matching
    (X, Y) packed pairs and the class of their effect (see _class_of); returns their number,
    -1 if cancelled, -2 if out_x is full."""
    depth_max = a + 2
    xs = np.zeros((depth_max + 1, 40), np.uint8)     # X
    zs = np.zeros((depth_max + 1, 40), np.uint8)     # X^-1 target
    zs[0, :] = target
    _identity(xs[0])
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
                        excluded, symsets, sym, sides, keys_b, seqs_b, out_x, out_y, out_cls,
                        found, work)
        if found < 0:
            return -2
        counters[0] += 1
        return found
    while d >= 0:
        m = _next_choice(chosen, spent, d, cost, follows, a + 1)
        if m < 0:
            d -= 1
            continue
        if d == 0 and m != first:
            if m > first:
                break
            continue
        c = spent[d] + cost[m]
        if c == a + 1 and cost[m] != 2:
            continue
        multiply(xs[d], moves[m], xs[d + 1])
        # (X m)^-1 T = m^-1 (X^-1 T): multiply on the left
        multiply(inverses[m], zs[d], zs[d + 1])
        spent[d + 1] = c
        packed[d + 1] = packed[d] | (np.uint64(m + 1) << np.uint64(5 * d))
        if c >= a:
            leaves += 1
            if c == a:
                found = _lookup(xs[d + 1], zs[d + 1], m, packed[d + 1], moves, follows, fixed,
                                target, test, excluded, symsets, sym, sides, keys_b, seqs_b,
                                out_x, out_y, out_cls, found, work)
            elif halves_ok:
                found = _lookup(xs[d + 1], zs[d + 1], m, packed[d + 1], moves, follows, fixed,
                                target, test, excluded, symsets, sym, sides, keys_b1, seqs_b1,
                                out_x, out_y, out_cls, found, work)
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


@kernel
def _lookup(x, z, last, xseq, moves, follows, fixed, target, test, excluded, symsets, sym, sides,
            keys, seqs, out_x, out_y, out_cls, found, work):
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
        multiply(x, y, p)
        if not _accepts(p, fixed, target, test, excluded, symsets, sym, work[3]):
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


@kernel
def _class_of(p, sym, sides, work):
    """The least (bucket, key) of the canonical forms of s p s' over the rows s, s' of `sides`
    (the identity alone, or the four U turns when classes ignore AUF)."""
    left, q, qinv, best = work[3], work[4], work[5], work[1]
    best_bucket, best_key = np.int64(1) << 62, np.uint64(0)
    for i in range(sides.shape[0]):
        multiply(sides[i], p, left)
        for j in range(sides.shape[0]):
            multiply(left, sides[j], q)
            invert(q, qinv)
            a, b = canonicalize(q, qinv, sym, best)
            bucket, key = encode(best, a, b)
            key &= np.uint64((1 << KEY_BITS) - 1)
            if bucket < best_bucket or (bucket == best_bucket and key < best_key):
                best_bucket, best_key = bucket, key
    return best_bucket, best_key
