"""What the test stand-in is, for the registry (light: nothing loads). Hidden from users."""

from cubelab.solvers.description import SolverDescription

FAKE = SolverDescription(
    name="fake",
    summary="test stand-in: shortest solution within 6 moves, streamed with padding",
    hidden=True,
)
