"""One goal search set up: a start position, a turned goal, a move set and a cost model made
into the arrays the kernel reads, and the kernel's rows read back as moves.

The start is a CubeState (its centres may show a rotation: the search starts in that frame) or
masked facelets (cubelab.cube.masked_facelets), whose goal is what they show unless a named
goal is given. Pre-AUF gives four starts (the start, then after each turn of the goal's AUF face
as held); post-AUF turns the solved tuples by the same turns. Tables come from the store
(tables.goals.plan); a start that a component never reaches is refused: the goal cannot be met
with these moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from cubelab.cube.alg import Move
from cubelab.cube.costs import CostModel, metric_cost
from cubelab.cube.goal_codes import canonical, items_of, start_codes, targets
from cubelab.cube.goals import NAMES, Goal, GoalError, TurnedGoal, turned_back
from cubelab.cube.masked_facelets import MaskedPosition, require_known
from cubelab.cube.move_actions import actions
from cubelab.cube.moves import FACE_MOVES, apply_moves_lists, move_state
from cubelab.cube.movesets import MoveSet
from cubelab.cube.state import CubeState, as_lists, rotation_with_centres
from cubelab.tables.goals.ball import MAX_COMPONENTS
from cubelab.tables.goals.components import KeyIndex
from cubelab.tables.goals.plan import MAX_PAIRS, element_costs, finish, make_plan
from cubelab.tables.memory import faulted_in, resident
from cubelab.tables.store import is_loaded, load_or_build, table_status, tables_dir

from .kernel import MAX_DEPTH, NO_BOUND, UNREACHABLE, search_bound
from .verify import Verifier

AUF_MODES = ("none", "pre", "post", "both")


class Unreachable(GoalError):
    """The goal cannot be met from this position with these moves (one-line reason)."""


@dataclass(frozen=True)
class Row:
    """A solution as the kernel found it: moves (indices), the start, the frame at the end."""

    moves: tuple[int, ...]
    start: int
    frame: int
    cost: int


def _held_move(w: CubeState, element: CubeState) -> Move | None:
    """The face turn m held in a frame with (Y X) = w that acts as `element` (w m w^-1)."""
    want = w.inverse() * element * w
    for m in FACE_MOVES:
        if move_state(m) == want:
            return m
    return None


class Problem:
    """A goal search's arrays and tables, for one turned goal and one start.

    Everything but the start (tables, arrays, solved tuples) depends only on the goal, the
    move set, the costs, the AUF mode and the frame the start is held in: it is made once per
    process and shared (a case set, a hundred crosses: each new start costs a few lookups)."""

    def __init__(self, start, goal: TurnedGoal, moveset: MoveSet, costs: CostModel,
                 auf: str = "none", progress=None, cancel=None, log=None):
        if auf not in AUF_MODES:
            raise GoalError(f"unknown AUF mode {auf!r} (choose {', '.join(AUF_MODES)})")
        if isinstance(start, MaskedPosition):
            state = start.state
            if goal.goal is not start.goal:
                require_known(goal, start)
        else:
            state = start
        x0 = rotation_with_centres(state.cc)
        key = (goal.goal, goal.rotation.key(), goal.label, moveset.moves, costs.metric,
               costs.weights, auf, x0.key(), str(tables_dir()))
        shared = _SHARED.get(key)
        if shared is None:
            self._setup(goal, moveset, costs, auf, x0, progress, cancel, log)
            self._key = key
            _SHARED[key] = {k: v for k, v in self.__dict__.items()}
            while len(_SHARED) > MAX_SHARED:
                _SHARED.pop(next(iter(_SHARED)))
        else:
            self.__dict__.update(shared)
        self.state = state
        self._start_lists = None
        self.starts, self.start_frames = self._starts()

    def _setup(self, goal, moveset, costs, auf, x0, progress, cancel, log) -> None:
        costs.check_moves(moveset.moves)
        self.label = goal.label or goal.goal.name
        self.turned = goal
        self.goal: Goal = goal.goal
        self.moveset = moveset
        self.costs = costs
        self.act = actions(moveset, goal.rotation, x0)
        self.moves = self.act.moves
        self.auf = auf
        if auf != "none" and self.goal.auf is None:
            raise GoalError(f"goal {self.label} has no AUF face (AUF is for last-layer goals)")
        self.items = items_of(self.goal)
        auf_turn = move_state(Move(self.goal.auf, 1)) if self.goal.auf else None
        post = range(4) if auf in ("post", "both") else range(1)
        turns = [z * (auf_turn.power(-k) if auf_turn else CubeState.identity())
                 for z in self.goal.rotations for k in post]
        self.targets = targets(self.goal, self.items, turns)
        self.pre_moves = self._pre_moves(auf_turn, x0)
        # no goal name in it: it is part of the tables' parameters, and a table two goals
        # share (the cross's four edges, in the cross and in every F2L pair) is one table
        context = f"{moveset.text} {costs.metric}"
        base_costs = [metric_cost(m, costs.metric) for m in self.moves]
        plan = make_plan(self.items, self.act.elements, element_costs(self.act, base_costs),
                         self.targets, context)
        comps = [load_or_build(c.spec, progress=progress, cancel=cancel, log=log)
                 for c in plan.components]
        plan = finish(plan, self.items, self.targets, [t.shape[0] for t in comps], context)
        self.plan = plan
        # the tables probed at random, with no page fault left on a first touch: large ones
        # as private huge-page copies (tables.memory.resident), small ones where they are
        # (`_resident`)
        self.tables = [_resident(t) for t in comps]
        self.singles = [_resident(load_or_build(s, progress=progress, cancel=cancel, log=log))
                        for s in plan.singles]
        # a pair whose full table is not built yet starts on its shallow table (built in a
        # fraction of the time, and as good for short searches); `want_ball` changes to the
        # full one once this set-up's searches prove long
        self.pair_specs = [full if shallow is None or _available(full) else shallow
                           for (_, _, full), shallow in zip(plan.pairs, plan.shallow)]
        self.pair_tables = [_resident(load_or_build(s, progress=progress, cancel=cancel,
                                                   log=log)) for s in self.pair_specs]
        # the ball is read when it is on disk already, else built only when a search turns
        # out long (`want_ball`): short searches do not pay for it
        self.ball = _readonly(np.zeros(1, np.uint8))
        self.radius = -1
        self._key = None
        self.spent = [0]
        """Nodes searched with this set-up so far, by every search sharing it."""
        self._verifier = None
        if plan.ball is not None and table_status(plan.ball)["built"]:
            self._load_ball(progress, cancel, log)
        self.index = [_key_index(c.spec.name, t) for c, t in zip(plan.components, self.tables)]
        self.target_coords = self._coords_of(self.targets, check=False)
        self._arrays()

    # ---- setting up -----------------------------------------------------------------------
    def _pre_moves(self, auf_turn, x0) -> list[Move | None]:
        if self.auf not in ("pre", "both"):
            return [None]
        w = self.turned.rotation * x0
        out: list[Move | None] = [None]
        for k in (1, 2, 3):
            m = _held_move(w, auf_turn.power(k))
            if m is None:
                raise GoalError(f"no face turn is the AUF of {self.label} here")
            out.append(m)
        return out

    def _coords_of(self, tuples, check: bool = True) -> np.ndarray:
        out = np.zeros((len(tuples), len(self.plan.components)), np.int64)
        for k, comp in enumerate(self.plan.components):
            sub = [self.items[i] for i in comp.items]
            for r, t in enumerate(tuples):
                codes = canonical(sub, [t[i] for i in comp.items])
                c = self.index[k].index(codes)
                if c < 0:
                    if check:
                        raise Unreachable(self._unreachable(comp))
                    continue
                out[r, k] = c
        return out

    def _unreachable(self, comp) -> str:
        names = " ".join(NAMES[self.items[i].orbit][self.items[i].piece] for i in comp.items)
        return (f"{self.label} cannot be reached with {self.moveset.text}: those moves never "
                f"bring {names} to the goal from here")

    def _starts(self):
        rows, frames = [], []
        y = self.turned.rotation
        yinv = _inverse(y)
        for pre in self.pre_moves:
            s = self.state if pre is None else self.state * move_state(pre)
            u = turned_back(s) if y.is_identity() else y * turned_back(s) * yinv
            rows.append(start_codes(self.items, u))
            frames.append(0)
        coords = self._coords_of(rows)
        return coords, np.array(frames, np.int64)

    def _arrays(self) -> None:
        dummy_t = _readonly(np.zeros((1, 3), np.int32))
        dummy_u = _readonly(np.zeros(1, np.uint8))
        k = len(self.tables)
        self.k_tables = tuple(self.tables + [dummy_t] * (MAX_COMPONENTS - k))
        self.k_singles = tuple(self.singles + [dummy_u] * (MAX_COMPONENTS - k))
        npairs = len(self.pair_tables)
        self.k_pairs = tuple(self.pair_tables + [dummy_u] * (MAX_PAIRS - npairs))
        self.pair_a = np.array([a for a, _, _ in self.plan.pairs] + [0] * (MAX_PAIRS - npairs),
                               np.int64)
        self.pair_b = np.array([b for _, b, _ in self.plan.pairs] + [0] * (MAX_PAIRS - npairs),
                               np.int64)
        self.move_cost = np.array([self.costs.units(m) for m in self.moves], np.int64)
        hw = self.costs.bound_table(self.moves, 256)
        hw[UNREACHABLE] = int(NO_BOUND)
        self.hw = np.array(hw, np.int64)
        order = np.lexsort(self.target_coords.T[::-1]) if len(self.target_coords) else []
        self.k_targets = np.ascontiguousarray(self.target_coords[order])

    def _load_ball(self, progress=None, cancel=None, log=None) -> None:
        self.ball = _resident(load_or_build(self.plan.ball, progress=progress, cancel=cancel,
                                           log=log))
        self.radius = self.plan.radius
        shared = _SHARED.get(self._key)
        if shared is not None:
            shared["ball"], shared["radius"] = self.ball, self.radius

    def _load_full_pairs(self, progress=None, cancel=None, log=None) -> None:
        specs = [full for _, _, full in self.plan.pairs]
        tables = [_resident(load_or_build(s, progress=progress, cancel=cancel, log=log))
                  for s in specs]
        self.pair_specs, self.pair_tables = specs, tables
        self._arrays()
        shared = _SHARED.get(self._key)
        if shared is not None:
            for name in ("pair_specs", "pair_tables", "k_pairs", "pair_a", "pair_b"):
                shared[name] = getattr(self, name)

    @property
    def ball_pending(self) -> bool:
        """Whether the plan has a ball this search does not read yet."""
        return self.plan.ball is not None and self.radius < 0

    @property
    def shallow_pairs(self) -> bool:
        """Whether some pair table read is a shallow one (the full one not built yet)."""
        return any(a is not b for a, (_, _, b) in zip(self.pair_specs, self.plan.pairs))

    def want_ball(self, nodes: int, threshold: int, progress=None, cancel=None,
                  log=None) -> None:
        """Count `nodes` more searched with this set-up; past `threshold` in all, read (or
        build) the ball and the full pair tables: the searches have proved long enough to
        gain from them."""
        self.spent[0] += nodes
        if self.spent[0] <= threshold:
            return
        if self.shallow_pairs:
            self._load_full_pairs(progress, cancel, log)
        if self.ball_pending:
            self._load_ball(progress, cancel, log)

    # ---- searching ------------------------------------------------------------------------
    def lower_bound(self) -> int:
        """The least bound over the starts (cost units); NO_BOUND when none can reach."""
        best = int(NO_BOUND)
        for s in range(self.starts.shape[0]):
            best = min(best, int(self.hw[self._h(self.starts[s])]))
        return best

    def _h(self, c) -> int:
        h = 0
        for k in range(len(self.tables)):
            h = max(h, int(self.singles[k][c[k]]))
        for p, (a, b, _) in enumerate(self.plan.pairs):
            h = max(h, int(self.pair_tables[p][c[a] * self.tables[b].shape[0] + c[b]]))
        return h

    def run(self, bound: int, floor: int, out, counters, cancel) -> tuple[int, int]:
        """One kernel iteration into `out` (SolutionBuffer); (status, next bound)."""
        return search_bound(bound, floor, self.starts, self.start_frames, self.k_tables,
                            len(self.tables), self.k_singles, self.k_pairs, self.pair_a,
                            self.pair_b, len(self.pair_tables), self.ball, self.radius,
                            self.act.element, self.act.next_frame, self.move_cost,
                            self.act.fsm, self.hw, self.k_targets, out.moves, out.length,
                            out.start, out.frame, out.cost, out.count, counters, cancel)

    def read(self, out, i: int) -> Row:
        return self.read_rows(out, i, i + 1)[0]

    def read_rows(self, out, lo: int, hi: int) -> list[Row]:
        """The kernel's rows lo..hi-1 (read in bulk: numpy scalars one by one are slow)."""
        moves = out.moves[lo:hi].tolist()
        lengths = out.length[lo:hi].tolist()
        starts = out.start[lo:hi].tolist()
        frames = out.frame[lo:hi].tolist()
        costs = out.cost[lo:hi].tolist()
        return [Row(tuple(m[:n]), s, f, c)
                for m, n, s, f, c in zip(moves, lengths, starts, frames, costs)]

    def moves_of(self, row: Row) -> list[Move]:
        return [self.moves[m] for m in row.moves]

    def check(self, buffer, lo: int, hi: int) -> list[tuple[bool, Move | None]]:
        """(met, post-AUF turn) of the kernel's rows lo..hi-1, checked on the position
        (verify.py); where the AUF face as held changes along the way (moves turning the
        centres, with post-AUF), one by one in Python instead."""
        if len(self.act.frames) > 1 and self.auf in ("post", "both"):
            return [self.post_auf(self.moves_of(r), self.pre_moves[r.start])
                    for r in self.read_rows(buffer, lo, hi)]
        if self._verifier is None:
            self._verifier = self._make_verifier()
        starts = [self.state if pre is None else self.state * move_state(pre)
                  for pre in self.pre_moves]
        return self._verifier.check(buffer, lo, hi, starts)

    def _make_verifier(self) -> Verifier:
        auf_moves = []
        if self.auf in ("post", "both"):
            w = self.turned.rotation * rotation_with_centres(self.state.cc)
            auf_moves = [_held_move(w, move_state(Move(self.goal.auf, k))) for k in (1, 2, 3)]
        verifier = Verifier(self.turned, self.moves, auf_moves)
        shared = _SHARED.get(self._key)
        if shared is not None:
            shared["_verifier"] = verifier
        return verifier

    def post_auf(self, moves: list[Move], pre: Move | None) -> tuple[bool, Move | None]:
        """(met, the post-AUF turn) of a solution: the held turn of the AUF face after it
        (None when none is needed), verified on the start position."""
        if self._start_lists is None:
            self._start_lists = as_lists(self.state)
        s = apply_moves_lists(self._start_lists,
                              ([pre] if pre is not None else []) + list(moves))
        if self.turned.is_met(s):
            return True, None
        if self.auf not in ("post", "both"):
            return False, None
        w = self.turned.rotation * rotation_with_centres(s[4])
        for k in (1, 2, 3):
            m = _held_move(w, move_state(Move(self.goal.auf, k)))
            if m is not None and self.turned.is_met(apply_moves_lists(s, [m])):
                return True, m
        return False, None


@lru_cache(maxsize=64)
def _inverse(rotation: CubeState) -> CubeState:
    return rotation.inverse()


_INDEXES: dict = {}
_SHARED: dict = {}
MAX_SHARED = 64
"""Set-ups kept per process (each holds references to its tables, no copies)."""


def forget_setups() -> None:
    """Drop the shared set-ups (tests that clear the store)."""
    _SHARED.clear()
    _INDEXES.clear()


def _key_index(name: str, table: np.ndarray) -> KeyIndex:
    """One sorted key index per component table in this process (a case set's searches share
    the tables; sorting a million keys once is enough)."""
    hit = _INDEXES.get(name)
    if hit is None or hit[0] is not table:
        hit = (table, KeyIndex(table))
        _INDEXES[name] = hit
    return hit[1]


SMALL_TABLE = 64 << 20
"""Tables below this size are read where they are (built in memory, or the file's mapping with
its pages faulted in at once): a huge-page copy of them (tables.memory.resident) cost a first
cross a tenth of its time, and an F2L pair after it a third, for little gain at that size."""


def _resident(table: np.ndarray) -> np.ndarray:
    if table.nbytes < SMALL_TABLE:
        return faulted_in(table)
    return resident(table)


def _available(spec) -> bool:
    """Whether a table is in this process or on disk already (reading it costs no build)."""
    return is_loaded(spec) or table_status(spec)["built"]


def _readonly(a: np.ndarray) -> np.ndarray:
    """Stand-ins for absent tables look like the store's (read-only) ones to numba."""
    a.flags.writeable = False
    return a


def table_specs(problems_args) -> tuple:
    """The tables a goal search will read, without building any: the components, and the
    distance tables once the components are built (their sizes choose them)."""
    out = []
    for state, goal, moveset, costs, auf in problems_args:
        x0 = rotation_with_centres(state.cc)
        act = actions(moveset, goal.rotation, x0)
        items = items_of(goal.goal)
        auf_turn = move_state(Move(goal.goal.auf, 1)) if goal.goal.auf else None
        post = range(4) if auf in ("post", "both") else range(1)
        turns = [z * (auf_turn.power(-k) if auf_turn else CubeState.identity())
                 for z in goal.goal.rotations for k in post]
        tuples = targets(goal.goal, items, turns)
        context = f"{moveset.text} {costs.metric}"
        base = [metric_cost(m, costs.metric) for m in act.moves]
        plan = make_plan(items, act.elements, element_costs(act, base), tuples, context)
        out += [c.spec for c in plan.components]
        if all(table_status(c.spec)["built"] for c in plan.components):
            sizes = [load_or_build(c.spec).shape[0] for c in plan.components]
            done = finish(plan, items, tuples, sizes, context)
            out += done.singles
            out += [full if shallow is None or _available(full) else shallow
                    for (_, _, full), shallow in zip(done.pairs, done.shallow)]
            out += [done.ball] if done.ball is not None else []
    return tuple(dict.fromkeys(out))


class SolutionBuffer:
    """Arrays the kernel writes solutions into (`capacity` rows)."""

    def __init__(self, capacity: int):
        self.moves = np.zeros((capacity, MAX_DEPTH), np.int64)
        self.length = np.zeros(capacity, np.int64)
        self.start = np.zeros(capacity, np.int64)
        self.frame = np.zeros(capacity, np.int64)
        self.cost = np.zeros(capacity, np.int64)
        self.count = np.zeros(1, np.int64)

    def clear(self) -> None:
        self.count[0] = 0
