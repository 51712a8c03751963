"""Thistlethwaite's algorithm: the solver (solver) and its branch-and-bound kernel (search).

Its tables are in cubelab.tables.thistlethwaite.
"""
