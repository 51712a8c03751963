"""`cubelab solve`: solve a position of either cube (or a file of them) with a registered solver."""

from __future__ import annotations

import json
import sys

from .errors import InputError
from . import solve_file
from .inputs import add_position_arguments, single_position


def register(sub) -> None:
    p = sub.add_parser("solve", help="solve a position with one of the solvers")
    add_position_arguments(p)
    p.add_argument("--solver", help="solver name (default: kociemba; on the 2x2x2 pocket-htm, "
                                    "or pocket-qtm with --metric qtm)")
    p.add_argument("--max-length", type=int, metavar="N",
                   help="stop at the first solution of at most N moves")
    p.add_argument("--time-limit", type=float, metavar="S",
                   help="search for at most S seconds (alone: keep improving until then)")
    p.add_argument("--tables", metavar="NAME", help="the solver's table set, if it has several")
    p.add_argument("--json", action="store_true", help="print JSON (JSON Lines with --file)")
    p.add_argument("--metric", choices=("htm", "qtm"), default="htm",
                   help="with --puzzle 2x2: the metric the default solver is optimal in "
                        "(default %(default)s)")
    solve_file.add_arguments(p)
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
    except (TypeError, ValueError) as e:
        raise InputError(f"solver {name}: {e}") from None


def _progress_printer():
    """Build progress on stderr when it is a terminal (tables are built on first use)."""
    if not sys.stderr.isatty():
        return None, None
    building: list[str] = []   # a table's build loads its dependencies first: a stack

    def log(message: str) -> None:
        word, _, rest = message.partition(" ")
        name = rest.split(" ", 1)[0]
        if word == "building":
            building.append(name)
        elif word == "built" and name in building:
            building.remove(name)
        print(f"\r\033[Kcubelab: {message}", file=sys.stderr, flush=True)

    def progress(done: int, total: int) -> None:
        pct = 100.0 * done / total if total else 0.0
        name = building[-1] if building else "tables"
        print(f"\r\033[Kcubelab: building {name}: {pct:5.1f}%", file=sys.stderr, end="",
              flush=True)

    return progress, log


def prepare(solver) -> None:
    """Load or build the solver's tables before the first solve, showing progress."""
    from cubelab.tables.spec import BuildCancelled
    progress, log = _progress_printer()
    try:
        solver.prepare(progress=progress, log=log)
    except BuildCancelled:
        raise KeyboardInterrupt from None
    if progress is not None:
        print("\r\033[K", file=sys.stderr, end="", flush=True)


def solve_record(solver, state, max_length, time_limit) -> dict:
    """One solve as a JSON-ready record; a refused position raises InputError."""
    from cubelab.solvers.protocol import SolverError
    try:
        result = solver.solve(state, max_length=max_length, time_limit=time_limit)
    except SolverError as e:
        raise InputError(str(e)) from None
    return result.to_json()


def format_result(record: dict) -> str:
    if record.get("solution") is None:
        head = f"no solution ({record.get('status', 'not found')})"
    else:
        head = record["solution"] or "(already solved)"
    lines = [head]
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
    if args.max_length is not None and args.max_length < 0:
        raise InputError("--max-length must be 0 or more")
    if args.time_limit is not None and args.time_limit <= 0:
        raise InputError("--time-limit must be positive")
    if args.file:
        return solve_file.solve_file(args, solver_name(args), make_solver, prepare, format_result)
    solve_file.check_arguments(args)
    position = single_position(args)
    solver = make_solver(args)
    prepare(solver)
    record = solve_record(solver, position.state, args.max_length, args.time_limit)
    if args.json:
        print(json.dumps(record))
    else:
        print(format_result(record))
    return 0
