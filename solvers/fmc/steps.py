"""The FMC steps: what each is (goal, axes) and the moves it may use after the steps before it.

- eo: edges oriented for an axis (fb, ud, rl), any face turns;
- dr: domino reduction on an axis, keeping the EO done before (its move set: the EO axis's
  faces turn by half turns only, e.g. <U,D,R,L,F2,B2> after an fb EO; DR on the EO's own axis
  cannot follow it); without an EO step, any face turns (direct DR);
- htr: half-turn reduction, in the DR's move set (<U,D,R2,L2,F2,B2> after a ud DR);
- fin: the cube solved, in <U2,D2,R2,L2,F2,B2> after HTR, or in the DR's move set straight
  after DR (a direct finish);
- ls: leave slice, in place of the finish: all solved but one slice's four edges (any of E, S,
  M after HTR; the DR axis's slice straight after DR), left for insertions (blocks.py);
- 2x2x2 -> 2x2x3 -> f2l-1: blocks, any face turns, each keeping the block before it (blocks.py).
A pipeline is a run of one of the chains eo -> dr -> htr -> fin|ls and 2x2x2 -> 2x2x3 -> f2l-1
(steps may be skipped when the position already has them).
"""

from __future__ import annotations

from dataclasses import dataclass

STEP_KINDS = ("eo", "dr", "htr", "fin", "ls", "2x2x2", "2x2x3", "f2l-1")
LABELS = {"eo": "EO", "dr": "DR", "htr": "HTR", "fin": "finish", "ls": "leave slice",
          "2x2x2": "2x2x2", "2x2x3": "2x2x3", "f2l-1": "F2L-1"}
AXES = ("fb", "ud", "rl")
CHAINS = (("eo", "dr", "htr", "fin"), ("eo", "dr", "htr", "ls"), ("2x2x2", "2x2x3", "f2l-1"))
BLOCKS = ("2x2x2", "2x2x3", "f2l-1")
ALIASES = {"leave-slice": "ls", "slice": "ls", "finish": "fin", "f2l1": "f2l-1"}
_SLICE = {"ud": "E", "fb": "S", "rl": "M"}


class StepError(ValueError):
    """A pipeline that cannot be run as asked (one-line reason)."""


@dataclass(frozen=True)
class StepChoice:
    """One step to search: kind, axis (None for htr/fin), goal and move set names."""

    kind: str
    axis: str | None
    """The axis (eo, dr; the slice's axis for ls) or the block's place (2x2x2 DLB, 2x2x3 DL,
    f2l-1 D-FR: face D, slot FR open)."""
    goal: object
    """A goal name, a TurnedGoal (blocks) or "ls:AXIS"."""
    moveset: str

    @property
    def label(self) -> str:
        name = LABELS[self.kind]
        if self.kind == "ls":
            return f"{name} {_SLICE[self.axis]}"
        return f"{name} {self.axis}" if self.axis and self.kind not in ("htr", "fin") else name


def check_steps(kinds: list[str]) -> list[str]:
    """The steps in pipeline order (aliases read), refused when they cannot follow one
    another."""
    kinds = [ALIASES.get(k, k) for k in kinds]
    for k in kinds:
        if k not in STEP_KINDS:
            raise StepError(f"unknown step {k!r} (choose from {', '.join(STEP_KINDS)})")
    if len(set(kinds)) != len(kinds):
        raise StepError("a step is named twice")
    if not kinds:
        raise StepError("no steps to run")
    for chain in CHAINS:
        if all(k in chain for k in kinds):
            order = [chain.index(k) for k in kinds]
            if order == sorted(order):
                return kinds
    raise StepError("steps go in the order eo -> dr -> htr -> fin (or ls), or "
                    "2x2x2 -> 2x2x3 -> f2l-1")


def check_axes(text: str, what: str) -> tuple[str, ...]:
    """'fb,ud' -> ('fb', 'ud'); `any`/`all` = the three."""
    words = [w.strip().lower() for w in text.split(",") if w.strip()]
    if not words:
        raise StepError(f"{what}: no axis given (choose from {', '.join(AXES)})")
    if words in (["any"], ["all"]):
        return AXES
    for w in words:
        if w not in AXES:
            raise StepError(f"{what}: unknown axis {w!r} (choose from {', '.join(AXES)})")
    return tuple(dict.fromkeys(words))


def detect_previous(position, kind: str) -> dict[str, str | None]:
    """What the position already is, for a step that starts from it (no step of the pipeline
    before it): the EO axis a DR keeps, the DR axis an HTR or a finish keeps, HTR. Refused
    (StepError) when the step cannot start here."""
    from cubelab.cube.goal_catalog import resolve_goal
    from .cases import bad_edges
    out: dict[str, str | None] = {}
    if kind == "dr":
        eo = [a for a in AXES if not bad_edges(position, a)]
        if len(eo) == 1:
            out["eo"] = eo[0]
        elif eo:
            # a position in EO on two axes is in DR on the third or halfway: keep the first
            out["eo"] = eo[0]
        return out
    if kind in BLOCKS:
        from .blocks import solved_blocks
        before = BLOCKS[BLOCKS.index(kind) - 1] if kind != "2x2x2" else None
        if before is not None:
            done = solved_blocks(position, before)
            out[before] = done[0] if done else None
        return out
    if kind in ("htr", "fin", "ls"):
        if kind in ("fin", "ls") and resolve_goal("htr", position)[0].is_met(position):
            out["htr"] = None
        dr = [a for a in ("ud", "fb", "rl") if resolve_goal(f"dr:{a}", position)[0].is_met(position)]
        if dr:
            out["dr"] = dr[0]
        elif "htr" not in out:
            need = "a DR" if kind == "htr" else "an HTR or a DR"
            raise StepError(f"{LABELS[kind]} follows {need}, and the position is not there "
                            "(add the step before it to --steps, or give its moves in --after)")
    return out


def choices(kind: str, previous: dict[str, str | None], axes: tuple[str, ...]) -> list[StepChoice]:
    """The searches a step makes after the steps before it (`previous`: kind -> axis)."""
    if kind == "eo":
        return [StepChoice("eo", a, f"eo:{a}", "all") for a in axes]
    if kind == "dr":
        if "eo" in previous:
            eo = previous["eo"]
            return [StepChoice("dr", a, f"dr:{a}", f"eo-{eo}") for a in axes if a != eo]
        return [StepChoice("dr", a, f"dr:{a}", "all") for a in axes]
    if kind == "htr":
        return [StepChoice("htr", previous["dr"], "htr", f"dr-{previous['dr']}")]
    if kind in BLOCKS:
        from .blocks import block_goal, block_places
        before = BLOCKS[BLOCKS.index(kind) - 1] if kind != "2x2x2" else None
        places = block_places(kind, previous.get(before) if before else None)
        return [StepChoice(kind, w, block_goal(kind, w), "all") for w in places]
    if kind == "ls":
        if "htr" in previous:
            return [StepChoice("ls", a, f"ls:{a}", "htr") for a in (axes or AXES)]
        dr = previous["dr"]
        return [StepChoice("ls", dr, f"ls:{dr}", f"dr-{dr}")]
    if "htr" in previous and "dr" not in previous:
        return [StepChoice("fin", None, "solved", "htr")]
    if "htr" in previous:
        return [StepChoice("fin", None, "solved", "htr")]
    return [StepChoice("fin", previous["dr"], "solved", f"dr-{previous['dr']}")]


def check_pairs(kinds: list[str], axes: dict) -> None:
    """Refuse a DR whose every allowed axis is the axis of every allowed EO (DR keeps the EO,
    so it cannot be on the EO's own axis)."""
    if "eo" in kinds and "dr" in kinds:
        eo, dr = axes.get("eo", AXES), axes.get("dr", AXES)
        if not any(d != e for e in eo for d in dr):
            raise StepError(f"DR on {dr[0]} cannot follow an EO on {eo[0]} (the DR keeps the "
                            "EO: choose another axis for one of them)")
