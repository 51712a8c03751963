"""What Korf's optimal solvers are, for the registry and the front ends (light: nothing loads).

One solver class, one registry entry per metric (korf proves optima in HTM, korf-qtm in QTM),
each with its own table sets (sets.py).
"""

from cubelab.cube.metrics import Metric
from cubelab.solvers.description import SolverDescription

from .sets import SETS

KORF = SolverDescription(
    name="korf",
    summary="Korf's optimal IDA* with pattern databases (proves the optimal length)",
    table_sets=SETS[Metric.HTM],
    order=3,
    family="korf",
    long_searches=True,
)
KORF_QTM = SolverDescription(
    name="korf-qtm",
    summary="Korf's optimal IDA* in the quarter-turn metric (proves the optimal QTM length)",
    metrics=(Metric.QTM,),
    table_sets=SETS[Metric.QTM],
    family="korf",
    made_with={"metric": "qtm"},
    long_searches=True,
)
BY_METRIC = {Metric.HTM: KORF, Metric.QTM: KORF_QTM}
