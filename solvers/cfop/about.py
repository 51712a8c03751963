"""What the CFOP solver is, for the registry and the front ends (light: nothing loads)."""

from cubelab.solvers.description import SolverDescription

CFOP = SolverDescription(
    name="cfop",
    summary="CFOP as a cuber does it: an optimal cross (best of the six colours), each F2L pair "
            "by search for the cheapest next one, then OLL and PLL from the 57 + 21 "
            "algorithms; every step named with its moves.",
)
