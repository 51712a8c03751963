"""Symmetry-reduced coordinates: classes of a coordinate under the cube's symmetries, the
conjugation tables of the coordinates that ride along, and the distance table over
(class, coordinate) pairs.

The symmetries are cubelab.cube.symmetry's cubie arrays (the first 16 keep the U-D axis; all 48
otherwise); the kernels here only conjugate with them: S_s * P * S_s^-1, mirrors included (a
corner twist of 3 + t in a symmetry marks a mirrored slot, as in cube/symmetry.py).

For a coordinate A (a Product): class_of[a] and sym_of[a] satisfy
    conj(a, sym_of[a]) = rep[class_of[a]],
the representative being the smallest value of its class; stab[c] has bit s set when
conj(rep[c], s) = rep[c]. A coordinate B that rides along is conjugated by the same symmetry
with conj_b[b, s]. The reduced distance table is indexed class * size(B) + b.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import cubelab.tables  # noqa: F401  (numba cache location, before numba)
from numba import njit

from cubelab.cube import symmetry
from cubelab.cube.moves import FACE_MOVES, move_state
from cubelab.cube.random_states import random_state
from cubelab.cube.state import CubeState

from .coords import Product, decode_product, encode_product
from .movetables import _in_range, move_indices
from .packed import UNKNOWN2, UNKNOWN4
from .pruning import (BACKWARD_RATIO, CANCELLED, Cancelled, _flags, flatten, get_entry,
                      new_table, set_entry, split, stored_value)


def symmetry_tables(nsym: int = 16):
    """(cp, co, ep, eo) of the first nsym symmetries and of their inverses, as int64 arrays
    for the kernels, plus the index of each one's inverse."""
    if not 1 <= nsym <= 48:
        raise ValueError("nsym must be between 1 and 48 (16: U-D axis kept, 48: all)")
    fwd = tuple(np.ascontiguousarray(a[:nsym, :], dtype=np.int64)
                for a in symmetry.symmetry_arrays()[:4])
    inv = tuple(np.ascontiguousarray(a[:nsym, :], dtype=np.int64)
                for a in symmetry.inverse_symmetry_arrays()[:4])
    inv_index = np.asarray(symmetry.symmetry_inverse_index(), dtype=np.int64)
    if nsym < 48 and (inv_index[:nsym] >= nsym).any():
        raise ValueError(f"the first {nsym} symmetries are not closed under inversion")
    return fwd, inv, inv_index[:nsym].copy()


@njit(cache=True, nogil=True)
def _twist_product(ta, tb):
    """Twist of a corner after a then b, with 3 + t marking a mirrored twist (see cube/symmetry)."""
    ma, va = ta >= 3, ta % 3
    mb, vb = tb >= 3, tb % 3
    val = (vb - va) % 3 if mb else (va + vb) % 3
    return val + 3 if ma != mb else val


@njit(cache=True, nogil=True)
def conjugate(cp, co, ep, eo, scp, sco, sep, seo, icp, ico, iep, ieo, s,
              out_cp, out_co, out_ep, out_eo):
    """out = S_s * state * S_s^-1, given the symmetry arrays and their inverses' arrays."""
    for i in range(8):
        # (S * P)[k] at slot k = S.cp[P.cp[k]]; then * S^-1 reads slot S^-1.cp[i]
        k = icp[s, i]
        j = cp[k]
        t = _twist_product(sco[s, j], co[k])
        out_cp[i] = scp[s, j]
        out_co[i] = _twist_product(t, ico[s, i])
    for i in range(12):
        k = iep[s, i]
        j = ep[k]
        out_ep[i] = sep[s, j]
        out_eo[i] = (seo[s, j] + eo[k] + ieo[s, i]) & 1


@njit(cache=True, nogil=True)
def build_conj_table(descs, scp, sco, sep, seo, icp, ico, iep, ieo, out, cancel, counters):
    """out[x, s] = conj of product value x by symmetry s. Returns -1, -2 if cancelled, or the
    first value whose conjugate falls outside a coordinate's slot range."""
    nsym = out.shape[1]
    cp, co = np.empty(8, np.uint8), np.empty(8, np.uint8)
    ep, eo = np.empty(12, np.uint8), np.empty(12, np.uint8)
    rcp, rco = np.empty(8, np.uint8), np.empty(8, np.uint8)
    rep, reo = np.empty(12, np.uint8), np.empty(12, np.uint8)
    for x in range(out.shape[0]):
        if (x & 4095) == 0:
            if cancel[0]:
                return -2
            counters[0] = x
        decode_product(descs, x, cp, co, ep, eo)
        for s in range(nsym):
            conjugate(cp, co, ep, eo, scp, sco, sep, seo, icp, ico, iep, ieo, s,
                      rcp, rco, rep, reo)
            for f in range(descs.shape[0]):
                if not _in_range(descs[f], rcp, rep):
                    return x
            out[x, s] = encode_product(descs, rcp, rco, rep, reo)
    counters[0] = out.shape[0]
    return -1


@njit(cache=True, nogil=True)
def build_classes(descs, size, scp, sco, sep, seo, icp, ico, iep, ieo, inv_index,
                  class_of, sym_of, rep, stab, cancel, counters):
    """Fill class_of/sym_of for every value and rep/stab for each class; return the number of
    classes, -2 if cancelled, or -3 - x if value x has a conjugate out of its slot ranges."""
    nsym = scp.shape[0]
    cp, co = np.empty(8, np.uint8), np.empty(8, np.uint8)
    ep, eo = np.empty(12, np.uint8), np.empty(12, np.uint8)
    rcp, rco = np.empty(8, np.uint8), np.empty(8, np.uint8)
    rep_, reo = np.empty(12, np.uint8), np.empty(12, np.uint8)
    class_of[:] = -1
    nc = 0
    for x in range(size):
        if (x & 4095) == 0:
            if cancel[0]:
                return -2
            counters[0] = x
        if class_of[x] >= 0:
            continue
        # x is the smallest value of a class not seen yet: its representative
        decode_product(descs, x, cp, co, ep, eo)
        bits = np.uint64(0)
        for s in range(nsym):
            conjugate(cp, co, ep, eo, scp, sco, sep, seo, icp, ico, iep, ieo, s,
                      rcp, rco, rep_, reo)
            for f in range(descs.shape[0]):
                if not _in_range(descs[f], rcp, rep_):
                    return -3 - x
            y = encode_product(descs, rcp, rco, rep_, reo)
            if y == x:
                bits |= np.uint64(1) << np.uint64(s)
            if class_of[y] < 0:
                class_of[y] = nc
                sym_of[y] = inv_index[s]     # conj(y, s^-1) = x
        rep[nc] = x
        stab[nc] = bits
        nc += 1
    counters[0] = size
    return nc


@dataclass(frozen=True)
class SymClasses:
    """The classes of a coordinate under the first nsym symmetries."""

    nsym: int
    class_of: np.ndarray    # int32[size]
    sym_of: np.ndarray      # uint8[size]
    rep: np.ndarray         # int32[nclasses]
    stab: np.ndarray        # uint64[nclasses]

    @property
    def size(self) -> int:
        return len(self.class_of)

    @property
    def nclasses(self) -> int:
        return len(self.rep)

    def lookup(self, value: int) -> tuple[int, int]:
        """(class, symmetry s) with conj(value, s) = the class representative."""
        return int(self.class_of[value]), int(self.sym_of[value])

    def stabiliser(self, c: int) -> list[int]:
        bits = int(self.stab[c])
        return [s for s in range(self.nsym) if bits >> s & 1]

    # One flat uint8 array so the store can keep all four parts as one table.
    def pack(self) -> np.ndarray:
        size, nc = self.size, self.nclasses
        head = np.array([1, size, nc, self.nsym], dtype=np.int64)
        parts = [head, self.stab.astype(np.uint64), self.class_of.astype(np.int32),
                 self.rep.astype(np.int32), self.sym_of.astype(np.uint8)]
        return np.concatenate([p.view(np.uint8).reshape(-1) for p in parts])

    @classmethod
    def unpack(cls, blob: np.ndarray) -> "SymClasses":
        """Views into a packed array (no copy: works on a memory-mapped table)."""
        blob = np.asarray(blob).reshape(-1).view(np.uint8)
        version, size, nc, nsym = (int(v) for v in blob[:32].view(np.int64))
        if version != 1 or len(blob) != 32 + 8 * nc + 4 * size + 4 * nc + size:
            raise ValueError("not a packed SymClasses array")
        o = 32
        stab = blob[o:o + 8 * nc].view(np.uint64)
        o += 8 * nc
        class_of = blob[o:o + 4 * size].view(np.int32)
        o += 4 * size
        rep = blob[o:o + 4 * nc].view(np.int32)
        o += 4 * nc
        return cls(nsym, class_of, blob[o:o + size], rep, stab)


def sym_classes(coord: Product, nsym: int = 16, *, cancel=None, counters=None) -> SymClasses:
    """The classes of `coord`'s values under the first nsym symmetries (16 or 48).

    The coordinate must be well defined under them (its conjugate must depend only on its
    value); `check_conjugation` tests that on random states."""
    coord = coord if isinstance(coord, Product) else Product((coord,))
    (scp, sco, sep, seo), (icp, ico, iep, ieo), inv_index = symmetry_tables(nsym)
    size = coord.size
    class_of = np.empty(size, np.int32)
    sym_of = np.zeros(size, np.uint8)
    rep = np.empty(size, np.int32)
    stab = np.zeros(size, np.uint64)
    cancel, counters = _flags(cancel, counters)
    counters[1] = size
    nc = build_classes(coord.descs, size, scp, sco, sep, seo, icp, ico, iep, ieo, inv_index,
                       class_of, sym_of, rep, stab, cancel, counters)
    if nc == -2:
        raise Cancelled()
    if nc < 0:
        raise ValueError(f"{coord.name}: a symmetry takes value {-3 - nc} out of its slot range")
    return SymClasses(nsym, class_of, sym_of, rep[:nc].copy(), stab[:nc].copy())


def conj_table(coord, nsym: int = 16, *, cancel=None, counters=None) -> np.ndarray:
    """(size, nsym): the coordinate of S_s * P * S_s^-1 from that of P (uint16 or int32)."""
    coord = coord if isinstance(coord, Product) else Product((coord,))
    (scp, sco, sep, seo), (icp, ico, iep, ieo), _ = symmetry_tables(nsym)
    out = np.empty((coord.size, nsym), dtype=np.uint16 if coord.size <= 1 << 16 else np.int32)
    cancel, counters = _flags(cancel, counters)
    counters[1] = coord.size
    status = build_conj_table(coord.descs, scp, sco, sep, seo, icp, ico, iep, ieo, out,
                              cancel, counters)
    if status == -2:
        raise Cancelled()
    if status >= 0:
        raise ValueError(f"{coord.name}: a symmetry takes value {status} out of its slot range")
    return out


def check_conjugation(coord, nsym: int = 16, samples: int = 200, seed: int = 0,
                      moves=None) -> str | None:
    """None if conjugating sample states agrees with conjugating their coordinate values (the
    coordinate is well defined under the symmetries), else a description of a failure.

    Samples are random states, or, with `moves` (for coordinates that only make sense in a
    subgroup), random walks of 40 of those moves."""
    coord = coord if isinstance(coord, Product) else Product((coord,))
    table = conj_table(coord, nsym)
    rng = np.random.default_rng(seed)
    walk = [move_state(FACE_MOVES[i]) for i in move_indices(moves)] if moves is not None else None
    for k in range(samples):
        if walk is None:
            state = random_state(seed + k)
        else:
            state = CubeState.identity()
            for i in rng.integers(0, len(walk), 40):
                state = state * walk[i]
        x = coord.encode(state)
        for s in range(nsym):
            y = coord.encode(symmetry.conjugate(state, s))
            if int(table[x, s]) != y:
                return f"symmetry {s}: value {x} conjugates to {y}, the table says {table[x, s]}"
    return None


# ---- the reduced distance table --------------------------------------------------------------

@njit(cache=True, nogil=True)
def class_moves(rep, class_of, sym_of, a_sizes, a_mt, a_off, nm, out_class, out_sym):
    """out_class[c, m], out_sym[c, m]: the class that move m takes class c's representative to,
    and the symmetry that brings it back to that class's representative."""
    a_digits = np.empty(a_sizes.shape[0], np.int64)
    for c in range(rep.shape[0]):
        split(rep[c], a_sizes, a_digits)
        for m in range(nm):
            a = 0
            for f in range(a_sizes.shape[0]):
                a = a * a_sizes[f] + a_mt[a_off[f] + a_digits[f] * nm + m]
            out_class[c, m] = class_of[a]
            out_sym[c, m] = sym_of[a]


@njit(cache=True, nogil=True)
def _moved_b(b_digits, m, s, b_sizes, b_mt, b_off, b_conj, b_coff, nsym, nm, out_b):
    """B's digits after move column m, conjugated by symmetry s."""
    for f in range(b_sizes.shape[0]):
        v = b_mt[b_off[f] + b_digits[f] * nm + m]
        out_b[f] = b_conj[b_coff[f] + v * nsym + s]


@njit(cache=True, nogil=True)
def _join(b_sizes, digits):
    b = 0
    for f in range(b_sizes.shape[0]):
        b = b * b_sizes[f] + digits[f]
    return b


@njit(cache=True, nogil=True)
def _set_with_images(table, bits, c, b_digits, b_sizes, b_conj, b_coff, nsym, stab, size_b,
                     value, unknown, scratch):
    """Set (c, b) and its images under c's stabiliser; return how many were unknown."""
    fresh = 0
    i = c * size_b + _join(b_sizes, b_digits)
    if get_entry(table, bits, i) == unknown:
        set_entry(table, bits, i, value)
        fresh += 1
    st = stab[c]
    if st > np.uint64(1):
        for t in range(1, nsym):
            if (st >> np.uint64(t)) & np.uint64(1):
                for f in range(b_sizes.shape[0]):
                    scratch[f] = b_conj[b_coff[f] + b_digits[f] * nsym + t]
                j = c * size_b + _join(b_sizes, scratch)
                if get_entry(table, bits, j) == unknown:
                    set_entry(table, bits, j, value)
                    fresh += 1
    return fresh


@njit(cache=True, nogil=True)
def bfs_symmetric(table, bits, nclasses, rep, class_of, sym_of, stab, a_sizes, a_mt, a_off,
                  b_sizes, b_mt, b_off, b_conj, b_coff, nsym, nm, start_c, start_b,
                  max_depth, cancel, counters):
    """Distances over (class, B) pairs from the given starts; like pruning.bfs_product."""
    size_b = 1
    for f in range(b_sizes.shape[0]):
        size_b *= b_sizes[f]
    n = nclasses * size_b
    unknown = UNKNOWN4 if bits == 4 else UNKNOWN2
    if bits == 4 and max_depth > UNKNOWN4 - 1:
        max_depth = UNKNOWN4 - 1
    nb = b_sizes.shape[0]
    cm = np.empty((nclasses, nm), np.int64)
    cs = np.empty((nclasses, nm), np.int64)
    class_moves(rep, class_of, sym_of, a_sizes, a_mt, a_off, nm, cm, cs)
    b_digits = np.empty(nb, np.int64)
    nb_digits = np.empty(nb, np.int64)
    scratch = np.empty(nb, np.int64)
    done = 0
    for k in range(start_c.shape[0]):
        split(start_b[k], b_sizes, b_digits)
        done += _set_with_images(table, bits, start_c[k], b_digits, b_sizes, b_conj, b_coff,
                                 nsym, stab, size_b, 0, unknown, scratch)
    counters[0], counters[1], counters[2], counters[3] = done, n, 0, done
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
            if backward and v != unknown or not backward and v != cur:
                continue
            c = i // size_b
            split(i - c * size_b, b_sizes, b_digits)
            for m in range(nm):
                c2 = cm[c, m]
                _moved_b(b_digits, m, cs[c, m], b_sizes, b_mt, b_off, b_conj, b_coff, nsym, nm,
                         nb_digits)
                if backward:
                    if get_entry(table, bits, c2 * size_b + _join(b_sizes, nb_digits)) == cur:
                        set_entry(table, bits, i, nxt)
                        found += 1
                        break
                else:
                    found += _set_with_images(table, bits, c2, nb_digits, b_sizes, b_conj,
                                              b_coff, nsym, stab, size_b, nxt, unknown, scratch)
        if found == 0:
            break
        done += found
        frontier = found
        depth += 1
        counters[0], counters[2], counters[3] = done, depth, found
    counters[0] = done
    return depth


def symmetric_distance_table(classes: SymClasses, a_tables, b_tables, b_conj_tables, *,
                             starts, bits: int = 4, max_depth: int = 255,
                             cancel=None, counters=None) -> np.ndarray:
    """Packed distances over class * size(B) + b.

    a_tables: the move tables of the factors of the classified coordinate A (a Product, first
    most significant); b_tables and b_conj_tables: move and conjugation tables of B's factors
    (B may have no factor: then the table is over the classes alone). starts: (a, b) pairs of
    raw values, e.g. [(A.solved(), B.solved())]; the class and conjugation are applied here. The moves must be
    closed under conjugation by the symmetries (all 18 face turns, or <U, D, R2, L2, F2, B2>
    with the 16 U-D symmetries)."""
    nm = {t.shape[1] for t in list(a_tables) + list(b_tables)}
    if len(nm) != 1:
        raise ValueError("all move tables need the same moves (columns)")
    a_sizes = np.array([t.shape[0] for t in a_tables], dtype=np.int64)
    if int(np.prod(a_sizes)) != classes.size:
        raise ValueError("A's move tables do not match the classes' coordinate size")
    b_sizes = np.array([t.shape[0] for t in b_tables], dtype=np.int64)
    for t, c in zip(b_tables, b_conj_tables):
        if c.shape != (t.shape[0], classes.nsym):
            raise ValueError("a conjugation table does not match its move table or nsym")
    a_mt, a_off = flatten(list(a_tables))
    b_mt, b_off = flatten(list(b_tables))
    b_conj, b_coff = flatten(list(b_conj_tables))
    size_b = int(np.prod(b_sizes)) if len(b_sizes) else 1
    start_c, start_b = [], []
    for a, b in starts:
        c, s = classes.lookup(a)
        digits = _split_py(b, b_sizes)
        start_c.append(c)
        start_b.append(_join_py([int(ct[d, s]) for ct, d in zip(b_conj_tables, digits)],
                                b_sizes))
    table = new_table(classes.nclasses * size_b, bits)
    cancel, counters = _flags(cancel, counters)
    depth = bfs_symmetric(table, bits, classes.nclasses, classes.rep.astype(np.int64),
                          classes.class_of, classes.sym_of, classes.stab, a_sizes, a_mt, a_off,
                          b_sizes, b_mt, b_off, b_conj, b_coff, classes.nsym, nm.pop(),
                          np.array(start_c, np.int64), np.array(start_b, np.int64), max_depth,
                          cancel, counters)
    if depth == CANCELLED:
        raise Cancelled()
    return table


def _split_py(x: int, sizes) -> list[int]:
    out = []
    for s in reversed([int(v) for v in sizes]):
        x, d = divmod(int(x), s)
        out.append(d)
    return out[::-1]


def _join_py(digits, sizes) -> int:
    x = 0
    for d, s in zip(digits, sizes):
        x = x * int(s) + int(d)
    return x


def reduced_index(classes: SymClasses, b_conj_tables, b_sizes, a: int, b: int) -> int:
    """Where the pair of raw values (a, b) sits in a reduced table."""
    c, s = classes.lookup(a)
    digits = _split_py(b, b_sizes)
    size_b = int(np.prod(b_sizes)) if len(b_sizes) else 1
    return c * size_b + _join_py([int(ct[d, s]) for ct, d in zip(b_conj_tables, digits)], b_sizes)


if __name__ == "__main__":
    from .coords import CORNER_PERM, FLIP, UD_SLICE
    print("corner permutation classes (16):", sym_classes(Product((CORNER_PERM,))).nclasses)
    print("flip-slice classes (16):", sym_classes(Product((UD_SLICE, FLIP))).nclasses)
