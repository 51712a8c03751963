"""Independent re-statements used by the model tests: sticker-level permutations."""

import numpy as np

from cubelab.cube.pieces import CENTRE_FACELETS, CORNER_FACELETS, EDGE_FACELETS


def sticker_perm(cp, co, ep, eo, cc) -> np.ndarray:
    """perm[pos] = home index of the sticker now at pos; mirrored corner twists (3 + v) map a
    sticker at offset k to offset v - k."""
    perm = np.empty(54, dtype=np.intp)
    for i in range(8):
        p, t = int(cp[i]), int(co[i])
        for k in range(3):
            off = (k + t) % 3 if t < 3 else (t - 3 - k) % 3
            perm[CORNER_FACELETS[i][off]] = CORNER_FACELETS[p][k]
    for i in range(12):
        p, f = int(ep[i]), int(eo[i])
        for k in range(2):
            perm[EDGE_FACELETS[i][(k + f) % 2]] = EDGE_FACELETS[p][k]
    for pos in range(6):
        perm[CENTRE_FACELETS[pos]] = CENTRE_FACELETS[int(cc[pos])]
    return perm


def state_sticker_perm(state) -> np.ndarray:
    return sticker_perm(state.cp, state.co, state.ep, state.eo, state.cc)


def then(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Sticker permutations composed left to right, as cubie states are."""
    return a[b]


def inverse(a: np.ndarray) -> np.ndarray:
    out = np.empty_like(a)
    out[a] = np.arange(len(a))
    return out


def move_ball(radius: int, moves, start=None) -> dict:
    """Every state within `radius` of `moves` (a list of Move) from start (solved), with its
    distance: the plain breadth-first search the table tests check against."""
    from cubelab.cube.moves import move_state
    from cubelab.cube.state import CubeState
    start = start if start is not None else CubeState.identity()
    steps = [move_state(m) for m in moves]
    dist = {start: 0}
    frontier = [start]
    for d in range(1, radius + 1):
        nxt = []
        for s in frontier:
            for step in steps:
                t = s * step
                if t not in dist:
                    dist[t] = d
                    nxt.append(t)
        frontier = nxt
    return dist
