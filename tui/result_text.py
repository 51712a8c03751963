"""A solve's result as the text `cubelab solve` prints: the solution, its lengths, how it was found.

Read from the typed result (solvers/results.py): its phases and steps write their own lines,
so a new method's parts print with no edit here.
"""

from __future__ import annotations

from cubelab.cube.metrics import Metric
from cubelab.solvers.results import SolveResult, Status

from .method_steps import method_lines


def format_result(result: SolveResult) -> str:
    head = result.text() if result.moves is not None else None
    if head is None:
        head = f"no solution ({Status(result.status).value})"
        if result.detail.get("message"):
            head += f": {result.detail['message']}"
    else:
        head = head or ("(goal already met)" if "goal" in result.detail else "(already solved)")
    lines = [head]
    if result.status == Status.INTERRUPTED:
        lines.append("interrupted: the best solution found so far")
    if result.length is not None:
        ln = result.length
        lines.append("length    " + ", ".join(f"{n} {Metric(m).title}" for m, n in ln.items()))
    extra = list(result.phases.summaries()) if result.phases else []
    metric = Metric(result.metric).title
    if result.lower_bound is not None:
        extra.append(f"lower bound {result.lower_bound} {metric}")
    lines.append(f"time      {result.seconds:.4f} s, {result.nodes:,} nodes"
                 + ("; " + ", ".join(extra) if extra else ""))
    lines += result.phases.lines() if result.phases else []
    # a human method's steps (CFOP): how the cube is held, each step, the merges at the joins;
    # a goal search's goal and list
    named = method_lines(result.to_json()) if result.steps or result.detail else []
    lines += named or (result.steps.lines() if result.steps else [])
    if result.detail.get("solution_note"):
        lines.append(f"note      {result.detail['solution_note']}")
    found = result.moves is not None
    lines.append(f"solver    {result.solver}, "
                 + (f"optimal in {metric}" if result.optimal else "not proven optimal")
                 + (", verified" if result.verified else ", NOT verified" if found else ""))
    return "\n".join(lines)
