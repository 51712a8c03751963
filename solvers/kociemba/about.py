"""What the two-phase solver is, for the registry and the front ends (light: nothing loads)."""

from cubelab.solvers.description import Option, SolverDescription

TWO_PHASE = SolverDescription(
    name="kociemba",
    summary="Kociemba's two-phase: near-optimal in milliseconds, improving with time",
    options=(
        Option("first", "stop at the first solution of at most 20 moves (milliseconds; by "
                        "default it improves for about a second and stops as soon as its "
                        "solution is proven optimal)", type=bool, default=False),
    ),
    order=1,
)
