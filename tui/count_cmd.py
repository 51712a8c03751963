"""`cubelab count`: Pos(n), the positions at each distance from solved, with their class counts."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

from cubelab.cube.puzzles import PUZZLES, Puzzle, puzzle_named
from cubelab.tui.errors import InputError



def register(sub) -> None:
    p = sub.add_parser("count", help="count the positions at each distance from solved (Pos(n))")
    counted = [q for q in PUZZLES.values() if q.counting is not None]
    metrics = list(dict.fromkeys(m for q in counted for m in q.counting.metrics))
    p.add_argument("--metric", choices=[m.value for m in metrics], default=metrics[0].value,
                   help=", ".join(f"{m.value}: the {m.meaning}" for m in metrics)
                   + " (default: %(default)s)")
    p.add_argument("--depth", type=int, default=None,
                   help="last distance to count (default: " + ", ".join(
                       f"{'all' if q.counting.complete else q.counting.default_depth} for the "
                       f"{q.title}" for q in counted) + ")")
    p.add_argument("--puzzle", choices=[q.name for q in counted], default=counted[0].name,
                   help="the cube: " + "; ".join(
                       f"{q.name}" + (" (its complete table gives every depth)"
                                      if q.counting.complete else "") for q in counted)
                   + " (default %(default)s)")
    p.add_argument("--threads", type=int, default=2,
                   help="kernels run side by side (default: %(default)s)")
    p.add_argument("--json", action="store_true", help="one JSON record per distance")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="share each level among the workers of a Dask cluster, a scheduler "
                        "address (tcp://host:8786) or local[:N] (needs the cluster extra)")
    p.set_defaults(func=run)


@dataclass(frozen=True)
class CountTask:
    """What `cubelab count` was asked, read and checked once."""

    puzzle: Puzzle
    metric: str
    depth: int
    threads: int
    as_json: bool
    cluster: object = None
    """The --cluster address, read (tables.cluster.ClusterAddress), or None."""

    @classmethod
    def from_args(cls, args) -> "CountTask":
        puzzle = puzzle_named(args.puzzle)
        counting = puzzle.counting
        depth = args.depth
        if depth is None:
            depth = counting.default_depth
        if not 0 <= depth <= counting.max_depth:
            raise InputError(f"--depth must lie between 0 and {counting.max_depth}")
        cores = max(2, os.cpu_count() or 1)
        if not 1 <= args.threads <= cores:
            raise InputError(f"--threads must lie between 1 and {cores}")
        cluster = None
        if args.cluster is not None:
            if not counting.cluster:
                able = [q.name for q in PUZZLES.values() if q.counting and q.counting.cluster]
                raise InputError(f"--cluster counts the {', '.join(able)} (the {puzzle.name}'s "
                                 f"table holds every depth)")
            from .inputs import cluster_address
            cluster = cluster_address(args.cluster)
        elif not counting.complete:
            # (on a cluster each worker holds only its share: the workers' hosts are not this
            # one)
            from cubelab.tables.counting import estimated_bytes
            from cubelab.tables.memory import available_bytes
            need, have = estimated_bytes(args.metric, depth), available_bytes()
            if have is not None and need > have:
                raise InputError(
                    f"depth {depth} in {args.metric.upper()} needs about {need / 2**30:.1f} GiB "
                    f"of memory and {have / 2**30:.1f} GiB is available; choose a smaller "
                    f"--depth")
        return cls(puzzle, args.metric, depth, args.threads, args.json, cluster)


def _line(record: dict, published: int | None) -> str:
    mark = "" if published is None else ("  = published" if record["positions"] == published
                                         else f"  != published {published:,}")
    classes = (f"{record['classes_sym']:>15,} {record['classes_sym_inv']:>15,}"
               if "classes_sym" in record else "")
    seconds = f"{record['seconds']:>9.2f}" if "seconds" in record else ""
    return f"{record['depth']:>5} {record['positions']:>17,} {classes} {seconds}{mark}".rstrip()


def run(args) -> int:
    task = CountTask.from_args(args)
    if task.puzzle.counting.complete:
        return _run_complete(task)
    from cubelab.solvers.protocol import new_cancel
    from cubelab.tables.counting import PUBLISHED, Cancelled, count_positions
    from .interrupts import run_interruptible
    from .record_writer import RecordWriter

    published = PUBLISHED[task.metric]
    if not task.as_json:
        print(f"positions at each distance from solved, {task.metric.upper()} "
              f"(classes up to the 48 symmetries, and up to symmetries and inversion)")
        print(f"{'depth':>5} {'positions':>17} {'classes (sym)':>15} {'(sym+inv)':>15} "
              f"{'seconds':>9}")
    progress, close = _progress_bar()
    writer = RecordWriter(task.as_json, lambda record: _line(record, None))
    cancel = new_cancel()

    def on_level(c, extra: dict | None = None):
        if cancel[0]:
            return      # interrupted: the command's last line is already on its way
        record = {**c.as_dict(), **(extra or {})}
        pub = published[c.depth] if c.depth < len(published) else None
        text = _line(record, pub)
        if task.as_json:
            record["metric"] = task.metric
            if pub is not None:
                record["published"] = pub
        progress.clear()
        writer.write(record, text=text)

    try:
        # in a thread, so Ctrl-C and SIGTERM are heard while the kernels run
        if task.cluster is not None:
            run_interruptible(lambda: _count_on_cluster(task, on_level), cancel, name="count")
        else:
            run_interruptible(lambda: count_positions(task.metric, task.depth,
                                                      threads=task.threads, progress=progress,
                                                      on_level=on_level, cancel=cancel),
                              cancel, name="count")
    except Cancelled:
        raise KeyboardInterrupt from None
    finally:
        close()
    return 0


def _count_on_cluster(task: CountTask, on_level) -> None:
    """The count sharded over a Dask cluster's workers; each level's line adds the workers'
    peak memory (the count's arrays, and each worker process's resident peak)."""
    from cubelab.tables.cluster import ClusterError, connect
    from cubelab.tables.counting.sharded import count_on_cluster

    def show(level):
        count = level.count
        on_level(count, {"worker_peak_bytes": level.peak_bytes, "worker_max_rss": level.max_rss}
                 if task.as_json and count.depth > 0 else None)
        if not task.as_json and count.depth > 0:
            print(f"{'':>5} workers' arrays at peak "
                  + ", ".join(f"{b / 2**20:.1f}" for b in level.peak_bytes) + " MiB; processes "
                  + ", ".join(f"{b / 2**20:.0f}" for b in level.max_rss) + " MiB", flush=True)

    try:
        with connect(task.cluster) as client:
            count_on_cluster(client, task.metric, task.depth, on_level=show)
    except ClusterError as e:
        raise InputError(str(e)) from None


class _Bar:
    """A one-line progress bar on stderr, redrawn in place (only on a terminal)."""

    def __init__(self, stream):
        self.stream = stream
        self.shown = False

    def __call__(self, p) -> None:
        width = 30
        frac = p.done / p.total if p.total else 1.0
        fill = int(frac * width)
        what = "expanding" if p.phase == "expand" else "sorting  "
        text = (f"\rdepth {p.depth:>2} {what} [{'#' * fill}{'.' * (width - fill)}] "
                f"{p.done:,}/{p.total:,} classes")
        self.stream.write(text)
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = False


class _NoBar:
    def __call__(self, p) -> None:
        pass

    def clear(self) -> None:
        pass


def _progress_bar():
    bar = _Bar(sys.stderr) if sys.stderr.isatty() else _NoBar()
    return bar, bar.clear


def _run_complete(task: CountTask) -> int:
    """A puzzle whose complete distance table gives every depth at once (the 2x2x2's)."""
    from cubelab.tables.pocket_tables import distribution
    from .record_writer import RecordWriter

    rows = distribution(task.metric)
    if not task.as_json:
        print(f"{task.puzzle.title} positions at each distance from solved, "
              f"{task.metric.upper()} (classes up to the 48 symmetries, and up to symmetries "
              f"and inversion)")
        print(f"{'depth':>5} {'positions':>17} {'classes (sym)':>15} {'(sym+inv)':>15}")
    writer = RecordWriter(task.as_json, lambda record: _line(record, None))
    for row in rows[:task.depth + 1]:
        writer.write({**row, "metric": task.metric, "puzzle": task.puzzle.name}
                     if task.as_json else row)
    if not task.as_json and task.depth + 1 >= len(rows):
        total = sum(r["positions"] for r in rows)
        print(f"God's number {len(rows) - 1} {task.metric.upper()}; {total:,} positions in all")
    return 0
