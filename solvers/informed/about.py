"""What the competition's players are, for the registry and the front ends (light: nothing loads).

Both search on a heuristic chosen by name (heuristics.py computes them).
"""

from cubelab.solvers.description import Option, SolverDescription

HEURISTICS = ("misplaced", "manhattan", "manhattan-raw", "pdb")
"""The heuristics by name; all but manhattan-raw are admissible."""

_HEURISTIC = Option("heuristic", "the heuristic it searches with (idastar is optimal with all "
                                 "but manhattan-raw)", choices=HEURISTICS, default="pdb")

IDASTAR = SolverDescription(
    name="idastar",
    summary="IDA* (iterative deepening A*) on a heuristic of your choice; optimal when it is "
            "admissible; gives up after a node budget.",
    options=(_HEURISTIC,),
)
GREEDY = SolverDescription(
    name="greedy",
    summary="Greedy best-first search on a heuristic of your choice: quick when it points the "
            "right way, never optimal; gives up after a node budget.",
    options=(_HEURISTIC,),
)
