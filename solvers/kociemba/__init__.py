"""Kociemba's two-phase solver.

The solver behind the protocol (solver) and its search kernel (search); its tables are in
cubelab.tables.kociemba.
"""
