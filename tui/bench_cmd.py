"""`cubelab bench`: the seed study's experiment (time and length against scramble depth)."""

from __future__ import annotations

import csv
import json
import sys
import time
from pathlib import Path

from cubelab.tui.argtypes import count, seconds
from cubelab.tui.errors import InputError


def register(sub) -> None:
    p = sub.add_parser("bench", help="time solvers against scramble depth (the seed study's experiment)")
    p.add_argument("--solvers", default="kociemba,thistlethwaite,threecycle,cfop",
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


COMPETITION = ("idastar:misplaced,idastar:manhattan,idastar:manhattan-raw,idastar:pdb,astar,"
               "greedy:manhattan-raw,greedy:pdb")
"""The competition's players: a solver, and after a colon the heuristic it searches with."""


def make_player(spec: str):
    """A solver from 'name' or 'name:heuristic' (InputError naming the choices)."""
    from cubelab.solvers import get_solver, solver_names
    name, _, heuristic = spec.partition(":")
    try:
        return get_solver(name, **({"heuristic": heuristic} if heuristic else {}))
    except KeyError as e:
        raise InputError(f"{e.args[0]} (available: {', '.join(solver_names())})") from None
    except TypeError:
        raise InputError(f"solver {name} takes no heuristic") from None
    except ValueError as e:
        raise InputError(f"solver {name}: {e}") from None


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


def run(args) -> int:
    from cubelab.solvers.experiment import Positions
    from .interrupts import run_interruptible

    if args.competition:
        given = {a.split("=")[0] for a in sys.argv[1:]}
        if "--solvers" not in given:
            args.solvers = COMPETITION
        if "--depths" not in given:
            args.depths = "1-8"
        if not given & {"--per-depth", "-k"}:
            args.per_depth = 5
        if "--time-limit" not in given:
            args.time_limit = 2.0
    names = [n.strip() for n in args.solvers.split(",") if n.strip()]
    if args.per_depth < 1 or args.time_limit <= 0:
        raise InputError("--per-depth must be at least 1 and --time-limit positive")
    depths = None if args.random else parse_depths(args.depths)
    if args.cluster is not None:
        from .inputs import cluster_address
        cluster_address(args.cluster)
        if any(":" in n for n in names):
            raise InputError("the competition's players (name:heuristic) run in this process, "
                             "not on a cluster")
    solvers = {n: make_player(n) for n in names}
    positions = (Positions.random_states(args.random, args.seed) if args.random
                 else Positions.by_depth(depths, args.per_depth, args.seed))
    # the preparations and solves run in a thread, so Ctrl-C and SIGTERM end the command at
    # once (the solve under way is abandoned; nothing has been written yet)
    return run_interruptible(lambda: _measure(args, names, solvers, positions), None,
                             name="bench")


def _measure(args, names: list[str], solvers: dict, positions) -> int:
    from rich.console import Console
    from rich.table import Table

    from cubelab.solvers.experiment import summarize, trial_dicts
    from .chart import LineChart
    err = Console(stderr=True)
    if args.cluster is not None:
        trials, prep = _on_cluster(args, names, positions, err)
    else:
        trials, prep = _here(args, solvers, positions, err)
    rows = summarize(trials)
    out = Console()
    table = Table(title=f"cubelab bench: seed {args.seed}, limit {args.time_limit:g} s")
    for col in ("solver", "depth", "n", "solved", "median s", "max s", "mean HTM", "mean nodes"):
        # a long player name (idastar:manhattan-raw) folds rather than losing its tail
        table.add_column(col, justify="right" if col != "solver" else "left",
                         overflow="fold" if col == "solver" else "ellipsis")
    for r in rows:
        table.add_row(r["solver"], "random" if r["depth"] == 0 and args.random else str(r["depth"]),
                      str(r["count"]), f"{100 * r['solved_share']:.0f}%",
                      f"{r['median_seconds']:.4f}", f"{r['max_seconds']:.4f}",
                      "-" if r["mean_length"] is None else f"{r['mean_length']:.2f}",
                      f"{r['mean_nodes']:.0f}")
    out.print(table)
    out.print("preparation (tables + compile): "
              + ", ".join(f"{n} {s:.2f} s" for n, s in prep.items()), highlight=False)
    if not args.no_chart and not args.random:
        time_series = {n: [(r["depth"], r["median_seconds"]) for r in rows if r["solver"] == n]
                       for n in solvers}
        len_series = {n: [(r["depth"], r["mean_length"]) for r in rows if r["solver"] == n]
                      for n in solvers}
        out.print(LineChart("median time per solve", time_series, log_y=True, y_label="seconds"))
        out.print(LineChart("mean solution length", len_series, y_label="HTM"))
        if args.competition:
            node_series = {n: [(r["depth"], max(1.0, r["mean_nodes"])) for r in rows
                               if r["solver"] == n] for n in solvers}
            out.print(LineChart("mean nodes per solve", node_series, log_y=True,
                                y_label="nodes"))
    if args.competition:
        out.print("reach (deepest depth with every scramble solved within the cap): " + ", ".join(
            f"{n} {reach(rows, n)}" for n in solvers), highlight=False)
    if args.csv:
        _write_csv(Path(args.csv), trial_dicts(trials))
    if args.json:
        Path(args.json).write_text(json.dumps({"summary": rows, "trials": trial_dicts(trials),
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


def _here(args, solvers, positions, err):
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
            s.solve(positions.items[0][3], time_limit=min(args.time_limit, 5.0))
        except SolverError:
            pass
    with Progress(console=err, transient=True, disable=not err.is_terminal) as bar:
        task = bar.add_task("solving", total=len(solvers) * len(positions.items))
        trials = run_experiment(
            solvers, positions, args.time_limit,
            progress=lambda done, total, name: bar.update(task, completed=done,
                                                          description=f"solving ({name})"))
    return trials, prep


def _on_cluster(args, names, positions, err):
    """The experiment on a Dask cluster: (trials, each solver's slowest preparation)."""
    from rich.progress import Progress

    from cubelab.solvers import cluster
    from cubelab.tables.cluster import ClusterError, connect
    try:
        with connect(args.cluster) as client, \
                Progress(console=err, transient=True, disable=not err.is_terminal) as bar:
            task = bar.add_task("preparing the workers",
                                total=len(names) * len(positions.items))
            return cluster.run_experiment(
                client, names, positions, args.time_limit,
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
