"""`count --cluster` and `solve --cluster` leave nothing behind, stopped or not (issue 37, item 4).

The audit found Dask's `dask-scratch-space/` (global.lock, purge.lock) left in the current
folder after a normal run and after Ctrl-C, and a traceback on Ctrl-C. Here each command runs
in a folder of its own with TMPDIR inside it (where Dask puts its scratch space by default),
once to its end and once stopped by a Ctrl-C to the whole process group, as a terminal sends
it: the output is one line and exit 130, no traceback, and neither folder, nor the cache
directory where cubelab keeps a cluster's scratch space while it runs, holds anything after.
"""

from __future__ import annotations

import os
import random
import signal
from pathlib import Path

import pytest

pytest.importorskip("distributed")

from .helpers import run_cubelab, stop_like_a_user  # noqa: E402

pytestmark = [pytest.mark.cluster, pytest.mark.slow]

RNG = random.Random(4)


def _commands(tmp_path):
    positions = tmp_path / "positions.txt"
    positions.write_text("R U F\nD B\nL' U R' F\n" * 3)
    return {"count": ["count", "--cluster", "local:2", "--depth", "5"],
            "solve": ["solve", "--solver", "bfs", "--json", "--cluster", "local:2", "--file",
                      str(positions)]}


def _left(tmp_path, cache) -> list[str]:
    found = [str(p) for p in (tmp_path / "here").rglob("*")]
    found += [str(p) for p in (tmp_path / "tmp").rglob("*")]
    found += [str(p) for p in (cache / "dask").rglob("*")] if (cache / "dask").exists() else []
    return found


@pytest.mark.parametrize("name", ["count", "solve"])
def test_a_local_cluster_leaves_no_scratch_space_run_or_stopped(name, tmp_path, monkeypatch):
    here, tmp, cache = tmp_path / "here", tmp_path / "tmp", tmp_path / "cache"
    here.mkdir()
    tmp.mkdir()
    # a cache folder of its own (its dask folder is checked), with the session's compiled
    # kernels: compiling the count's kernels again in every worker would take minutes
    shared = Path(os.environ["CUBELAB_CACHE_DIR"]) / "numba"
    shared.mkdir(parents=True, exist_ok=True)
    cache.mkdir()
    (cache / "numba").symlink_to(shared)
    monkeypatch.setenv("CUBELAB_CACHE_DIR", str(cache))
    monkeypatch.setenv("TMPDIR", str(tmp))
    args = _commands(tmp_path)[name]
    done = run_cubelab(args, timeout=600, cwd=here)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert _left(tmp_path, cache) == []
    # stopped once while the cluster starts or works
    run = stop_like_a_user(args, after=RNG.uniform(2.0, 8.0), sig=signal.SIGINT, cwd=here)
    if run.returncode == -signal.SIGINT:
        # the work was done and said (on a quiet machine the count ends within the delay); the
        # signal came during the exit, once the program had given the signal back its default
        assert "Traceback" not in run.stderr and run.stdout.strip(), run.stderr
    elif run.returncode != 0:
        assert run.returncode == 130, run.stderr
        # (multiprocessing's resource tracker, a process of its own, may add its note on the
        # semaphores it unlinks for the stopped workers after cubelab's last line)
        ours = [ln for ln in run.stderr.strip().splitlines()
                if "resource_tracker" not in ln and "warnings.warn(" not in ln]
        assert ours[-1:] == ["cubelab: interrupted"], run.stderr
        assert "Traceback" not in run.stderr and "ERROR" not in run.stderr, run.stderr
    assert _left(tmp_path, cache) == []
