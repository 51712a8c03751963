"""The interpreter of the `:` command language: parses a command line and carries it out.

Letters are moves, so commands start with a colon; a unique prefix names a command (`:inv`).
Each command is a function of (session, words, rest of the line) returning an `Outcome`; it
changes the session through its methods, or asks the front end for work through the outcome's
request (solve, search, help, paint). A command is declared once, with its arguments and its
line of help beside its code: `COMMANDS` gathers them in order for completion and the help.
"""

from __future__ import annotations

import secrets
from typing import Callable

from cubelab.cube.notation import format_moves, invert_moves

from cubelab.cube.puzzles import PUZZLES, puzzle_named
from . import look_commands, position_commands, recording, share, table_commands
from .help_text import SEARCH_PREDICATES, help_text
from .records import HelpRequest, Outcome, Painting, PaintRequest, SearchRequest, SolveRequest
from .errors import InputError
from .saves import SaveError, read_save, save_names, write_save
from .targets import read_target

SOLVER_PREFERENCE = ("kociemba", "thistlethwaite", "korf", "threecycle", "astar", "bfs",
                     "pocket-htm")
"""Which solver `:solve` picks when none is named: the first one installed, fast ones first."""
SEARCH_MAX_LENGTH = 20
BASELINE_REACH = {"bfs": 5, "astar": 9}
"""The baselines :compare runs only when asked or when the position is known to be within this
many moves of solved (they give up on anything deeper)."""

COMMANDS: dict[str, tuple[str, str]] = {}
"""Command name -> (arguments, what it does), in the order of the help; completion reads it."""
_HANDLERS: dict[str, Callable[..., Outcome]] = {}


def _command(name: str, args: str, what: str):
    """Declare the function below as command `name`, taking `args`, doing `what`."""
    def declare(handler):
        COMMANDS[name] = (args, what)
        _HANDLERS[name] = handler
        return handler
    return declare


def run_command(session, text: str) -> Outcome:
    """Carry out one `:` line (`text` stripped, colon included) on `session` (a Session)."""
    name, _, rest = text[1:].partition(" ")
    matches = [c for c in COMMANDS if c.startswith(name.lower())] if name else []
    if name.lower() in COMMANDS:
        matches = [name.lower()]
    if len(matches) != 1:
        hint = f" (did you mean {', '.join(':' + m for m in matches)}?)" if matches else \
            " (:help lists them)"
        return Outcome(f"unknown command :{name}{hint}", error=True)
    return _HANDLERS[matches[0]](session, rest.split(), rest.strip())


def completions(session, line: str) -> list[str]:
    """Whole-line completions of a `:` command line: command names, then solver or save names."""
    if not line.startswith(":"):
        return []
    name, space, rest = line[1:].partition(" ")
    if not space:
        return [f":{c}" for c in COMMANDS if c.startswith(name.lower())]
    words = rest.split(" ")
    head = " ".join(words[:-1])
    prefix = f":{name} " + (head + " " if head else "")
    if name in ("solve", "compare"):
        pool = [n for n in session.solver_names() if n not in words[:-1]]
        pool += [] if set(METRICS) & set(words[:-1]) else list(METRICS)
    elif name == "load":
        pool = save_names(session.saves_dir())
    elif name == "puzzle" and len(words) == 1:
        pool = list(PUZZLES)
    elif name in _COMPLETERS:
        pool = list(_COMPLETERS[name](session))
    else:
        return []
    return [prefix + n for n in pool if n.startswith(words[-1])]


# ---------------------------------------------------------------- positions

@_command("reset", "", "back to the solved cube")
def _reset(session, args, rest) -> Outcome:
    session.set_position(session.puzzle.identity(), ":reset")
    return Outcome(f"solved {session.puzzle.title}", changed=True)


def _seed(args) -> tuple[int | None, Outcome | None]:
    if not args:
        return secrets.randbelow(10**6), None
    try:
        return int(args[0]), None
    except ValueError:
        return None, Outcome(f"the seed must be a whole number, not {args[0]!r}", error=True)


@_command("scramble", "[seed]",
          "a random scramble from solved: 20 moves, 11 on the 2x2x2 (same seed, same scramble)")
def _scramble(session, args, rest) -> Outcome:
    seed, bad = _seed(args)
    if bad:
        return bad
    puzzle = session.puzzle
    moves = puzzle.scramble(seed)
    session.set_position(puzzle.apply(puzzle.identity(), moves), f":scramble {seed}", moves)
    return Outcome(f"scramble (seed {seed}): {format_moves(moves)}", changed=True)


@_command("random", "[seed]", "a uniformly random reachable position")
def _random(session, args, rest) -> Outcome:
    seed, bad = _seed(args)
    if bad:
        return bad
    session.set_position(session.puzzle.random(seed), f":random {seed}")
    return Outcome(f"random position (seed {seed})", changed=True)


@_command("facelets", "<54|24 chars>", "set the position from a facelet string (URFDLB order)")
def _facelets(session, args, rest) -> Outcome:
    try:
        state = session.puzzle.parse_facelets(rest)
    except ValueError as e:
        return Outcome(str(e), error=True)
    session.set_position(state, ":facelets")
    reason = session.puzzle.unreachable(state)
    return Outcome("position set" + (f" ({reason})" if reason else ""), changed=True)


def _walked(entry, done: str, nothing: str) -> Outcome:
    """What an undo or redo did: the entry it walked over, or that there was none."""
    if entry is None:
        return Outcome(nothing, error=True)
    return Outcome(f"{done} {entry.label}", changed=True)


@_command("undo", "", "undo the last change")
def _undo(session, args, rest) -> Outcome:
    return _walked(session.undo(), "undid", "nothing to undo")


@_command("redo", "", "redo what was undone")
def _redo(session, args, rest) -> Outcome:
    return _walked(session.redo(), "redid", "nothing to redo")


@_command("invert", "", "replace the position (and its sequence) by its inverse")
def _invert(session, args, rest) -> Outcome:
    session.set_position(session.state.inverse(), ":invert", invert_moves(session.moves))
    return Outcome("inverted", changed=True)


# ---------------------------------------------------------------- solvers and the search

METRICS = ("htm", "qtm")
"""Words of `:solve` and `:compare` that name the metric the solvers must honour."""


def _in_metric(session, names, metric: str | None, strict: bool) -> tuple[list[str], str]:
    """The solvers among `names` made for `metric` (korf -> korf-qtm), and why one could not
    be (strict: the first refusal is the answer; else solvers that cannot are left out)."""
    if metric is None:
        return list(names), ""
    from cubelab.solvers import metric_variant
    out = []
    for name in names:
        try:
            variant = metric_variant(name, metric, session.puzzle.name)
        except KeyError as e:
            if strict:
                return [], e.args[0]
            continue
        if variant in session.solver_names():
            out.append(variant)
    return list(dict.fromkeys(out)), ""


def _solve_request(session, args, compare: bool) -> Outcome:
    """Ask for a solve by the named solvers (by default the preferred one, or all to compare),
    made for the metric named among them (`:solve korf qtm`; a solver that cannot honour it is
    refused); `--to TARGET` at the end asks for the moves to TARGET instead of to solved."""
    names = session.solver_names()
    if not names:
        return Outcome("no solver is installed yet", error=True)
    args, target, to_text = _target_words(session, args)
    if isinstance(target, Outcome):
        return target
    metrics = [a.lower() for a in args if a.lower() in METRICS]
    args = [a for a in args if a.lower() not in METRICS]
    if len(set(metrics)) > 1:
        return Outcome("name one metric: htm or qtm", error=True)
    metric = metrics[0] if metrics else None
    unknown = [a for a in args if a not in names]
    if unknown:
        return Outcome(f"unknown solver {unknown[0]!r} (choose from {', '.join(names)})",
                       error=True)
    if args:
        chosen, refused = _in_metric(session, dict.fromkeys(args), metric, strict=True)
    else:
        preferred = [n for n in SOLVER_PREFERENCE if n in names]
        if compare:
            depth = _known_depth(session)
            pool = [n for n in names
                    if n not in BASELINE_REACH or (depth is not None
                                                   and depth <= BASELINE_REACH[n])]
            pool = pool if metric else _once_each(session, pool)
        else:
            pool = preferred + [n for n in names if n not in preferred]
        chosen, refused = _in_metric(session, pool, metric, strict=False)
        chosen = chosen if compare else chosen[:1]
    if refused or not chosen:
        return Outcome(refused or f"no solver of the {session.puzzle.name} counts in "
                       f"{metric.upper()}", error=True)
    doing = "comparing" if compare else "solving with"
    to = f" to {to_text}" if to_text else ""
    return Outcome(f"{doing} {', '.join(chosen)}{to}",
                   request=SolveRequest(tuple(chosen), compare, target))


def _once_each(session, names) -> list[str]:
    """Each solver once, in its own metric: a variant made for another metric (korf-qtm beside
    korf) runs only when that metric is named, so a plain :compare loads no second table set."""
    from cubelab.solvers import metric_variant
    out = []
    for name in names:
        try:
            base = metric_variant(name, "htm", session.puzzle.name)
        except KeyError:
            base = name
        if base == name or base not in names:
            out.append(name)
    return out


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


@_command("solve", "[solver...] [htm|qtm] [--to B]",
          "solve the position (default: the first solver available; qtm: optimal in quarter "
          "turns); --to B: the moves to position B (an alg, facelets:, cycles:, a save or a "
          "pattern)")
def _solve(session, args, rest) -> Outcome:
    return _solve_request(session, args, compare=False)


@_command("compare", "[solver...] [htm|qtm] [--to B]",
          "run solvers side by side (default: the method solvers, bfs and astar too on a "
          "shallow position; with a metric, those honouring it)")
def _compare(session, args, rest) -> Outcome:
    return _solve_request(session, args, compare=True)


def _pick(session, args, default_best: bool) -> tuple[int | None, Outcome | None]:
    """The row of the list on show that `:apply N` / `:play [N]` name (search results arrive
    shortest first; the shortest solution is picked among the rows that have one)."""
    search = session.listing == "search"
    items = session.found if search else session.solutions
    what = "result" if search else "row"
    if not items:
        return None, Outcome("no search results yet" if search else
                             "no solutions yet (:solve or :compare first)", error=True)
    if not args and default_best:
        if search:
            return 0, None
        found = [i for i, r in enumerate(items) if r.moves is not None]
        if not found:
            return None, Outcome("no solver has found a solution yet", error=True)
        return min(found, key=lambda i: len(items[i].moves)), None
    if not args or not args[0].isdigit() or not 1 <= int(args[0]) <= len(items):
        return None, Outcome(f"give a {what} number from 1 to {len(items)}", error=True)
    index = int(args[0]) - 1
    if not search and items[index].moves is None:
        return None, Outcome(f"row {index + 1} has no solution", error=True)
    return index, None


@_command("apply", "N", "apply row N of the list on show (solutions, or search results)")
def _apply(session, args, rest) -> Outcome:
    index, bad = _pick(session, args, default_best=False)
    return bad or session.apply_row(index)


@_command("play", "[N]", "step through row N move by move (default: the shortest)")
def _play(session, args, rest) -> Outcome:
    index, bad = _pick(session, args, default_best=True)
    return bad or session.play_row(index)


def _search_fits(metric: str, max_length: int) -> bool:
    from cubelab.solvers.algsearch import SearchTooBig, check_size
    try:
        check_size(metric, max_length)
    except SearchTooBig:
        return False
    return True


@_command("search", "N [qtm] [auf] PRED",
          "sequences of up to N moves meeting PRED, one per class (3x3x3)")
def _search(session, args, rest) -> Outcome:
    usage = f"usage: :search N [htm|qtm] [auf] PREDICATE ({SEARCH_PREDICATES})"
    if session.puzzle.name != "3x3":
        return Outcome("the algorithm search works on the 3x3x3 (:puzzle 3x3)", error=True)
    if not args or not args[0].isdigit():
        return Outcome(usage, error=True)
    max_length, words = int(args[0]), args[1:]
    metric, auf = "htm", False
    while words and words[0].lower() in ("htm", "qtm", "auf"):
        if words[0].lower() == "auf":
            auf = True
        else:
            metric = words[0].lower()
        words = words[1:]
    if not 1 <= max_length <= SEARCH_MAX_LENGTH:
        return Outcome(f"N must lie between 1 and {SEARCH_MAX_LENGTH}", error=True)
    if not words:
        return Outcome(usage, error=True)
    lowered = [w.lower() for w in words]
    ignore: list[str] = []
    if "ignore" in lowered:
        at = lowered.index("ignore")
        words, ignore = words[:at], words[at + 1:]
        if not words or words[0].lower() != "equals" or not ignore:
            return Outcome("ignore PIECES goes after equals ALG", error=True)
    if not _search_fits(metric, max_length):
        longest = max(n for n in range(1, max_length) if _search_fits(metric, n))
        return Outcome(f"{max_length} {metric.upper()} needs too much memory for the search; "
                       f"up to {longest} {metric.upper()} fits", error=True)
    # the search engine imports numba: only now, when a search is asked for
    from cubelab.solvers.algsearch import equals, parse_predicate
    try:
        if [w.lower() for w in words] == ["equals"]:
            reason = session.puzzle.unreachable(session.state)
            if reason:
                return Outcome(f"no sequence reaches this position ({reason})", error=True)
            predicate = equals(session.state, ignore)
        else:
            predicate = parse_predicate(words, ignore)
    except ValueError as e:
        return Outcome(str(e), error=True)
    request = SearchRequest(predicate, max_length, metric, auf)
    return Outcome(f"searching: {request.describe()}", request=request)


# ---------------------------------------------------------------- the cube in hand

@_command("puzzle", "[2x2|3x3]",
          "switch cubes (one undo step); the position's corners carry over")
def _puzzle(session, args, rest) -> Outcome:
    if not args:
        name = "2x2" if session.puzzle.name == "3x3" else "3x3"
    else:
        try:
            name = puzzle_named(args[0]).name
        except KeyError:
            return Outcome(f"no puzzle named {args[0]!r} (2x2 or 3x3)", error=True)
    return session.switch_puzzle(name)


@_command("paint", "", "paint stickers to enter a real cube's position")
def _paint(session, args, rest) -> Outcome:
    session.painting = Painting.of(session.state)
    keys = " ".join(k.upper() or "-" for k in session.scheme.keys())
    return Outcome(f"paint in facelet order U1..U9 R F D L B (centres stay): {keys} (or "
                   "U R F D L B, 1-6) paint and step on, arrows/Home/End move, Backspace and "
                   "Delete blank, Ctrl+U blanks all, Enter uses it, Esc leaves",
                   request=PaintRequest())


# ---------------------------------------------------------------- saves and help

def _save_name(args) -> str:
    if len(args) != 1:
        raise SaveError("give one name: letters, digits, '.', '_' or '-'")
    return args[0]


@_command("save", "NAME", "save the position and its sequence in the state directory")
def _save(session, args, rest) -> Outcome:
    try:
        name = _save_name(args)
        path = write_save(session.saves_dir(), name, session.puzzle, session.state,
                          session.moves, session.entry.label)
    except SaveError as e:
        return Outcome(str(e), error=True)
    return Outcome(f"saved {name} ({path})")


@_command("load", "NAME", "load a saved position")
def _load(session, args, rest) -> Outcome:
    try:
        name = _save_name(args)
        puzzle, state, moves = read_save(session.saves_dir(), name)
    except SaveError as e:
        return Outcome(str(e), error=True)
    switched = puzzle is not session.puzzle
    session.set_position(state, f":load {name}", moves, puzzle=puzzle.name)
    return Outcome(f"loaded {name}" + (f" (a {puzzle.title})" if switched else ""), changed=True)


@_command("saves", "", "list the saved positions")
def _saves(session, args, rest) -> Outcome:
    names = save_names(session.saves_dir())
    return Outcome("saved: " + ", ".join(names) if names else "no saved positions")


@_command("help", "", "list commands and keys")
def _help(session, args, rest) -> Outcome:
    return Outcome(help_text(COMMANDS), request=HelpRequest())


# ---------------------------------------------------------------- commands of feature modules

_COMPLETERS: dict[str, Callable] = {}
"""Command name -> the words its argument may be (declared by the feature modules)."""


def _gather(*tables) -> None:
    """Take in the commands the feature modules declare, keeping :help last."""
    help_entry = COMMANDS.pop("help")
    for table in tables:
        COMMANDS.update(table.help)
        _HANDLERS.update(table.handlers)
        _COMPLETERS.update(table.completers)
    COMMANDS["help"] = help_entry


_gather(position_commands.TABLE, look_commands.TABLE, share.TABLE, recording.TABLE,
        table_commands.TABLE)
