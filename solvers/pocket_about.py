"""What the 2x2x2 solvers are, for the registry and the front ends (light: nothing loads).

One solver class, one registry entry per metric: each proves optima in its own.
"""

from cubelab.cube.metrics import Metric
from cubelab.solvers.description import SolverDescription

_SUMMARY = "2x2x2: optimal from the complete distance table (3,674,160 positions)"

POCKET_HTM = SolverDescription(
    name="pocket-htm", summary=_SUMMARY + ", in HTM", puzzle="2x2", metrics=(Metric.HTM,),
    order=1, family="pocket", made_with={"metric": "htm"})
POCKET_QTM = SolverDescription(
    name="pocket-qtm", summary=_SUMMARY + ", in QTM", puzzle="2x2", metrics=(Metric.QTM,),
    family="pocket", made_with={"metric": "qtm"})
BY_METRIC = {Metric.HTM: POCKET_HTM, Metric.QTM: POCKET_QTM}
