"""Kociemba's two-phase tables.

The symmetry reduction of flip-slice and the UD-edge permutation (symmetry), the pruning tables
(pruning), and their specs in the store with the one object the search reads (specs).
"""
