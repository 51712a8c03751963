"""`cubelab bench`: the seed study's experiment (time and length against scramble depth)."""

from __future__ import annotations

import csv
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from cubelab.solvers.study import COMPETITION_PLAYERS, STUDY_SOLVERS
from cubelab.tui.argtypes import count, seconds
from cubelab.tui.errors import InputError


def register(sub) -> None:
    p = sub.add_parser("bench", help="time solvers against scramble depth (the seed study's experiment)")
    p.add_argument("--solvers", default=",".join(STUDY_SOLVERS),
                   help="comma-separated solver names (default: %(default)s)")
    p.add_argument("--depths", default="1-10", help="scramble depths, e.g. 1-14 or 2,4,8 (default: %(default)s)")
    p.add_argument("--per-depth", "-k", type=count(1, 100_000), default=10, help="scrambles per depth (default: %(default)s)")
    p.add_argument("--random", type=count(0, 10_000_000), metavar="K", default=0,
                   help="instead of depths, K uniformly random states")
    p.add_argument("--seed", type=int, default=1, help="random seed (default: %(default)s)")
    p.add_argument("--time-limit", type=seconds, default=5.0, help="seconds per solve (default: %(default)s)")
    p.add_argument("--csv", metavar="PATH", help="write one row per solve to this CSV file")
    p.add_argument("--json", metavar="PATH", help="write the summary and every solve to this JSON file")
    p.add_argument("--no-chart", action="store_true", help="print only the table")
    p.add_argument("--competition", action="store_true",
                   help="the informed-search competition: IDA*, A* and greedy best-first with "
                        f"several heuristics on the same scrambles (players: {COMPETITION}; "
                        "depths 1-8, 5 per depth, 2 s each unless given)")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="run the trials on a Dask cluster, a scheduler address "
                        "(tcp://host:8786) or local[:N] (needs the cluster extra); each "
                        "worker prepares the solvers from its own data directory")
    p.set_defaults(func=run)


COMPETITION = ",".join(COMPETITION_PLAYERS)
"""The competition's players: a solver, and after a colon the heuristic it searches with."""


def make_player(spec: str):
    """A solver from 'name' or 'name:heuristic' (InputError naming the choices; a solver
    that declares no heuristic refuses one before it is made)."""
    from cubelab.solvers import REGISTRY
    name, _, heuristic = spec.partition(":")
    try:
        return REGISTRY.make(name, "3x3", {"heuristic": heuristic} if heuristic else {})
    except KeyError as e:
        raise InputError(f"{e.args[0]} (available: {', '.join(REGISTRY.solver_names())})") \
            from None
    except ValueError as e:         # an option it refuses (OptionError), or its value
        raise InputError(str(e) if str(e).startswith("solver ") else f"solver {name}: {e}") \
            from None


def parse_depths(text: str) -> list[int]:
    depths: list[int] = []
    try:
        for part in text.split(","):
            if "-" in part:
                a, b = part.split("-", 1)
                depths.extend(range(int(a), int(b) + 1))
            elif part.strip():
                depths.append(int(part))
    except ValueError:
        raise InputError(f"--depths: cannot read {text!r} (use e.g. 1-14 or 2,4,8)") from None
    if not depths or min(depths) < 0 or max(depths) > 40:
        raise InputError(f"--depths: {text!r} must name depths between 0 and 40")
    return depths


@dataclass(frozen=True)
class BenchTask:
    """What `cubelab bench` was asked, read once (the competition's own defaults applied)."""

    names: list[str]
    depths: list[int] | None
    per_depth: int
    random: int
    seed: int
    time_limit: float
    competition: bool
    chart: bool
    csv: str | None
    json: str | None
    cluster: object = None
    """The --cluster address, read (tables.cluster.ClusterAddress), or None."""

    @classmethod
    def from_args(cls, args, given: set[str]) -> "BenchTask":
        """`given`: the flags typed (the competition replaces the others' defaults)."""
        solvers, depths, per_depth, time_limit = (args.solvers, args.depths, args.per_depth,
                                                  args.time_limit)
        if args.competition:
            solvers = solvers if "--solvers" in given else COMPETITION
            depths = depths if "--depths" in given else "1-8"
            per_depth = per_depth if given & {"--per-depth", "-k"} else 5
            time_limit = time_limit if "--time-limit" in given else 2.0
        names = [n.strip() for n in solvers.split(",") if n.strip()]
        if per_depth < 1 or time_limit <= 0:
            raise InputError("--per-depth must be at least 1 and --time-limit positive")
        cluster = None
        if args.cluster is not None:
            from .inputs import cluster_address
            cluster = cluster_address(args.cluster)
            if any(":" in n for n in names):
                raise InputError("the competition's players (name:heuristic) run in this "
                                 "process, not on a cluster")
        return cls(names, None if args.random else parse_depths(depths), per_depth,
                   args.random, args.seed, time_limit, args.competition, not args.no_chart,
                   args.csv, args.json, cluster)


def run(args) -> int:
    from cubelab.solvers.experiment import Positions
    from .interrupts import run_interruptible

    task = BenchTask.from_args(args, {a.split("=")[0] for a in sys.argv[1:]})
    solvers = {n: make_player(n) for n in task.names}
    positions = (Positions.random_states(task.random, task.seed) if task.random
                 else Positions.by_depth(task.depths, task.per_depth, task.seed))
    # the preparations and solves run in a thread, so Ctrl-C and SIGTERM end the command at
    # once (the solve under way is abandoned; nothing has been written yet)
    return run_interruptible(lambda: _measure(task, solvers, positions), None, name="bench")


def _measure(task: BenchTask, solvers: dict, positions) -> int:
    from rich.console import Console
    from rich.table import Table

    from cubelab.solvers.experiment import summarize, trial_dicts
    from .chart import LineChart
    err = Console(stderr=True)
    if task.cluster is not None:
        trials, prep = _on_cluster(task.cluster, task.time_limit, task.names, positions, err)
    else:
        trials, prep = _here(task.time_limit, solvers, positions, err)
    rows = summarize(trials)
    out = Console()
    table = Table(title=f"cubelab bench: seed {task.seed}, limit {task.time_limit:g} s")
    for col in ("solver", "depth", "n", "solved", "median s", "max s", "mean HTM", "mean nodes"):
        # a long player name (idastar:manhattan-raw) folds rather than losing its tail
        table.add_column(col, justify="right" if col != "solver" else "left",
                         overflow="fold" if col == "solver" else "ellipsis")
    for r in rows:
        table.add_row(r["solver"], "random" if r["depth"] == 0 and task.random else str(r["depth"]),
                      str(r["count"]), f"{100 * r['solved_share']:.0f}%",
                      f"{r['median_seconds']:.4f}", f"{r['max_seconds']:.4f}",
                      "-" if r["mean_length"] is None else f"{r['mean_length']:.2f}",
                      f"{r['mean_nodes']:.0f}")
    out.print(table)
    out.print("preparation (tables + compile): "
              + ", ".join(f"{n} {s:.2f} s" for n, s in prep.items()), highlight=False)
    if task.chart and not task.random:
        time_series = {n: [(r["depth"], r["median_seconds"]) for r in rows if r["solver"] == n]
                       for n in solvers}
        len_series = {n: [(r["depth"], r["mean_length"]) for r in rows if r["solver"] == n]
                      for n in solvers}
        out.print(LineChart("median time per solve", time_series, log_y=True, y_label="seconds"))
        out.print(LineChart("mean solution length", len_series, y_label="HTM"))
        if task.competition:
            node_series = {n: [(r["depth"], max(1.0, r["mean_nodes"])) for r in rows
                               if r["solver"] == n] for n in solvers}
            out.print(LineChart("mean nodes per solve", node_series, log_y=True,
                                y_label="nodes"))
    if task.competition:
        out.print("reach (deepest depth with every scramble solved within the cap): " + ", ".join(
            f"{n} {reach(rows, n)}" for n in solvers), highlight=False)
    if task.csv:
        _write_csv(Path(task.csv), trial_dicts(trials))
    if task.json:
        Path(task.json).write_text(json.dumps({"summary": rows, "trials": trial_dicts(trials),
                                               "preparation_seconds": prep}, indent=1))
    return 0


def reach(rows: list[dict], solver: str) -> int:
    """The deepest depth up to which the solver solved every scramble (0: not even depth 1)."""
    best = 0
    for r in sorted((r for r in rows if r["solver"] == solver), key=lambda r: r["depth"]):
        if r["solved_share"] < 1:
            break
        best = r["depth"]
    return best


def _here(time_limit: float, solvers, positions, err):
    """The experiment in this process: (trials, preparation seconds per solver)."""
    from rich.progress import Progress

    from cubelab.solvers.experiment import run_experiment
    from cubelab.solvers.protocol import SolverError
    prep = {}
    for n, s in solvers.items():
        t = time.perf_counter()
        with Progress(console=err, transient=True, disable=not err.is_terminal) as bar:
            task = bar.add_task(f"preparing {n}", total=None)
            s.prepare(progress=lambda done, total: bar.update(task, completed=done, total=total))
        prep[n] = time.perf_counter() - t
        # one untimed solve compiles whatever prepare() left lazy
        try:
            s.solve(positions.items[0][3], time_limit=min(time_limit, 5.0))
        except SolverError:
            pass
    with Progress(console=err, transient=True, disable=not err.is_terminal) as bar:
        task = bar.add_task("solving", total=len(solvers) * len(positions.items))
        trials = run_experiment(
            solvers, positions, time_limit,
            progress=lambda done, total, name: bar.update(task, completed=done,
                                                          description=f"solving ({name})"))
    return trials, prep


def _on_cluster(address, time_limit: float, names, positions, err):
    """The experiment on a Dask cluster (its address read): (trials, each solver's slowest
    preparation)."""
    from rich.progress import Progress

    from cubelab.solvers import cluster
    from cubelab.tables.cluster import ClusterError, connect
    try:
        with connect(address) as client, \
                Progress(console=err, transient=True, disable=not err.is_terminal) as bar:
            task = bar.add_task("preparing the workers",
                                total=len(names) * len(positions.items))
            return cluster.run_experiment(
                client, names, positions, time_limit,
                progress=lambda done, total, name: bar.update(
                    task, completed=done, description=f"solving ({name})"))
    except ClusterError as e:
        raise InputError(str(e)) from None


def _write_csv(path: Path, rows: list[dict]) -> None:
    try:
        with path.open("w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]) if rows else ["solver"])
            writer.writeheader()
            writer.writerows(rows)
    except OSError as e:
        print(f"cubelab: cannot write {path}: {e.strerror}", file=sys.stderr)
