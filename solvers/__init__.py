"""The solvers: one protocol, a registry of declarations, a package per method.

The registry (registry.py, filled by installed.py) serves every solver's declaration without
importing it, and makes solvers on demand (numba compiles on first use); a solver is never
handed a position of another puzzle. Its names are re-exported here.
"""

from . import installed  # noqa: F401  (fills the registry)
from .registry import (  # noqa: F401
    REGISTRY, Registry, StandIn, get_solver, metric_variant, register, solver_metrics,
    solver_names, solver_puzzle,
)
