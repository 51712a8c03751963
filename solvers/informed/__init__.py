"""The informed-search players of the seed study's competition: IDA* (idastar) and greedy
best-first search (greedy), on the heuristics of heuristics.py.

A* is the baselines' (cubelab.solvers.baselines); `cubelab bench --competition` runs them all on
the same scrambles.
"""
