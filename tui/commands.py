"""The interpreter of the `:` command language: parses a command line and carries it out.

Letters are moves, so commands start with a colon; a unique prefix names a command (`:inv`).
Each command is a function of (session, words, rest of the line) returning an `Outcome`; it
changes the session through its methods, or asks the front end for work through the outcome's
request (solve, search, help, paint). A command is declared once, with its arguments and its
line of help beside its code: `COMMANDS` gathers them in order for completion and the help.
"""

from __future__ import annotations

from typing import Callable

from cubelab.cube.notation import format_moves, invert_moves

from cubelab.cube.puzzles import PUZZLES, puzzle_named
from . import (
    fmc_commands, gen_commands, goal_commands, insert_commands, look_commands, position_commands, recording,
    share, solve_commands, table_commands,
)
from .help_text import SEARCH_PREDICATES, help_text
from .keymap import GREY_WORDS
from .records import HelpRequest, Outcome, Painting, PaintRequest, SearchRequest
from .saves import SaveError, read_save, save_names, write_save

SEARCH_MAX_LENGTH = 20

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


_COMPLETERS: dict[str, Callable] = {}
"""Command name -> the words that may come next, from (session, the words typed before)
(declared by the feature modules)."""


def _take(table) -> None:
    """Take in the commands a feature module declares (a CommandTable), in its order."""
    COMMANDS.update(table.help)
    _HANDLERS.update(table.handlers)
    _COMPLETERS.update(table.completers)


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
    if name == "load":
        pool = save_names(session.saves_dir())
    elif name == "puzzle" and len(words) == 1:
        pool = list(PUZZLES)
    elif name in _COMPLETERS:
        pool = list(_COMPLETERS[name](session, words[:-1]))
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
        import secrets
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


@_command("facelets", "<54|24 chars>", "set the position from a facelet string (URFDLB "
                                        "order; * or ? for a grey sticker: a masked position)")
def _facelets(session, args, rest) -> Outcome:
    from cubelab.cube.masked_facelets import is_masked
    if is_masked(rest):
        # grey stickers, as `cubelab solve --facelets` reads them (and paint mode makes them)
        from .inputs import read_grey
        from cubelab.cube.positions import PositionError
        try:
            mask = read_grey(session.puzzle, rest).state
        except PositionError as e:
            return Outcome(str(e), error=True)
        return session.take_masked(mask, ":facelets")
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

_take(solve_commands.TABLE)      # :solve and :compare, in the help's order


def _pick(session, args, default_best: bool) -> tuple[int | None, Outcome | None]:
    """The row of the list on show that `:apply N` / `:play [N]` name (search results arrive
    shortest first; the shortest solution is picked among the rows that have one)."""
    search = session.listing == "search"
    listed = session.listing == "listed"
    if session.listing == "gen":
        rows = session.gen.rows if session.gen is not None else []
        if not rows:
            return None, Outcome("no gen rows yet (:gen SET lists a set's algs)", error=True)
        if not args and default_best:
            return 0, None
        if not args or not args[0].isdigit() or not 1 <= int(args[0]) <= len(rows):
            return None, Outcome(f"give a row number from 1 to {len(rows)}", error=True)
        return int(args[0]) - 1, None
    if session.listing == "fmc":
        items = session.fmc.candidates if session.fmc is not None else []
        if not items:
            return None, Outcome("no FMC candidates yet (:fmc eo lists them)", error=True)
        if not args and default_best:
            return 0, None
        if not args or not args[0].isdigit() or not 1 <= int(args[0]) <= len(items):
            return None, Outcome(f"give a candidate number from 1 to {len(items)}", error=True)
        return int(args[0]) - 1, None
    items = session.found if search else session.listed if listed else session.solutions
    what = "result" if search else "solution" if listed else "row"
    if not items:
        return None, Outcome("no search results yet" if search else
                             "no solutions yet (:solve or :compare first)", error=True)
    if not args and default_best:
        if search or listed:            # both come ranked, the best first
            return 0, None
        found = [i for i, r in enumerate(items) if r.moves is not None]
        if not found:
            return None, Outcome("no solver has found a solution yet", error=True)
        return min(found, key=lambda i: len(items[i].moves)), None
    if not args or not args[0].isdigit() or not 1 <= int(args[0]) <= len(items):
        return None, Outcome(f"give a {what} number from 1 to {len(items)}", error=True)
    index = int(args[0]) - 1
    if not (search or listed) and items[index].moves is None:
        return None, Outcome(f"row {index + 1} has no solution", error=True)
    return index, None


@_command("clear", "", "clear the solver rows of previous positions")
def _clear(session, args, rest) -> Outcome:
    return session.clear_old_rows()


@_command("apply", "N", "apply row N of the list on show (solver rows, a list solve's "
                        "solutions, or search results)")
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
    if not session.puzzle.alg_search:
        able = [p for p in PUZZLES.values() if p.alg_search]
        return Outcome("the algorithm search works on the "
                       + " and ".join(f"{p.title} (:puzzle {p.name})" for p in able), error=True)
    if not args or not args[0].isdigit():
        return Outcome(usage, error=True)
    max_length, words = int(args[0]), args[1:]
    metrics = [m.value for m in session.puzzle.alg_search]
    metric = session.default_metric if session.default_metric in metrics else metrics[0]
    auf = False
    while words and words[0].lower() in (*metrics, "auf"):
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
        others = [p for p in PUZZLES.values() if p is not session.puzzle]
        name = others[0].name   # the other cube (:puzzle alone switches)
    else:
        try:
            name = puzzle_named(args[0]).name
        except KeyError:
            return Outcome(f"no puzzle named {args[0]!r} (2x2 or 3x3)", error=True)
    return session.switch_puzzle(name)


@_command("paint", "", "paint stickers to enter a real cube's position")
def _paint(session, args, rest) -> Outcome:
    session.painting = Painting(session.shown_colours(), puzzle=session.puzzle.name)
    keys = " ".join(k.upper() or "-" for k in session.scheme.keys())
    return Outcome(f"paint in facelet order U1..U9 R F D L B (centres stay): {keys} (or "
                   f"U R F D L B, 1-6) paint and step on, {GREY_WORDS} grey (unknown), "
                   "arrows/Home/End move, Backspace and Delete grey too, Ctrl+U greys all, "
                   "Enter uses it, Esc leaves", request=PaintRequest())


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

def _gather(*tables) -> None:
    """Take in the commands the feature modules declare, keeping :help last."""
    help_entry = COMMANDS.pop("help")
    for table in tables:
        _take(table)
    COMMANDS["help"] = help_entry


_gather(position_commands.TABLE, look_commands.TABLE, share.TABLE, recording.TABLE,
        table_commands.TABLE, goal_commands.TABLE, insert_commands.TABLE,
        fmc_commands.TABLE, gen_commands.TABLE)
