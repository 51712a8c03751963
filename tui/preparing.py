"""Preparing a solver on the command line: the memory check, the build's announcement and bar.

A build is announced on one line of stderr (what, how big, how long); on a terminal one bar
then follows all of it. Ctrl-C or SIGTERM ends the wait at once (a build sees the flag and
leaves nothing half-written).
"""

from __future__ import annotations

import sys

from .errors import InputError
from .interrupts import run_interruptible


def prepare(solver, tables=None) -> None:
    """Load or build the solver's tables before the first solve. Tables this machine's memory
    cannot hold are refused first, in one line (InputError): `tables` is the table set chosen
    (a description.TableSetChoice, for a solver with several), else its own tables are
    weighed."""
    from cubelab.tables.spec import TableError
    from cubelab.tables.store import check_memory
    try:
        if solver.missing_tables():     # before the build is announced
            if tables is not None:
                tables.check_memory()
            else:
                check_memory(solver.table_specs(), f"the {solver.name} tables",
                             "free some memory first")
        _prepare(solver)
    except TableError as e:
        raise InputError(str(e)) from None


def _prepare(solver) -> None:
    from cubelab.solvers.protocol import new_cancel
    from cubelab.tables.spec import BuildCancelled
    from .build_progress import BuildProgress, describe_build
    # after an interrupt, nothing more is drawn over its message
    cancel = new_cancel()
    missing = solver.missing_tables()
    if not missing:
        run_interruptible(lambda: solver.prepare(cancel=cancel), cancel, name="prepare")
        return
    print(f"cubelab: building the tables of {solver.name} ({describe_build(missing, solver=solver)}; later "
          "runs load them)", file=sys.stderr, flush=True)
    bar = BuildProgress(missing)
    tty = sys.stderr.isatty()

    def draw() -> None:
        if cancel[0]:
            return
        width = 24
        filled = int(width * bar.fraction)
        print(f"\r\033[K[{'#' * filled}{'.' * (width - filled)}] {bar.fraction:4.0%} "
              f"{bar.line()}", file=sys.stderr, end="", flush=True)

    def log(message) -> None:
        if cancel[0]:
            return
        bar.log(message)
        if tty and getattr(message, "event", None) is None:
            print(f"\r\033[Kcubelab: {message}", file=sys.stderr, flush=True)
        elif tty:
            draw()

    def progress(done: int, total: int) -> None:
        bar.progress(done, total)
        draw()

    try:
        run_interruptible(lambda: solver.prepare(progress=progress if tty else None,
                                                 cancel=cancel, log=log), cancel, name="prepare")
    except BuildCancelled:
        raise KeyboardInterrupt from None
    if tty:
        print("\r\033[K", file=sys.stderr, end="", flush=True)
