"""The insertion finder's alg sets: every short sequence that is a corner or an edge 3-cycle, or
a corner 2-swap with an edge 2-swap (parity).

The search that finds them (algs) and its result in the store (specs).
"""
