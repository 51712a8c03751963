"""Move and pruning tables built with numba, cached safely under the user data directory.

Every numba kernel is decorated from `cubelab.tables.jit`, which places numba's cache under
cubelab's cache directory before the first kernel is made.
"""
