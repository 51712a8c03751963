"""`:insert SKELETON`: insertions into a skeleton from the session's position, in the workbench
and the REPL.

The session's position is the scramble; the skeleton (face turns, FMC notation `A ^(B)`
allowed) leaves a few pieces; the answer is the best solution with each insertion marked where
it goes, as `cubelab insert` prints it (cubelab.solvers.fmc.insertions). The alg table is
searched once (about ten seconds) the first time; until it is built the command says how to
build it rather than freeze the workbench.
"""

from __future__ import annotations

from .command_table import CommandTable
from .records import Outcome

TABLE = CommandTable()


def insertion_text(res) -> str:
    """The best solution of an InsertionResult as lines: each insertion marked, then the
    solution and whether it is proven best."""
    from cubelab.solvers.fmc.insertions import moves_text
    from cubelab.tui.insert_cmd import leftover_words
    lines = [f"skeleton ({len(res.reduced)}) leaves {leftover_words(res.leftover)}: "
             f"{res.needed} insertion{'s' * (res.needed != 1)}"]
    best = res.best
    if best is None:
        lines.append(f"no solution found ({res.status})")
        return "\n".join(lines)
    for n, ins in enumerate(best.insertions, 1):
        lines.append(f"  {ins.marked(f'[{n}]')}")
        lines.append(f"    [{n}] = {moves_text(ins.alg)}  // {ins.what()}, {ins.cancelled} cancelled")
    proof = "optimal among insertions" if res.optimal else f"best of beam {res.beam}"
    lines.append(f"solution ({best.length}, {proof}): {best.text}")
    return "\n".join(lines)


@TABLE.command("insert", "SKELETON",
               "FMC insertions: where corner and edge 3-cycle algs (every one of up to 10 "
               "moves) and, for parity, a parity alg (up to 11) go into the skeleton, from "
               "the current position, so the solution cancels to the fewest moves; ^( ) "
               "parts of the skeleton are on the inverse")
def _insert(session, args, rest) -> Outcome:
    text = rest.strip()
    if not text:
        return Outcome("give a skeleton: :insert R U R' ... (the moves after the scramble)",
                       error=True)
    if session.puzzle.name != "3x3":
        return Outcome(f"insertions are for the 3x3x3, not the {session.puzzle.title}",
                       error=True)
    from cubelab.cube.moves import FACE_MOVES
    from cubelab.tables.sequences import invert_seq
    from cubelab.tui.errors import InputError
    from cubelab.tui.fmc_cmd import read_moves
    try:
        normal, inverse = read_moves(text, "skeleton", niss=True)
    except InputError as e:
        return Outcome(str(e), error=True)
    skeleton = tuple(FACE_MOVES.index(m) for m in normal) + \
        invert_seq(tuple(FACE_MOVES.index(m) for m in inverse))
    return insertions_outcome(session.state, skeleton)


def insertions_outcome(scramble, skeleton: tuple[int, ...]) -> Outcome:
    """The best insertions into `skeleton` (move indices) after the position `scramble`, as an
    Outcome; a skeleton no insertion can finish, or a table not built yet (the workbench does
    not freeze for a build), is a one-line error."""
    from cubelab.solvers.fmc.insertions import (
        InsertionError, check_skeleton, find_insertions, leftover_of,
    )
    from cubelab.tables.insertions.algs import ALL_KINDS
    from cubelab.tables.insertions.specs import INSERTION_ALGS, PARITY_ALGS
    from cubelab.tables.store import table_status
    try:
        # a skeleton no insertion can finish is refused before any table is read
        _, needs = check_skeleton(leftover_of((), skeleton, position=scramble), ALL_KINDS, 4)
    except InsertionError as e:
        return Outcome(str(e), error=True)
    for spec, wanted, time in ((INSERTION_ALGS, True, "about ten seconds"),
                               (PARITY_ALGS, needs["parity"], "a minute or two")):
        status = table_status(spec)
        if wanted and not (status["built"] or status["in_memory"]):
            return Outcome(f"the {'parity' if spec is PARITY_ALGS else 'insertion'} algs are "
                           f"not built yet: `cubelab tables build {spec.name}` ({time}), or "
                           "`cubelab insert`", error=True)
    try:
        res = find_insertions((), skeleton, position=scramble, count=1)
    except InsertionError as e:
        return Outcome(str(e), error=True)
    return Outcome(insertion_text(res))
