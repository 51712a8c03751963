"""The decorators every numba kernel is written with, and where numba keeps the compiled code.

`@kernel` is njit(cache=True, nogil=True): compiled once, kept on disk, and run without the GIL
(a search runs in a background thread while the UI polls its counters). `@inline_kernel` adds
inline="always": numba pastes the function's body into each caller before compiling it, for
the small helpers a search calls at every node.

Importing this module first places numba's on-disk cache: NUMBA_CACHE_DIR becomes
<cache dir>/numba/<key> (cube.paths.cache_dir; a directory the user named in NUMBA_CACHE_DIR
is kept), the key hashing every source a kernel can reach and the versions of Python, numba,
llvmlite and numpy (cube.paths.source_fingerprint says why). numba reads the variable when it
is imported and again before each compile, and picks a kernel's cache directory when the
kernel is decorated; configuring here, and reloading numba's configuration should numba have
been imported before, means every decorated kernel caches there whatever was imported first.
Installed packages often sit in read-only site-packages, where numba's default (__pycache__)
fails.
"""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path

import llvmlite
import numba
import numpy
from numba.core import config as _numba_config

from cubelab.cube.paths import cache_dir, source_fingerprint


def cache_key() -> str:
    """The name of the cache directory of this build of the kernels."""
    return source_fingerprint(f"python {sys.version}", f"machine {platform.machine()}",
                              f"numba {numba.__version__}", f"llvmlite {llvmlite.__version__}",
                              f"numpy {numpy.__version__}")


def configure_cache() -> Path:
    """Point numba's on-disk cache under our cache directory (unless the user chose one), and
    make numba read it now even if it was imported before. Returns the directory."""
    if "NUMBA_CACHE_DIR" not in os.environ:
        os.environ["NUMBA_CACHE_DIR"] = str(cache_dir() / "numba" / cache_key())
    _numba_config.reload_config()
    return Path(os.environ["NUMBA_CACHE_DIR"])


CACHE_DIR = configure_cache()
"""Where this process's kernels are cached (child processes inherit it through the
environment: they run the same sources)."""

kernel = numba.njit(cache=True, nogil=True)
"""A compiled kernel: cached on disk, releases the GIL."""

inline_kernel = numba.njit(cache=True, nogil=True, inline="always")
"""A kernel whose body numba inlines into every kernel that calls it."""
