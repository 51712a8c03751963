"""What the 3-cycle solver is, for the registry and the front ends (light: nothing loads)."""

from cubelab.solvers.description import SolverDescription

THREE_CYCLES = SolverDescription(
    name="threecycle",
    summary="Elementary method: at most one quarter turn for parity, then corner and edge "
            "3-cycles and pair twists, each a commutator [setup: [A, B]] found by search; "
            "annotated steps, then the flat moves after cancellation.",
    order=4,
)
