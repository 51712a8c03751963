"""`cubelab tables`: status, build, verify, clear and path of the solvers' tables."""

from __future__ import annotations

import contextlib
import json
import sys
import threading
import time

from .errors import InputError
from .interrupts import run_interruptible
from .table_sets import set_rows, size_text as _size


def register(sub) -> None:
    p = sub.add_parser("tables", help="the solvers' tables: status, build, verify, clear, path")
    actions = p.add_subparsers(dest="tables_action", metavar="ACTION", required=True)
    s = actions.add_parser("status", help="each table: solver, size, built or not, path")
    s.add_argument("--json", action="store_true", help="print a JSON list")
    s.set_defaults(func=run_status)
    b = actions.add_parser("build", help="build (or check and load) tables")
    b.add_argument("names", nargs="*", metavar="NAME", help="tables to build")
    b.add_argument("--all", action="store_true", help="every registered table")
    b.set_defaults(func=run_build)
    v = actions.add_parser("verify", help="read every built table's file whole and check its checksum (a load reads a file whole only until it has passed, and again once it changes)")
    v.add_argument("names", nargs="*", metavar="NAME", help="tables to verify (default: all)")
    v.add_argument("--json", action="store_true", help="print a JSON list")
    v.set_defaults(func=run_verify)
    c = actions.add_parser("clear", help="delete tables' files (all of them without NAME)")
    c.add_argument("names", nargs="*", metavar="NAME", help="tables to delete")
    c.set_defaults(func=run_clear)
    d = actions.add_parser("path", help="print the directory that holds the tables")
    d.set_defaults(func=run_path)


def _specs(names, *, default_all: bool):
    """The specs named (in order), or all registered ones; InputError for an unknown name."""
    from cubelab.tables.catalog import registered
    specs = registered()
    if not names:
        if not default_all:
            raise InputError("name the tables to build, or give --all")
        return list(specs.values())
    unknown = [n for n in names if n not in specs]
    if unknown:
        raise InputError(f"unknown table {unknown[0]!r} (see `cubelab tables status`)")
    return [specs[n] for n in dict.fromkeys(names)]


def run_status(args) -> int:
    from cubelab.tables.catalog import clear_stray_files
    from cubelab.tables.store import table_status, tables_dir
    rows = [table_status(s) for s in _specs([], default_all=True)]
    # a killed build's temporary file can be as large as its table: never let one linger
    for name in clear_stray_files(temporaries_only=True):
        print(f"removed {name} (left by a build that was killed)", file=sys.stderr)
    if args.json:
        print(json.dumps(rows))
        return 0
    if not rows:
        print("no tables are registered")
        return 0
    width = max(len(r["name"]) for r in rows)
    for r in rows:
        state = "built" if r["built"] else ("in memory" if r["in_memory"] else "not built")
        if r["problem"]:
            state = f"needs rebuild: {r['problem']}"
        elif r.get("checkpoint"):
            # a stopped build's checkpoint (tables/checkpoint.py): the next build goes on
            depth = len(r["checkpoint"].get("counts", ())) - 1
            state += f" (a stopped build kept depth {depth}; the next goes on from there)"
        size = _size(r["bytes"]) + ("" if r["built"] else " (expected)" if r["bytes"] else "")
        print(f"{r['name']:<{width}}  {r['solver']:<14} {size:>18}  {state}")
    built = [r for r in rows if r["built"]]
    print(f"{len(built)} of {len(rows)} built, "
          f"{_size(sum(r['bytes'] or 0 for r in built))} in {tables_dir()}")
    _print_sets({r["name"]: r for r in rows})
    return 0


def _print_sets(rows: dict) -> None:
    """The solvers' table sets: what `--tables NAME` picks, its size in memory and on disk
    (every table it reads), whether it is ready."""
    from cubelab.solvers import REGISTRY
    sets = set_rows(REGISTRY, rows)
    if not sets:
        return
    print("\ntable sets (cubelab solve --solver SOLVER --tables NAME; in the workbench "
          ":tables NAME):")
    width = max(len(r.name) for r in sets)
    for r in sets:
        note = "  (default)" if r.default else ""
        print(f"  {r.solver:<9} {r.name:<{width}} {_size(r.bytes):>9}  "
              f"{'built' if r.built else 'not built'}{note}")


class _Reporter:
    """Progress of builds as one bar over all of them (table k of N, bytes, time left) on a
    terminal; one line per table otherwise."""

    def __init__(self, specs):
        from .build_progress import BuildProgress
        self.tty = sys.stderr.isatty()
        self.overall = BuildProgress(specs)
        self.progress_bar = None
        self.built: list[str] = []
        self._lock = threading.Lock()
        if self.tty:
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn
            self.progress_bar = Progress(BarColumn(), TaskProgressColumn(),
                                         TextColumn("{task.description}"),
                                         console=Console(stderr=True), transient=True)
            self._task = self.progress_bar.add_task("", total=1.0)

    def log(self, message: str) -> None:
        with self._lock:
            self.overall.log(message)
            event = getattr(message, "event", None)
            if event == "building":
                self.built.append(message.name)
            if self.progress_bar is not None:
                if event is None:
                    self.progress_bar.console.print(message, markup=False, highlight=False)
                self._draw()
            else:
                print(f"cubelab: {message}", file=sys.stderr, flush=True)

    def progress(self, done: int, total: int) -> None:
        with self._lock:
            self.overall.progress(done, total)
            self._draw()

    def _draw(self) -> None:
        if self.progress_bar is not None:
            self.progress_bar.update(self._task, completed=self.overall.fraction,
                                     description=self.overall.line())


def _build_in_thread(spec, reporter, cancel):
    """load_or_build in a worker thread, so Ctrl-C (seen by the main thread) raises the cancel
    flag while the nogil kernels run, and the command ends within half a second."""
    from cubelab.tables.store import load_or_build
    return run_interruptible(
        lambda: load_or_build(spec, progress=reporter.progress, cancel=cancel, log=reporter.log),
        cancel, name=f"build {spec.name}")


def run_build(args) -> int:
    import numpy as np
    from cubelab.tables.spec import BuildCancelled
    from cubelab.tables.store import table_status
    from .build_progress import describe_build
    specs = _specs(args.names, default_all=args.all)
    cancel = np.zeros(1, dtype=np.int32)
    missing = [spec for spec in specs if not table_status(spec)["built"]]
    if missing:
        print(f"cubelab: building {describe_build(missing, compile_seconds=0)}",
              file=sys.stderr, flush=True)
    reporter = _Reporter(missing)
    bar = reporter.progress_bar     # shown while its context is open
    with bar if bar is not None else contextlib.nullcontext():
        for spec in specs:
            start = time.perf_counter()
            first = len(reporter.built)
            try:
                array = _build_in_thread(spec, reporter, cancel)
            except BuildCancelled:
                raise KeyboardInterrupt from None
            status = table_status(spec)
            what = "built" if spec.name in reporter.built[first:] else "loaded"
            where = "" if status["built"] else " (kept in memory: not saved)"
            print(f"{spec.name}: {what} in {time.perf_counter() - start:.1f} s, "
                  f"{_size(array.nbytes)}{where}", flush=True)
    return 0


def run_verify(args) -> int:
    from cubelab.tables.fileformat import NOT_BUILT
    from cubelab.tables.store import verify_table
    rows = []
    for spec in _specs(args.names, default_all=True):
        # a checksum of a large table holds the main thread for a second: Ctrl-C must not wait
        problem = run_interruptible(lambda: verify_table(spec), None, name="verify")
        rows.append({"name": spec.name, "built": problem != NOT_BUILT,
                     "ok": problem is None, "problem": problem})
    if args.json:
        print(json.dumps(rows))
    else:
        for r in rows:
            print(f"{r['name']}: {'ok' if r['ok'] else r['problem']}")
    damaged = [r for r in rows if r["built"] and not r["ok"]]
    return 1 if damaged else 0


def run_clear(args) -> int:
    from cubelab.tables.catalog import clear_stray_files
    from cubelab.tables.store import clear_table
    specs = _specs(args.names, default_all=True)
    removed = [s.name for s in specs if clear_table(s)]
    if not args.names:
        removed += clear_stray_files()
    for name in removed:
        print(f"removed {name}")
    if not removed:
        print("nothing to remove")
    return 0


def run_path(args) -> int:
    from cubelab.tables.store import tables_dir
    print(tables_dir())
    return 0
