"""`cubelab solve`: solve a position of either cube (or a file of them) with a registered solver.

The solver flags come from the solvers' declarations (solver_flags.py), the arguments are read
once into a `SolveTask` (solve_task.py), and the records go out through the one record writer.
"""

from __future__ import annotations

import json

from .argtypes import length_cap, seconds
from .errors import InputError
from . import solve_file
from .inputs import add_position_arguments
from .interrupts import Interrupted, run_interruptible
from .targets import add_target_argument, read_target

MAX_LENGTH = 1000
"""The longest --max-length taken: far past God's number in any metric (a larger one is a typo,
and would overflow the solvers' integer arithmetic)."""


def register(sub) -> None:
    from cubelab.cube.puzzles import PUZZLES
    from cubelab.solvers import REGISTRY
    from .solver_flags import add_solver_flags
    p = sub.add_parser("solve", help="solve a position with one of the solvers")
    add_position_arguments(p)
    p.add_argument("--solver", help=_solver_help(REGISTRY, PUZZLES))
    p.add_argument("--max-length", type=length_cap(0, MAX_LENGTH), metavar="N",
                   help="stop at the first solution of at most N moves (with --weights a "
                        "weighted cost, which may be a decimal: 9.5)")
    p.add_argument("--time-limit", type=seconds, metavar="S",
                   help="search for at most S seconds (alone: keep improving until then, or "
                        "until the solution is proven optimal)")
    p.add_argument("--json", action="store_true", help="print JSON (JSON Lines with --file)")
    add_target_argument(p)
    metrics = list(dict.fromkeys(m for d in REGISTRY.descriptions() for m in d.metrics))
    variants = [d.name for d in REGISTRY.descriptions() if d.family and d.order is None]
    p.add_argument("--metric", choices=[m.value for m in metrics],
                   help="count moves in this metric: the solver made for it ("
                        + ", ".join(variants) + ") proves optima in it; a solver that cannot "
                        "is refused (default: the solver's own)")
    add_solver_flags(p, REGISTRY)
    solve_file.add_arguments(p)
    p.set_defaults(func=run)


def _solver_help(registry, puzzles) -> str:
    """The solvers of each cube and the default ones, from the registry."""
    parts = []
    for puzzle in puzzles.values():
        names = registry.solver_names(puzzle.name)
        if not names:
            continue
        defaults = [registry.default_solver(puzzle.name)]
        for metric in puzzle.metrics:
            try:
                other = registry.default_solver(puzzle.name, metric)
            except KeyError:
                continue
            if other not in defaults:
                defaults.append(f"{other} with --metric {metric.value}")
        parts.append(f"on the {puzzle.title} {', '.join(names)} (default: "
                     f"{', or '.join(defaults)})")
    return "solver name: " + "; ".join(parts)


def refuse_early(solver, state) -> None:
    """InputError for a position the solver refuses (an unreachable one, a goal its grey
    stickers contradict), said before any of its tables is built rather than after."""
    from cubelab.solvers.protocol import SolverError
    try:
        solver.check(state)
    except SolverError as e:
        raise InputError(str(e)) from None


def solve_record(solver, state, max_length, time_limit, target=None):
    """One solve's result (with a `target` state, of the moves taking `state` there:
    solvers/target.py); a refused position raises InputError.

    The search runs in a thread: on Ctrl-C or SIGTERM its cancel flag goes up and Interrupted
    is raised carrying the result of the best solution found so far (None if none was)."""
    from cubelab.solvers.protocol import SolverError, new_cancel
    from cubelab.solvers.target import relative_state, solve_to
    cancel, found = new_cancel(), []
    options = dict(max_length=max_length, time_limit=time_limit, on_solution=found.append,
                   cancel=cancel)
    try:
        return run_interruptible(
            (lambda: solver.solve(state, **options)) if target is None else
            (lambda: solve_to(solver, state, target, **options)), cancel, name="solve")
    except SolverError as e:
        raise InputError(str(e)) from None
    except Interrupted as stop:
        solved = state if target is None else relative_state(state, target)
        stop.partial = _best_so_far(solver, solved, stop.partial, found)
        raise


def _best_so_far(solver, state, result, found):
    """The result of an interrupted solve, marked so: what it returned within the grace
    period, else the last solution it streamed (checked here, since the solver never got to
    check it); None when there is none."""
    from cubelab.solvers.protocol import SolveResult, Status
    if result is None or result.moves is None:
        if not found:
            return None
        best = found[-1]
        if not _reaches(solver, state, best.moves):
            return None
        result = SolveResult(solver.name, list(best.moves), nodes=best.nodes,
                             seconds=best.seconds, verified=True)
    result.status = Status.INTERRUPTED
    return result


def _reaches(solver, state, moves) -> bool:
    """Whether the moves do what the solver was asked (solve the cube, or reach its goal: the
    solver's own check)."""
    check = getattr(solver, "verify", None)
    if check is None:
        from cubelab.cube.puzzles import PUZZLES
        return PUZZLES[solver.puzzle].solves(state, moves)
    try:
        check(state, moves)
    except RuntimeError:
        return False
    return True


def print_interrupted(stop: Interrupted, as_json: bool, line: int | None = None) -> None:
    """Print the best solution an interrupted solve had found, if any, before the command ends."""
    from .result_text import format_result
    result = stop.partial
    if result is None:
        return
    record = result.to_json()
    if line is not None:
        record["line"] = line
    print(json.dumps(record) if as_json else format_result(result), flush=True)


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
    if hasattr(args, "tables") and args.tables is None:
        from cubelab.solvers import REGISTRY
        from .solve_task import _solver_name
        try:
            args.tables = settings.table_sets().get(_solver_name(args, args.puzzle, REGISTRY))
        except InputError:
            pass            # the task says what is wrong with the solver asked for
    for problem in settings.problems:
        print(f"cubelab: {problem}", file=sys.stderr)


def run(args) -> int:
    # (read here, not at import: `cubelab solve --help` loads only the declarations)
    from .preparing import prepare
    from .result_text import format_result
    from .solve_task import SolveTask
    apply_settings(args)
    task = SolveTask.from_args(args)
    if task.given.file:
        return solve_file.solve_file(task)
    position = task.given.single(grey=True)     # grey stickers: the solver takes them
    from cubelab.solvers import REGISTRY
    if not REGISTRY.describe(task.solver).long_searches:
        from cubelab.tables.memory import share_mappings
        share_mappings()        # one position: copying the tables would cost more than they save
    solver = task.make_solver()
    if not task.target:
        refuse_early(solver, position.state)
    prepare(solver, task.table_choice())
    target = None
    if task.target:
        target = read_target(task.target, task.puzzle, unreachable=task.given.unreachable)
    try:
        result = solve_record(solver, position.state, task.max_length, task.time_limit, target)
    except Interrupted as stop:
        print_interrupted(stop, task.as_json)
        raise
    record = result.to_json()
    if target is not None:
        record["target"] = task.puzzle.to_facelets(target)
        record["target_input"] = task.target
    if task.as_json:
        print(json.dumps(record))
    else:
        print(format_result(result))
        if task.target:
            print(f"target    {task.target}")
    return 0
