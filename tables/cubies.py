"""The cube as the kernels see it: face turns as arrays, products, rows, the move order.

The 18 face turns as cubie arrays, products of cubie arrays and of 40-byte state rows, and the
canonical move order every search and enumeration uses.

Face turns are numbered as cubelab.cube.moves.FACE_MOVES: U U2 U' R R2 R' F F2 F' D D2 D' L L2 L'
B B2 B' (face = index // 3; opposite faces are 3 apart). A product a*b is "a then b" and reads
b's slots through a: (a*b).cp[i] = a.cp[b.cp[i]]. A *row* is one state as 40 bytes: cp[0:8],
co[8:16], ep[16:28], eo[28:40] (what breadth-first counting and algorithm search carry).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from cubelab.cube.moves import FACE_MOVES, move_state
from cubelab.cube.notation import parse_moves
from cubelab.cube.symmetry import inverse_symmetry_arrays, symmetry_arrays
from cubelab.tables.jit import inline_kernel, kernel

N_MOVES = 18
CP, CO, EP, EO, ROW_BYTES = 0, 8, 16, 28, 40


# ---- the face turns as arrays ---------------------------------------------------------------

@lru_cache(maxsize=None)
def face_turn_arrays(dtype=np.int64) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(cp, co, ep, eo) of the 18 face turns, shapes (18, 8) and (18, 12), read-only."""
    states = [move_state(m) for m in FACE_MOVES]
    out = tuple(np.array([getattr(s, a) for s in states], dtype=dtype)
                for a in ("cp", "co", "ep", "eo"))
    for a in out:
        a.flags.writeable = False
    return out


def move_indices(moves: str) -> np.ndarray:
    """Indices into FACE_MOVES of face turns written out, e.g. "U U2 U' R2" (int64)."""
    out = []
    for m in parse_moves(moves):
        if m not in FACE_MOVES:
            raise ValueError(f"{m} is not one of the 18 face turns")
        out.append(FACE_MOVES.index(m))
    return np.array(out, dtype=np.int64)


def metric_moves(metric: str) -> list:
    """The generators of a metric: the 18 face turns (htm) or the 12 quarter turns (qtm)."""
    if metric == "htm":
        return list(FACE_MOVES)
    if metric == "qtm":
        return [m for m in FACE_MOVES if m.amount != 2]
    raise ValueError(f"unknown metric {metric!r} (choose qtm or htm)")


@kernel
def apply_move(cp, co, ep, eo, mcp, mco, mep, meo, m, ocp, oco, oep, oeo):
    """(cp, co, ep, eo) then face turn m (rows of the face_turn_arrays), into the o* arrays."""
    for i in range(8):
        ocp[i] = cp[mcp[m, i]]
        oco[i] = (co[mcp[m, i]] + mco[m, i]) % 3
    for i in range(12):
        oep[i] = ep[mep[m, i]]
        oeo[i] = (eo[mep[m, i]] + meo[m, i]) & 1


# ---- products of cubie arrays (mirrored twists allowed) --------------------------------------

@inline_kernel
def twist_product(ta, tb):
    """Twist of a product's slot from the factors' twists (3 + t marks a mirrored slot, as the
    symmetries of cubelab.cube.symmetry have)."""
    if tb >= 3:
        val = (tb - ta) % 3
    else:
        val = (ta + tb) % 3
    return val + 3 * ((ta >= 3) ^ (tb >= 3))


@kernel
def corner_product(acp, aco, bcp, bco, cp, co):
    for i in range(8):
        cp[i] = acp[bcp[i]]
        co[i] = twist_product(aco[bcp[i]], bco[i])


@kernel
def edge_product(aep, aeo, bep, beo, ep, eo):
    for i in range(12):
        ep[i] = aep[bep[i]]
        eo[i] = (aeo[bep[i]] + beo[i]) & 1


# ---- the canonical move order ---------------------------------------------------------------

@inline_kernel
def allowed_after(face, prev):
    """Whether a turn of `face` may follow a turn of face `prev` (-1: nothing before) in a
    canonical sequence: never the same face twice, and of two opposite faces (which commute)
    only the order U before D, R before L, F before B."""
    if prev < 0:
        return True
    if face == prev:
        return False
    return not (face % 3 == prev % 3 and face < prev)


def canonical_successors() -> tuple[np.ndarray, np.ndarray]:
    """The canonical order as lists: lists[prev face + 1, :counts[prev face + 1]] are the moves
    allowed after a turn of that face (row 0: first move), shapes (7, 18) and (7,)."""
    lists = np.zeros((7, N_MOVES), np.int64)
    counts = np.zeros(7, np.int64)
    for row in range(7):
        ms = [m for m in range(N_MOVES) if allowed_after(m // 3, row - 1)]
        lists[row, :len(ms)] = ms
        counts[row] = len(ms)
    return lists, counts


def follows_table(moves=None) -> np.ndarray:
    """follows[p, m] (bool): move m may come right after move p in a canonical sequence, for
    moves given as indices into FACE_MOVES (all 18 by default)."""
    moves = list(range(N_MOVES)) if moves is None else [int(m) for m in moves]
    return np.array([[bool(allowed_after(m // 3, p // 3)) for m in moves] for p in moves])


# ---- 40-byte state rows ---------------------------------------------------------------------

SYM_INVERSE, SYM_MIRROR, SYM_ROW_BYTES = 40, 80, 81
"""Row layout of symmetry_rows(): S_k as a state row, S_k^-1 as a state row, the mirror flag."""


def state_row(state) -> np.ndarray:
    """A CubeState's cubies as a 40-byte row."""
    return np.concatenate([state.cp, state.co, state.ep, state.eo]).astype(np.uint8)


@lru_cache(maxsize=None)
def move_rows(metric: str = "htm") -> np.ndarray:
    """(n_moves, 40): each generator of the metric as a state row."""
    table = np.stack([state_row(move_state(m)) for m in metric_moves(metric)])
    table.flags.writeable = False
    return table


@lru_cache(maxsize=1)
def symmetry_rows() -> np.ndarray:
    """(48, 81): the 48 symmetries of cubelab.cube.symmetry and their inverses as rows (twists
    reduced mod 3), then 1 for a mirror."""
    s_cp, s_co, s_ep, s_eo, _ = symmetry_arrays()
    si_cp, si_co, si_ep, si_eo, _ = inverse_symmetry_arrays()
    table = np.zeros((48, SYM_ROW_BYTES), np.uint8)
    table[:, 0:40] = np.concatenate([s_cp, s_co % 3, s_ep, s_eo], axis=1)
    table[:, 40:80] = np.concatenate([si_cp, si_co % 3, si_ep, si_eo], axis=1)
    table[:, SYM_MIRROR] = s_co[:, 0] >= 3
    table.flags.writeable = False
    return table


@kernel
def multiply(a, b, out):
    """out = a then b (rows)."""
    for i in range(8):
        j = b[i]
        out[i] = a[j]
        out[8 + i] = (a[8 + j] + b[8 + i]) % 3
    for i in range(12):
        j = b[16 + i]
        out[16 + i] = a[16 + j]
        out[28 + i] = a[28 + j] ^ b[28 + i]


@kernel
def invert(a, out):
    """out = a^-1 (rows)."""
    for i in range(8):
        out[a[i]] = i
        out[8 + a[i]] = (3 - a[8 + i]) % 3
    for i in range(12):
        out[16 + a[16 + i]] = i
        out[28 + a[16 + i]] = a[28 + i]


@kernel
def conjugate_into(p, sym, k, out):
    """out = S_k p S_k^-1, sym being symmetry_rows()."""
    mirror = sym[k, 80]
    for i in range(8):
        j = sym[k, 40 + i]
        x = p[j]
        out[i] = sym[k, x]
        if mirror:
            out[8 + i] = (sym[k, 48 + i] + 6 - sym[k, 8 + x] - p[8 + j]) % 3
        else:
            out[8 + i] = (sym[k, 8 + x] + p[8 + j] + sym[k, 48 + i]) % 3
    for i in range(12):
        j = sym[k, 56 + i]
        x = p[16 + j]
        out[16 + i] = sym[k, 16 + x]
        out[28 + i] = sym[k, 28 + x] ^ p[28 + j] ^ sym[k, 68 + i]


if __name__ == "__main__":
    lists, counts = canonical_successors()
    print("moves allowed first / after U / after D:", counts[0], counts[1], counts[4])
    print("R U as a row:", move_rows()[3])
