"""How a human method's solution reads step by step (CFOP): the rotation it starts with, each
named step with its moves, and the turns merged where one step's end cancels into the next's
start. One text for `cubelab solve`, the REPL and the workbench's row detail, and the moves a
playback steps through (the steps as performed, so each pause is at a step's milestone).

A solve record (or a SolveResult's detail) has `steps`, a list of {step, moves, length} with an
optional `merge` {with, tail, head, into, saved}; CFOP adds `cross_face`, `cross_colour` and
`rotation` (the solution's first move, "" when the cross is on D already).
"""

from __future__ import annotations

from cubelab.cube.notation import parse_moves

from .goal_text import goal_lines

HOLD = "hold with the cross on D"


def named_steps(record: dict) -> list[dict]:
    """The record's named steps (another solver's `steps` may describe something else)."""
    return [st for st in record.get("steps") or [] if isinstance(st, dict) and "step" in st]


def hold_line(record: dict) -> str | None:
    """Where the cross is and how the cube is held for the steps, or None for no CFOP record."""
    if "cross_face" not in record:
        return None
    line = f"cross on  {record['cross_face']} ({record['cross_colour']})"
    if record.get("rotation"):
        line += f"; {HOLD}: {record['rotation']}"
    return line


def merge_text(merge: dict) -> str:
    """'merged with f2l 4: U L2 + L2 U -> U2 (3 fewer)'."""
    return (f"merged with {merge['with']}: {merge['tail']} + {merge['head']} -> "
            f"{merge['into'] or 'nothing'} ({merge['saved']} fewer)")


def step_lines(record: dict, indent: str = "  ") -> list[str]:
    """Each named step on its line (name, HTM, moves), a merge on the line below its step."""
    lines = []
    for st in named_steps(record):
        lines.append(f"{indent}{st['step']:<22} {st['length']:>2}  {st['moves'] or '-'}")
        if st.get("merge"):
            lines.append(f"{indent}{'':<22}     {merge_text(st['merge'])}")
    return lines


def method_lines(record: dict, indent: str = "  ") -> list[str]:
    """The hold line (if any) and the step lines; for a goal search, its goal, AUF and list
    of solutions (goal_text.py)."""
    head = hold_line(record)
    return ([head] if head else []) + step_lines(record, indent) + goal_lines(record, indent)


def performed(record: dict):
    """(moves, steps) a playback steps through: the rotation then every step's moves as the
    step does them (merges at the joins not yet cancelled), and (name, number of moves) for the
    rotation and each step; (None, ()) for a record without named steps."""
    steps = named_steps(record)
    if not steps:
        return None, ()
    moves, spans = [], []
    if record.get("rotation"):
        rotation = parse_moves(record["rotation"])
        moves += rotation
        spans.append((HOLD, len(rotation)))
    for st in steps:
        part = parse_moves(st["moves"])
        moves += part
        spans.append((st["step"], len(part)))
    return moves, tuple(spans)
