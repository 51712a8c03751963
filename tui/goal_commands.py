"""`:goal NAME`: the session's goal, and how the position stands against it.

A goal set with `:goal cross` (any goal `cubelab solve --goal` takes: `cross:U`, `f2l-pair:FR`,
`oll`, a piece list) stays with the session until `:goal off`. Each position is then read
against it (`goal_view`): whether it is met (for `cross:any`, which of the six), which pieces
are missing, and the stickers the goal does not read, which the workbench's net greys out; the
facts panel and the REPL's facts say "goal cross:D met" or what is missing. `:solve goal` with
no `--goal` solves towards it. Goals are of the 3x3x3: on the 2x2x2 none is shown.
"""

from __future__ import annotations

from dataclasses import dataclass

from .command_table import CommandTable
from .records import Outcome

TABLE = CommandTable()

OFF = ("off", "none", "clear")


@dataclass(frozen=True)
class GoalView:
    """A position read against the session's goal."""

    text: str
    """The goal as typed."""
    label: str
    """The goal met, or the one closest to it (cross:D), or the text (cross:any) when none."""
    met: bool
    missing: tuple[str, ...]
    """What is not in place yet (of the goal closest to being met)."""
    grey: frozenset
    """The facelets (0-53) the goal does not read."""
    hides: bool = False
    """A picture whose grey stickers could hide more than one position: the facts shown are
    those of the one it was read as."""

    def completion_note(self) -> str | None:
        """What the facts of such a picture are (None when they are the position's own)."""
        if not self.hides:
            return None
        return (f"of one completion: its {len(self.grey)} grey stickers could hide another "
                f"position")

    def line(self) -> str:
        if self.met:
            return f"{self.label} met"
        shown = ", ".join(self.missing[:6]) + (" ..." if len(self.missing) > 6 else "")
        return f"{self.label} not met" + (f": {shown}" if shown else "")

    def as_dict(self) -> dict:
        out = {"goal": self.text, "met": self.met, "label": self.label,
               "missing": list(self.missing)}
        if self.completion_note():
            out["facts"] = self.completion_note()
        return out


def goal_view(text: str | None, puzzle, state) -> GoalView | None:
    """The position against goal `text` (None when there is no goal, or on another cube)."""
    if not text or puzzle.name != "3x3":
        return None
    from cubelab.cube.goal_catalog import resolve_goal
    from cubelab.cube.goals import GoalError
    try:
        goals = resolve_goal(text, state)
    except GoalError:
        return None         # (checked when it was set; a user file changed since)
    met = [g for g in goals if g.is_met(state)]
    if met:
        best, missing = met[0], ()
    else:
        scored = sorted(((g.unmet(state), i) for i, g in enumerate(goals)),
                        key=lambda t: (len(t[0]), t[1]))
        missing, best = tuple(scored[0][0]), goals[scored[0][1]]
    read = set(best.stickers(state)) if met or len(goals) == 1 else \
        {s for g in goals for s in g.stickers(state)}
    label = best.name if (met or len(goals) == 1) else text
    return GoalView(text, label, bool(met), missing, frozenset(range(54)) - read)


def masked_view(mask, state) -> GoalView:
    """A position painted with grey stickers (`mask`, a MaskedPosition), turned to `state` by
    moves since, against its own goal: the stickers shown, solved. Its grey stickers are the
    ones the net greys (travelled with their pieces)."""
    from cubelab.cube.goals import TurnedGoal
    from cubelab.cube.masked_facelets import grey_at, one_completion
    goal = TurnedGoal(mask.goal)
    grey = grey_at(mask, state)
    met = goal.is_met(state)
    label = f"stickers shown ({len(grey)} grey)"
    return GoalView("the stickers shown", label, met, () if met else tuple(goal.unmet(state)),
                    grey, hides=not one_completion(mask))


def _complete(session, words) -> list[str]:
    from .goals_cmd import goal_rows
    out = []
    for row in goal_rows():
        out.append(row["name"])
        out += [f"{row['name']}:{c}" for c in row["choices"]]
    return out + list(OFF[:1])


@TABLE.command("goal", "[NAME|off]",
               "set the session's goal (cross, cross:U, cross:any, f2l-pair:FR, eo:fb, oll, "
               "pll... or a piece list): the facts say whether it is met, the net greys what "
               "it does not read, :solve goal solves towards it; off clears it; alone, the "
               "goal and where the position stands", complete=_complete)
def _goal(session, args, rest) -> Outcome:
    text = rest.strip()
    if not text:
        view = session.goal_view()
        if view is None:
            return Outcome("no goal set (:goal cross, :goal f2l-pair:FR, ... ; cubelab goals "
                           "lists them)")
        return Outcome(f"goal {view.line()}")
    if text.lower() in OFF:
        session.goal = None
        return Outcome("goal cleared", changed=True)
    if session.puzzle.name != "3x3":
        return Outcome(f"goals are of the 3x3x3, not the {session.puzzle.title}", error=True)
    from cubelab.cube.goal_catalog import resolve_goal
    from cubelab.cube.goals import GoalError
    try:
        resolve_goal(text, session.state)
    except GoalError as e:
        column = getattr(e, "column", 0)
        return Outcome(str(e), error=True,
                       column=(len(":goal ") + column) if column else 0)
    session.goal = text
    return Outcome(f"goal {session.goal_view().line()}", changed=True)
