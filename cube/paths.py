"""Where cubelab keeps its data (tables), cache (numba's compiled code) and state (history, saves).

Each directory comes from platformdirs and can be overridden by an environment variable:
CUBELAB_DATA_DIR, CUBELAB_CACHE_DIR, CUBELAB_STATE_DIR.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP = "cubelab"


def _dir(env: str, default) -> Path:
    value = os.environ.get(env)
    return Path(value).expanduser() if value else Path(default())


def data_dir() -> Path:
    return _dir("CUBELAB_DATA_DIR", lambda: platformdirs.user_data_path(APP))


def cache_dir() -> Path:
    return _dir("CUBELAB_CACHE_DIR", lambda: platformdirs.user_cache_path(APP))


def state_dir() -> Path:
    return _dir("CUBELAB_STATE_DIR", lambda: platformdirs.user_state_path(APP))


def configure_numba_cache() -> Path:
    """Point numba's on-disk cache under our cache directory, unless the user chose one.

    Must run before numba is imported: numba reads NUMBA_CACHE_DIR once, at import. Installed
    packages often sit in read-only site-packages, where numba's default (__pycache__) fails.
    """
    path = cache_dir() / "numba"
    if "NUMBA_CACHE_DIR" not in os.environ:
        os.environ["NUMBA_CACHE_DIR"] = str(path)
    return Path(os.environ["NUMBA_CACHE_DIR"])
