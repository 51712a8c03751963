"""What the goal solver is, for the registry and the front ends (light: nothing loads).

One registry entry, "goal": a goal (a named one such as `cross:any`, a piece list, or what
masked facelets show), a move set, a metric and per-move weights, AUF, and how many solutions
(the first optimal, `--all` optimal, the `-n` best, every one `--within` K of the optimum).
Each option's reader checks what a user typed before any solver is made, so a bad goal, move
set or weight is refused in one line naming its column (the catalog and the parsers are plain
Python in cube/; they are imported only when a value is read).

Its metric is the command's own `--metric` (and `:solve goal qtm`): the entry counts in all
four, made with `metric=` for the one asked (see `METRIC_OPTION`). Its length cap is the
command's `--max-length`, which reaches every solver through the protocol (a cost in the
metric asked, weights included).
"""

from cubelab.cube.metrics import Metric
from cubelab.solvers.description import Option, OptionError, SolverDescription

AUF_MODES = ("none", "pre", "post", "both")


def read_goal(text: str) -> str:
    """A goal as typed, checked against the catalog and the piece-list syntax (the faces it
    names are read against the position at the solve)."""
    from cubelab.cube.goal_catalog import resolve_goal
    text = text.strip()
    if not text:
        raise ValueError("give a goal: a name (cross, cross:U, oll...) or a piece list")
    resolve_goal(text)
    return text


def read_moves(text: str) -> str:
    from cubelab.cube.goal_catalog import resolve_moveset
    resolve_moveset(text)
    return text.strip()


def read_weights(text: str) -> str:
    from cubelab.cube.costs import parse_weights
    parse_weights(text)
    return text.strip()


def read_count(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a whole number") from None
    if not 1 <= n <= 10_000:
        raise ValueError(f"{n} is out of range (1 to 10000)")
    return n


def read_within(text: str) -> float:
    try:
        k = float(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number") from None
    if not 0 <= k <= 20:        # nan fails both comparisons
        raise ValueError(f"{text} is out of range (0 to 20 beyond the optimum)")
    return k


METRIC_OPTION = Option(
    "metric", "the metric the goal's solutions are counted and proven optimal in (the "
              "command's --metric)", choices=tuple(m.value for m in Metric), default="htm")
"""Declared so the REPL's `--metric` and the registry's checks know it; the command line gives
it through its own --metric flag (tui/solver_flags.py: COMMAND_FLAGS)."""

GOAL = SolverDescription(
    name="goal",
    summary="Solves a goal (cross, F2L pair, OLL, EO, DR... or grey stickers) in a move set "
            "and metric: the optimal solution, every optimal one or the N best, ranked by "
            "finger-trick cost.",
    metrics=(Metric.HTM, Metric.QTM, Metric.STM, Metric.ETM),
    options=(
        Option("goal", "what to solve: a named goal (cross, cross:U, cross:any, xcross, "
                       "f2l-pair:FR, eo:fb, dr:ud, oll, pll, ...; `cubelab goals` lists them) "
                       "or a piece list (\"UF UR UFR:o DF:p\"); default solved, or what "
                       "--facelets with grey stickers shows", type=read_goal, metavar="GOAL"),
        Option("moves", "the move set: RUF, \"<R,U>\", \"R2,U\" (R half turns only), r, M, "
                        "Rw, E, S, x; or a named set (2gen, eo-fb, dr-ud, htr, roux...)",
               type=read_moves, default="all", metavar="SET"),
        METRIC_OPTION,
        Option("weights", "per-move weights for ergonomics, \"R=1,U=1,F=1.5,D=2\" (a power "
                          "such as R2=1.25 wins over its face); the optimum is then the "
                          "least total weight", type=read_weights, metavar="W"),
        Option("auf", "up to a U-layer turn: pre (before), post (after) or both; the output "
                      "says which it uses", choices=AUF_MODES, default="none"),
        Option("all", "every optimal solution", type=bool, default=False),
        Option("n", "the N best solutions (whole lengths searched, then ranked)",
               type=read_count, metavar="N", aliases=("-n",)),
        Option("within", "every solution up to K beyond the optimum", type=read_within,
               metavar="K"),
        Option("fold", "fold mirrors and inverses of a listed solution into one class",
               type=bool, default=False, aliases=("--mirror",)),
        Option("max_solutions", "stop listing after this many solutions", type=read_count,
               default=10_000, metavar="N"),
    ),
    compare=False,
    grey_stickers=True,
)
"""A goal search solves a whole cube only with the goal `solved`: a plain :compare leaves it
out, and it is never the default solver (no `order`)."""

LIST_OPTIONS = ("all", "n", "within")
"""The options that ask for a list of solutions (the JSON then carries them all)."""


def check_combination(options: dict) -> None:
    """OptionError for options that exclude each other (--all ends at the optimum, --within
    goes past it; -n with either keeps the N best of those)."""
    if options.get("all") and options.get("within") is not None:
        raise OptionError("solver goal: give --all or --within, not both (--all is every "
                          "optimal solution, --within K every one up to K beyond)")
