"""kill -9 during table builds: nothing half-written is ever trusted, the next command tidies
what the killed one left, and building again gives tables that verify (issue 18, item 7)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import time

import pytest

from .helpers import CUBELAB, run_cubelab, stray_files

pytestmark = pytest.mark.slow


def test_kill_9_at_random_moments_of_a_build(fresh_dirs):
    env = {**os.environ}
    rng = random.Random(9)
    data = fresh_dirs / "data"
    for _ in range(4):
        p = subprocess.Popen(CUBELAB + ["tables", "build", "kociemba.phase1_prune",
                                        "kociemba.phase2_prune"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        time.sleep(rng.uniform(1.0, 30.0))
        p.send_signal(signal.SIGKILL)
        p.wait(30)
        # a killed process removes nothing: status does
        status = run_cubelab(["tables", "status"])
        assert status.returncode == 0, status.stderr
        assert not [f for f in stray_files(data) if f.endswith(".tmp")]
        verify = run_cubelab(["tables", "verify"])
        assert "damaged" not in verify.stdout and verify.returncode == 0, verify.stdout
    built = run_cubelab(["tables", "build", "kociemba.phase1_prune", "kociemba.phase2_prune"],
                        timeout=3600)
    assert built.returncode == 0, built.stderr
    assert run_cubelab(["tables", "verify"]).returncode == 0
    assert stray_files(data) == []
