"""Randomness from a seed: uniformly random states and assemblies, and face-turn scrambles."""

from __future__ import annotations

import numpy as np

from .alg import Move
from .pieces import FACES
from .state import CubeState, permutation_parity


def generator(seed) -> np.random.Generator:
    """A numpy Generator from a seed (an int, None, or a Generator, which is used as it is)."""
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def face_scramble(seed, length: int, faces: str = FACES) -> list[Move]:
    """`length` random turns of `faces`: never the same face twice in a row, and never three
    turns on one axis in a row (two of them would merge). `seed`: an int or a numpy Generator,
    which is advanced."""
    g = generator(seed)
    axis = {f: FACES.index(f) % 3 for f in faces}
    out: list[Move] = []
    while len(out) < length:
        face = faces[int(g.integers(len(faces)))]
        if out and out[-1].family == face:
            continue
        if len(out) >= 2 and axis[out[-1].family] == axis[out[-2].family] == axis[face]:
            continue
        out.append(Move(face, int(g.integers(1, 4))))
    return out


def random_assembly(seed=None) -> CubeState:
    """Any of the 12 * 43,252,003,274,489,856,000 ways to assemble the cube, uniformly."""
    g = generator(seed)
    return CubeState(g.permutation(8), g.integers(0, 3, 8), g.permutation(12), g.integers(0, 2, 12))


def random_state(seed=None) -> CubeState:
    """A uniformly random position reachable by face turns (trace zero)."""
    g = generator(seed)
    cp, ep = g.permutation(8), g.permutation(12)
    if permutation_parity(cp) != permutation_parity(ep):
        # swapping two edges is a bijection between the two parity classes: stays uniform
        ep[[0, 1]] = ep[[1, 0]]
    co = g.integers(0, 3, 8)
    co[7] = (-int(co[:7].sum())) % 3
    eo = g.integers(0, 2, 12)
    eo[11] = int(eo[:11].sum()) & 1
    return CubeState(cp, co, ep, eo)
