"""`:gen SET [options]`: alg generation over a case set, in the workbench and the REPL.

The options are `cubelab gen`'s (gen_cmd.py declares them; the same parser reads them here, so
a flag means the same in both places and a bad one gets the same words): `--moves`,
`--metric`, `--weights`, `-n`, `--all`, `--within`, `--max-length`, `--time-limit`, `--fold`,
`--cases "T,Ua"` (quotes keep a name with a space: `--cases "OLL 21,OLL 45"`), `--list`, and
`--start GOAL --goal GOAL [--auf ...]` for a set of one's own. The file options (`--output`,
`--resume`, `--json`, `--cluster`) are the command line's. The run itself is a
gen_session.GenRun the front end starts from the request; its rows (one per alg) become the
list `:apply N` (sets the case up) and `:play N` (plays the alg from the case) pick from.
"""

from __future__ import annotations

import argparse
import shlex

from .command_table import CommandTable
from .records import Outcome

TABLE = CommandTable()

FLAGS = ("--moves", "--metric", "--weights", "-n", "--all", "--within", "--max-length",
         "--time-limit", "--fold", "--cases", "--list", "--start", "--goal", "--auf")
CLI_ONLY = ("output", "resume", "json", "cluster")


class _Refused(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """gen_cmd's parser that raises instead of printing usage and exiting."""

    def error(self, message):
        raise _Refused(message)

    def exit(self, status=0, message=None):
        raise _Refused(message or "")


class _Sub:
    """Stands for argparse's subparsers action: gen_cmd.register adds its parser to it."""

    parser: _Parser | None = None

    def add_parser(self, name, **kwargs):
        self.parser = _Parser(prog=f":{name}", add_help=False)
        return self.parser


def _parser() -> _Parser:
    from .gen_cmd import register
    sub = _Sub()
    register(sub)
    return sub.parser


def _complete(session, words) -> list[str]:
    from cubelab.cube.case_sets import set_names
    if not words:
        return list(set_names()) + ["--start"]
    last = words[-1]
    if last == "--metric":
        return ["htm", "qtm", "stm", "etm"]
    if last == "--auf":
        return ["none", "pre", "post", "both"]
    if last == "--moves":
        return ["RU", "RUF", "RUD", "RUL", "RUFD", "all"]
    return [f for f in FLAGS if f not in words]


@TABLE.command("gen", "SET [options]",
               "the best algs of every case of a set (oll, pll, coll, zbll, ocll), as cubelab "
               "gen finds them: --moves RUF --metric htm|qtm|stm|etm --weights W -n N --all "
               "--within K --max-length L --time-limit S --fold --cases \"T,Ua\" --list (or "
               "--start GOAL --goal GOAL --auf ...); rows fill as cases end; Enter (:apply N) "
               "sets a case up, P (:play N) plays its alg", complete=_complete)
def _gen(session, args, rest) -> Outcome:
    from cubelab.cube.case_sets import cases as set_cases
    from cubelab.cube.goals import GoalError
    from cubelab.solvers.goals.generate import SearchOptions
    from .errors import InputError
    from .gen_cmd import _case_set, _check_search, _chosen
    from .gen_session import GenRequest
    try:
        words = shlex.split(rest)
    except ValueError as e:
        return Outcome(f":gen: {e}", error=True)
    if not words:
        from cubelab.cube.case_sets import set_names
        return Outcome(f"give a case set: :gen {'|'.join(set_names())} [--moves RUF ...], "
                       "or :gen --start GOAL --goal GOAL", error=True)
    try:
        parsed = _parser().parse_args(words)
    except _Refused as e:
        return Outcome(f":gen: {e}".rstrip(), error=True)
    for name in CLI_ONLY:
        if getattr(parsed, name):
            flag = "--" + name
            return Outcome(f":gen: {flag} is for the command line (cubelab gen ... {flag}); "
                           "here the rows fill the gen list", error=True)
    try:
        cs = _case_set(parsed)
        _check_search(parsed)
        cases = set_cases(cs)
        if parsed.cases:
            cases = _chosen(cases, parsed.cases)
    except InputError as e:
        return Outcome(f":gen: {e}", error=True)
    except GoalError as e:
        return Outcome(f":gen: {e}", error=True)
    if parsed.list:
        lines = [f"{c.name:<14} {c.facelets}" for c in cases]
        return Outcome(f"{cs.name}: {len(cases)} case{'s' if len(cases) != 1 else ''}\n"
                       + "\n".join(lines))
    wanted = {c.name for c in cases}
    options = SearchOptions(parsed.moves, parsed.metric, parsed.weights, parsed.n or 1,
                            parsed.all, parsed.within, parsed.max_length, parsed.time_limit,
                            parsed.fold)
    request = GenRequest(cs, tuple(c for c in set_cases(cs) if c.name in wanted), options)
    from .gen_session import GenState
    session.gen = GenState(request.describe(), parsed.metric)
    return Outcome(f"generating {request.describe()} · Ctrl-C or Esc stops", request=request)


def _row(session, index: int):
    gen = session.gen
    if gen is None or not gen.rows:
        return None, Outcome("no gen rows yet (:gen SET lists a set's algs)", error=True)
    if not 0 <= index < len(gen.rows):
        return None, Outcome(f"give a row number from 1 to {len(gen.rows)}", error=True)
    return gen.rows[index], None


def set_up_case(session, index: int) -> Outcome:
    """Row `index`'s case becomes the position (one undo step): its alg's inverse from solved."""
    from .gen_session import setup_label, setup_text
    row, bad = _row(session, index)
    if bad:
        return bad
    session.set_position(row.state(), setup_label(row), row.setup or (), puzzle="3x3")
    return Outcome(setup_text(row), changed=True)


def play_alg(session, index: int) -> Outcome:
    """Step through row `index`'s alg on the net from its case (set up first, one undo step,
    unless the position is already that case)."""
    from cubelab.cube.puzzles import DEFAULT_PUZZLE
    from .gen_session import setup_label
    from .records import Playback
    row, bad = _row(session, index)
    if bad:
        return bad
    if row.alg is None:
        return Outcome(f"case {row.case} has no alg to play ({row.record['status']})",
                       error=True)
    state = row.state()
    if session.puzzle is not DEFAULT_PUZZLE or session.state != state or session.mask:
        session.set_position(state, setup_label(row), row.setup, puzzle="3x3")
    session.playback = Playback(session.state, list(row.moves), 0, f"{row.case} alg")
    return Outcome(f"playing {row.case}'s alg from its case: left/right step, Enter keeps, "
                   "Esc leaves", changed=True)
