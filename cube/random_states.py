"""Uniformly random reachable states and uniformly random assemblies, from a seed."""

from __future__ import annotations

import numpy as np

from .state import CubeState, permutation_parity


def _rng(seed) -> np.random.Generator:
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def random_assembly(seed=None) -> CubeState:
    """Any of the 12 * 43,252,003,274,489,856,000 ways to assemble the cube, uniformly."""
    g = _rng(seed)
    return CubeState(g.permutation(8), g.integers(0, 3, 8), g.permutation(12), g.integers(0, 2, 12))


def random_state(seed=None) -> CubeState:
    """A uniformly random position reachable by face turns (trace zero)."""
    g = _rng(seed)
    cp, ep = g.permutation(8), g.permutation(12)
    if permutation_parity(cp) != permutation_parity(ep):
        # swapping two edges is a bijection between the two parity classes: stays uniform
        ep[[0, 1]] = ep[[1, 0]]
    co = g.integers(0, 3, 8)
    co[7] = (-int(co[:7].sum())) % 3
    eo = g.integers(0, 2, 12)
    eo[11] = int(eo[:11].sum()) & 1
    return CubeState(cp, co, ep, eo)
