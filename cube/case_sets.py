"""Case sets (OLL, PLL, COLL, ZBLL, or any goal with a start goal): their cases, named.

A set's cases are the positions meeting its start goal, told apart only as far as its goal
reads them, and taken up to AUF: with pre-AUF, positions one U turn apart (P and P U) are one
case; with post-AUF, positions that differ by relabelling with a U turn (P and U P: an alg
solving one solves the other up to a final U). Positions already meeting the goal, and those
meeting the set's `exclude` goal, are not cases.

The enumeration fills the pieces the start goal leaves free (anywhere among their home slots,
any orientation its conditions allow), corners and edges apart, then pairs them where the
cube's laws allow (twists and flips summing to nothing, equal parities). Each case keeps a
representative position, in its canonical AUF.

Names come from reference pictures (case_sets.toml): OLL numbers, PLL letters, and for COLL
and ZBLL the OCLL shape of the corners with a number in canonical order ("T 3"). A picture is
read into a position and named by its canonical form, never by an alg.
"""

from __future__ import annotations

import itertools
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from .alg import Move
from .facelets import parse_facelets, to_facelets
from .goal_catalog import resolve_goal
from .goal_codes import items_of, start_codes
from .goals import GoalError, TurnedGoal, solved_codes
from .masked_facelets import read_masked
from .moves import move_state
from .pieces import FACES
from .state import CubeState, permutation_parity

AUF_TURNS = {"none": (range(1), range(1)), "pre": (range(4), range(1)),
             "post": (range(1), range(4)), "both": (range(4), range(4))}


@dataclass(frozen=True)
class CaseSet:
    name: str
    about: str
    start: str
    goal: str
    auf: str
    exclude: str = ""
    names: str = ""


@dataclass(frozen=True)
class Case:
    name: str
    state: CubeState
    key: tuple

    @property
    def facelets(self) -> str:
        return to_facelets(self.state)


@lru_cache(maxsize=1)
def _data() -> dict:
    text = resources.files("cubelab.cube").joinpath("case_sets.toml").read_text("utf-8")
    return tomllib.loads(text)


def set_names() -> list[str]:
    return list(_data()["sets"])


def case_set(name: str) -> CaseSet:
    sets = _data()["sets"]
    if name not in sets:
        raise GoalError(f"unknown case set {name!r} (sets: {', '.join(sets)})")
    body = sets[name]
    return CaseSet(name, body.get("about", ""), body["start"], body["goal"], body["auf"],
                   body.get("exclude", ""), body.get("names", ""))


def _one(text: str) -> TurnedGoal:
    goals = resolve_goal(text)
    if len(goals) != 1:
        raise GoalError(f"{text!r} names {len(goals)} goals; a case set needs one")
    return goals[0]


def _free(goal: TurnedGoal, orbit: str) -> list[int]:
    """Pieces of an orbit the goal does not hold solved at home."""
    n = 8 if orbit == "c" else 12
    out = []
    for p in range(n):
        cond = goal.goal.conditions(orbit)[p]
        joint = any(p in j.pieces for j in goal.goal.joints if j.orbit == orbit)
        if joint or cond is None or cond.kind != "full" or \
                cond.accept != solved_codes(orbit, [p]) or cond.sticker != 0:
            out.append(p)
    return out


def _options(start: TurnedGoal, orbit: str):
    """Every way to place the free pieces of an orbit in their home slots, turned as the start
    goal allows, with orientations summing to nothing: (perm, ori, parity)."""
    n, k = (8, 3) if orbit == "c" else (12, 2)
    free = _free(start, orbit)
    conds = start.goal.conditions(orbit)
    for perm in itertools.permutations(free):
        for oris in itertools.product(range(k), repeat=len(free)):
            if sum(oris) % k:
                continue
            p = list(range(n))
            o = [0] * n
            for slot, piece, ori in zip(free, perm, oris):
                p[slot], o[slot] = piece, ori
            ok = True
            for slot, piece, ori in zip(free, perm, oris):
                c = conds[piece]
                if c is None:
                    continue
                code = slot if c.kind == "slot" else slot * k + (c.sticker + ori) % k
                if code not in c.accept:
                    ok = False
                    break
            if ok:
                yield tuple(p), tuple(o), permutation_parity(p)


def _turns(face: str):
    return [move_state(Move(face, 1)).power(i) for i in range(4)]


def case_key(goal: TurnedGoal, state: CubeState, auf: str, items=None) -> tuple:
    """The canonical form of a position as a case of `goal` up to AUF (see the docstring)."""
    items = items if items is not None else items_of(goal.goal)
    turns = _turns(goal.goal.auf or "U")
    pre, post = AUF_TURNS[auf]
    best = None
    for b in post:
        left = turns[b] * state
        for a in pre:
            k = start_codes(items, goal.read(left * turns[a]))
            if best is None or k < best:
                best = k
    return best


def _canonical_state(goal, state, auf, items, key) -> CubeState:
    turns = _turns(goal.goal.auf or "U")
    pre, post = AUF_TURNS[auf]
    for b in post:
        for a in pre:
            s = turns[b] * state * turns[a]
            if start_codes(items, goal.read(s)) == key:
                return s
    return state


def cases(which: str | CaseSet) -> list[Case]:
    """The named cases of a set (a name of case_sets.toml or a CaseSet)."""
    cs = which if isinstance(which, CaseSet) else case_set(which)
    return _cases(cs)


@lru_cache(maxsize=16)
def _cases(cs: CaseSet) -> list[Case]:
    start, goal = _one(cs.start), _one(cs.goal)
    exclude = _one(cs.exclude) if cs.exclude else None
    items = items_of(goal.goal)
    corner_items = [i for i in items if i.orbit == "c"]
    edge_items = [i for i in items if i.orbit == "e"]
    by_key: dict = {}
    solved = case_key(goal, CubeState.identity(), cs.auf, items)
    corners = {}
    for cp, co, par in _options(start, "c"):
        probe = CubeState(cp, co, range(12), [0] * 12)
        k = (start_codes(corner_items, probe), par)
        corners.setdefault(k, (cp, co))
    edges = {}
    for ep, eo, par in _options(start, "e"):
        probe = CubeState(range(8), [0] * 8, ep, eo)
        k = (start_codes(edge_items, probe), par)
        edges.setdefault(k, (ep, eo))
    for (ck, cpar), (cp, co) in corners.items():
        for (ek, epar), (ep, eo) in edges.items():
            if cpar != epar:
                continue
            state = CubeState(cp, co, ep, eo)
            if goal.is_met(state) or (exclude is not None and exclude.is_met(state)):
                continue
            key = case_key(goal, state, cs.auf, items)
            if key == solved:       # one AUF away from the goal: no case
                continue
            if key not in by_key:
                by_key[key] = state
    names = _namer(cs, goal, items)
    out = []
    for key, state in by_key.items():
        rep = _canonical_state(goal, state, cs.auf, items, key)
        out.append((names(key, rep), key, rep))
    out.sort(key=lambda t: (_order(t[0], cs.names), t[1]))
    counts: dict = {}
    result = []
    for name, key, rep in out:
        if name.endswith("#"):
            counts[name] = counts.get(name, 0) + 1
            name = f"{name[:-1]}{counts[name]}"
        result.append(Case(name, rep, key))
    return result


def _order(name: str, scheme: str):
    """Cases in the order sheets print them: OLL by number, OCLL shapes in their order,
    anything else by name."""
    head = name.rstrip("#").strip()
    if scheme == "oll" and head.startswith("OLL "):
        return (0, int(head[4:]), "")
    shapes = list(_data()["ocll"])
    first = head.split(" ")[0]
    if scheme == "ocll" and first in shapes:
        return (1, shapes.index(first), "")
    return (2, 0, head)


def _namer(cs: CaseSet, goal: TurnedGoal, items):
    """name(key, representative) for the set's naming scheme."""
    if cs.names == "oll":
        table = {case_key(goal, s, cs.auf, items): f"OLL {n}" for n, s in oll_reference().items()}
        return lambda key, rep: table.get(key, "unnamed #")
    if cs.names == "pll":
        table = {case_key(goal, s, cs.auf, items): n for n, s in pll_reference().items()}
        return lambda key, rep: table.get(key, "unnamed #")
    if cs.names == "ocll":
        return lambda key, rep: ocll_shape(rep) + (" #" if cs.goal not in
                                                   ("oll", "D-layer E-slice U-layer:o") else "")
    return lambda key, rep: "case #"


# ---- reference pictures ----------------------------------------------------------------------

_SPOT = {0: {"L": 36, "B": 47}, 2: {"B": 45, "R": 11}, 6: {"F": 18, "L": 38},
         8: {"R": 9, "F": 20}, 1: {"B": 46}, 3: {"L": 37}, 5: {"R": 10}, 7: {"F": 19}}
"""For each U-face place of an OLL picture, the side sticker its U colour may face."""


def oll_state(picture: str) -> CubeState:
    """A position showing an OLL picture (first two layers solved)."""
    f = list(to_facelets(CubeState.identity()))
    for face in "RFLB":
        for i in range(3):
            f[FACES.index(face) * 9 + i] = "*"
    for i in range(9):
        f[i] = "*"
    for i, ch in enumerate(picture):
        if ch == "U":
            f[i] = "U"
        else:
            f[_SPOT[i][ch]] = "U"
    return read_masked("".join(f)).state


def pll_state(picture: str) -> CubeState:
    """The position a PLL picture shows (sides F R B L, U face all U)."""
    rows = picture.split()
    f = list(to_facelets(CubeState.identity()))
    for face, row in zip("FRBL", rows):
        for i in range(3):
            f[FACES.index(face) * 9 + i] = row[i]
    return parse_facelets("".join(f))


@lru_cache(maxsize=1)
def oll_reference() -> dict[int, CubeState]:
    return {int(n): oll_state(p) for n, p in _data()["oll"].items()}


@lru_cache(maxsize=1)
def pll_reference() -> dict[str, CubeState]:
    return {n: pll_state(p) for n, p in _data()["pll"].items()}


def _corner_pattern(state: CubeState) -> tuple:
    u = _turns("U")
    return min(tuple(int(x) for x in (state * u[a]).co[:4]) for a in range(4))


@lru_cache(maxsize=1)
def _ocll_patterns() -> dict:
    ref = oll_reference()
    return {_corner_pattern(ref[n]): shape for shape, n in _data()["ocll"].items()}


def ocll_shape(state: CubeState) -> str:
    """The OCLL shape (H Pi U T L AS S) of the U corners' orientations; "O" when oriented."""
    pattern = _corner_pattern(state)
    if not any(pattern):
        return "O"
    return _ocll_patterns().get(pattern, "?")
