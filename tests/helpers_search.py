"""The algorithm search's numba kernels compiled once for all xdist workers (a fixture to import)."""

import fcntl
import os
from pathlib import Path

import pytest


@pytest.fixture
def search_kernels():
    """The search's numba kernels, compiled once for every xdist worker: the first to get the
    lock compiles into the shared cache directory, the others wait and then load (compiling in
    two workers at once would only slow both)."""
    lock = Path(os.environ["CUBELAB_CACHE_DIR"]) / "tests-search-kernels.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    with open(lock, "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        from cubelab.solvers.algsearch import last_layer, search
        search(last_layer(), 2, "qtm")
