"""The `:` commands that set up a position by description: cycles, cases and named patterns.

`:pattern NAME` loads a pattern of the gallery (cube/patterns.py) with its alg as the sequence,
and says its optimal length and symmetry; `:patterns` lists the gallery.

`:cycles` reads the Singmaster cycle notation the facts panel prints (cube/cycle_notation.py),
so a blindfold case is set up by its pieces instead of its moves; `:case` is the short form for
one 3-cycle or a pair of twisted corners or flipped edges. These describe 3x3x3 positions: on
the 2x2x2 they switch cubes first (one undo step, like any change). Alone, `:cycles` says the
position's cycles and its blindfold memo (cube/letters.py), written in the letter scheme and
from the buffers that `:letters` and `:buffers` choose.
"""

from __future__ import annotations

import re

from cubelab.cube.cycle_notation import corner_and_edge_text
from cubelab.cube.letters import (CORNER_BUFFERS, EDGE_BUFFERS, LETTER_SCHEMES, MemoOptions,
                                  letter_scheme_from_text, memo)
from cubelab.cube.notation import parse
from cubelab.cube.patterns import PATTERNS, optimal_text, pattern_named
from cubelab.cube.position_symmetry import symmetry_record
from cubelab.cube.positions import PositionError, from_cycles
from cubelab.cube.puzzles import PUZZLES, puzzle_of

from .command_table import CommandTable
from .records import Outcome

TABLE = CommandTable()

UNREACHABLE_FLAG = "--unreachable"


def _flag(args: list[str], rest: str) -> tuple[bool, str]:
    """Whether the line asks for unreachable assemblies, and the line without that flag."""
    asked = UNREACHABLE_FLAG in args
    return asked, rest.replace(UNREACHABLE_FLAG, " ").strip() if asked else rest


def _set_cycles(session, text: str, unreachable: bool, label: str) -> Outcome:
    try:
        position = from_cycles(text, unreachable)
    except PositionError as e:
        return Outcome(str(e), error=True)
    cube = puzzle_of(position.state)        # the cube cycles describe
    switched = cube is not session.puzzle
    session.set_position(position.state, label, puzzle=cube.name)
    shown = corner_and_edge_text(position.state) or "solved"
    reason = session.puzzle.unreachable(position.state)
    return Outcome(f"position set: {shown}" + (f" ({reason})" if reason else "")
                   + (f" · now the {cube.title}" if switched else ""), changed=True)


@TABLE.command("cycles", "[--unreachable] [CYCLES]",
               "set the position by Singmaster cycles, e.g. (UF UR UB) (UFR)+ (URB)- "
               "(alone: show the position's cycles)")
def _cycles(session, args, rest) -> Outcome:
    unreachable, text = _flag(args, rest)
    if not text:
        if not session.puzzle.cycle_notation:
            cube = next(p for p in PUZZLES.values() if p.cycle_notation)
            return Outcome(f"cycles describe {cube.title} positions here (the facts panel "
                           f"lists the {session.puzzle.title}'s corners)", error=True)
        return Outcome((corner_and_edge_text(session.state) or "solved: no cycles") + "\n"
                       + memo_line(session))
    return _set_cycles(session, text, unreachable, f":cycles {text}")


def memo_line(session) -> str:
    """'memo (speffz, buffers UFR UF): corners KW Q · edges BJ VT B · parity'."""
    options = session.memo_options
    return f"memo ({options.describe()}): {memo(session.shown_state(), options).text()}"


@TABLE.command("letters", "[speffz|LETTERS|CORNERS EDGES]",
               "the blindfold memo's letter scheme: Speffz, or your own 24 letters (both "
               "kinds) or 24 for corners and 24 for edges, in Speffz's order; alone, the one "
               "in use and the memo", complete=lambda session, words: list(LETTER_SCHEMES))
def _letters(session, args, rest) -> Outcome:
    if not rest:
        return Outcome(f"letters {session.memo_options.letters.describe()}\n"
                       + memo_line(session))
    try:
        letters = letter_scheme_from_text(rest)
    except ValueError as e:
        return Outcome(str(e), error=True)
    o = session.memo_options
    session.memo_options = MemoOptions(letters, o.corner_buffer, o.edge_buffer)
    return Outcome(f"letters {letters.describe()}\n" + memo_line(session), changed=True)


@TABLE.command("buffers", "[UFR|UBL] [UF|DF]",
               "the memo's buffers: the corner one (UFR or UBL) and the edge one (UF or DF)",
               complete=lambda session, words: [*CORNER_BUFFERS, *EDGE_BUFFERS])
def _buffers(session, args, rest) -> Outcome:
    o = session.memo_options
    corner, edge = o.corner_buffer, o.edge_buffer
    for word in args:
        word = word.upper()
        if word in CORNER_BUFFERS:
            corner = word
        elif word in EDGE_BUFFERS:
            edge = word
        else:
            return Outcome(f"{word}: the buffers are {' or '.join(CORNER_BUFFERS)} for corners, "
                           f"{' or '.join(EDGE_BUFFERS)} for edges", error=True)
    session.memo_options = MemoOptions(o.letters, corner, edge)
    return Outcome(memo_line(session), changed=bool(args))


_CASE_WORD = re.compile(r"^([A-Za-z]{2,3})([+-]?)$")
CASE_USAGE = ("usage: :case A B C (a 3-cycle of edges or corners, e.g. :case UF UR UB) or "
              ":case A B (two corners twisted, the first clockwise, or two edges flipped)")


def case_cycles(words: list[str]) -> str | None:
    """The cycle notation for a `:case`: three pieces of one kind are a 3-cycle, two pieces a
    pair twist (corners: the first clockwise, the second anticlockwise, unless marked) or a
    pair flip (edges); None when the words are no case."""
    matches = [_CASE_WORD.match(w) for w in words]
    if not matches or any(m is None for m in matches):
        return None
    sizes = {len(m.group(1)) for m in matches}
    if len(sizes) != 1:
        return None
    marks = [m.group(2) for m in matches]
    pieces = [m.group(1) for m in matches]
    if len(words) == 3 and not any(marks):
        return "(" + " ".join(pieces) + ")"
    if len(words) == 2:
        if sizes == {2}:
            return " ".join(f"({p})+" for p in pieces)
        marks = [m or d for m, d in zip(marks, "+-")]
        return " ".join(f"({p}){m}" for p, m in zip(pieces, marks))
    return None


@TABLE.command("case", "[--unreachable] PIECES",
               "a blindfold case: a 3-cycle (:case UF UR UB), a corner pair twist (:case UFR "
               "URB) or an edge pair flip (:case UF UB)")
def _case(session, args, rest) -> Outcome:
    unreachable, text = _flag(args, rest)
    cycles = case_cycles(text.split())
    if cycles is None:
        return Outcome(CASE_USAGE, error=True)
    return _set_cycles(session, cycles, unreachable, f":case {text}")


def pattern_line(pattern) -> str:
    """One line of the gallery: name, symmetry (computed; Cube Explorer's names are up to 9
    characters, D2h(face)), what is known of its length, alg."""
    sym = symmetry_record(pattern.state())
    return (f"{pattern.name:26} {sym['symmetry']:9} {optimal_text(pattern):42} {pattern.alg}")


@TABLE.command("pattern", "NAME", "load a named pattern (superflip, checkerboard, "
               "cube-in-a-cube, ...) with its alg", complete=lambda session, words: [
                   p.name for p in PATTERNS])
def _pattern(session, args, rest) -> Outcome:
    if not rest:
        return Outcome("name a pattern (:patterns lists them)", error=True)
    try:
        pattern = pattern_named(rest)
    except KeyError as e:
        return Outcome(e.args[0], error=True)
    cube = puzzle_of(pattern.state())       # the cube the gallery's patterns are of
    switched = cube is not session.puzzle
    session.set_position(pattern.state(), f":pattern {pattern.name}",
                         parse(pattern.alg).flatten(), puzzle=cube.name)
    sym = symmetry_record(pattern.state())
    return Outcome(f"{pattern.name}: {pattern.alg} · {optimal_text(pattern)} · symmetry "
                   f"{sym['symmetry']} ({sym['symmetry_order']}/48)"
                   + (f" · now the {cube.title}" if switched else ""), changed=True)


@TABLE.command("patterns", "", "list the named patterns with their symmetry and length")
def _patterns(session, args, rest) -> Outcome:
    return Outcome("\n".join(pattern_line(p) for p in PATTERNS))
