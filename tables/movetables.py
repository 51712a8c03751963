"""Move tables: what each face turn does to a coordinate, built by numba from the cubie model.

table[i, m] = coordinate of (state with coordinate i) * move m, for the chosen moves (all 18 face
turns by default; a subgroup's generators for coordinates that only make sense there). For a
coordinate that only records orientations "by piece" (whose change depends on where the pieces
go), `orientation_delta_table` gives the change as a function of a positions coordinate, and
`orientation_add_table` composes it.
"""

from __future__ import annotations

import numpy as np

import cubelab.tables  # noqa: F401  (numba cache location, before numba)
from numba import njit

from cubelab.cube.moves import FACE_MOVES, move_state
from cubelab.cube.notation import parse_moves

from .store import BuildCancelled as Cancelled  # builders catch one exception
from .coords import (D_HI, D_KIND, D_LO, D_ORI, D_POS, CORNER, ORI_BY_PIECE, POS_NONE, Coord,
                     Product, decode_product, encode)

PHASE2_MOVES = ("U", "U2", "U'", "D", "D2", "D'", "R2", "L2", "F2", "B2")
"""The generators of <U, D, R2, L2, F2, B2> (Kociemba's phase 2)."""


def move_indices(moves=None) -> np.ndarray:
    """Indices into FACE_MOVES of moves given as names, Move objects or indices (all 18 if None)."""
    if moves is None:
        return np.arange(len(FACE_MOVES), dtype=np.int64)
    if isinstance(moves, str):
        moves = moves.split()
    out = []
    for m in moves:
        if isinstance(m, (int, np.integer)):
            idx = int(m)
        else:
            mv = parse_moves(m)[0] if isinstance(m, str) else m
            if mv not in FACE_MOVES:
                raise ValueError(f"{m!r} is not one of the 18 face turns")
            idx = FACE_MOVES.index(mv)
        if not 0 <= idx < len(FACE_MOVES):
            raise ValueError(f"move index {idx} out of range")
        out.append(idx)
    return np.array(out, dtype=np.int64)


def move_arrays(moves=None):
    """(cp, co, ep, eo) of the chosen face turns, shapes (n, 8) and (n, 12), uint8."""
    states = [move_state(FACE_MOVES[i]) for i in move_indices(moves)]
    return tuple(np.stack([getattr(s, a) for s in states]).astype(np.uint8)
                 for a in ("cp", "co", "ep", "eo"))


@njit(cache=True, nogil=True)
def apply_move(cp, co, ep, eo, mcp, mco, mep, meo, m, out_cp, out_co, out_ep, out_eo):
    """out = state * move m, the move arrays being the (n, 8) / (n, 12) ones of move_arrays
    (rows are indexed here rather than sliced: views passed to calls cost reference counting)."""
    for i in range(8):
        j = mcp[m, i]
        out_cp[i] = cp[j]
        c = co[j] + mco[m, i]
        out_co[i] = c - 3 if c >= 3 else c
    for i in range(12):
        j = mep[m, i]
        out_ep[i] = ep[j]
        out_eo[i] = eo[j] ^ meo[m, i]


@njit(cache=True, nogil=True)
def _in_range(desc, cp, ep):
    """Whether the pieces in a restricted slot range all belong there (the coordinate is valid)."""
    if desc[D_POS] == POS_NONE and desc[D_ORI] != ORI_BY_PIECE:
        return True
    perm = cp if desc[D_KIND] == CORNER else ep
    lo, hi = desc[D_LO], desc[D_HI]
    for j in range(lo, hi):
        if perm[j] < lo or perm[j] >= hi:
            return False
    return True


@njit(cache=True, nogil=True)
def build_move_table(descs, mcp, mco, mep, meo, out, cancel, counters):
    """out[i, m] for the coordinate descs[0] (one-row descriptor array); returns -1 when done,
    -2 if cancelled, or the index of a move that leaves the coordinate's slot range."""
    desc = descs[0]
    nm = mcp.shape[0]
    cp, co = np.empty(8, np.uint8), np.empty(8, np.uint8)
    ep, eo = np.empty(12, np.uint8), np.empty(12, np.uint8)
    rcp, rco = np.empty(8, np.uint8), np.empty(8, np.uint8)
    rep, reo = np.empty(12, np.uint8), np.empty(12, np.uint8)
    for i in range(out.shape[0]):
        if (i & 4095) == 0:
            if cancel[0]:
                return -2
            counters[0] = i
        decode_product(descs, i, cp, co, ep, eo)
        for m in range(nm):
            apply_move(cp, co, ep, eo, mcp, mco, mep, meo, m, rcp, rco, rep, reo)
            if not _in_range(desc, rcp, rep):
                return m
            out[i, m] = encode(desc, rcp, rco, rep, reo)
    counters[0] = out.shape[0]
    return -1


@njit(cache=True, nogil=True)
def build_delta_table(pos_descs, ori_desc, mcp, mco, mep, meo, out, cancel, counters):
    """out[p, m] = the orientation (by piece) that move m gives the tracked pieces, starting
    unturned from positions p. Returns -1 when done, -2 if cancelled."""
    nm = mcp.shape[0]
    cp, co = np.empty(8, np.uint8), np.empty(8, np.uint8)
    ep, eo = np.empty(12, np.uint8), np.empty(12, np.uint8)
    rcp, rco = np.empty(8, np.uint8), np.empty(8, np.uint8)
    rep, reo = np.empty(12, np.uint8), np.empty(12, np.uint8)
    for p in range(out.shape[0]):
        if (p & 4095) == 0:
            if cancel[0]:
                return -2
            counters[0] = p
        decode_product(pos_descs, p, cp, co, ep, eo)
        for m in range(nm):
            apply_move(cp, co, ep, eo, mcp, mco, mep, meo, m, rcp, rco, rep, reo)
            out[p, m] = encode(ori_desc, rcp, rco, rep, reo)
    counters[0] = out.shape[0]
    return -1


def _dtype_for(size: int):
    return np.uint16 if size <= 1 << 16 else np.int32


def _flags(cancel, counters):
    return (np.zeros(1, np.int32) if cancel is None else cancel,
            np.zeros(4, np.int64) if counters is None else counters)



def move_table(coord: Coord, moves=None, *, cancel=None, counters=None) -> np.ndarray:
    """(coord.size, len(moves)) table: uint16 when the coordinate fits, else int32."""
    if coord.positions == "none" and coord.orientation == "piece":
        raise ValueError(f"{coord.name}: orientation by piece depends on positions; "
                         "use orientation_delta_table")
    mcp, mco, mep, meo = move_arrays(moves)
    out = np.empty((coord.size, mcp.shape[0]), dtype=_dtype_for(coord.size))
    cancel, counters = _flags(cancel, counters)
    counters[1] = coord.size
    descs = Product((coord,)).descs
    status = build_move_table(descs, mcp, mco, mep, meo, out, cancel, counters)
    if status == -2:
        raise Cancelled(coord.name)
    if status >= 0:
        name = FACE_MOVES[int(move_indices(moves)[status])]
        raise ValueError(f"{coord.name}: move {name} takes pieces out of slots {coord.slots}")
    return out


def orientation_delta_table(orientation: Coord, positions: Coord | Product, moves=None, *,
                            cancel=None, counters=None) -> np.ndarray:
    """(positions.size, len(moves)): the orientation change of `orientation`'s pieces (an
    orientation "by piece" coordinate) under each move, from each value of `positions` (which
    must place those pieces). New orientation = add[old, delta[pos, m]]."""
    if orientation.orientation != "piece" or orientation.positions != "none":
        raise ValueError(f"{orientation.name}: expected an orientation-by-piece coordinate")
    product = positions if isinstance(positions, Product) else Product((positions,))
    placed = {(c.piece, p) for c in product.coords if c.positions != "none" for p in c.pieces}
    if not all((orientation.piece, p) in placed for p in orientation.pieces):
        raise ValueError(f"{product.name} does not place all of {orientation.name}'s pieces")
    mcp, mco, mep, meo = move_arrays(moves)
    out = np.empty((product.size, mcp.shape[0]), dtype=_dtype_for(orientation.size))
    cancel, counters = _flags(cancel, counters)
    counters[1] = product.size
    if build_delta_table(product.descs, orientation.desc, mcp, mco, mep, meo, out, cancel,
                         counters) == -2:
        raise Cancelled(orientation.name)
    return out


def orientation_add_table(orientation: Coord) -> np.ndarray:
    """(size, size): digit-wise sum mod 3 (corners) or mod 2 (edges) of two orientation values."""
    base, k = orientation.base, len(orientation.pieces)
    n = base ** k
    weights = base ** np.arange(k)
    digits = (np.arange(n)[:, None] // weights) % base
    out = np.empty((n, n), dtype=_dtype_for(n))
    for a in range(n):
        out[a] = ((digits[a] + digits) % base) @ weights
    return out


if __name__ == "__main__":
    from cubelab.tables.coords import TWIST
    mt = move_table(TWIST)
    print("twist move table", mt.shape, mt.dtype, "row 0:", mt[0].tolist())
