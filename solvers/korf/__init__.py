"""Korf's optimal solver.

The solver behind the protocol (solver), the multi-lane IDA* machinery (lanes) and the search
kernels of its two table sets (strong, korf1997); its tables are in cubelab.tables.korf.
"""
