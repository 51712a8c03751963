"""What Thistlethwaite's solver is, for the registry and the front ends (light: nothing loads)."""

from cubelab.solvers.description import SolverDescription

THISTLETHWAITE = SolverDescription(
    name="thistlethwaite",
    summary="Thistlethwaite's four phases G0 > G1 > G2 > G3 > solved with exact distance "
            "tables; tries every optimal and near-optimal solution of phases 1-3 and keeps the "
            "shortest total.",
    order=2,
)
