"""`:solve` and `:compare`: which solvers, in which metric, with which options, to which target.

Everything about the solvers comes from the session's registry (their declarations): the
default order and the first to solve when none is named, the reach that keeps a bounded search
out of a plain :compare, the family that finds a solver made for the metric named, and the
options each takes (`:solve idastar --heuristic manhattan`, as `cubelab solve` takes them),
checked before anything starts. Completion offers the same words.
"""

from __future__ import annotations

from cubelab.cube.metrics import Metric

from .command_table import CommandTable
from .errors import InputError
from .records import Outcome, SolveRequest
from .targets import read_target

TABLE = CommandTable()


def _metrics(session) -> list[str]:
    """The metric words of `:solve` and `:compare`: those the puzzle's solvers honour."""
    return [m.value for m in dict.fromkeys(
        m for d in session.registry.descriptions(session.puzzle.name) for m in d.metrics)]


def _declared(session) -> dict:
    """Option name -> its declaration (the first solver's) for the puzzle's solvers."""
    out = {}
    for d in session.registry.descriptions(session.puzzle.name):
        for option in d.user_options:
            out.setdefault(option.name, option)
    return out


def completions(session, words: list[str]) -> list[str]:
    """What may come next after the words of :solve/:compare: a flag's choices right after
    it, else the solvers not named yet, a metric if none is named, and the options."""
    declared = _declared(session)
    last = words[-1] if words else ""
    if last.startswith("-"):
        option = next((o for o in declared.values() if last in o.flags), None) \
            or declared.get(last[2:].replace("-", "_"))
        if option is not None and not option.switch:
            return list(option.choices)
    lowered = [w.lower() for w in words]
    pool = [n for n in session.solver_names() if n not in words]
    metrics = _metrics(session)
    pool += [] if set(metrics) & set(lowered) else metrics
    pool += [o.flag for o in declared.values() if o.flag not in lowered]
    return pool


def _option_words(session, words: list[str]) -> tuple[list[str], dict, str]:
    """(the other words, the options asked as name -> word (True for a switch), why the
    options cannot be read or "")."""
    declared = _declared(session)
    by_flag = {f: o for o in declared.values() for f in o.flags}
    rest, asked = [], {}
    i = 0
    while i < len(words):
        word = words[i]
        if not word.startswith("--") and word not in by_flag:
            rest.append(word)
            i += 1
            continue
        option = by_flag.get(word) or declared.get(word[2:].replace("-", "_").lower())
        if option is None:
            flags = ", ".join(o.flag for o in declared.values())
            return rest, asked, (f"no solver of the {session.puzzle.name} takes {word}"
                                 + (f" (they take {flags})" if flags else ""))
        if option.switch:
            asked[option.name] = True
            i += 1
            continue
        if i + 1 >= len(words):
            return rest, asked, f"{option.flag} takes a value"
        asked[option.name] = words[i + 1]
        i += 2
    return rest, asked, ""


def _in_metric(session, names, metric: str | None, strict: bool) -> tuple[list[str], str]:
    """The solvers among `names` made for `metric` (korf -> korf-qtm), and why one could not
    be (strict: the first refusal is the answer; else solvers that cannot are left out)."""
    if metric is None:
        return list(names), ""
    out = []
    for name in names:
        try:
            variant = session.registry.metric_variant(name, metric, session.puzzle.name)
        except KeyError as e:
            if strict:
                return [], e.args[0]
            continue
        if variant in session.solver_names():
            out.append(variant)
    return list(dict.fromkeys(out)), ""


def _solve_request(session, args, compare: bool) -> Outcome:
    """Ask for a solve by the named solvers (by default the first in the default order, or
    all to compare), made for the metric named among them (`:solve korf qtm`; a solver that
    cannot honour it is refused) and with the options given (`:solve idastar --heuristic
    manhattan`: a solver that does not take one is refused); `--to TARGET` at the end asks
    for the moves to TARGET instead of to solved."""
    names = session.solver_names()
    if not names:
        return Outcome("no solver is installed yet", error=True)
    args, target, to_text = _target_words(session, args)
    if isinstance(target, Outcome):
        return target
    args, asked, bad = _option_words(session, args)
    if bad:
        return Outcome(bad, error=True)
    known = set(_metrics(session)) | {m.value for m in Metric}
    metrics = [a.lower() for a in args if a.lower() in known]
    args = [a for a in args if a.lower() not in known]
    if len(set(metrics)) > 1:
        return Outcome("name one metric: " + " or ".join(_metrics(session)), error=True)
    metric = metrics[0] if metrics else session.default_metric
    unknown = [a for a in args if a not in names]
    if unknown:
        return Outcome(f"unknown solver {unknown[0]!r} (choose from {', '.join(names)})",
                       error=True)
    registry = session.registry
    masked = getattr(session, "mask", None) is not None
    if masked and target is not None:
        return Outcome("--to takes a whole position: this one has grey stickers", error=True)
    if masked and args:
        whole = [a for a in args if not registry.describe(a).grey_stickers]
        if whole:
            return Outcome(_whole_only(session, whole[0]), error=True)
    if args:
        chosen, refused = _in_metric(session, dict.fromkeys(args), metric, strict=True)
    else:
        # no solver named: those that take every option asked (to solve: the first in the
        # default order; to compare: all, as listed)
        # (the settings' solver first, then the solvers' declared order)
        order = [*([session.default_solver] if session.default_solver else []),
                 *registry.preferred(session.puzzle.name)]
        pool = names if compare else \
            [n for n in order if n in names] + [n for n in names if n not in order]
        pool = [n for n in pool if all(registry.describe(n).option(k) for k in asked)]
        if masked:      # grey stickers: only a solver that solves what they show
            pool = [n for n in pool if registry.describe(n).grey_stickers]
        if compare:
            # a plain :compare runs the solvers declared for it (not the goal solver)
            pool = [n for n in pool if registry.describe(n).compare]
            depth = _known_depth(session)
            pool = [n for n in pool if registry.describe(n).reach is None
                    or (depth is not None and depth <= registry.describe(n).reach)]
            pool = pool if metric else _once_each(session, pool)
        chosen, refused = _in_metric(session, pool, metric, strict=False)
        chosen = chosen if compare else chosen[:1]
    if masked and not chosen and not refused:
        return Outcome(_whole_only(session, None), error=True)
    if refused or not chosen:
        return Outcome(refused or f"no solver of the {session.puzzle.name} counts in "
                       f"{metric.upper()}" + (" with those options" if asked else ""),
                       error=True)
    if getattr(session, "goal", None) and "goal" not in asked and not masked and \
            all(registry.describe(n).option("goal") for n in chosen):
        asked["goal"] = session.goal    # :solve goal solves towards the session's goal (:goal)
    if metric is not None and any(registry.describe(n).option("metric") for n in chosen):
        asked["metric"] = metric        # the goal solver is made in the metric named
    from cubelab.solvers.description import OptionError
    for name in chosen:
        try:
            registry.check_options(name, session.puzzle.name,
                                   own_options(registry.describe(name), asked))
        except (OptionError, KeyError) as e:
            return Outcome(str(e.args[0]) if isinstance(e, KeyError) else str(e), error=True)
    doing = "comparing" if compare else "solving with"
    to = f" to {to_text}" if to_text else ""
    return Outcome(f"{doing} {', '.join(chosen)}{to}",
                   request=SolveRequest(tuple(chosen), compare, target, dict(asked)))


def _whole_only(session, name: str | None) -> str:
    """Why solver `name` (None: any solver asked for) cannot take a position painted with
    grey stickers, and which solvers can (the command line's words)."""
    takers = [d.name for d in session.registry.descriptions(session.puzzle.name)
              if d.grey_stickers]
    who = f"solver {name} solves" if name else "the solvers asked for solve"
    return (f"{who} whole positions: grey stickers (* or ?) are solved by "
            f"{', '.join(takers) or 'no solver here'}")


def own_options(description, asked: dict) -> dict:
    """The options asked that solver takes: a metric named is an option only of a solver made
    in any metric (the goal solver); the others were chosen for it (korf -> korf-qtm)."""
    if "metric" in asked and description.option("metric") is None:
        return {k: v for k, v in asked.items() if k != "metric"}
    return asked


def _once_each(session, names) -> list[str]:
    """Each solver once, in its own metric: of a family made for several metrics (korf and
    korf-qtm), the first registered runs, the others only when their metric is named, so a
    plain :compare loads no second table set."""
    registry = session.registry
    order = [d.name for d in registry.descriptions(session.puzzle.name)]
    first: dict[str, str] = {}
    for name in sorted(names, key=lambda n: order.index(n) if n in order else len(order)):
        first.setdefault(registry.describe(name).kin, name)
    return [n for n in names if first[registry.describe(n).kin] == n]


def _known_depth(session) -> int | None:
    """At most how many face turns the position is from solved, when the moves that made it
    (from the solved cube) are known; else None."""
    from cubelab.cube.notation import metric_lengths
    puzzle = session.puzzle
    try:
        if puzzle.apply(puzzle.identity(), session.moves) != session.state:
            return None
    except ValueError:
        return None
    return metric_lengths(session.moves)["htm"]


def _target_words(session, args):
    """(solver words, target state or an Outcome saying why there is none, target as typed)
    from the words of :solve/:compare; the target is everything after --to."""
    if "--to" not in args:
        return args, None, ""
    at = args.index("--to")
    text = " ".join(args[at + 1:])
    from cubelab.solvers.target import relative_state
    try:
        target = read_target(text, session.puzzle, session.saves_dir())
    except InputError as e:
        return args[:at], Outcome(str(e), error=True), text
    reason = session.puzzle.unreachable(relative_state(session.state, target))
    if reason:
        return args[:at], Outcome("no sequence takes the position to " + text + ": "
                                  + reason.removeprefix("unreachable: ") + " between them",
                                  error=True), text
    return args[:at], target, text


@TABLE.command("solve", "[solver...] [htm|qtm] [--OPTION VALUE...] [--to B]",
               "solve the position (default: the first solver available; qtm: optimal in "
               "quarter turns; options as `cubelab solve` takes them, e.g. --heuristic "
               "manhattan); --to B: the moves to position B (an alg, facelets:, cycles:, a "
               "save or a pattern)", complete=completions)
def _solve(session, args, rest) -> Outcome:
    return _solve_request(session, args, compare=False)


@TABLE.command("compare", "[solver...] [htm|qtm] [--OPTION VALUE...] [--to B]",
               "run solvers side by side (default: all but the bounded searches, which run "
               "too on a position within their reach; with a metric, those honouring it)",
               complete=completions)
def _compare(session, args, rest) -> Outcome:
    return _solve_request(session, args, compare=True)
