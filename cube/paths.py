"""Where cubelab keeps its data (tables), cache (numba's compiled code), state (history, saves)
and the user's own settings (config: goals.toml).

Each directory comes from platformdirs and can be overridden by an environment variable:
CUBELAB_DATA_DIR, CUBELAB_CACHE_DIR, CUBELAB_STATE_DIR, CUBELAB_CONFIG_DIR.
"""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path

import platformdirs

APP = "cubelab"


def _dir(env: str, default) -> Path:
    value = os.environ.get(env)
    return Path(value).expanduser() if value else _platform(default)


@lru_cache(maxsize=8)
def _platform(default) -> Path:
    """The platform's directory (asked once: it does not change while the program runs)."""
    return Path(default())


def _data():
    return platformdirs.user_data_path(APP)


def _cache():
    return platformdirs.user_cache_path(APP)


def _state():
    return platformdirs.user_state_path(APP)


def _config():
    return platformdirs.user_config_path(APP)


def data_dir() -> Path:
    return _dir("CUBELAB_DATA_DIR", _data)


def cache_dir() -> Path:
    return _dir("CUBELAB_CACHE_DIR", _cache)


def state_dir() -> Path:
    return _dir("CUBELAB_STATE_DIR", _state)


def source_fingerprint() -> str:
    """A short hash of the package's Python sources.

    numba invalidates a cached kernel only when the file of the kernel itself changes, not when
    a function it calls from another module does; keying the cache to all sources means an
    upgrade or an edit never runs stale compiled code.
    """
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.blake2b(digest_size=8)
    for package in ("cube", "tables", "solvers"):
        for path in sorted((root / package).glob("*.py")):
            digest.update(path.name.encode())
            try:
                digest.update(path.read_bytes())
            except OSError:
                pass
    return digest.hexdigest()


def configure_numba_cache() -> Path:
    """Point numba's on-disk cache under our cache directory, unless the user chose one.

    Must run before numba is imported: numba reads NUMBA_CACHE_DIR once, at import. Installed
    packages often sit in read-only site-packages, where numba's default (__pycache__) fails.
    """
    path = cache_dir() / "numba" / source_fingerprint()
    if "NUMBA_CACHE_DIR" not in os.environ:
        os.environ["NUMBA_CACHE_DIR"] = str(path)
    return Path(os.environ["NUMBA_CACHE_DIR"])


def config_dir() -> Path:
    """Where users keep settings the program reads (goals.toml); CUBELAB_CONFIG_DIR overrides."""
    return _dir("CUBELAB_CONFIG_DIR", _config)
