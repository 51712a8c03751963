"""`cubelab solve`: solve a position of either cube (or a file of them) with a registered solver."""

from __future__ import annotations

import json
import sys

from .argtypes import count, seconds
from .errors import InputError
from . import solve_file
from .inputs import add_position_arguments, single_position
from .interrupts import Interrupted, run_interruptible
from .method_steps import method_lines
from .targets import add_target_argument, target_record

MAX_LENGTH = 1000
"""The longest --max-length taken: far past God's number in any metric (a larger one is a typo,
and would overflow the solvers' integer arithmetic)."""


def register(sub) -> None:
    from cubelab.solvers import solver_names
    p = sub.add_parser("solve", help="solve a position with one of the solvers")
    add_position_arguments(p)
    p.add_argument("--solver", help="solver name: " + ", ".join(solver_names("3x3"))
                   + "; on the 2x2x2 " + ", ".join(solver_names("2x2"))
                   + " (default: kociemba; on the 2x2x2 pocket-htm, or pocket-qtm with "
                     "--metric qtm)")
    p.add_argument("--max-length", type=count(0, MAX_LENGTH), metavar="N",
                   help="stop at the first solution of at most N moves")
    p.add_argument("--time-limit", type=seconds, metavar="S",
                   help="search for at most S seconds (alone: keep improving until then, or "
                        "until the solution is proven optimal)")
    p.add_argument("--first", action="store_true",
                   help="kociemba: stop at the first solution of at most 20 moves "
                        "(milliseconds; by default it improves for about a second and stops "
                        "as soon as its solution is proven optimal)")
    p.add_argument("--tables", metavar="NAME", help="the solver's table set, if it has several")
    p.add_argument("--heuristic", choices=("misplaced", "manhattan", "manhattan-raw", "pdb"),
                   help="for idastar and greedy: the heuristic they search with (idastar is "
                        "optimal with all but manhattan-raw)")
    p.add_argument("--json", action="store_true", help="print JSON (JSON Lines with --file)")
    add_target_argument(p)
    p.add_argument("--metric", choices=("htm", "qtm"),
                   help="count moves in this metric: the solver made for it (korf-qtm, "
                        "pocket-qtm) proves optima in it; a solver that cannot is refused "
                        "(default: the solver's own, HTM for all but pocket-qtm and korf-qtm)")
    solve_file.add_arguments(p)
    p.set_defaults(func=run)


def solver_name(args) -> str:
    """The solver --solver names (its variant for --metric: korf -> korf-qtm), or the --puzzle
    cube's default one for --metric (on the 3x3x3 the first solver that honours it); InputError
    for a solver that cannot honour --metric: it is refused, never ignored."""
    from cubelab.cube.puzzles import puzzle_named
    from cubelab.solvers import metric_variant, solver_metrics, solver_names
    metric = args.metric or "htm"
    name = args.solver or puzzle_named(args.puzzle).default_solver(metric)
    if args.metric is None:
        return name
    try:
        return metric_variant(name, metric, args.puzzle)
    except KeyError as e:
        if args.solver is not None:
            raise InputError(e.args[0]) from None
    # no solver named, and the default one counts in another metric
    able = [n for n in solver_names(args.puzzle) if metric in solver_metrics(n, args.puzzle)]
    if not able:
        raise InputError(f"no solver of the {args.puzzle} counts in {metric.upper()}")
    return able[0]


def make_solver(args):
    """The solver named on the command line (one a user may choose for the --puzzle cube, able
    to honour --metric), or InputError."""
    from cubelab.solvers import get_solver
    name = solver_name(args)
    options = solver_options(args, name)
    try:
        return get_solver(name, args.puzzle, **options)
    except KeyError as e:
        raise InputError(e.args[0]) from None
    except TypeError as e:
        if "heuristic" in options:
            raise InputError(f"solver {name} takes no --heuristic (idastar and greedy do)") \
                from None
        if "tables" in options:
            # the solver's constructor takes no `tables` option: it has one table set, or none
            raise InputError(f"solver {name} has no table sets to choose from (--tables is "
                             f"for solvers that have several, such as korf)") from None
        raise InputError(f"solver {name}: {e}") from None
    except ValueError as e:
        raise InputError(f"solver {name}: {e}") from None


def solver_options(args, name: str) -> dict:
    """The options the solver is made with: --tables, --heuristic (idastar, greedy), and
    --first for kociemba."""
    options = {} if args.tables is None else {"tables": args.tables}
    if getattr(args, "heuristic", None):
        options["heuristic"] = args.heuristic
    if getattr(args, "first", False):
        if name != "kociemba":
            raise InputError(f"--first is kociemba's fast mode; {name} has no such option")
        options["budget"] = None
    return options


def prepare(solver) -> None:
    """Load or build the solver's tables before the first solve. A build is announced on one
    line of stderr (what, how big, how long); on a terminal one bar then follows all of it.
    Tables this machine's memory cannot hold are refused first, in one line (InputError)."""
    from cubelab.tables.spec import TableError
    try:
        table_set = getattr(solver, "table_set", None)    # a solver with a choice of sets
        if table_set is not None and solver.missing_tables():
            table_set.check_memory()     # before the build is announced
        _prepare(solver)
    except TableError as e:
        raise InputError(str(e)) from None


def _prepare(solver) -> None:
    from cubelab.solvers.protocol import new_cancel
    from cubelab.tables.spec import BuildCancelled
    from .build_progress import BuildProgress, describe_build
    # Ctrl-C or SIGTERM ends the wait at once (a build sees the flag and leaves nothing
    # half-written); after it, nothing more is drawn over the interrupt's message
    cancel = new_cancel()
    missing = solver.missing_tables()
    if not missing:
        run_interruptible(lambda: solver.prepare(cancel=cancel), cancel, name="prepare")
        return
    print(f"cubelab: building the tables of {solver.name} ({describe_build(missing)}; later "
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


def solve_record(solver, state, max_length, time_limit) -> dict:
    """One solve as a JSON-ready record; a refused position raises InputError.

    The search runs in a thread: on Ctrl-C or SIGTERM its cancel flag goes up and Interrupted
    is raised carrying the record of the best solution found so far (None if none was)."""
    from cubelab.solvers.protocol import SolverError, new_cancel
    cancel, found = new_cancel(), []
    try:
        result = run_interruptible(
            lambda: solver.solve(state, max_length=max_length, time_limit=time_limit,
                                 on_solution=found.append, cancel=cancel), cancel, name="solve")
    except SolverError as e:
        raise InputError(str(e)) from None
    except Interrupted as stop:
        stop.partial = _best_so_far(solver, state, stop.partial, found)
        raise
    return result.to_json()


def _best_so_far(solver, state, result, found) -> dict | None:
    """The record of an interrupted solve: what it returned within the grace period, else the
    last solution it streamed (checked here, since the solver never got to check it)."""
    from cubelab.solvers.protocol import SolveResult, verify
    if result is None or result.moves is None:
        if not found:
            return None
        best = found[-1]
        result = SolveResult(solver.name, list(best.moves), nodes=best.nodes,
                             seconds=best.seconds, verified=verify(state, best.moves))
        if not result.verified:
            return None
    record = result.to_json()
    record["status"] = "interrupted"
    return record


def print_interrupted(stop: Interrupted, as_json: bool, line: int | None = None) -> None:
    """Print the best solution an interrupted solve had found, if any, before the command ends."""
    record = stop.partial
    if record is None:
        return
    if line is not None:
        record["line"] = line
    print(json.dumps(record) if as_json else format_result(record), flush=True)


def format_result(record: dict) -> str:
    if record.get("solution") is None:
        head = f"no solution ({record.get('status', 'not found')})"
        if record.get("message"):
            head += f": {record['message']}"
    else:
        head = record["solution"] or "(already solved)"
    lines = [head]
    if record.get("status") == "interrupted":
        lines.append("interrupted: the best solution found so far")
    if record.get("length") is not None:
        ln = record["length"]
        lines.append(f"length    {ln['htm']} HTM, {ln['qtm']} QTM")
    extra = []
    phases = record.get("phases") or []
    if phases and not isinstance(phases[0], dict):
        extra.append("phases " + " + ".join(str(p) for p in phases))
    metric = record.get("metric", "htm").upper()
    if "lower_bound" in record:
        extra.append(f"lower bound {record['lower_bound']} {metric}")
    lines.append(f"time      {record['seconds']:.4f} s, {record['nodes']:,} nodes"
                 + ("; " + ", ".join(extra) if extra else ""))
    for ph in phases if phases and isinstance(phases[0], dict) else []:
        lines.append(f"  -> {ph['subgroup']:<30} {ph['length']:>2}  {ph['moves'] or '-'}")
    lines += method_lines(record)     # a human method's named steps (CFOP)
    for st in record.get("steps") or []:
        if "step" not in st:
            lines.append(f"  {st['does']:<34} {st['alg']}")
    if record.get("solution_note"):
        lines.append(f"note      {record['solution_note']}")
    lines.append(f"solver    {record['solver']}, "
                 + (f"optimal in {metric}" if record["optimal"] else "not proven optimal")
                 + (", verified" if record["verified"] else
                    ", NOT verified" if record.get("solution") is not None else ""))
    return "\n".join(lines)


def apply_settings(args) -> None:
    """What the command line leaves unsaid, from the settings file (solve.solver,
    solve.time_limit, metric, tables.*): flags win over it; its problems go to stderr."""
    from cubelab.solvers import metric_variant, solver_puzzle
    from .settings import current
    settings = current()
    if args.metric is None:
        args.metric = settings.default_metric()
    solver = settings.solver("solve")
    if args.solver is None and solver is not None and solver_puzzle(solver) == args.puzzle:
        try:        # the settings' solver, unless it cannot count in the metric asked for
            args.solver = metric_variant(solver, args.metric or "htm", args.puzzle) \
                if args.metric else solver
        except KeyError:
            pass
    if args.time_limit is None:
        args.time_limit = settings.time_limit("solve")
    if args.tables is None:
        args.tables = settings.table_sets().get(solver_name(args))
    for problem in settings.problems:
        print(f"cubelab: {problem}", file=sys.stderr)


def run(args) -> int:
    apply_settings(args)
    if args.max_length is not None and args.max_length < 0:
        raise InputError("--max-length must be 0 or more")
    if args.time_limit is not None and args.time_limit <= 0:
        raise InputError("--time-limit must be positive")
    if args.file and args.target:
        raise InputError("--target solves one position to another: give the start as an alg, "
                         "--facelets or --cycles, not --file")
    if args.file:
        name = solver_name(args)
        return solve_file.solve_file(args, name, make_solver, prepare, format_result,
                                     solver_options(args, name))
    solve_file.check_arguments(args)
    position = single_position(args)
    solver = make_solver(args)
    prepare(solver)
    try:
        if args.target:
            record = target_record(args, solver, position)
        else:
            record = solve_record(solver, position.state, args.max_length, args.time_limit)
    except Interrupted as stop:
        print_interrupted(stop, args.json)
        raise
    if args.json:
        print(json.dumps(record))
    else:
        print(format_result(record))
        if args.target:
            print(f"target    {args.target}")
    return 0
