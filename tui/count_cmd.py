"""`cubelab count`: Pos(n), the positions at each distance from solved, with their class counts."""

from __future__ import annotations

import json
import os
import sys

from cubelab.tui.errors import InputError

_MAX_DEPTH = {"3x3": 20, "2x2": 14}


def register(sub) -> None:
    p = sub.add_parser("count", help="count the positions at each distance from solved (Pos(n))")
    p.add_argument("--metric", choices=("qtm", "htm"), default="qtm",
                   help="quarter-turn or half-turn metric (default: %(default)s)")
    p.add_argument("--depth", type=int, default=None,
                   help="last distance to count (default: 7 for the 3x3, all for the 2x2)")
    p.add_argument("--puzzle", choices=("3x3", "2x2"), default="3x3",
                   help="the cube (default) or the 2x2x2, whose complete table gives every depth")
    p.add_argument("--threads", type=int, default=2,
                   help="kernels run side by side (default: %(default)s)")
    p.add_argument("--json", action="store_true", help="one JSON record per distance")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="share each level among the workers of a Dask cluster, a scheduler "
                        "address (tcp://host:8786) or local[:N] (needs the cluster extra)")
    p.set_defaults(func=run)


def _check_arguments(args) -> int:
    limit = _MAX_DEPTH[args.puzzle]
    depth = args.depth
    if depth is None:
        depth = 7 if args.puzzle == "3x3" else limit
    if not 0 <= depth <= limit:
        raise InputError(f"--depth must lie between 0 and {limit}")
    if not 1 <= args.threads <= max(2, os.cpu_count() or 1):
        raise InputError(f"--threads must lie between 1 and {max(2, os.cpu_count() or 1)}")
    if args.cluster is not None:
        if args.puzzle != "3x3":
            raise InputError("--cluster counts the 3x3 (the 2x2's table holds every depth)")
        from .inputs import cluster_address
        cluster_address(args.cluster)
    elif args.puzzle == "3x3":
        # (on a cluster each worker holds only its share: the workers' hosts are not this one)
        from cubelab.tables.counting import estimated_bytes
        from cubelab.tables.memory import available_bytes
        need, have = estimated_bytes(args.metric, depth), available_bytes()
        if have is not None and need > have:
            raise InputError(
                f"depth {depth} in {args.metric.upper()} needs about {need / 2**30:.1f} GiB of "
                f"memory and {have / 2**30:.1f} GiB is available; choose a smaller --depth")
    return depth


def _line(record: dict, published: int | None) -> str:
    mark = "" if published is None else ("  = published" if record["positions"] == published
                                         else f"  != published {published:,}")
    classes = (f"{record['classes_sym']:>15,} {record['classes_sym_inv']:>15,}"
               if "classes_sym" in record else "")
    seconds = f"{record['seconds']:>9.2f}" if "seconds" in record else ""
    return f"{record['depth']:>5} {record['positions']:>17,} {classes} {seconds}{mark}".rstrip()


def run(args) -> int:
    depth = _check_arguments(args)
    if args.puzzle == "2x2":
        return _run_pocket(args, depth)
    from cubelab.solvers.protocol import new_cancel
    from cubelab.tables.counting import PUBLISHED, Cancelled, count_positions
    from .interrupts import run_interruptible

    published = PUBLISHED[args.metric]
    if not args.json:
        print(f"positions at each distance from solved, {args.metric.upper()} "
              f"(classes up to the 48 symmetries, and up to symmetries and inversion)")
        print(f"{'depth':>5} {'positions':>17} {'classes (sym)':>15} {'(sym+inv)':>15} "
              f"{'seconds':>9}")
    progress, close = _progress_bar(args)

    cancel = new_cancel()

    def on_level(c, extra: dict | None = None):
        if cancel[0]:
            return      # interrupted: the command's last line is already on its way
        record = {**c.as_dict(), **(extra or {})}
        pub = published[c.depth] if c.depth < len(published) else None
        if args.json:
            record["metric"] = args.metric
            if pub is not None:
                record["published"] = pub
            print(json.dumps(record), flush=True)
        else:
            progress.clear()
            print(_line(record, pub), flush=True)

    try:
        # in a thread, so Ctrl-C and SIGTERM are heard while the kernels run
        if args.cluster is not None:
            run_interruptible(lambda: _count_on_cluster(args, depth, on_level), cancel,
                              name="count")
        else:
            run_interruptible(lambda: count_positions(args.metric, depth, threads=args.threads,
                                                      progress=progress, on_level=on_level,
                                                      cancel=cancel), cancel, name="count")
    except Cancelled:
        raise KeyboardInterrupt from None
    finally:
        close()
    return 0


def _count_on_cluster(args, depth: int, on_level) -> None:
    """The count sharded over a Dask cluster's workers; each level's line adds the workers'
    peak memory (the count's arrays, and each worker process's resident peak)."""
    from cubelab.tables.cluster import ClusterError, connect
    from cubelab.tables.counting.sharded import count_on_cluster

    def show(level):
        count = level.count
        on_level(count, {"worker_peak_bytes": level.peak_bytes, "worker_max_rss": level.max_rss}
                 if args.json and count.depth > 0 else None)
        if not args.json and count.depth > 0:
            print(f"{'':>5} workers' arrays at peak "
                  + ", ".join(f"{b / 2**20:.1f}" for b in level.peak_bytes) + " MiB; processes "
                  + ", ".join(f"{b / 2**20:.0f}" for b in level.max_rss) + " MiB", flush=True)

    try:
        with connect(args.cluster) as client:
            count_on_cluster(client, args.metric, depth, on_level=show)
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


def _progress_bar(args):
    bar = _Bar(sys.stderr) if sys.stderr.isatty() else _NoBar()
    return bar, bar.clear


def _run_pocket(args, depth: int) -> int:
    from cubelab.tables.pocket_tables import distribution

    rows = distribution(args.metric)
    if not args.json:
        print(f"2x2x2 positions at each distance from solved, {args.metric.upper()} "
              f"(classes up to the 48 symmetries, and up to symmetries and inversion)")
        print(f"{'depth':>5} {'positions':>17} {'classes (sym)':>15} {'(sym+inv)':>15}")
    for row in rows[:depth + 1]:
        if args.json:
            print(json.dumps({**row, "metric": args.metric, "puzzle": "2x2"}), flush=True)
        else:
            print(_line(row, None), flush=True)
    if not args.json and depth + 1 >= len(rows):
        total = sum(r["positions"] for r in rows)
        print(f"God's number {len(rows) - 1} {args.metric.upper()}; {total:,} positions in all")
    return 0
