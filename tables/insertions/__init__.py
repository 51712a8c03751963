"""The insertion finder's alg sets: every short sequence that is a corner or an edge 3-cycle.

The search that finds them (algs) and its result in the store (specs).
"""
