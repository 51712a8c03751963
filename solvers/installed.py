"""The solvers of this installation: one line each, a declaration and where its class lives.

A new solver is a package beside the others (its light `about.py` declaring it, its `solver.py`
implementing the protocol) and one line here; `tests/test_solver_contract.py` then runs it.
"""

from . import baselines_about, pocket_about
from .cfop.about import CFOP
from .fake_about import FAKE
from .goals.about import GOAL
from .informed.about import GREEDY, IDASTAR
from .kociemba.about import TWO_PHASE
from .korf.about import KORF, KORF_QTM
from .registry import register
from .thistlethwaite.about import THISTLETHWAITE
from .threecycle.about import THREE_CYCLES

register(TWO_PHASE, "cubelab.solvers.kociemba.solver", "KociembaSolver")
register(KORF, "cubelab.solvers.korf.solver", "KorfSolver")
register(KORF_QTM, "cubelab.solvers.korf.solver", "KorfSolver")
register(THISTLETHWAITE, "cubelab.solvers.thistlethwaite.solver", "ThistlethwaiteSolver")
register(THREE_CYCLES, "cubelab.solvers.threecycle.solver", "ThreeCycleSolver")
register(CFOP, "cubelab.solvers.cfop.solver", "CfopSolver")
register(baselines_about.BFS, "cubelab.solvers.baselines", "BFSSolver")
register(baselines_about.ASTAR, "cubelab.solvers.baselines", "AStarSolver")
register(IDASTAR, "cubelab.solvers.informed.idastar", "IDAStarSolver")
register(GREEDY, "cubelab.solvers.informed.greedy", "GreedySolver")
register(pocket_about.POCKET_HTM, "cubelab.solvers.pocket", "PocketSolver")
register(pocket_about.POCKET_QTM, "cubelab.solvers.pocket", "PocketSolver")
register(GOAL, "cubelab.solvers.goals.solver", "GoalSolver")
register(FAKE, "cubelab.solvers.fake", "FakeSolver")
