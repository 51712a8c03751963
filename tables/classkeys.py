"""A position's class under the 48 symmetries and inversion, as a packed (bucket, key).

The canonical representative is the least of the class's 96 images; its packing holds the
class's sizes too, read back by class_sizes.

A representative is a 40-byte state row (cubelab.tables.cubies). Its bucket is the rank of its
corner permutation (8! buckets); its key holds the twist, the edge permutation and the flip in
the low KEY_BITS bits, then two class-invariant facts: the order of the stabiliser among the 48
symmetries (6 bits from STAB_SHIFT) and whether the inverse lies in the same 48-symmetry class
(1 bit at BOTH_SHIFT). Counting (cubelab.tables.counting) and algorithm search
(cubelab.solvers.algsearch) both name classes this way.
"""

from __future__ import annotations

import math

import numpy as np

from cubelab.tables.jit import kernel

from .cubies import conjugate_into
from .ranks import rank_perm, unrank_perm

N_BUCKETS = math.factorial(8)
"""One bucket per corner permutation rank: the part of a representative that is not in its key."""
KEY_BITS = 52
STAB_SHIFT = 52
BOTH_SHIFT = 58


# A state is one uint8 row of 40 (cubelab.tables.cubies). Kernels receive few, flat arrays: every
# array argument costs reference counting on each call, which dominated the first version of
# these loops.

@kernel
def canonicalize(p, pinv, sym, best):
    """best = the least row among the 96 images S p S^-1 and S p^-1 S^-1. Returns (a, b):
    how many symmetries give it from p, and from p^-1.

    Each image is compared element by element as it is computed and dropped at the first
    element that exceeds best: most are decided by their first corner or two."""
    for i in range(40):
        best[i] = p[i]
    a, b = 1, 0
    for side in range(2):
        q = p if side == 0 else pinv
        for k in range(1 if side == 0 else 0, 48):
            mirror = sym[k, 80]
            c = 0
            for i in range(8):
                v = sym[k, q[sym[k, 40 + i]]]
                if v != best[i]:
                    c = -1 if v < best[i] else 1
                    break
            if c == 0:
                for i in range(8):
                    j = sym[k, 40 + i]
                    x = q[j]
                    if mirror:
                        v = (sym[k, 48 + i] + 6 - sym[k, 8 + x] - q[8 + j]) % 3
                    else:
                        v = (sym[k, 8 + x] + q[8 + j] + sym[k, 48 + i]) % 3
                    if v != best[8 + i]:
                        c = -1 if v < best[8 + i] else 1
                        break
            if c == 0:
                for i in range(12):
                    v = sym[k, 16 + q[16 + sym[k, 56 + i]]]
                    if v != best[16 + i]:
                        c = -1 if v < best[16 + i] else 1
                        break
            if c == 0:
                for i in range(12):
                    j = sym[k, 56 + i]
                    v = sym[k, 28 + q[16 + j]] ^ q[28 + j] ^ sym[k, 68 + i]
                    if v != best[28 + i]:
                        c = -1 if v < best[28 + i] else 1
                        break
            if c < 0:
                conjugate_into(q, sym, k, best)
                a, b = (1, 0) if side == 0 else (0, 1)
            elif c == 0:
                if side == 0:
                    a += 1
                else:
                    b += 1
    return a, b


@kernel
def encode(best, a, b):
    """(bucket, key) of a canonical image with its stabiliser counts (a, b)."""
    bucket = rank_perm(best, 0, 8)
    twist = 0
    for i in range(7):
        twist = twist * 3 + best[8 + i]
    flip = 0
    for i in range(11):
        flip = flip * 2 + best[28 + i]
    key = (twist * 479001600 + rank_perm(best, 16, 12)) * 2048 + flip
    stab = max(a, b)
    both = 1 if (a > 0 and b > 0) else 0
    return bucket, np.uint64(key) | (np.uint64(stab) << np.uint64(STAB_SHIFT)) | \
        (np.uint64(both) << np.uint64(BOTH_SHIFT))


@kernel
def decode(bucket, key, out):
    """The representative's row from (bucket, key); the metadata bits are ignored."""
    unrank_perm(bucket, out, 0, 8, 0)
    k = np.int64(key & np.uint64((1 << KEY_BITS) - 1))
    flip = k % 2048
    k //= 2048
    unrank_perm(k % 479001600, out, 16, 12, 0)
    twist = k // 479001600
    s = 0
    for i in range(6, -1, -1):
        out[8 + i] = twist % 3
        s += twist % 3
        twist //= 3
    out[15] = (3 - s % 3) % 3
    s = 0
    for i in range(10, -1, -1):
        out[28 + i] = flip & 1
        s += flip & 1
        flip >>= 1
    out[39] = s & 1


@kernel
def class_sizes(key):
    """(positions, classes up to the 48 symmetries) in the class a key stands for."""
    stab = np.int64((key >> np.uint64(STAB_SHIFT)) & np.uint64(63))
    both = np.int64((key >> np.uint64(BOTH_SHIFT)) & np.uint64(1))
    if both:
        return 48 // stab, 1
    return 96 // stab, 2
