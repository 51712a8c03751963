"""Solving to a target: the moves taking position A to position B, with any solver of the puzzle.

A sequence M takes A to B when A M = B (products read left to right), that is when M solves
B^-1 A: so any solver that accepts any position solves the pair, and a proven optimum for
B^-1 A is a proven optimum for the pair. This is the one place that does it; the command line,
the REPL and the workbench all come here.
"""

from __future__ import annotations

from cubelab.cube.puzzles import puzzle_of

from .protocol import SolveResult, SolverError


def relative_state(start, target):
    """The position whose solutions are exactly the sequences taking `start` to `target`
    (both held with their centres home, so a whole-cube rotation between them is no move)."""
    if type(start) is not type(target):
        raise SolverError("the position and the target are positions of different cubes")
    return target.normalized().inverse() * start.normalized()


def reaches(start, moves, target) -> bool:
    """Whether the moves take `start` to `target` (centres aside)."""
    puzzle = puzzle_of(start)
    return puzzle.apply(start, moves).normalized() == target.normalized()


def solve_to(solver, start, target, **options) -> SolveResult:
    """solver.solve on the pair: its result, verified against the pair itself. A SolverError
    when no sequence joins them (they differ by an invariant of the puzzle)."""
    relative = relative_state(start, target)
    reason = puzzle_of(relative).unreachable(relative)
    if reason:
        raise SolverError(f"no sequence takes the position to the target: "
                          f"{reason.removeprefix('unreachable: ')} between them")
    result = solver.solve(relative, **options)
    if result.moves is not None:
        result.verified = result.verified and reaches(start, result.moves, target)
    return result
