"""`cubelab solve --file`: many positions in input order, here, in worker processes or on a cluster.

One record per input line, in order, bad lines as error records; with --output each record is
appended to the file (and flushed) as soon as it and all before it are done, so a killed run
loses nothing written, and --resume solves only the lines the file lacks, in their place
(resume.py). The positions are solved in this process (--jobs 1), in worker processes that
start once (--jobs N), or on a Dask cluster (--cluster ADDRESS).
"""

from __future__ import annotations

import json
import os
import sys
import time

from .errors import InputError


def add_arguments(p) -> None:
    p.add_argument("--jobs", "-j", type=int, metavar="N",
                   help="with --file: solve N positions at once, one process each "
                        "(default: one per core)")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="with --file: solve on a Dask cluster, a scheduler address "
                        "(tcp://host:8786) or local[:N] for N local worker processes "
                        "(needs the cluster extra)")
    p.add_argument("--output", "-o", metavar="PATH",
                   help="with --file: write the JSON Lines records to PATH, each as soon as "
                        "it is done")
    p.add_argument("--resume", action="store_true",
                   help="with --output: keep the records already in PATH and solve only the "
                        "lines it lacks (and those whose record is an internal error), "
                        "each written in its place")


def solve_file(task) -> int:
    """Solve every line of the task's --file (a SolveTask) in input order; returns the exit
    status (2 if a line was bad)."""
    from .record_writer import RecordWriter, write_file_records
    from .result_text import format_result
    from .resume import ResumedOutput, read_output
    entries = list(task.given.lines(grey=task.grey_lines()))
    earlier = read_output(task.output) if task.resume else None
    skipped = set(earlier.kept) if earlier is not None else set()
    entries = [e for e in entries if e[0] not in skipped]
    good = [pos for _, _, pos in entries if not isinstance(pos, Exception)]
    if earlier is not None:     # lines the earlier run reached are written in their place (resume.py)
        out = ResumedOutput(earlier, {e[0] for e in entries if e[0] <= earlier.last})
    else:
        out = _open_output(task.output) if task.output else None
    bar = Progress(len(good))
    writer = RecordWriter(task.as_json, lambda record: "", out)
    solved = None
    as_text = not task.as_json and out is None  # else the text of a result is never shown
    try:
        solved = _results(task, good, bar, as_records=not as_text)

        def answer(position):
            result = next(solved)
            if isinstance(result, dict):        # its record (as_records), or an error's
                return result, None
            return result.to_json(), format_result(result) if as_text else None

        status = write_file_records(entries, answer, writer)
    finally:
        bar.close()
        if out is not None:
            out.close()
        if hasattr(solved, "close"):
            # ended here, not when collected: a cluster shuts down now, and a Ctrl-C during
            # that ends the command as interrupted (in a collected generator it was lost)
            solved.close()
    if out is not None:
        note = f"; {len(skipped)} lines were already there" if skipped else ""
        if earlier is not None and earlier.internal:
            note += (f"; {len(earlier.internal)} whose records were internal errors were "
                     "solved again in their place")
        print(f"cubelab: {len(entries)} records written to {task.output}{note}", file=sys.stderr)
    return status


def _open_output(path: str):
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as e:
        raise InputError(f"cannot write {path}: {e.strerror}") from None


def _results(task, good, bar, as_records: bool):
    """An iterator of the results of the good positions (a SolveResult, or a record: an
    error's, or with `as_records` every one), in order, from the chosen engine."""
    from dataclasses import replace

    from cubelab.solvers.batch import default_jobs, solve_many
    from .preparing import prepare
    solver = task.make_solver()      # checks the name and options before anything starts
    settings = replace(task.settings(), as_records=as_records)
    if task.cluster is not None and good:
        return _on_cluster(task, settings, solver, good, bar)
    jobs = task.jobs if task.jobs is not None else default_jobs()
    jobs = min(jobs, max(1, len(good))) if task.puzzle.parallel_solves else 1
    if jobs > 1:
        from cubelab.tables.memory import share_mappings
        share_mappings()    # the workers read the parent's mappings: one copy of the tables
    prepare(solver, task.table_choice())
    if jobs == 1:
        def here():
            for k, pos in enumerate(good):
                yield settings.solve(solver, pos.state)
                bar(k + 1)
        return here()
    return solve_many(settings, (pos.state for pos in good), jobs=jobs, on_done=bar,
                      solver=solver)


def _on_cluster(task, settings, solver, good, bar):
    from cubelab.solvers import cluster
    from cubelab.tables.cluster import ClusterError, connect
    from .preparing import prepare
    try:
        if task.cluster.local:
            # Build or load the tables here first (with a progress bar): the local workers
            # then map the files this built, instead of racing to build them.
            from cubelab.tables.memory import share_mappings
            share_mappings()
            prepare(solver, task.table_choice())
        with connect(task.cluster) as client:
            cluster.prepare_everywhere(client, settings)
            yield from cluster.solve_many(client, settings, (pos.state for pos in good),
                                          total=len(good), on_done=bar)
    except ClusterError as e:
        raise InputError(str(e)) from None


class Progress:
    """'solving [###...] k/n, r/s, m:ss left' on stderr when it is a terminal."""

    def __init__(self, total: int, stream=None):
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.shown = False
        self.start = time.monotonic()
        self.enabled = total >= 2 and _isatty(self.stream)

    def __call__(self, done: int) -> None:
        if not self.enabled:
            return
        self.stream.write("\r\033[K" + self.line(done, time.monotonic() - self.start))
        self.stream.flush()
        self.shown = True

    def line(self, done: int, elapsed: float) -> str:
        width = 30
        filled = width * done // max(1, self.total)
        text = f"solving [{'#' * filled}{'.' * (width - filled)}] {done}/{self.total}"
        if done and elapsed > 0:
            rate = done / elapsed
            left = (self.total - done) / rate
            text += f", {rate:.3g}/s, {int(left) // 60}:{int(left) % 60:02d} left"
        return text

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = False


def _isatty(stream) -> bool:
    try:
        return stream.isatty() and os.environ.get("TERM") != "dumb"
    except (AttributeError, ValueError):
        return False
