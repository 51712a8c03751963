"""`cubelab solve`'s arguments read once into a typed task: positions, solver, options, limits, output.

Every check of the arguments happens here, before any solver is made or any table read: the
flags that need --file, the solver (its variant for --metric, or the puzzle's default), its
options against its declaration (an option it does not declare is refused in one line), the
--cluster address. The rest of the command takes the task, not the argparse namespace.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import InputError
from .inputs import PositionInput
from .solver_flags import given_by_command, options_given


@dataclass(frozen=True)
class SolveTask:
    """What `cubelab solve` was asked (see the module docstring)."""

    given: PositionInput
    solver: str
    options: dict = field(default_factory=dict)
    """The solver's options, read and checked against its declaration."""
    max_length: int | None = None
    time_limit: float | None = None
    target: str | None = None
    as_json: bool = False
    jobs: int | None = None
    cluster: object = None
    """The --cluster address, read (tables.cluster.ClusterAddress), or None."""
    output: str | None = None
    resume: bool = False

    @property
    def puzzle(self):
        return self.given.puzzle

    @classmethod
    def from_args(cls, args, registry=None) -> "SolveTask":
        """The task, or InputError saying what is wrong with the arguments."""
        if registry is None:
            from cubelab.solvers import REGISTRY as registry
        from cubelab.solvers.description import OptionError
        given = PositionInput.from_args(args)
        if given.file and args.target:
            raise InputError("--target solves one position to another: give the start as an "
                             "alg, --facelets or --cycles, not --file")
        _check_file_flags(args)
        name = _solver_name(args, given.puzzle.name, registry)
        if given.grey:
            name = _grey_solver(args, name, registry, given.puzzle.name)
        try:
            options = registry.check_options(
                name, given.puzzle.name,
                {**options_given(args), **given_by_command(registry.describe(name), args)})
        except OptionError as e:
            raise InputError(str(e)) from None
        except KeyError as e:
            raise InputError(e.args[0]) from None
        if isinstance(args.max_length, float) and not options.get("weights"):
            raise InputError(f"--max-length {args.max_length:g}: a decimal is a weighted cost "
                             "(goal solver with --weights); without weights lengths are whole "
                             "moves")
        cluster = None
        if args.cluster is not None:
            from .inputs import cluster_address
            cluster = cluster_address(args.cluster)
        return cls(given, name, options, args.max_length, args.time_limit, args.target,
                   args.json, args.jobs, cluster, args.output, bool(args.resume))

    def grey_lines(self, registry=None) -> bool | str:
        """How --file reads 'facelets:' lines with grey stickers: as what they show, for a
        solver that takes them; else refused with a message naming those that do."""
        if registry is None:
            from cubelab.solvers import REGISTRY as registry
        if registry.describe(self.solver).grey_stickers:
            return True
        takers = [d.name for d in registry.descriptions(self.puzzle.name) if d.grey_stickers]
        return (f"solver {self.solver} solves whole positions: grey stickers (* or ?) are "
                f"solved by {', '.join(takers) or 'no solver here'} (--solver)")

    def table_choice(self, registry=None):
        """The table set the solver reads (a description.TableSetChoice), for a solver with a
        choice of several; None for one without."""
        if registry is None:
            from cubelab.solvers import REGISTRY as registry
        description = registry.describe(self.solver)
        option = description.tables_option
        if option is None:
            return None
        return description.table_set(self.options.get("tables", option.default))

    def settings(self):
        """What each worker needs to make and run the solver (solvers.batch.BatchSettings)."""
        from cubelab.solvers.batch import BatchSettings
        return BatchSettings(self.solver, dict(self.options), puzzle=self.puzzle.name,
                             max_length=self.max_length, time_limit=self.time_limit)

    def make_solver(self):
        """The solver, made with the checked options (InputError for what its constructor
        refuses)."""
        try:
            return self.settings().make_solver()
        except KeyError as e:
            raise InputError(e.args[0]) from None
        except ValueError as e:
            raise InputError(f"solver {self.solver}: {e}") from None


def _check_file_flags(args) -> None:
    """InputError for options that only make sense with --file, or that exclude each other."""
    if not args.file:
        for flag, value in (("--jobs", args.jobs), ("--cluster", args.cluster),
                            ("--output", args.output), ("--resume", args.resume or None)):
            if value is not None:
                raise InputError(f"{flag} needs --file")
    if args.resume and not args.output:
        raise InputError("--resume needs --output PATH (the file to resume)")
    if args.cluster is not None and args.jobs is not None:
        raise InputError("give either --jobs or --cluster, not both")
    if args.jobs is not None and args.jobs < 1:
        raise InputError("--jobs must be at least 1")


def _solver_name(args, puzzle: str, registry) -> str:
    """The solver --solver names (its variant for --metric: korf -> korf-qtm), or the puzzle's
    default one (for --metric, the first in the default order that honours it); InputError for
    a solver that cannot honour --metric: it is refused, never ignored."""
    try:
        if args.solver is None:
            asked = options_given(args)
            if asked:       # options one solver alone takes name it
                taker = _taking(registry, puzzle, asked, args.metric)
                if taker is not None:
                    return taker
            return registry.default_solver(puzzle, args.metric)
        if args.metric is None:
            return args.solver      # checked with its options (an unknown name is refused)
        return registry.metric_variant(args.solver, args.metric, puzzle)
    except KeyError as e:
        raise InputError(e.args[0]) from None


def _taking(registry, puzzle: str, asked: dict, metric) -> str | None:
    """The solver the options given name when no --solver does: options that one solver alone
    declares (`cubelab solve --goal cross` is the goal solver's), made for `metric`; None when
    they are shared (--tables, --heuristic: the default solver then refuses them in one
    line)."""
    owners = {name for name in registry.solver_names(puzzle)
              if any(registry.describe(name).option(k) is not None for k in asked)}
    if len(owners) != 1:
        return None
    (name,) = owners
    if not all(registry.describe(name).option(k) is not None for k in asked):
        return None
    return name if metric is None else registry.metric_variant(name, metric, puzzle)


def _grey_solver(args, name: str, registry, puzzle: str) -> str:
    """The solver of facelets with grey stickers: one that declares it solves them (the goal
    solver when none is named); InputError for a solver of whole positions, or a --target."""
    takers = [d.name for d in registry.descriptions(puzzle) if d.grey_stickers]
    if args.target:
        raise InputError("--target takes a whole position: the start has grey stickers")
    try:
        if registry.describe(name).grey_stickers:
            return name
    except KeyError:
        pass
    if args.solver is None and takers:
        try:
            return takers[0] if args.metric is None else \
                registry.metric_variant(takers[0], args.metric, puzzle)
        except KeyError as e:
            raise InputError(e.args[0]) from None
    raise InputError(f"solver {name} solves whole positions: grey stickers (* or ?) are "
                     f"solved by {', '.join(takers) or 'no solver here'}")
