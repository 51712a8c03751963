"""Kociemba's two-phase tables: move tables of his coordinates (movetables), the symmetry
reduction of flip-slice and corner permutation (symmetry), the pruning tables (pruning), and
their specs in the store with the one object the search reads (specs)."""
