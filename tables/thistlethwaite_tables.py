"""Thistlethwaite's four phases: coset coordinates, move tables and exact distance tables.

G0 = <U, R, F, D, L, B>  ->  G1 = <L, R, F2, B2, U, D>  ->  G2 = <L, R, F2, B2, U2, D2>
->  G3 = <L2, R2, F2, B2, U2, D2>  ->  G4 = {solved}.

Phase k solves the coset G_k x of a position x in G_{k-1}; a coordinate of phase k is a function
of that coset (unchanged when x is multiplied on the left by an element of G_k), so a move acts
on it through a move table, and the coordinate of the solved cube is reached exactly when x is in
G_k. Cosets per phase: 2,048 / 1,082,565 / 29,400 / 663,552.

- Phase 1, G0 -> G1: edge flip (F and B quarter turns flip edges; nothing in G1 does): 2^11.
- Phase 2, G1 -> G2: corner twist measured against the L/R axis (L and R quarter turns keep a
  corner's L/R sticker on the L/R faces; U and D quarter turns do not), 3^7, times the slots of
  the four M-slice edges UF UB DF DB, C(12, 4) = 495.
- Phase 3, G2 -> G3: corners must lie in their tetrads {URF ULB DLF DRB} and {UFL UBR DFR DBL}
  AND their permutation must lie in the 96-element group the half turns generate: of the
  4! x 4! = 576 tetrad-keeping permutations only a sixth do, which is the "parity" condition that
  makes G3 exact. So the corner coordinate is the class of a permutation p under relabelling by
  that group H (the set {h o p : h in H}): 8! / 96 = 420 classes = 70 tetrad splits x 6. Times
  the slots of the E-slice edges among the eight non-M slots, C(8, 4) = 70: 29,400. (Edge parity
  needs no coordinate: in G2 it equals the corner parity, and every element of H is even.)
- Phase 4, G3 -> solved: the corner permutation as an element of H (96) times the edges'
  orders inside their three slices with even total parity, 24 * 24 * 12 = 6,912: 663,552.

Move tables are built by walking the orbit of the solved cube under each phase's moves (each
coordinate value keeps the first cubie state that reached it); distance tables by breadth-first
search in numba. All are registered with the table store.
"""

from __future__ import annotations

import itertools
import math
from typing import NamedTuple

import numpy as np

import cubelab.tables  # noqa: F401  (numba cache location, before numba)
from numba import njit

from .spec import TableSpec, register
from .store import load_or_build

VERSION = 1

# ---- the phases' moves (indices into cubelab.cube.moves.FACE_MOVES: U R F D L B, each as
#      quarter, half, inverse quarter) -----------------------------------------------------------
_U, _R, _F, _D, _L, _B = (3 * k for k in range(6))
PHASE_MOVES = (
    np.arange(18),
    np.array([_U, _U + 1, _U + 2, _R, _R + 1, _R + 2, _F + 1, _D, _D + 1, _D + 2,
              _L, _L + 1, _L + 2, _B + 1]),
    np.array([_U + 1, _R, _R + 1, _R + 2, _F + 1, _D + 1, _L, _L + 1, _L + 2, _B + 1]),
    np.array([_U + 1, _R + 1, _F + 1, _D + 1, _L + 1, _B + 1]),
)
"""The moves each phase may use: G0's, G1's, G2's and G3's generators."""

SUBGROUPS = ("G1 = <L, R, F2, B2, U, D>", "G2 = <L, R, F2, B2, U2, D2>",
             "G3 = <L2, R2, F2, B2, U2, D2>", "solved")
"""What each phase reaches."""

N_FLIP, N_TWIST, N_MSLICE = 2 ** 11, 3 ** 7, 495
N_CCLASS, N_ESLICE = 420, 70
N_H, N_EDGES4 = 96, 6912
PHASE_SIZES = (N_FLIP, N_TWIST * N_MSLICE, N_CCLASS * N_ESLICE, N_H * N_EDGES4)

M_SLOTS = np.array([1, 3, 5, 7])          # UF UB DF DB
E_SLOTS = np.array([8, 9, 10, 11])        # FR FL BL BR
S_SLOTS = np.array([0, 2, 4, 6])          # UR UL DR DL
NON_M = np.array([0, 2, 4, 6, 8, 9, 10, 11])
LR_STICKER = np.array([1, 2, 1, 2, 2, 1, 2, 1])
"""For each corner slot (Kociemba order), which of its stickers (clockwise from the U/D one)
lies on the L or R face."""


# ---- cubie helpers -----------------------------------------------------------------------------

def move_cubies():
    """The 18 face turns as int64 arrays (cp, co, ep, eo), each (18, n)."""
    from cubelab.cube.moves import FACE_MOVES, move_state
    states = [move_state(m) for m in FACE_MOVES]
    return tuple(np.array([getattr(s, a) for s in states], dtype=np.int64)
                 for a in ("cp", "co", "ep", "eo"))


@njit(cache=True, nogil=True)
def apply_move(cp, co, ep, eo, mcp, mco, mep, meo, m, ocp, oco, oep, oeo):
    """(cp, co, ep, eo) then face turn m, written into the o* arrays."""
    for i in range(8):
        ocp[i] = cp[mcp[m, i]]
        oco[i] = (co[mcp[m, i]] + mco[m, i]) % 3
    for i in range(12):
        oep[i] = ep[mep[m, i]]
        oeo[i] = (eo[mep[m, i]] + meo[m, i]) & 1


@njit(cache=True, nogil=True)
def rank_perm(p, n):
    """Lehmer rank of p[0:n] (identity -> 0)."""
    r = 0
    for i in range(n):
        smaller = 0
        for j in range(i + 1, n):
            if p[j] < p[i]:
                smaller += 1
        r = r * (n - i) + smaller
    return r


@njit(cache=True, nogil=True)
def _comb_rank(marks, n):
    """Rank of the set of positions i < n with marks[i] true, among the C(n, k) sets."""
    r = 0
    k = 0
    for i in range(n):
        if marks[i]:
            k += 1
            # sets whose k-th element is smaller than i come first
            r += _binom(i, k)
    return r


@njit(cache=True, nogil=True)
def _binom(n, k):
    if k < 0 or k > n:
        return 0
    r = 1
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


# ---- the coordinates (scalar, in numba: the search computes them at each phase boundary) ------

@njit(cache=True, nogil=True)
def flip_of(eo):
    v = 0
    for i in range(11):
        v = 2 * v + eo[i]
    return v


@njit(cache=True, nogil=True)
def twist_lr_of(cp, co, lr):
    """Corner twist against the L/R axis. The piece's sticker j sits at the slot's position
    (j + co) % 3, so its L/R sticker is lr[piece] + co positions round from the slot's L/R one."""
    v = 0
    for i in range(7):
        v = 3 * v + (lr[cp[i]] + co[i] - lr[i]) % 3
    return v


@njit(cache=True, nogil=True)
def mslice_of(ep):
    marks = np.zeros(12, np.bool_)
    for i in range(12):
        e = ep[i]
        marks[i] = e == 1 or e == 3 or e == 5 or e == 7
    return _comb_rank(marks, 12)


@njit(cache=True, nogil=True)
def cclass_of(cp, cclass):
    return cclass[rank_perm(cp, 8)]


@njit(cache=True, nogil=True)
def eslice_of(ep, non_m):
    marks = np.zeros(8, np.bool_)
    for k in range(8):
        marks[k] = ep[non_m[k]] >= 8
    return _comb_rank(marks, 8)


@njit(cache=True, nogil=True)
def h_index_of(cp, h_index):
    return h_index[rank_perm(cp, 8)]


@njit(cache=True, nogil=True)
def _slice_order(ep, slots, pieces_sorted):
    """Lehmer rank of the order of a slice's four pieces in its four slots."""
    p = np.empty(4, np.int64)
    for k in range(4):
        e = ep[slots[k]]
        for j in range(4):
            if pieces_sorted[j] == e:
                p[k] = j
    return rank_perm(p, 4)


@njit(cache=True, nogil=True)
def edges4_of(ep, m_slots, e_slots, s_slots):
    """Edge orders inside the M, E and S slices: m * 288 + e * 12 + s // 2 (s's last Lehmer
    digit is the parity, which the other two and the corners fix)."""
    m = _slice_order(ep, m_slots, m_slots)
    e = _slice_order(ep, e_slots, e_slots)
    s = _slice_order(ep, s_slots, s_slots)
    return m * 288 + e * 12 + s // 2


class Lookups(NamedTuple):
    """The two corner lookups phases 3 and 4 need (by Lehmer rank of the corner permutation)."""

    cclass: np.ndarray     # class of {h o p : h in H}, 0..419
    h_index: np.ndarray    # index of p in H, or -1


def phase_coordinates(phase: int, cp, co, ep, eo, lookups: Lookups) -> tuple[int, int]:
    """The two parts (a, b) of phase `phase`'s coordinate (index a * size_b + b), from cubies."""
    cp, co, ep, eo = (np.asarray(x, dtype=np.int64) for x in (cp, co, ep, eo))
    if phase == 0:
        return int(flip_of(eo)), 0
    if phase == 1:
        return int(twist_lr_of(cp, co, LR_STICKER)), int(mslice_of(ep))
    if phase == 2:
        return int(cclass_of(cp, lookups.cclass)), int(eslice_of(ep, NON_M))
    return int(h_index_of(cp, lookups.h_index)), int(edges4_of(ep, M_SLOTS, E_SLOTS, S_SLOTS))


# ---- the half-turn group H on corners and the corner lookups ---------------------------------

def half_turn_corner_group() -> np.ndarray:
    """The 96 corner permutations of G3, identity first (breadth-first from it)."""
    mcp = move_cubies()[0]
    gens = [mcp[m] for m in PHASE_MOVES[3]]
    seen = {tuple(range(8)): None}
    frontier = [np.arange(8)]
    while frontier:
        nxt = []
        for p in frontier:
            for g in gens:
                q = p[g]
                if tuple(q) not in seen:
                    seen[tuple(q)] = None
                    nxt.append(q)
        frontier = nxt
    return np.array(list(seen), dtype=np.int64)


def _build_corner_lookups(ctx) -> np.ndarray:
    """(2, 8!) int16: row 0 the phase-3 class of each permutation, row 1 its index in H."""
    group = half_turn_corner_group()
    perms = np.array(list(itertools.permutations(range(8))), dtype=np.int64)   # Lehmer order
    weights = np.array([math.factorial(7 - i) for i in range(8)])
    # {h o p}: relabel the pieces of p by h (h[p]); the class is named by its smallest rank
    smallest = np.full(len(perms), np.iinfo(np.int64).max)
    for h in group:
        q = h[perms]
        lehmer = (q[:, :, None] > q[:, None, :]) & np.triu(np.ones((8, 8), bool), 1)[None]
        smallest = np.minimum(smallest, lehmer.sum(2) @ weights)
        ctx.check_cancel()
    _, cclass = np.unique(smallest, return_inverse=True)
    h_index = np.full(len(perms), -1, dtype=np.int64)
    ranks = [int(rank_perm(h, 8)) for h in group]
    h_index[ranks] = np.arange(len(group))
    out = np.stack([cclass, h_index]).astype(np.int16)
    assert cclass.max() + 1 == N_CCLASS
    return out


# ---- move tables: the orbit of the solved cube under a phase's moves --------------------------

@njit(cache=True, nogil=True)
def _coordinate(which, cp, co, ep, eo, lr, non_m, cclass, h_index, m_slots, e_slots, s_slots):
    if which == 0:
        return flip_of(eo)
    if which == 1:
        return twist_lr_of(cp, co, lr)
    if which == 2:
        return mslice_of(ep)
    if which == 3:
        return cclass_of(cp, cclass)
    if which == 4:
        return eslice_of(ep, non_m)
    if which == 5:
        return h_index_of(cp, h_index)
    return edges4_of(ep, m_slots, e_slots, s_slots)


_COORD_SIZES = (N_FLIP, N_TWIST, N_MSLICE, N_CCLASS, N_ESLICE, N_H, N_EDGES4)
_COORD_PHASE = (0, 1, 1, 2, 2, 3, 3)
_COORD_NAMES = ("flip", "twist_lr", "mslice", "cclass", "eslice", "h_index", "edges4")


@njit(cache=True, nogil=True)
def _orbit_move_table(which, size, moves, mcp, mco, mep, meo, lr, non_m, cclass, h_index,
                      m_slots, e_slots, s_slots, counters, cancel):
    """table[v, k] = coordinate after moves[k] from any state with coordinate v, found by
    walking the orbit of the solved cube; -1 marks values never reached (a bug if any)."""
    nm = len(moves)
    table = np.full((size, nm), -1, np.int32)
    reps = np.empty((size, 40), np.int64)      # cp co ep eo of a state with each value
    have = np.zeros(size, np.bool_)
    queue = np.empty(size, np.int64)
    cp = np.arange(8)
    co = np.zeros(8, np.int64)
    ep = np.arange(12)
    eo = np.zeros(12, np.int64)
    start = _coordinate(which, cp, co, ep, eo, lr, non_m, cclass, h_index, m_slots, e_slots,
                        s_slots)
    reps[start, 0:8] = cp
    reps[start, 8:16] = co
    reps[start, 16:28] = ep
    reps[start, 28:40] = eo
    have[start] = True
    queue[0] = start
    head, tail = 0, 1
    ocp = np.empty(8, np.int64)
    oco = np.empty(8, np.int64)
    oep = np.empty(12, np.int64)
    oeo = np.empty(12, np.int64)
    while head < tail:
        if cancel[0]:
            break
        v = queue[head]
        head += 1
        for k in range(nm):
            apply_move(reps[v, 0:8], reps[v, 8:16], reps[v, 16:28], reps[v, 28:40],
                       mcp, mco, mep, meo, moves[k], ocp, oco, oep, oeo)
            w = _coordinate(which, ocp, oco, oep, oeo, lr, non_m, cclass, h_index, m_slots,
                            e_slots, s_slots)
            table[v, k] = w
            if not have[w]:
                have[w] = True
                reps[w, 0:8] = ocp
                reps[w, 8:16] = oco
                reps[w, 16:28] = oep
                reps[w, 28:40] = oeo
                queue[tail] = w
                tail += 1
        counters[0] = head
        counters[1] = size
    return table


def _move_table_builder(which: int):
    def build(ctx) -> np.ndarray:
        lookups = ctx.load("thistlethwaite.corner_lookups").astype(np.int64)
        table = _orbit_move_table(
            which, _COORD_SIZES[which], PHASE_MOVES[_COORD_PHASE[which]].astype(np.int64),
            *move_cubies(), LR_STICKER, NON_M, lookups[0], lookups[1], M_SLOTS, E_SLOTS,
            S_SLOTS, ctx.counters, ctx.cancel)
        ctx.check_cancel()
        if (table < 0).any():
            raise RuntimeError(f"{_COORD_NAMES[which]}: the orbit misses some values")
        return table.astype(np.int16)
    return build


# ---- distance tables ----------------------------------------------------------------------------

@njit(cache=True, nogil=True)
def _distances(move_a, move_b, goal, counters, cancel):
    """Exact distances over indices a * size_b + b, breadth-first from `goal`."""
    size_a, nm = move_a.shape
    size_b = move_b.shape[0]
    n = size_a * size_b
    dist = np.full(n, 255, np.uint8)
    dist[goal] = 0
    reached = 1
    depth = 0
    while reached < n:
        found = 0
        for i in range(n):
            if dist[i] != depth:
                continue
            a = i // size_b
            b = i - a * size_b
            for k in range(nm):
                j = move_a[a, k] * size_b + move_b[b, k]
                if dist[j] == 255:
                    dist[j] = depth + 1
                    found += 1
        reached += found
        depth += 1
        counters[0] = reached
        counters[1] = n
        if found == 0 or cancel[0]:
            break
    return dist


def _goal(phase: int, lookups: Lookups) -> int:
    a, b = phase_coordinates(phase, np.arange(8), np.zeros(8), np.arange(12), np.zeros(12),
                             lookups)
    return a * _PHASE_PARTS_SIZE_B[phase] + b


_PHASE_PARTS = (("flip", None), ("twist_lr", "mslice"), ("cclass", "eslice"),
                ("h_index", "edges4"))
_PHASE_PARTS_SIZE_B = (1, N_MSLICE, N_ESLICE, N_EDGES4)


def _distance_builder(phase: int):
    def build(ctx) -> np.ndarray:
        a_name, b_name = _PHASE_PARTS[phase]
        move_a = ctx.load(f"thistlethwaite.{a_name}_move").astype(np.int64)
        if b_name is None:
            move_b = np.zeros((1, move_a.shape[1]), np.int64)
        else:
            move_b = ctx.load(f"thistlethwaite.{b_name}_move").astype(np.int64)
        lookups = load_lookups(ctx.load)
        dist = _distances(move_a, move_b, _goal(phase, lookups), ctx.counters, ctx.cancel)
        ctx.check_cancel()
        if (dist == 255).any():
            raise RuntimeError(f"phase {phase + 1}: some cosets were never reached")
        return dist
    return build


# ---- registration and loading ------------------------------------------------------------------

def _spec(name, build, description, nbytes, deps=(), **params):
    return register(TableSpec(
        name=f"thistlethwaite.{name}", solver="thistlethwaite",
        params={"version": VERSION, **params}, build=build, description=description,
        deps=tuple(f"thistlethwaite.{d}" for d in deps), expected_bytes=nbytes))


_MOVE_DESCRIPTIONS = {
    "flip": "phase 1: edge flip x 18 moves",
    "twist_lr": "phase 2: corner twist (L/R axis) x 14 moves",
    "mslice": "phase 2: M-slice edge slots x 14 moves",
    "cclass": "phase 3: corner tetrad class x 10 moves",
    "eslice": "phase 3: E-slice edge slots x 10 moves",
    "h_index": "phase 4: corner permutation in the half-turn group x 6 moves",
    "edges4": "phase 4: edge orders in the slices x 6 moves",
}

LOOKUP_SPEC = _spec("corner_lookups", _build_corner_lookups,
                    "corner permutation -> phase-3 class and phase-4 index", 2 * 40320 * 2,
                    size=40320)
MOVE_SPECS = tuple(
    _spec(f"{name}_move", _move_table_builder(which), _MOVE_DESCRIPTIONS[name],
          _COORD_SIZES[which] * len(PHASE_MOVES[_COORD_PHASE[which]]) * 2, ("corner_lookups",),
          size=_COORD_SIZES[which])
    for which, name in enumerate(_COORD_NAMES))
DISTANCE_SPECS = tuple(
    _spec(f"phase{k + 1}", _distance_builder(k),
          f"phase {k + 1}: exact distance to {SUBGROUPS[k].split(' =')[0]} of each coset",
          PHASE_SIZES[k],
          ("corner_lookups",) + tuple(f"{p}_move" for p in _PHASE_PARTS[k] if p), size=PHASE_SIZES[k])
    for k in range(4))


def load_lookups(load=load_or_build) -> Lookups:
    arr = load("thistlethwaite.corner_lookups").astype(np.int64)
    return Lookups(arr[0], arr[1])


class ThistlethwaiteTables(NamedTuple):
    """Everything the search needs, as int64 move tables and uint8 distance tables."""

    lookups: Lookups
    move_a: tuple[np.ndarray, ...]     # per phase: (size_a, moves)
    move_b: tuple[np.ndarray, ...]     # per phase: (size_b, moves); phase 1's is a dummy
    dist: tuple[np.ndarray, ...]       # per phase: (size_a * size_b,)


def load_tables(progress=None, cancel=None, log=None) -> ThistlethwaiteTables:
    """Load (or build and save) every Thistlethwaite table; progress(done, total) per table."""
    specs = (LOOKUP_SPEC,) + MOVE_SPECS + DISTANCE_SPECS
    arrays = {}
    for k, spec in enumerate(specs):
        arrays[spec.name] = load_or_build(spec, cancel=cancel, log=log)
        if progress is not None:
            progress(k + 1, len(specs))
    lookups = Lookups(*arrays["thistlethwaite.corner_lookups"].astype(np.int64))
    move_a, move_b = [], []
    for a_name, b_name in _PHASE_PARTS:
        ma = arrays[f"thistlethwaite.{a_name}_move"].astype(np.int64)
        mb = (np.zeros((1, ma.shape[1]), np.int64) if b_name is None
              else arrays[f"thistlethwaite.{b_name}_move"].astype(np.int64))
        move_a.append(ma)
        move_b.append(mb)
    dist = tuple(np.ascontiguousarray(arrays[f"thistlethwaite.phase{k + 1}"]) for k in range(4))
    return ThistlethwaiteTables(lookups, tuple(move_a), tuple(move_b), dist)


if __name__ == "__main__":
    import time

    t = time.perf_counter()
    tabs = load_tables(log=print)
    print(f"loaded in {time.perf_counter() - t:.1f} s")
    for k, d in enumerate(tabs.dist):
        counts = np.bincount(d)
        print(f"phase {k + 1} -> {SUBGROUPS[k]}: {len(d):,} cosets, at most {len(counts) - 1} "
              f"moves, by distance {counts.tolist()}")
