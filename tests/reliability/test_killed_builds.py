"""kill -9 during table builds: nothing half-written is ever trusted, the next command tidies
what the killed one left, and building again gives tables that verify (issue 18, item 7)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

import pytest

from .helpers import CUBELAB, run_cubelab, stray_files


def _start_build(names, env=None):
    """A `tables build` process, and a list its stderr lines land in (read in a thread)."""
    import threading
    p = subprocess.Popen(CUBELAB + ["tables", "build", *names], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, env={**os.environ, **(env or {})})
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(p.stderr), daemon=True).start()
    return p, lines


def test_a_killed_builds_lock_file_is_tidied_and_a_live_ones_never(fresh_dirs):
    """kill -9 leaves a 0-byte lock file (issue 37, item 6): `tables status` removes it, as it
    removes temporaries; a lock a live builder holds stays, whatever status runs meanwhile."""
    data = fresh_dirs / "data"
    for _ in range(2):
        p, lines = _start_build(["kociemba.phase1_prune"])
        deadline = time.monotonic() + 600
        while not [f for f in stray_files(data) if f.endswith(".lock")]:
            assert p.poll() is None and time.monotonic() < deadline, "".join(lines)
            time.sleep(0.05)
        # a live builder's lock: status leaves it
        held = [f for f in stray_files(data) if f.endswith(".lock")]
        status = run_cubelab(["tables", "status"])
        assert status.returncode == 0 and "Traceback" not in status.stderr
        # a lock is let go (and its file removed) when its table is built: a builder still
        # building holds its lock file, whatever status did meanwhile
        for f in held:
            assert os.path.exists(f) or os.path.exists(f.removesuffix(".lock")), status.stderr
        p.send_signal(signal.SIGKILL)
        p.wait(30)
        left = [f for f in stray_files(data) if f.endswith(".lock")]
        if not left:
            continue        # it finished between the looks: nothing was left to tidy
        status = run_cubelab(["tables", "status"])
        assert status.returncode == 0, status.stderr
        assert [f for f in stray_files(data) if f.endswith(".lock")] == []
        for f in left:
            assert f"removed {os.path.basename(f)}" in status.stderr


def test_a_lock_held_by_another_process_is_never_tidied(fresh_dirs):
    from cubelab.tables.catalog import clear_stray_files
    from cubelab.tables.store import tables_dir
    directory = tables_dir()
    directory.mkdir(parents=True)
    lock = directory / "kociemba.phase1_prune.npt.lock"
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import fcntl, os, sys, time\n"
         f"fd = os.open({str(lock)!r}, os.O_RDWR | os.O_CREAT)\n"
         "fcntl.flock(fd, fcntl.LOCK_EX)\n"
         "print('held', flush=True)\n"
         "sys.stdin.read()\n"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        stale = directory / "kociemba.phase2_prune.npt.lock"
        stale.touch()
        assert clear_stray_files(temporaries_only=True) == [stale.name]
        assert lock.exists() and not stale.exists()
    finally:
        holder.stdin.close()
        holder.wait(30)
    assert clear_stray_files(temporaries_only=True) == [lock.name]
    assert not lock.exists()


@pytest.mark.slow
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
