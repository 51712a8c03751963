"""A goal as the search tables see it: tracked items, their codes, and the solved code tuples.

An *item* is one piece a goal tracks: its orbit, its piece, its code kind and tracked sticker
(goals.Condition), and its *group*: items whose conditions are identical are interchangeable
(the goal cannot tell them apart), so a group's codes are kept sorted, and the tables count
arrangements of the group rather than of its pieces (edge orientation is one group of twelve).
Pieces of a joint condition are items of their own.

`targets` lists the solved code tuples: every way the items can meet their conditions (a
group's codes chosen among the accepted ones, slots all different, joint conditions as
listed), each turned by the goal's allowed rotations and by the post-AUF turns. Elements (any
centre-fixing CubeState) act on codes by `code_map`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from .goals import STICKERS, Goal, GoalError, SLOTS
from .state import CubeState

MAX_TARGETS = 50_000
"""The most solved code tuples a goal may have (a goal looser than that is refused)."""


@dataclass(frozen=True)
class Item:
    orbit: str
    piece: int
    kind: str               # "full" (slot and sticker position) or "slot"
    sticker: int
    accept: tuple[int, ...]
    group: int

    @property
    def codes(self) -> int:
        """How many codes the item's kind has."""
        n = SLOTS[self.orbit]
        return n * STICKERS[self.orbit] if self.kind == "full" else n


def items_of(goal: Goal) -> list[Item]:
    """The tracked items of a goal, corners first, each group's items together."""
    out: list[Item] = []
    keys: dict = {}
    for orbit in "ce":
        joint = {p for j in goal.joints if j.orbit == orbit for p in j.pieces}
        rows = []
        for p in goal.tracked(orbit):
            if p in joint:
                rows.append((("joint", orbit, p), p, "full", 0, ()))
            else:
                c = goal.conditions(orbit)[p]
                rows.append(((orbit, c.kind, tuple(sorted(c.accept))), p, c.kind, c.sticker,
                             tuple(sorted(c.accept))))
        rows.sort(key=lambda r: (str(r[0]), r[1]))
        for key, p, kind, sticker, accept in rows:
            group = keys.setdefault(key, len(keys))
            out.append(Item(orbit, p, kind, sticker, accept, group))
    return out


def code_of(state: CubeState, item: Item) -> int:
    perm, ori = (state.cp, state.co) if item.orbit == "c" else (state.ep, state.eo)
    slot = int(np.nonzero(np.asarray(perm) == item.piece)[0][0])
    if item.kind == "slot":
        return slot
    n = STICKERS[item.orbit]
    return slot * n + (item.sticker + int(ori[slot])) % n


def canonical(items: list[Item], codes) -> tuple[int, ...]:
    """Codes with each group's sorted (the form tables and targets use)."""
    out = list(codes)
    i = 0
    while i < len(items):
        j = i
        while j < len(items) and items[j].group == items[i].group:
            j += 1
        out[i:j] = sorted(out[i:j])
        i = j
    return tuple(out)


def start_codes(items: list[Item], state: CubeState) -> tuple[int, ...]:
    """The canonical codes of the items in a state (read as the goal reads it)."""
    where = {}
    for orbit, perm, ori in (("c", state.cp, state.co), ("e", state.ep, state.eo)):
        slots = [0] * len(perm)
        for slot, piece in enumerate(perm.tolist()):
            slots[piece] = slot
        where[orbit] = (slots, ori.tolist())
    codes = []
    for it in items:
        slots, ori = where[it.orbit]
        slot = slots[it.piece]
        if it.kind == "slot":
            codes.append(slot)
        else:
            n = STICKERS[it.orbit]
            codes.append(slot * n + (it.sticker + ori[slot]) % n)
    return canonical(items, codes)


def code_map(orbit: str, kind: str, element: CubeState) -> np.ndarray:
    """map[code]: the code after `element` (a piece at slot j goes to the slot i with
    element.cp[i] == j, its orientation increased by element.co[i])."""
    perm, ori = (element.cp, element.co) if orbit == "c" else (element.ep, element.eo)
    n = SLOTS[orbit]
    k = STICKERS[orbit]
    dest = np.empty(n, np.int64)
    dest[np.asarray(perm, np.int64)] = np.arange(n)
    if kind == "slot":
        return dest
    out = np.empty(n * k, np.int64)
    for j in range(n):
        i = dest[j]
        for t in range(k):
            out[j * k + t] = i * k + (t + int(ori[i])) % k
    return out


def apply(items: list[Item], codes, element: CubeState) -> tuple[int, ...]:
    maps = {(o, kd): code_map(o, kd, element) for o in "ce" for kd in ("full", "slot")}
    return canonical(items, [int(maps[it.orbit, it.kind][c]) for it, c in zip(items, codes)])


def _slot(item: Item, code: int) -> int:
    return code // STICKERS[item.orbit] if item.kind == "full" else code


def targets(goal: Goal, items: list[Item], elements: list[CubeState]) -> list[tuple]:
    """Every solved code tuple of the items (see the module docstring), turned by each of
    `elements` (the goal's rotations times the post-AUF turns, identity included)."""
    groups: list[list[int]] = []
    for i, it in enumerate(items):
        if groups and items[groups[-1][0]].group == it.group:
            groups[-1].append(i)
        else:
            groups.append([i])
    parts = []          # (indices, list of value tuples)
    joints_done = set()
    for g in groups:
        first = items[g[0]]
        if not first.accept:            # a joint condition's pieces
            joint = next(j for j in goal.joints if j.orbit == first.orbit
                         and first.piece in j.pieces)
            if id(joint) in joints_done:
                continue
            joints_done.add(id(joint))
            idx = [i for i, it in enumerate(items) if it.orbit == joint.orbit
                   and it.piece in joint.pieces]
            order = [joint.pieces.index(items[i].piece) for i in idx]
            parts.append((idx, [tuple(t[o] for o in order) for t in sorted(joint.targets)]))
            continue
        parts.append((g, None))
    # the most constrained parts first: what they take narrows the others' choices
    parts.sort(key=lambda p: len(p[1]) if p[1] is not None else
               _count(len(items[p[0][0]].accept), len(p[0])))
    base: list[tuple] = []
    codes = [0] * len(items)
    used = {"c": set(), "e": set()}

    def place(k: int) -> None:
        if len(base) > MAX_TARGETS:
            return
        if k == len(parts):
            base.append(canonical(items, codes))
            return
        idx, values = parts[k]
        orbit = items[idx[0]].orbit
        if values is None:
            first = items[idx[0]]
            free = [c for c in first.accept if _slot(first, c) not in used[orbit]]
            values = itertools.combinations(free, len(idx))
        for vals in values:
            slots = [_slot(items[i], v) for i, v in zip(idx, vals)]
            if len(set(slots)) != len(slots) or used[orbit] & set(slots):
                continue
            for i, v in zip(idx, vals):
                codes[i] = v
            used[orbit].update(slots)
            place(k + 1)
            used[orbit].difference_update(slots)

    place(0)
    if len(base) > MAX_TARGETS:
        raise GoalError(f"the goal {goal.name} is met by too many arrangements of its pieces "
                        f"(more than {MAX_TARGETS:,}): track fewer pieces or fix more")
    if not base:
        raise GoalError(f"no position meets the goal {goal.name}: its pieces cannot all "
                        "have places at once")
    out = set()
    for e in elements:
        for t in base:
            out.add(apply(items, t, e))
    if len(out) > MAX_TARGETS:
        raise GoalError(f"the goal {goal.name} is met by too many arrangements of its pieces "
                        f"({len(out):,}): track fewer pieces or fix more")
    return sorted(out)


def _count(n: int, k: int) -> int:
    from math import comb
    return comb(n, k)
