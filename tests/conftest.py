"""Test set-up: every run gets fresh, temporary data, cache and state directories.

Set in pytest_configure, before any numba import and before xdist starts its workers (which
inherit the environment), so all workers share one temporary table directory: that also
exercises the table engine's lock between concurrent builders.
"""

import os
import shutil
import signal
import tempfile

import pytest


def pytest_configure(config):
    # A shell starting the suite in the background (`pytest &`, `( ... & )`) hands it SIGINT
    # ignored, and every program a test starts would inherit that: the Ctrl-C tests would then
    # see programs that cannot be interrupted. The suite's programs get the usual disposition.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    # readline (imported by pytest's debugger support) exports the outer terminal's size as
    # LINES and COLUMNS; Rich, Textual and any program a test starts would lay out for that
    # terminal instead of their own, so the suite would pass only at one size.
    for name in ("LINES", "COLUMNS"):
        os.environ.pop(name, None)
    if hasattr(config, "workerinput"):
        return  # an xdist worker: the controller already set the directories
    base = tempfile.mkdtemp(prefix="cubelab-test-")
    config._cubelab_tmp = base
    for name in ("DATA", "CACHE", "STATE", "CONFIG"):
        os.environ[f"CUBELAB_{name}_DIR"] = os.path.join(base, name.lower())
    os.environ.pop("NUMBA_CACHE_DIR", None)
    os.environ.setdefault("HYPOTHESIS_PROFILE", "ci")


def pytest_unconfigure(config):
    base = getattr(config, "_cubelab_tmp", None)
    if base:
        shutil.rmtree(base, ignore_errors=True)


try:
    from hypothesis import HealthCheck, settings

    settings.register_profile("ci", deadline=None, max_examples=100,
                              suppress_health_check=[HealthCheck.too_slow])
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
except ImportError:  # pragma: no cover
    pass


@pytest.fixture
def fresh_dirs(tmp_path, monkeypatch):
    """Private data/cache/state directories for one test."""
    for name in ("DATA", "CACHE", "STATE", "CONFIG"):
        d = tmp_path / name.lower()
        monkeypatch.setenv(f"CUBELAB_{name}_DIR", str(d))
    return tmp_path
