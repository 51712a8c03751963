"""Time bounds that hold on a loaded machine: a bound is scaled by how busy the machine is.

A test that checks that something happens promptly (a cancelled search returns, an interrupted
command exits, absurd input is refused before it is expanded) states its bound for a quiet
machine; `within(bound)` stretches it by the run queue per core, since a runnable thread gets
about one core's share in that many. On a quiet machine the bounds are what the tests say; at
load 20 on two cores they are ten times longer, and a hang still fails. `process_cpu(pid)` is
the other load-free clock: the work a process has done, whatever it waited for.
"""

from __future__ import annotations

import os


def slowdown() -> float:
    """How many times slower than on a quiet machine a thread runs now (at least 1): the
    load averages' largest over the cores (the one-minute figure lags a sudden load)."""
    try:
        load = max(os.getloadavg())
    except OSError:
        return 1.0
    return max(1.0, load / (os.cpu_count() or 1))


def within(seconds: float) -> float:
    """A time bound for a quiet machine, stretched for the load now."""
    return seconds * slowdown()


def process_cpu(pid: int) -> float | None:
    """CPU seconds the process has used so far, all its threads (None once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
