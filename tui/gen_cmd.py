"""`cubelab gen SET`: the best algorithms of every case of a set, one JSON Lines record a case.

A set is a name of cube/case_sets.toml (oll, pll, coll, zbll, ocll) or any set given by a start
goal and a goal (`--start f2l --goal oll --auf pre`: the cases are the positions meeting the
start goal that the goal tells apart, up to AUF). Each case is searched by the goal engine
(solvers/goals/generate.py) in a move set and metric (`--moves`, `--metric`, `--weights`), for
the best alg (`-n N`: the N best, `--all`: every optimal one, `--within K`); its record says the
case's name, its facelets and a setup, the algs with their lengths in every metric, their
finger-trick cost and AUF. Records go out as each case ends (stdout, or `--output PATH`; a
progress bar on stderr on a terminal); `--resume` skips the cases PATH holds already (a last
line cut short by a kill is dropped first). Ctrl-C stops in the case at hand: the records
written stay, the case stopped is not written. `--cluster ADDRESS` searches the cases on a Dask
cluster (local[:N] or a scheduler), records still in the set's order.
"""

from __future__ import annotations

import json
import os
import sys

from .argtypes import count, seconds
from .errors import InputError
from .interrupts import run_interruptible

MAX_RECORD_BYTES = 1 << 22
"""The longest record read back by --resume (a case with thousands of algs)."""


def register(sub) -> None:
    p = sub.add_parser("gen", help="the best algorithms of every case of a set (OLL, PLL, "
                                   "COLL, ZBLL, OCLL, or any start goal + goal)")
    p.add_argument("set", nargs="?", metavar="SET",
                   help="a case set: oll, pll, coll, zbll, ocll (cubelab goals lists them); "
                        "or none, with --start and --goal")
    p.add_argument("--start", metavar="GOAL",
                   help="the cases are the positions meeting this goal (e.g. f2l)...")
    p.add_argument("--goal", metavar="GOAL",
                   help="...that this goal tells apart and the algs reach (e.g. oll)")
    p.add_argument("--auf", choices=("none", "pre", "post", "both"),
                   help="with --start/--goal: positions a U turn apart are one case (default "
                        "none); a named set has its own")
    p.add_argument("--moves", default="all", metavar="SET",
                   help="the move set: RUF, \"<R,U>\", \"R2,U\", 2gen... (default all)")
    p.add_argument("--metric", default="htm", choices=("htm", "qtm", "stm", "etm"),
                   help="count and prove optimal in this metric (default htm)")
    p.add_argument("--weights", metavar="W", help='per-move weights: "R=1,U=1,F=1.5"')
    p.add_argument("-n", type=count(1, 10_000), default=None, metavar="N",
                   help="the N best algs of each case (default 1)")
    p.add_argument("--all", action="store_true", help="every optimal alg of each case")
    p.add_argument("--within", type=float, metavar="K",
                   help="every alg up to K beyond each case's optimum")
    p.add_argument("--max-length", type=float, metavar="L", help="no alg longer than L")
    p.add_argument("--time-limit", type=seconds, metavar="S",
                   help="search each case for at most S seconds")
    p.add_argument("--fold", action="store_true",
                   help="fold mirrors and inverses of an alg into one class")
    p.add_argument("--cases", metavar="NAMES",
                   help="only these cases, comma-separated (\"OLL 21,OLL 45\", \"T,Ua\")")
    p.add_argument("--list", action="store_true",
                   help="list the set's cases (name, facelets) without searching")
    p.add_argument("--json", action="store_true",
                   help="JSON Lines on stdout (--output always writes them)")
    p.add_argument("--output", metavar="PATH", help="write the records to PATH")
    p.add_argument("--resume", action="store_true",
                   help="with --output: skip the cases PATH holds already")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="search the cases on a Dask cluster, a scheduler address "
                        "(tcp://host:8786) or local[:N] for N local worker processes "
                        "(needs the cluster extra)")
    p.set_defaults(func=run)


def _case_set(args):
    """The CaseSet asked for; InputError for an unknown set or a bad goal."""
    from cubelab.cube.case_sets import CaseSet, case_set
    from cubelab.cube.goals import GoalError
    try:
        if args.set is not None:
            if args.start or args.goal or args.auf:
                raise InputError(f"set {args.set} has its own start, goal and AUF: give "
                                 "either SET or --start/--goal/--auf")
            return case_set(args.set.lower())
        if not (args.start and args.goal):
            raise InputError("name a set (oll, pll, coll, zbll, ocll) or give --start GOAL "
                             "and --goal GOAL")
        from cubelab.cube.goal_catalog import resolve_goal
        for flag, text in (("--start", args.start), ("--goal", args.goal)):
            try:
                if len(resolve_goal(text)) != 1:
                    raise InputError(f"{flag} {text} names several goals: name one face")
            except GoalError as e:
                raise InputError(f"{flag}: {e}") from None
        auf = args.auf or "none"
        return CaseSet("custom", f"{args.start} -> {args.goal}", args.start, args.goal, auf)
    except GoalError as e:
        raise InputError(str(e)) from None


def _check_search(args) -> None:
    """InputError for a bad move set, weights or an impossible combination."""
    from cubelab.cube.costs import CostError, CostModel
    from cubelab.cube.goal_catalog import resolve_moveset
    from cubelab.cube.movesets import MoveSetError
    try:
        moves = resolve_moveset(args.moves)
    except MoveSetError as e:
        raise InputError(f"--moves: {e}") from None
    try:
        CostModel(args.metric, args.weights).check_moves(moves.moves)
    except CostError as e:
        raise InputError(f"--weights: {e}" if args.weights else str(e)) from None
    if args.all and args.within is not None:
        raise InputError("give --all or --within, not both")
    if args.within is not None and not 0 <= args.within <= 20:
        raise InputError("--within takes 0 to 20")
    if args.resume and not args.output:
        raise InputError("--resume needs --output PATH (the file to resume)")


def run(args) -> int:
    from cubelab.cube.case_sets import cases as set_cases
    from cubelab.cube.goals import GoalError
    cs = _case_set(args)
    _check_search(args)
    try:
        cases = set_cases(cs)
    except GoalError as e:
        raise InputError(str(e)) from None
    if args.cases:
        cases = _chosen(cases, args.cases)
    if args.list:
        for case in cases:
            print(json.dumps({"set": cs.name, "case": case.name, "facelets": case.facelets})
                  if args.json else f"{case.name:<14} {case.facelets}")
        return 0
    cluster = None
    if args.cluster is not None:
        from .inputs import cluster_address
        cluster = cluster_address(args.cluster)
    done = _resumed(args.output, cs, args) if args.resume else set()
    todo = {c.name for c in cases if c.name not in done}
    # generate() walks the whole set: every case not to search now is named as done
    skipped = [c.name for c in set_cases(cs) if c.name not in todo]
    return _generate(args, cs, skipped, len(todo), done, cluster)


def _chosen(cases, text: str):
    names = [n.strip() for n in text.split(",") if n.strip()]
    by_name = {c.name.lower(): c for c in cases}
    unknown = [n for n in names if n.lower() not in by_name]
    if unknown:
        shown = ", ".join(c.name for c in cases[:12]) + (", ..." if len(cases) > 12 else "")
        raise InputError(f"--cases: no case {unknown[0]!r} in the set (its cases: {shown})")
    return [by_name[n.lower()] for n in dict.fromkeys(names)]


def _generate(args, cs, skipped: list[str], total: int, done: set, cluster=None) -> int:
    from cubelab.cube.goals import GoalError
    from cubelab.solvers.goals.generate import generate
    from cubelab.solvers.protocol import new_cancel
    from .solve_file import Progress
    out = _open(args.output, append=args.resume) if args.output else None
    bar = Progress(total)
    cancel = new_cancel()
    written = [0]

    def on_case(record: dict) -> None:
        if record["status"] in ("cancelled", "lost"):   # a resume searches it again
            if record["status"] == "lost":
                bar.close()
                print(f"cubelab: {record['case']}: {record['error']}", file=sys.stderr)
            return
        line = json.dumps(record)
        if out is not None:
            out.write(line + "\n")
            out.flush()
        if out is None or args.json:
            bar.close()
            print(line if args.json else _text(record), flush=True)
        written[0] += 1

    try:
        if cluster is not None:
            _on_cluster(cluster, args, cs, skipped, on_case, lambda k, _n: bar(k))
        else:
            run_interruptible(
                lambda: generate(cs, args.moves, metric=args.metric, weights=args.weights,
                                 n=args.n or 1, all=args.all, within=args.within,
                                 max_length=args.max_length, time_limit=args.time_limit,
                                 fold=args.fold, done=skipped, on_case=on_case,
                                 progress=lambda k, _n: bar(k), cancel=cancel),
                cancel, name="gen")
    except GoalError as e:      # a case no sequence of the move set reaches, and the like
        raise InputError(str(e)) from None
    finally:
        bar.close()
        if out is not None:
            out.close()
    if out is not None:
        note = f"; {len(done)} were there already" if done else ""
        print(f"cubelab: {written[0]} case records written to {args.output}{note}",
              file=sys.stderr)
    return 0


def _on_cluster(address, args, cs, skipped: list[str], on_case, progress) -> None:
    """The cases searched on a Dask cluster. A local one gets the tables made here first (with
    the store's lock), so its workers load them instead of racing to build them; a remote
    cluster's workers make or load their own. Ctrl-C stops the cluster; records written stay."""
    from cubelab.cube.case_sets import cases as set_cases
    from cubelab.cube.costs import CostModel
    from cubelab.cube.goal_catalog import resolve_goal
    from cubelab.solvers.goals.generate import SearchOptions, generate_on_cluster
    from cubelab.solvers.goals.search import problems_for
    from cubelab.tables.cluster import ClusterError, connect
    options = SearchOptions(args.moves, args.metric, args.weights, args.n or 1, args.all,
                            args.within, args.max_length, args.time_limit, args.fold)
    todo = [c for c in set_cases(cs) if c.name not in set(skipped)]
    if not todo:
        return
    try:
        if address.local:
            from cubelab.tables.memory import share_mappings
            share_mappings()
            problems_for(todo[0].state, resolve_goal(cs.goal), args.moves,
                         CostModel(args.metric, args.weights), cs.auf)
        with connect(address) as client:
            generate_on_cluster(client, cs, options, done=skipped, on_case=on_case,
                                progress=progress)
    except ClusterError as e:
        raise InputError(str(e)) from None


def _text(record: dict) -> str:
    """One case as text: its name, its best alg, length, and the others below it."""
    algs = record["algs"]
    metric = record["metric"]
    if not algs:
        return f"{record['case']:<14} - ({record['status']})"
    lines = []
    for i, alg in enumerate(algs):
        auf = ", ".join(f"{k} {v}" for k, v in alg["auf"].items() if v)
        head = f"{record['case']:<14}" if i == 0 else " " * 14
        lines.append(f"{head} {alg['solution']:<44} {alg['metric_cost']:>4g} {metric.upper()}"
                     + (" optimal" if record["optimal"] and i == 0 else "")
                     + (f"  [{auf}]" if auf else ""))
    return "\n".join(lines)


def _open(path: str, append: bool):
    try:
        return open(path, "a" if append else "w", encoding="utf-8")
    except OSError as e:
        raise InputError(f"cannot write {path}: {e.strerror}") from None


def _resumed(path: str, cs, args) -> set[str]:
    """The case names an earlier run wrote to `path` (a last line cut short by a kill is cut
    off the file); InputError for a file that is not gen's records of the same set, move set
    and metric."""
    from cubelab.cube.files import FileProblem, bounded_lines, open_regular
    from cubelab.cube.goal_catalog import resolve_moveset
    names: set[str] = set()
    try:
        fd = open_regular(path, os.O_RDWR)
    except FileNotFoundError:
        return names
    except FileProblem as e:
        raise InputError(f"--resume: {path} is {e}") from None
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}") from None
    moveset = resolve_moveset(args.moves).text
    with os.fdopen(fd, "rb+") as f:
        offset = 0
        for number, raw in enumerate(bounded_lines(f, MAX_RECORD_BYTES), start=1):
            if not raw.endswith(b"\n"):
                if len(raw) > MAX_RECORD_BYTES or b"\0" in raw:
                    raise _not_records(path, number)
                f.truncate(offset)      # cut short by a kill: that case is searched again
                break
            try:
                record = json.loads(raw)
            except (ValueError, RecursionError):    # (brackets nested thousands deep)
                raise _not_records(path, number) from None
            if not isinstance(record, dict) or not isinstance(record.get("case"), str):
                raise _not_records(path, number)
            if (record.get("set"), record.get("moveset"), record.get("metric")) != \
                    (cs.name, moveset, args.metric):
                raise InputError(f"--resume: {path} holds {record.get('set')} cases in "
                                 f"{record.get('moveset')} ({record.get('metric')}), not "
                                 f"{cs.name} in {moveset} ({args.metric})")
            names.add(record["case"])
            offset += len(raw)
    return names


def _not_records(path: str, number: int) -> InputError:
    return InputError(f"--resume: line {number} of {path} is not a gen record; is it the "
                      "output of cubelab gen?")
