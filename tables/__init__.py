"""Move and pruning tables built with numba, cached safely under the user data directory.

Importing this package points numba's cache under cubelab's cache directory, so every module
that uses numba imports `cubelab.tables` (or one of its modules) before numba itself.
"""

from cubelab.cube.paths import configure_numba_cache

configure_numba_cache()
