"""Where cubelab keeps its data (tables), cache (numba's compiled code), state (history, saves,
the last session) and configuration (the settings file, the user's goals.toml).

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


def config_dir() -> Path:
    return _dir("CUBELAB_CONFIG_DIR", lambda: platformdirs.user_config_path(APP))


KERNEL_SOURCES = ("cube", "tables", "solvers")
"""The folders whose Python sources compiled kernels can reach. numba compiles every function a
kernel calls, from any module or subpackage, into the kernel's own cached code (inline="always"
helpers at the IR level, the rest through LLVM) and freezes the module-level constants it reads
(cube/'s included) into it; tui/ sits above them all and holds no kernel."""


def package_root() -> Path:
    """The folder holding cube/, tables/, solvers/ and tui/ (the checkout, or site-packages'
    cubelab/ when installed)."""
    return Path(__file__).resolve().parent.parent


def source_fingerprint(*salt: str, root: Path | None = None) -> str:
    """A short hash of every Python source kernels can reach, and of `salt` (the versions of
    the libraries that compile them).

    numba invalidates a cached kernel only when the file of the kernel itself changes, not when
    a function it calls from another module (or a constant it reads) does; keying the cache to
    all of KERNEL_SOURCES, subpackages included, means an upgrade or an edit never runs stale
    compiled code. It reads the files' bytes (about 0.7 MB; a few milliseconds at start-up)
    rather than their times, which a checkout or a copy changes without changing the code.
    """
    root = package_root() if root is None else root
    digest = hashlib.sha1(usedforsecurity=False)   # SHA-1: the fastest hashlib has here
    for text in salt:
        digest.update(text.encode() + b"\0")
    for folder in KERNEL_SOURCES:
        for top, dirs, files in os.walk(root / folder):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(f for f in files if f.endswith(".py")):
                path = os.path.join(top, name)
                try:
                    with open(path, "rb") as f:
                        data = f.read()
                except OSError:
                    continue
                # the name and the length delimit the file: no two trees hash the same bytes
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                digest.update(f"{rel}\0{len(data)}\0".encode())
                digest.update(data)
    return digest.hexdigest()[:16]


def config_dir() -> Path:
    """Where users keep settings the program reads (goals.toml); CUBELAB_CONFIG_DIR overrides."""
    return _dir("CUBELAB_CONFIG_DIR", _config)
