"""What the competition's players share: a heuristic by name, a node budget, the tables.

Both players read the shared move tables (twist, flip, corner permutation) and build the
baselines' pattern databases in memory at prepare time, whichever heuristic they use (a
second's work, and the pattern databases stay one implementation).
"""

from __future__ import annotations

from ..baselines import MOVE_TABLES, PatternDatabases
from ..protocol import SolverBase
from .heuristics import check_heuristic


class InformedPlayer(SolverBase):
    """A search on a heuristic (misplaced, manhattan, manhattan-raw, pdb) with a node budget;
    move costs and lengths count half turns as one move."""

    def __init__(self, heuristic: str, max_nodes: int):
        self.heuristic = check_heuristic(heuristic)
        self.max_nodes = max_nodes
        self._pdb: PatternDatabases | None = None

    def describe(self) -> str:
        """What this player is, with its heuristic and budget (for reports)."""
        raise NotImplementedError

    def table_specs(self) -> tuple:
        return MOVE_TABLES

    def _prepare(self, progress, cancel, log) -> None:
        """Load the move tables and build the pattern databases (under a second)."""
        self._pdb = PatternDatabases(progress, cancel, log)
        self._ready()

    def _ready(self) -> None:
        """What a player sets up once the pattern databases are there."""
