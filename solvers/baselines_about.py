"""What the baselines are (bfs, astar), for the registry and the front ends (light: nothing loads)."""

from cubelab.solvers.description import SolverDescription

BFS_DEPTH = 5
"""The deepest position breadth-first search solves by default (about 620,000 positions)."""

BFS = SolverDescription(
    name="bfs",
    summary="Breadth-first search: every position 1, 2, 3... moves away until the solved one "
            "appears; optimal, and refuses positions deeper than its bound.",
    reach=BFS_DEPTH,
    order=6,
)
ASTAR = SolverDescription(
    name="astar",
    summary="A* search with an admissible pattern-database heuristic (corner twist x edge "
            "flip, corner permutation); optimal, bounded by a number of expanded nodes.",
    reach=9,            # most positions up to 9 moves fit its node budget
    order=5,
)
