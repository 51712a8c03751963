"""Dask clusters for batch solving and counting: the address users give, connecting, the workers.

`--cluster ADDRESS` names a Dask scheduler (`tcp://host:8786`, or `host:8786`) or `local[:N]`, a
LocalCluster of N single-threaded worker processes on this machine (N = one per core when
omitted). Dask is an optional dependency (the `cluster` extra); without it every entry point
says how to install it instead of failing with a traceback. Tables never travel through the
scheduler: each worker loads or builds them from its own data directory, so only positions,
records and small counts cross the network.
"""

from __future__ import annotations

import contextlib
import logging
import os
from dataclasses import dataclass
from typing import Iterator

INSTALL_HINT = "pip install 'cubelab[cluster]'"


class ClusterError(Exception):
    """A cluster that cannot be used: Dask missing, a bad address, an unreachable scheduler."""


@dataclass(frozen=True)
class Address:
    """What --cluster names: `local` with a worker count, or a scheduler's address."""

    local: bool
    workers: int = 0          # for a local cluster
    scheduler: str = ""       # for a remote one

    def __str__(self) -> str:
        return f"local:{self.workers}" if self.local else self.scheduler


def parse_address(text: str) -> Address:
    """`local`, `local:N` or a scheduler address; ClusterError on anything else."""
    text = text.strip()
    if text == "local" or text.startswith("local:"):
        count = text[len("local:"):] if ":" in text else ""
        if not count:
            return Address(True, workers=max(1, os.cpu_count() or 1))
        if not count.isdigit() or not 1 <= int(count) <= 256:
            raise ClusterError(f"--cluster {text}: N in local:N must be a number from 1 to 256")
        return Address(True, workers=int(count))
    if not text or any(c.isspace() for c in text):
        raise ClusterError(f"--cluster {text!r}: give local[:N] or a scheduler address "
                           f"such as tcp://host:8786")
    return Address(False, scheduler=text if "://" in text else f"tcp://{text}")


def require_dask():
    """The `distributed` module, or ClusterError saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise ClusterError(f"--cluster needs Dask, which is not installed: {INSTALL_HINT}") from None
    return distributed


@contextlib.contextmanager
def connect(address: Address | str, *, timeout: float = 20.0) -> Iterator[object]:
    """A Dask client for the address; a local cluster is started here and stopped on exit
    (its worker processes with it, also on Ctrl-C)."""
    if isinstance(address, str):
        address = parse_address(address)
    distributed = require_dask()
    # Dask logs every worker start, stop and restart at INFO; a command line wants its own
    # messages only (warnings and errors still show).
    for name in ("distributed", "tornado"):
        logging.getLogger(name).setLevel(logging.WARNING)
    # A worker still busy in a kernel when the cluster closes is killed after a grace period,
    # which the nanny reports as a warning: that is the intended way to stop it.
    logging.getLogger("distributed.nanny").setLevel(logging.ERROR)
    # A worker samples every thread's stack every 10 ms for Dask's profiler: a few per cent of
    # a core, and GIL hand-offs, taken from solving. Workers started here inherit this setting;
    # a remote cluster's workers are started with it off as the README says.
    import dask
    dask.config.set({"distributed.worker.profile.enabled": False})
    if address.local:
        # One thread a worker: N processes on N cores, as --jobs N. The scheduler's HTTP
        # endpoint takes any free port: 8787 may belong to another cluster on this host.
        # Dask's scratch space (its lock files, spilled data) goes in a folder of ours,
        # removed when the cluster stops (scratch_space), not in the current or /tmp folder.
        with scratch_space() as scratch, dask.config.set({"temporary-directory": scratch}), \
                _workers_ignore_ctrl_c(scratch), \
                distributed.LocalCluster(n_workers=address.workers, threads_per_worker=1,
                                         processes=True, dashboard_address=":0",
                                         local_directory=scratch,
                                         silence_logs=logging.ERROR,
                                         preload=[__name__]) as cluster, \
                distributed.Client(cluster) as client:
            yield client
        return
    try:
        client = distributed.Client(address.scheduler, timeout=timeout)
    except (OSError, TimeoutError) as e:
        raise ClusterError(f"cannot reach the Dask scheduler at {address.scheduler}: {e}") from None
    with client:
        yield client


def dask_setup(worker) -> None:
    """Run in each worker process of a local cluster (Dask's preload hook), before the worker
    meets the scheduler: its own log goes quiet. Dask's `silence_logs` quiets only the nanny's
    logger there, so a worker whose scheduler stopped first (Ctrl-C: this process closes the
    scheduler while the workers still run) printed "Failed to communicate with scheduler during
    heartbeat" with a traceback under the command's output. Nothing a user needs is lost: a
    task's failure comes back to this process with its result, and a worker that dies is
    reported by the nanny here."""
    for name in ("distributed", "tornado", "asyncio"):
        logging.getLogger(name).setLevel(logging.CRITICAL)


_scratch: dict[str, int] = {}
"""Scratch folders of the local clusters of this process, each with the descriptor holding its
owner lock."""


@contextlib.contextmanager
def scratch_space() -> Iterator[str]:
    """A fresh folder for a local cluster's scratch space under our cache directory, removed on
    exit. Its `owner.lock` is held (flock) while this process lives: a folder whose lock can
    be taken was left by a process that was killed, and is removed here first."""
    import fcntl
    import shutil
    import tempfile
    from cubelab.cube.paths import cache_dir
    parent = cache_dir() / "dask"
    parent.mkdir(parents=True, exist_ok=True)
    _remove_dead_scratch(parent)
    folder = tempfile.mkdtemp(prefix="scratch-", dir=parent)
    fd = os.open(os.path.join(folder, "owner.lock"), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC)
    fcntl.flock(fd, fcntl.LOCK_EX)
    _scratch[folder] = fd
    try:
        yield folder
    finally:
        _scratch.pop(folder, None)
        shutil.rmtree(folder, ignore_errors=True)
        os.close(fd)


def remove_scratch() -> None:
    """Remove this process's scratch folders now: it is about to exit without stopping its
    clusters (Ctrl-C, SIGTERM) and must leave nothing behind."""
    import shutil
    if not _scratch:
        return
    # Dask's own threads, still running, would report the folder gone: nothing more is said
    logging.disable(logging.CRITICAL)
    for folder in list(_scratch):
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def _workers_ignore_ctrl_c(folder: str) -> Iterator[None]:
    """Start a local cluster's worker processes with Ctrl-C ignored. A terminal sends Ctrl-C to
    every process of the command; the workers would each print a KeyboardInterrupt traceback,
    while this process stops them itself. A process started with SIGINT ignored keeps it so
    (Python leaves an inherited SIG_IGN alone), so the workers are started through a one-line
    shell that ignores it and runs Python."""
    import multiprocessing
    import shlex
    import stat
    import sys
    from multiprocessing import spawn
    wrapper = os.path.join(folder, "python-ignoring-ctrl-c")
    with open(wrapper, "w") as f:
        f.write(f"#!/bin/sh\ntrap '' INT\nexec {shlex.quote(sys.executable)} \"$@\"\n")
    os.chmod(wrapper, stat.S_IRWXU)
    before = spawn.get_executable()
    multiprocessing.set_executable(wrapper)
    try:
        yield
    finally:
        multiprocessing.set_executable(before)


def _remove_dead_scratch(parent) -> None:
    """Remove scratch folders whose owner lock no live process holds."""
    import fcntl
    import shutil
    for folder in parent.glob("scratch-*"):
        try:
            fd = os.open(folder / "owner.lock", os.O_RDWR | os.O_CLOEXEC)
        except OSError:
            continue        # not ours to judge (or being made right now)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue        # a live cluster's
        shutil.rmtree(folder, ignore_errors=True)
        os.close(fd)


def workers(client) -> dict[str, int]:
    """The cluster's workers, address -> threads, waiting briefly for at least one."""
    client.wait_for_workers(1, timeout=60)
    info = client.scheduler_info().get("workers", {})
    return {addr: int(w.get("nthreads", 1)) for addr, w in sorted(info.items())}
