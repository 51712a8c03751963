"""A goal search's result as text: the goal and move set, the AUF used, the list of solutions.

Read from a solve's record (the goal solver's keys: goal, moveset, auf, cost, solutions), for
`cubelab solve`, the REPL and the workbench's row detail alike (through
method_steps.method_lines); nothing for a record without a goal.
"""

from __future__ import annotations

from cubelab.cube.metrics import Metric

SHOWN = 200
"""The most solutions listed as text (the JSON record holds them all)."""


def auf_words(auf: dict | None) -> str:
    """'pre U, post U2' for the AUF turns a solution uses ('' for none)."""
    if not auf:
        return ""
    return ", ".join(f"{k} {v}" for k, v in auf.items() if v)


def goal_lines(detail: dict, indent: str = "  ") -> list[str]:
    """The goal line, the AUF line and the list (its rows indented past `indent`)."""
    if "goal" not in detail or "moveset" not in detail:
        return []
    metric = Metric(detail.get("metric", "htm")).title
    head = f"goal      {detail['goal']} in {detail['moveset']}, {metric}"
    if detail.get("weights"):
        head += f" weighted {detail['weights']}"
        if detail.get("cost_optimum") is not None:
            head += (f" (least weight {detail['cost_optimum']:g}"
                     + (", proven" if detail.get("optimal_cost") else "") + ")")
    if detail.get("met"):
        head += f"; met: {detail['met']}"
    lines = [head]
    aufs = auf_words(detail.get("auf"))
    if aufs:
        lines.append(f"auf       {aufs} (around the moves, not counted in the length)")
    listed = detail.get("solutions")
    if listed is None:
        return lines
    state = "" if detail.get("complete", True) else ", the search was stopped: not all"
    if detail.get("truncated"):
        state = ", truncated at the solution limit"
    lines.append(f"solutions {len(listed)}{state} (number, moves, length, finger-trick cost, "
                 "AUF, goal; :apply N in the REPL)")
    width = max((len(s["solution"]) for s in listed[:SHOWN]), default=0)
    for number, s in enumerate(listed[:SHOWN], start=1):
        extra = auf_words(s.get("auf"))
        cost = s["metric_cost"]
        goal = s.get("goal", "") if detail.get("met") else ""
        text = s["solution"] or "(none needed)"
        lines.append(f"{indent}{number:>3}  {text:<{max(width, 13)}}  {cost:>4g}  {s['cost']:5.1f}"
                     + (f"  [{extra}]" if extra else "")
                     + (f"  {goal}" if goal else ""))
        for v in s.get("variants", []):
            lines.append(f"{indent}    {v['relation']}: {v['solution']}")
    if len(listed) > SHOWN:
        lines.append(f"{indent}  ... {len(listed) - SHOWN} more (--json lists them all)")
    return lines


def listed(found, detail: dict | None = None) -> list:
    """A list solve's solutions as the session lists them (records.ListedSolution): the ranked
    list of a finished search's record (`detail["solutions"]`) when there is one, else the
    solutions streamed so far (protocol Solutions carrying their record), in the order found."""
    from cubelab.cube.notation import parse
    from .records import ListedSolution
    when = {str(s.detail.get("solution")): s.seconds for s in found if s.detail}
    records = (detail or {}).get("solutions")
    if records is None:
        return [ListedSolution(tuple(s.moves), dict(s.detail), s.seconds)
                for s in found if s.detail]
    out = []
    for record in records:
        auf = record.get("auf") or {}
        text = " ".join(filter(None, (auf.get("pre"), record["solution"], auf.get("post"))))
        out.append(ListedSolution(tuple(parse(text).flatten()), dict(record),
                                  when.get(record["solution"], 0.0)))
    return out


def is_list_solve(options: dict) -> bool:
    """Whether a solve's options ask for a list of solutions (`--all`, `-n N`, `--within K`)."""
    from cubelab.solvers.goals.about import LIST_OPTIONS
    return any(options.get(k) not in (None, False) for k in LIST_OPTIONS)


def list_caption(options: dict, goal: str = "solved") -> str:
    """What a list solve asks, in a few words: 'cross · RUF · HTM · all optimal' (`goal`: what
    it solves without a --goal)."""
    goal = options.get("goal") or goal
    how = ("all optimal" if options.get("all") else
           f"{options['n']} best" if options.get("n") else "")
    if options.get("within") not in (None, False):
        how = " ".join(filter(None, (how, f"within {options['within']} of the optimum")))
    parts = [str(goal), str(options.get("moves") or "all moves"),
             str(options.get("metric") or "htm").upper(), how]
    if options.get("auf") not in (None, "none"):
        parts.append(f"AUF {options['auf']}")
    return " · ".join(p for p in parts if p)
