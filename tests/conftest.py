"""Test set-up: every run gets fresh, temporary data, cache and state directories.

Set in pytest_configure, before any numba import and before xdist starts its workers (which
inherit the environment), so all workers share one temporary table directory: that also
exercises the table engine's lock between concurrent builders.
"""

import importlib
import os
import shutil
import signal
import sys
import tempfile

import pytest


TERMINAL_ENVIRONMENT = (
    "TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "CLICOLOR", "CLICOLOR_FORCE",
    "TERM_PROGRAM", "TERM_PROGRAM_VERSION", "LC_TERMINAL", "TTY_COMPATIBLE", "TTY_INTERACTIVE",
    "COLUMNS", "LINES", "ROWS", "JUPYTER_COLUMNS", "JUPYTER_LINES", "ESCDELAY", "TMUX",
    "PROMPT_TOOLKIT_COLOR_DEPTH", "PROMPT_TOOLKIT_NO_CPR", "PROMPT_TOOLKIT_BELL",
)
"""What describes the terminal pytest was started in. Rich, Textual and prompt_toolkit read
these (colours, size, capabilities), and so would every program a test starts: the suite
would pass in one kind of terminal only (a view drawn in coloured spaces under
TERM=xterm-256color; the outer size, which readline exports as LINES and COLUMNS). Removed
for the session, as CI has them: a test that wants one sets it itself."""


def pin_terminal_environment() -> None:
    """The suite sees no outer terminal: the names above, and Textual's own TEXTUAL_*
    settings (driver, colour system, animations...; not the snapshot plugin's bookkeeping),
    are removed from the environment of this process and of every process it starts."""
    textual_settings = False
    for name in list(os.environ):
        if name in TERMINAL_ENVIRONMENT or (name.startswith("TEXTUAL")
                                            and not name.startswith("TEXTUAL_SNAPSHOT")):
            del os.environ[name]
            textual_settings |= name.startswith("TEXTUAL") or name == "ESCDELAY"
    constants = sys.modules.get("textual.constants")
    if textual_settings and constants is not None:
        # Textual read its settings when the snapshot plugin imported it, before this file
        # ran: read them again, now without the outer ones
        importlib.reload(constants)


def pytest_configure(config):
    # A shell starting the suite in the background (`pytest &`, `( ... & )`) hands it SIGINT
    # ignored, and every program a test starts would inherit that: the Ctrl-C tests would then
    # see programs that cannot be interrupted. The suite's programs get the usual disposition.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    pin_terminal_environment()
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
