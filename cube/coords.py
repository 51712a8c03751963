"""Coordinates: the TIPE's compression of a state into integers, with exact inverses.

Permutations are ranked into [0, n!) by their Lehmer code; orientations are read as numbers in
base 3 (corners) and base 2 (edges) over all slots, so every assembly round-trips, reachable or not.
"""

from __future__ import annotations

import math

from .state import CubeState

N_CORNER_PERM = math.factorial(8)
N_EDGE_PERM = math.factorial(12)
N_CORNER_TWIST = 3 ** 8
N_EDGE_FLIP = 2 ** 12


def rank_permutation(perm) -> int:
    """Lehmer rank of a permutation of 0..n-1 (identity -> 0)."""
    items = [int(p) for p in perm]
    n = len(items)
    rank = 0
    for i in range(n):
        smaller = sum(1 for j in range(i + 1, n) if items[j] < items[i])
        rank = rank * (n - i) + smaller
    return rank


def unrank_permutation(rank: int, n: int) -> list[int]:
    if not 0 <= rank < math.factorial(n):
        raise ValueError(f"permutation rank {rank} out of range for n = {n}")
    digits = []
    for base in range(1, n + 1):
        digits.append(rank % base)
        rank //= base
    digits.reverse()
    pool = list(range(n))
    return [pool.pop(d) for d in digits]


def rank_orientation(values, base: int) -> int:
    r = 0
    for v in values:
        r = r * base + int(v)
    return r


def unrank_orientation(rank: int, base: int, n: int) -> list[int]:
    if not 0 <= rank < base ** n:
        raise ValueError(f"orientation rank {rank} out of range for {n} digits in base {base}")
    out = []
    for _ in range(n):
        out.append(rank % base)
        rank //= base
    return out[::-1]


def coordinates(state: CubeState) -> dict[str, int]:
    """The four coordinates of the state's cubies (centres are not part of them)."""
    return {
        "corner_perm": rank_permutation(state.cp),
        "corner_twist": rank_orientation(state.co, 3),
        "edge_perm": rank_permutation(state.ep),
        "edge_flip": rank_orientation(state.eo, 2),
    }


def state_from_coordinates(corner_perm: int, corner_twist: int, edge_perm: int,
                           edge_flip: int) -> CubeState:
    return CubeState(unrank_permutation(corner_perm, 8), unrank_orientation(corner_twist, 3, 8),
                     unrank_permutation(edge_perm, 12), unrank_orientation(edge_flip, 2, 12))


def position_index(state: CubeState) -> int:
    """One integer for the whole assembly, in [0, 8! 3^8 12! 2^12)."""
    c = coordinates(state)
    return (((c["corner_perm"] * N_CORNER_TWIST + c["corner_twist"]) * N_EDGE_PERM
             + c["edge_perm"]) * N_EDGE_FLIP + c["edge_flip"])


def state_from_index(index: int) -> CubeState:
    index, flip = divmod(index, N_EDGE_FLIP)
    index, eperm = divmod(index, N_EDGE_PERM)
    cperm, twist = divmod(index, N_CORNER_TWIST)
    return state_from_coordinates(cperm, twist, eperm, flip)
