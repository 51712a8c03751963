"""`cubelab solve`: solve a position of either cube (or a file of them) with a registered solver."""

from __future__ import annotations

import json
import sys

from .argtypes import count, seconds
from .errors import InputError
from .inputs import add_position_arguments, positions_from_file, single_position
from .interrupts import Interrupted, run_interruptible

MAX_LENGTH = 1000
"""The longest --max-length taken: far past God's number in any metric (a larger one is a typo,
and would overflow the solvers' integer arithmetic)."""


def register(sub) -> None:
    p = sub.add_parser("solve", help="solve a position with one of the solvers")
    add_position_arguments(p)
    p.add_argument("--solver", help="solver name (default: kociemba; on the 2x2x2 pocket-htm, "
                                    "or pocket-qtm with --metric qtm)")
    p.add_argument("--max-length", type=count(0, MAX_LENGTH), metavar="N",
                   help="stop at the first solution of at most N moves")
    p.add_argument("--time-limit", type=seconds, metavar="S",
                   help="search for at most S seconds (alone: keep improving until then)")
    p.add_argument("--tables", metavar="NAME", help="the solver's table set, if it has several")
    p.add_argument("--json", action="store_true", help="print JSON (JSON Lines with --file)")
    p.add_argument("--metric", choices=("htm", "qtm"), default="htm",
                   help="with --puzzle 2x2: the metric the default solver is optimal in "
                        "(default %(default)s)")
    p.add_argument("--jobs", "-j", type=count(1, 1024), metavar="N",
                   help="with --file: solve N positions at once, one process each "
                        "(default: one per core)")
    p.set_defaults(func=run)


def solver_name(args) -> str:
    """The solver --solver names, or the --puzzle cube's default one for --metric."""
    from cubelab.cube.puzzles import puzzle_named
    return args.solver or puzzle_named(args.puzzle).default_solver(args.metric)


def make_solver(args):
    """The solver named on the command line (one a user may choose for the --puzzle cube), or
    InputError."""
    from cubelab.solvers import get_solver
    name = solver_name(args)
    options = {} if args.tables is None else {"tables": args.tables}
    try:
        return get_solver(name, args.puzzle, **options)
    except KeyError as e:
        raise InputError(e.args[0]) from None
    except TypeError:
        # the solver's constructor takes no `tables` option: it has one table set, or none
        raise InputError(f"solver {name} has no table sets to choose from (--tables is for "
                         f"solvers that have several, such as korf)") from None
    except ValueError as e:
        raise InputError(f"solver {name}: {e}") from None


def _progress_printer(cancel=None):
    """Build progress on stderr when it is a terminal (tables are built on first use); silent
    once `cancel` is up, so an abandoned build never writes over the interrupt's message."""
    if not sys.stderr.isatty():
        return None, None
    building: list[str] = []   # a table's build loads its dependencies first: a stack

    def log(message: str) -> None:
        if cancel is not None and cancel[0]:
            return
        word, _, rest = message.partition(" ")
        name = rest.split(" ", 1)[0]
        if word == "building":
            building.append(name)
        elif word == "built" and name in building:
            building.remove(name)
        print(f"\r\033[Kcubelab: {message}", file=sys.stderr, flush=True)

    def progress(done: int, total: int) -> None:
        if cancel is not None and cancel[0]:
            return
        pct = 100.0 * done / total if total else 0.0
        name = building[-1] if building else "tables"
        print(f"\r\033[Kcubelab: building {name}: {pct:5.1f}%", file=sys.stderr, end="",
              flush=True)

    return progress, log


def prepare(solver) -> None:
    """Load or build the solver's tables before the first solve, showing progress; Ctrl-C or
    SIGTERM ends the wait at once (a build sees the flag and leaves nothing half-written)."""
    from cubelab.solvers.protocol import new_cancel
    from cubelab.tables.spec import BuildCancelled
    cancel = new_cancel()
    progress, log = _progress_printer(cancel)
    try:
        run_interruptible(lambda: solver.prepare(progress=progress, cancel=cancel, log=log),
                          cancel, name="prepare")
    except BuildCancelled:
        raise KeyboardInterrupt from None
    if progress is not None:
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
    if "lower_bound" in record:
        extra.append(f"lower bound {record['lower_bound']}")
    lines.append(f"time      {record['seconds']:.4f} s, {record['nodes']:,} nodes"
                 + ("; " + ", ".join(extra) if extra else ""))
    for ph in phases if phases and isinstance(phases[0], dict) else []:
        lines.append(f"  -> {ph['subgroup']:<30} {ph['length']:>2}  {ph['moves'] or '-'}")
    for st in record.get("steps") or []:
        lines.append(f"  {st['does']:<34} {st['alg']}")
    lines.append(f"solver    {record['solver']}, "
                 + ("optimal" if record["optimal"] else "not proven optimal")
                 + (", verified" if record["verified"] else ", NOT verified"))
    return "\n".join(lines)


def run(args) -> int:
    from cubelab.cube.puzzles import puzzle_named
    if args.max_length is not None and args.max_length < 0:
        raise InputError("--max-length must be 0 or more")
    if args.time_limit is not None and args.time_limit <= 0:
        raise InputError("--time-limit must be positive")
    if args.file:
        solver = make_solver(args)
        # the file first: a bad one is refused before the tables load
        entries = list(positions_from_file(args.file, puzzle_named(args.puzzle)))
        prepare(solver)
        return solve_file(solver, args, entries)
    position = single_position(args)
    solver = make_solver(args)
    prepare(solver)
    try:
        record = solve_record(solver, position.state, args.max_length, args.time_limit)
    except Interrupted as stop:
        print_interrupted(stop, args.json)
        raise
    if args.json:
        print(json.dumps(record))
    else:
        print(format_result(record))
    return 0


def solve_file(solver, args, entries: list) -> int:
    """One record per input line (`entries`: positions_from_file's), in order; bad lines become
    error records (exit status 2).

    Positions are solved one process per core (`--jobs`); the parent prepares the solver first,
    so the workers only load the tables it built."""
    from cubelab.cube.puzzles import puzzle_named
    from cubelab.solvers.batch import default_jobs, solve_many
    puzzle = puzzle_named(args.puzzle)
    good = [(number, text, pos) for number, text, pos in entries if not isinstance(pos, Exception)]
    jobs = args.jobs if args.jobs is not None else default_jobs()
    if jobs < 1:
        raise InputError("--jobs must be at least 1")
    jobs = min(jobs, max(1, len(good)) if puzzle.parallel_solves else 1)
    bar = _batch_progress(len(good))
    if jobs == 1:
        def records():
            for k, (_, _, pos) in enumerate(good):
                try:
                    yield solve_record(solver, pos.state, args.max_length, args.time_limit)
                except InputError as e:     # a refused position: its error record
                    yield {"error": str(e)}
                bar(k + 1)
        solved = records()
    else:
        options = {} if args.tables is None else {"tables": args.tables}
        solved = solve_many(solver_name(args), options, (pos.state for _, _, pos in good),
                            jobs=jobs, max_length=args.max_length, time_limit=args.time_limit,
                            on_done=bar)
    status = 0
    for number, text, pos in entries:
        if isinstance(pos, Exception):
            record = {"error": str(pos), "line": number, "input": text}
        else:
            try:
                record = next(solved)
            except KeyboardInterrupt as stop:
                # the records before this line are out whole; this one's best so far follows
                bar(None)
                if isinstance(stop, Interrupted):
                    print_interrupted(stop, args.json, number)
                raise
            if "error" in record:
                record.update(line=number, input=text)
            else:
                record["line"] = number
        if "error" in record:
            status = 2
            if not args.json:
                print(f"line {number}: {record['error']}", file=sys.stderr)
                continue
        if args.json:
            print(json.dumps(record), flush=True)
        else:
            print(f"# line {number}: {text}")
            print(format_result(record))
            print()
    bar(None)
    return status


def _batch_progress(total: int):
    """A callback drawing 'solved k/n' on stderr when it is a terminal (None ends the line)."""
    if not sys.stderr.isatty() or total < 2:
        return lambda done: None

    def show(done):
        if done is None:
            print("\r\033[K", file=sys.stderr, end="", flush=True)
        else:
            width = 30
            filled = width * done // total
            print(f"\r\033[Ksolving [{'#' * filled}{'.' * (width - filled)}] {done}/{total}",
                  file=sys.stderr, end="", flush=True)
    return show
