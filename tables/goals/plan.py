"""Which tables a goal and move set get: components, exact single and pair tables, the ball.

The tracked items of each orbit form one component when their arrangements are few enough
(at most COMPONENT_CAP, 2^19, by a count that ignores the cube's laws); otherwise they are
split, groups kept whole, into components under that size (2^20 halved the nodes of a
T-permutation in <R,U,F> but doubled the time to build the tables, measured side by side). Every component gets its exact distance
table; pairs of components whose product stays under PAIR_CAP get an exact pair table (the
largest first, at most MAX_PAIRS); when no single table covers every component, the ball of
positions near the goal is added, as deep as BALL_NODES steps of its walk allow. A search
bounds a node by the largest of them all: each is a distance in a coarser view of the cube
(a pattern database), so the largest is still a lower bound (Korf's additive idea without
the adding: the max of admissible bounds is admissible).

A pair table of a million entries or more also gets a shallow version (filled only as deep as
a short search reads it: distances.shallow_pair_distances): a goal's first searches read that,
built in a fraction of the time, and the full one is built once its searches prove long.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import factorial, prod

import numpy as np

from cubelab.cube.goal_codes import Item, canonical, code_map
from cubelab.cube.goals import NAMES, STICKERS
from cubelab.cube.move_actions import element_fsm

from ..spec import TableSpec
from .ball import MAX_COMPONENTS, sequence_counts
from .distances import SHALLOW_SHARE, uniform_moves
from .specs import spec_for

COMPONENT_CAP = 1 << 19
PAIR_CAP = 1 << 24
MAX_PAIRS = 3
SHALLOW_FROM = 1 << 20
"""Pair tables with at least this many entries also get a shallow version (plan.shallow)."""
BALL_NODES = 6_000_000
BALL_MIN_BITS, BALL_MAX_BITS = 12, 26
MAX_RADIUS = 40


@dataclass
class Component:
    orbit: str
    items: tuple[int, ...]
    """Indices into the problem's items."""
    spec: TableSpec
    estimate: int


@dataclass
class Plan:
    """The tables of one (goal, move set, metric) and how to read them."""

    columns: tuple
    """The elements, then the inverses the move set lacks (CubeStates)."""
    costs: np.ndarray
    """Cost of each column in the metric's units (0: not a move)."""
    inverse: np.ndarray
    components: list
    singles: list
    pairs: list
    """(component a, component b, spec)."""
    ball: TableSpec | None
    radius: int
    shallow: list = None
    """Per pair, the spec of its shallow table (distances.shallow_pair_distances: only as
    deep as short searches read it, and far cheaper to build), or None where there is none:
    a search starts on those while the full pair tables are not built, and changes to the
    full ones once its searches prove long (solvers.goals.problem)."""

    def specs(self) -> list[TableSpec]:
        out = [c.spec for c in self.components] + list(self.singles)
        out += [s for _, _, s in self.pairs]
        if self.ball is not None:
            out.append(self.ball)
        out += [s for s in self.shallow or () if s is not None]
        return out


def _columns(elements, costs) -> tuple[list, np.ndarray, np.ndarray]:
    cols = list(elements)
    position = {e: i for i, e in enumerate(cols)}
    for e in elements:
        inv = e.inverse()
        if inv not in position:
            position[inv] = len(cols)
            cols.append(inv)
    c = np.zeros(len(cols), np.int64)
    c[:len(costs)] = costs
    for i, e in enumerate(cols):
        if e.is_identity():
            c[i] = 0
    inverse = np.array([position[e.inverse()] for e in cols], np.int64)
    return cols, c, inverse


def _active(cols, orbit: str) -> tuple[set, bool]:
    """Slots some column moves, and whether some column changes an orientation there."""
    slots, turns = set(), False
    for e in cols:
        perm, ori = (e.cp, e.co) if orbit == "c" else (e.ep, e.eo)
        for i in range(len(perm)):
            if int(perm[i]) != i or int(ori[i]) != 0:
                slots.add(i)
            if int(ori[i]) != 0:
                turns = True
    return slots, turns


def _estimate(items: list[Item], idx: list[int], active: set, turns: bool, targets) -> int:
    """Arrangements of the moving items among the active slots (a bound, laws ignored)."""
    moving = [i for i in idx
              if any(_slot(items[i], t[i]) in active for t in targets[:64])]
    a = len(active)
    m = len(moving)
    if m > a:
        m = a
    groups: dict[int, int] = {}
    for i in moving:
        groups[items[i].group] = groups.get(items[i].group, 0) + 1
    count = factorial(a) // factorial(a - m) // prod(factorial(g) for g in groups.values())
    if turns:
        count *= prod(STICKERS[items[i].orbit] for i in moving if items[i].kind == "full")
    return max(1, count)


def _slot(item: Item, code: int) -> int:
    return code // STICKERS[item.orbit] if item.kind == "full" else code


def _partition(items, orbit, active, turns, targets, cap) -> list[list[int]]:
    idx = [i for i, it in enumerate(items) if it.orbit == orbit]
    if not idx:
        return []
    if _estimate(items, idx, active, turns, targets) <= cap:
        return [idx]
    groups: list[list[int]] = []
    for i in idx:
        if groups and items[groups[-1][0]].group == items[i].group:
            groups[-1].append(i)
        else:
            groups.append([i])
    # constant items (never in an active slot) ride with the first component
    still = [g for g in groups
             if not any(_slot(items[g[0]], t[g[0]]) in active for t in targets[:64])]
    moving = [g for g in groups if g not in still]
    if not still and orbit == "e":
        moving = _cross_first(moving, items, targets[0])
    parts: list[list[int]] = []
    current: list[int] = [i for g in still for i in g]
    for g in moving:
        trial = current + g
        if current and _estimate(items, trial, active, turns, targets) > cap and \
                any(_slot(items[i], targets[0][i]) in active for i in current):
            parts.append(current)
            current = list(g)
        else:
            current = trial
    if current:
        parts.append(current)
    return parts


def _cross_first(groups: list[list[int]], items: list[Item], target) -> list[list[int]]:
    """The four edges of a face first, when the goal holds all four (each its own group):
    a split then keeps that cross whole, so the cross is one component in every goal that
    contains it (xcross, each F2L pair, f2l-1, f2l), and those goals read the cross's own
    tables from the store instead of building their own. Used where every tracked piece moves
    (a move set that leaves some still, as <R,U,F> does a last layer's goals, keeps the order
    that puts the still pieces first); other goals keep their order."""
    singles = [g for g in groups if len(g) == 1]
    for face in "DURFLB":
        on = [g for g in singles if face in NAMES["e"][_slot(items[g[0]], target[g[0]])]]
        if len(on) == 4:
            return on + [g for g in groups if g not in on]
    return groups


def _project(items, idx, targets) -> list[tuple]:
    sub = [items[i] for i in idx]
    return sorted({canonical(sub, [t[i] for i in idx]) for t in targets})


def _names(items, idx) -> str:
    return " ".join(NAMES[items[i].orbit][items[i].piece] + ("" if items[i].kind == "full"
                                                             else "(p)") for i in idx)


def make_plan(items: list[Item], elements, costs, targets, context: str = "") -> Plan:
    """The component tables for tracked items, a move set's elements with their costs (metric
    units) and the solved code tuples; `context` (goal, move set, metric) labels them. The
    plan is finished by `finish` once the components are built (their real sizes choose the
    pair tables and the ball)."""
    cols, col_costs, inverse = _columns(elements, costs)
    maps = {}
    for orbit in "ce":
        maps[orbit] = (
            [code_map(orbit, "full", e).tolist() for e in cols],
            [code_map(orbit, "slot", e).tolist() for e in cols])
    components: list[Component] = []
    activity = {orbit: _active(cols, orbit) for orbit in "ce"}
    cap = COMPONENT_CAP
    while True:
        parts = [(orbit, idx) for orbit in "ce"
                 for idx in _partition(items, orbit, *activity[orbit], targets, cap)]
        if len(parts) <= MAX_COMPONENTS:
            break
        cap *= 2      # fewer, larger components rather than more than the kernel takes
    for orbit, idx in parts:
        active, turns = activity[orbit]
        groups, renumber = [], {}
        for i in idx:
            groups.append(renumber.setdefault(items[i].group, len(renumber)))
        params = {
            "kind": "component", "orbit": orbit,
            "kinds": [0 if items[i].kind == "full" else 1 for i in idx],
            "groups": groups, "fullmap": maps[orbit][0], "slotmap": maps[orbit][1],
            "seeds": [list(s) for s in _project(items, idx, targets)],
            "about": f"{context}: {_names(items, idx)}",
        }
        est = _estimate(items, idx, active, turns, targets)
        components.append(Component(orbit, tuple(idx), spec_for(params), est))
    return Plan(tuple(cols), col_costs, inverse, components, [], [], None, -1)


def finish(plan: Plan, items: list[Item], targets, sizes: list[int], context: str = "") -> Plan:
    """Add the distance tables to a plan whose components have `sizes` arrangements."""
    components = plan.components
    inv_list = plan.inverse.tolist()
    cost_list = plan.costs.tolist()
    singles = []
    for c in components:
        singles.append(spec_for({
            "kind": "single", "component": c.spec.name, "inv": inv_list, "costs": cost_list,
            "seeds": [list(s) for s in _project(items, c.items, targets)],
            "about": c.spec.params["about"] + " (distances)"}, expected_bytes=sizes[
                components.index(c)]))
    pairs = []
    candidates = sorted(((sizes[i] * sizes[j], i, j) for i in range(len(components))
                         for j in range(i + 1, len(components))
                         if sizes[i] * sizes[j] <= PAIR_CAP), reverse=True)
    shallow = []
    can_shallow = uniform_moves(inv_list, cost_list) is not None
    for product, i, j in candidates[:MAX_PAIRS]:
        a, b = components[i], components[j]
        seeds = sorted({(_key(items, a.items, t), _key(items, b.items, t)) for t in targets})
        params = {
            "kind": "pair", "a": a.spec.name, "b": b.spec.name, "inv_a": inv_list,
            "inv_b": inv_list, "costs": cost_list,
            "seeds": [[list(x), list(y)] for x, y in seeds],
            "about": f"{context}: {_names(items, a.items)} with {_names(items, b.items)}"}
        pairs.append((i, j, spec_for(params, expected_bytes=product)))
        if can_shallow and product >= SHALLOW_FROM:
            shallow.append(spec_for(dict(params, shallow=SHALLOW_SHARE, about=params["about"]
                                         + f" (shallow, 1/{SHALLOW_SHARE})"),
                                    expected_bytes=product))
        else:
            shallow.append(None)
    ball, radius = None, -1
    covered = len(components) <= 1 or (len(components) == 2 and pairs)
    if not covered:
        fsm = element_fsm(plan.columns)
        counts = sequence_counts(fsm, cost_list, MAX_RADIUS)
        total, radius = 0, 0
        for r in range(1, MAX_RADIUS + 1):
            if (total + counts[r]) * len(targets) > BALL_NODES:
                break
            total += counts[r]
            radius = r
        space = prod(sizes)
        want = min(space, (total + 1) * len(targets))
        bits = min(BALL_MAX_BITS, max(BALL_MIN_BITS, (2 * want).bit_length()))
        seeds = sorted({tuple(_key(items, c.items, t) for c in components) for t in targets})
        ball = spec_for({
            "kind": "ball", "components": [c.spec.name for c in components],
            "inv": [inv_list for _ in components], "costs": cost_list,
            "fsm": fsm.tolist(), "seeds": [[list(x) for x in s] for s in seeds],
            "radius": radius, "bits": bits,
            "about": f"{context}: positions within {radius} of the goal"},
            expected_bytes=1 << bits)
    return Plan(plan.columns, plan.costs, plan.inverse, components, singles, pairs, ball,
                radius, shallow)


def _key(items, idx, t) -> tuple:
    sub = [items[i] for i in idx]
    return canonical(sub, [t[i] for i in idx])


def element_costs(act, moves_cost) -> list[int]:
    """Each element's cost: the cheapest move (in any frame) that acts as it."""
    n = len(act.elements)
    out = [None] * n
    for f in range(act.element.shape[0]):
        for m in range(act.element.shape[1]):
            e = int(act.element[f, m])
            c = moves_cost[m]
            out[e] = c if out[e] is None else min(out[e], c)
    return [0 if c is None else int(c) for c in out]

