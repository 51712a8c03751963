"""The suite passes whatever terminal it is started in: conftest removes what describes that
terminal (TERM, COLORTERM, NO_COLOR, FORCE_COLOR, COLUMNS, LINES, Textual's settings...) for
the session and every program a test starts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HOSTILE = {"TERM": "xterm-256color", "COLORTERM": "truecolor", "FORCE_COLOR": "1",
           "COLUMNS": "211", "LINES": "57", "TERM_PROGRAM": "iTerm.app",
           "TEXTUAL_COLOR_SYSTEM": "256", "PROMPT_TOOLKIT_COLOR_DEPTH": "DEPTH_24_BIT"}
"""A terminal unlike CI's (which has no TERM at all): colourful, large and named."""


def test_no_outer_terminal_reaches_the_tests_or_their_programs():
    names = [*HOSTILE, "NO_COLOR", "CLICOLOR_FORCE", "TTY_COMPATIBLE", "TEXTUAL_DRIVER"]
    assert not [name for name in names if name in os.environ]
    child = subprocess.run(
        [sys.executable, "-c", "import os, sys; print(sorted(set(os.environ) & set(sys.argv[1:])))",
         *names], env={**os.environ}, capture_output=True, text=True, check=True)
    assert child.stdout.strip() == "[]"


def test_the_view_tests_pass_in_a_256_colour_truecolor_terminal(tmp_path):
    """The test that failed there (the 3-D view draws in coloured spaces when Rich believes
    the terminal has 256 colours), run by a pytest started in such a terminal."""
    tests = Path(__file__).parent
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         str(tests / "test_iso_view.py")],
        cwd=tmp_path, env={**os.environ, **HOSTILE}, capture_output=True, text=True,
        timeout=900)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
