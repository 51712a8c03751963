"""Packed storage for distance tables: 4 bits or 2 bits an entry, read and written by numba.

4 bits an entry (distances 0..14, 15 = unknown) or 2 bits an entry (distance mod 3, 3 =
unknown), in flat uint8 arrays, read and written by numba.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

import cubelab.tables  # noqa: F401  (numba cache location, before numba)
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

UNKNOWN4 = 15
UNKNOWN2 = 3
LOW_BITS = np.uint64(0x5555555555555555)
"""The low bit of each 2-bit entry of a word: masks of a word's entries are made with it."""


FILL_BYTES = 1 << 26
"""A new table is filled this much at a time, its build's cancel check between: filling a
table of gigabytes takes tens of seconds on a busy machine."""


def _unknown(nbytes: int, check: Callable[[], None] | None) -> np.ndarray:
    out = np.empty(nbytes, dtype=np.uint8)
    for lo in range(0, nbytes, FILL_BYTES):
        if check is not None:
            check()
        out[lo:lo + FILL_BYTES] = 0xFF
    return out


def new_packed4(n: int, check: Callable[[], None] | None = None) -> np.ndarray:
    """n entries, all unknown; check() (a build's check_cancel) is called as the bytes fill."""
    return _unknown((n + 1) // 2, check)


def new_packed2(n: int, check: Callable[[], None] | None = None) -> np.ndarray:
    """n entries, all unknown; check() (a build's check_cancel) is called as the bytes fill."""
    return _unknown((n + 3) // 4, check)


@njit(cache=True, nogil=True, inline="always")
def get4(table, i):
    return (table[i >> 1] >> ((i & 1) << 2)) & 15


@njit(cache=True, nogil=True, inline="always")
def set4(table, i, value):
    shift = (i & 1) << 2
    table[i >> 1] = (table[i >> 1] & ~(15 << shift)) | (value << shift)


@njit(cache=True, nogil=True, inline="always")
def get2(table, i):
    return (table[i >> 2] >> ((i & 3) << 1)) & 3


@njit(cache=True, nogil=True, inline="always")
def set2(table, i, value):
    shift = (i & 3) << 1
    table[i >> 2] = (table[i >> 2] & ~(3 << shift)) | (value << shift)


@njit(cache=True, nogil=True, inline="always")
def settle2(table, todo, k, base, own, nb, conj, twist_move, m, want, value):
    """One backward step over a 2-bit table: each of the k twists t listed in todo whose
    neighbour entry nb + conj[twist_move[t, m]] reads `want` gets `value` at base + own[t] and
    leaves the list (the rest keep their order). Returns how many are left. Without a branch on
    the hit, which the core would guess wrong a third of the time or more: each entry is
    rewritten with itself or with `value`, and the list is compacted by arithmetic."""
    left = 0
    for i in range(k):
        t = todo[i]
        hit = get2(table, nb + conj[twist_move[t, m]]) == want
        j = base + own[t]
        shift = (j & 3) << 1
        b = table[j >> 2]
        # a select written out: numba's `value if hit else ...` compiles to the branch this
        # avoids (measured: the layers build's backward level 100 s against 150 s)
        keep = np.uint8(0) - np.uint8(not hit)          # 0xFF: leave the byte as it was
        table[j >> 2] = (b & keep) | (((b & ~(3 << shift)) | (value << shift)) & ~keep)
        todo[left] = t
        left += 1 - np.int64(hit)
    return left


def _bit_intrinsic(name: str, *extra):
    """A uint64 -> uint64 LLVM bit intrinsic (extra: its constant i1 arguments)."""
    def typer(typingctx, x):
        if not isinstance(x, types.Integer):
            return None

        def codegen(context, builder, signature, args):
            i64 = ir.IntType(64)
            fnty = ir.FunctionType(i64, [i64] + [ir.IntType(1)] * len(extra))
            fn = cgutils.get_or_insert_function(builder.module, fnty, f"llvm.{name}.i64")
            value = context.cast(builder, args[0], signature.args[0], types.uint64)
            return builder.call(fn, [value] + [ir.Constant(ir.IntType(1), e) for e in extra])
        return types.uint64(x), codegen
    typer.__name__ = name
    return intrinsic(typer)


lowest_bit = _bit_intrinsic("cttz", 0)
lowest_bit.__doc__ = """lowest_bit(x): the index of x's lowest set bit (64 for 0), one instruction.
Builders walk a mask's set bits with it instead of testing every bit: a test per bit of a mask
that is half set is a branch the core guesses wrong half the time."""
bit_count = _bit_intrinsic("ctpop")
bit_count.__doc__ = """bit_count(x): how many bits of x are set, one instruction."""


def unpack4(table: np.ndarray, n: int) -> np.ndarray:
    """All n entries as a uint8 array (for tests and small tables)."""
    out = np.empty(2 * len(table), dtype=np.uint8)
    out[0::2] = table & 15
    out[1::2] = table >> 4
    return out[:n]


def unpack2(table: np.ndarray, n: int) -> np.ndarray:
    out = np.empty(4 * len(table), dtype=np.uint8)
    for k in range(4):
        out[k::4] = (table >> (2 * k)) & 3
    return out[:n]
