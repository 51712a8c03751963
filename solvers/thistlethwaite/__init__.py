"""Thistlethwaite's algorithm: the solver behind the protocol (solver) and its branch-and-bound
kernel over the phases (search); its tables are in cubelab.tables.thistlethwaite."""
