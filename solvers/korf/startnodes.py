"""The start nodes the threads share: symmetric ones dropped, the rest ordered by past cost.

**Symmetric positions:** one start node of each set that the position's symmetries map onto
each other.
When a symmetry S fixes the position X (S X S^-1 = X), the node X P (P the moves from the root)
and the node X P' with P' = S P S^-1 are the same position seen through S, and if S also keeps
the canonical move order (never the same face twice; U before D, R before L, F before B), their
subtrees are images of each other move for move: one holds a solution of the bound exactly when
the other does. So only one start node of each orbit is searched. The superflip keeps all 48
symmetries, of which the 6 fixing the U-R-F corner keep the order: its 3,240 start nodes three
moves deep come down to 540. A position without symmetry keeps every node.

**Order by past cost** (an idea of Chen Shuang's, used by vcube and nissy): a start node whose
subtree took many nodes at bound b - 1 is one where the tables often judged the bound within
reach, and the solutions at bound b tend to lie below such nodes. Searching them first finds
the first solution of the last bound (the one that costs the most) sooner; the bounds before
it are searched to the end, so their cost does not change. With `layers`, on the 10 random
states of bench/bench_korf.py solved both ways side by side, the mean went from 18.6 s to 9.1 s
and the nodes per cube from 181 M to 86 M (bench/bench_task_order.py replays the orders from
each start node's exact cost).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from cubelab.cube.state import CubeState
from cubelab.tables.cubies import follows_table


@lru_cache(maxsize=1)
def order_keeping_symmetries() -> tuple[int, ...]:
    """The symmetries (indices of cubelab.cube.symmetry) that map canonical sequences onto
    canonical sequences: move p may precede move m exactly when their images may."""
    from cubelab.cube.symmetry import move_conjugation
    mc = move_conjugation().astype(np.int64)
    follows = follows_table()
    return tuple(k for k in range(len(mc))
                 if (follows[np.ix_(mc[k], mc[k])] == follows).all())


def distinct_starts(target: CubeState, items: np.ndarray,
                    paths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The start nodes (items, and the paths reaching them) with every node dropped whose
    subtree a symmetry of `target` maps onto the subtree of a node kept before it."""
    from cubelab.cube.symmetry import conjugate, move_conjugation
    fixing = [k for k in order_keeping_symmetries() if k and conjugate(target, k) == target]
    if not fixing or len(paths) == 0:
        return items, paths
    mc = move_conjugation().astype(np.int64)
    index = {tuple(p): i for i, p in enumerate(paths.tolist())}
    seen = np.zeros(len(paths), bool)
    keep = []
    for i, p in enumerate(paths.astype(np.int64)):
        if seen[i]:
            continue
        keep.append(i)
        for k in fixing:   # the fixing symmetries form a group: this marks i's whole orbit
            j = index.get(tuple(mc[k, p].tolist()))
            if j is None:
                # the paths follow another move order (not the face turns' canonical one):
                # nothing shown here holds for it, so every node is searched
                return items, paths
            seen[j] = True
    return items[keep], paths[keep]


def by_past_cost(items: np.ndarray, paths: np.ndarray,
                 costs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The start nodes (items, paths) reordered for the next bound: the largest cost (nodes
    generated below each at the bound just searched) first, ties in their present order."""
    order = np.argsort(-costs, kind="stable")
    return items[order], paths[order]
