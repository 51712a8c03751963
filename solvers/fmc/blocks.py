"""Block steps (2x2x2 -> 2x2x3 -> F2L-1) and leave-slice finishes, as FMC steps.

Blocks. A block is the set of pieces lying in two-layer slabs: the 2x2x2 at a corner with
faces {a, b, c} is the pieces with none of the opposite faces (the corner and the three edges
between those faces); the 2x2x3 at an edge {a, b} is the pieces with neither opposite of a nor
of b (two corners, five edges); F2L-1 on a face d with the slot {x, y} open is the pieces
without the opposite of d, less the corner d-x-y and the edge x-y. Each later block keeps the
earlier one: a 2x2x3 follows a 2x2x2 at corner C only on an edge of C (3 choices), an F2L-1
follows a 2x2x3 at {a, b} on the face a or b with one of the two slots the block does not
touch open (4 choices). These are the catalog's goals (`2x2x2:C`, `2x2x3:E`, and `f2l-1`'s
D-face goal turned by the whole-cube rotation that brings its pieces onto the wanted ones), so
they share the goal engine's tables. A block is a subgroup (its pieces home), so NISS is sound.

Leave slice. From HTR (or from DR on an axis), everything solved but the four edges of one
slice (E for ud, S for fb, M for rl; from DR only the DR axis's slice), which are left in
their slice in any order, for insertions to solve. The step is searched exactly as the
best over the slice's orders: for each permutation s of the slice's edge slots, a solution
of the position P s (the slice edges re-labelled by s) in the step's move set leaves P A = s',
only the slice edges unsolved; the shortest over every s is the step's optimum. (With NISS,
B' P A is a conjugate of s' by A, a half turn sequence or a DR sequence keeping the slice's
slots, so it is a slice permutation too.)
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations

from cubelab.cube.pieces import CORNER_KOCIEMBA, EDGE_NAMES
from cubelab.cube.state import CubeState

OPPOSITE = {"U": "D", "D": "U", "R": "L", "L": "R", "F": "B", "B": "F"}
_SLICE_OF_AXIS = {"ud": "E", "fb": "S", "rl": "M"}
SLICE_SLOTS = {"ud": (8, 9, 10, 11), "fb": (0, 2, 4, 6), "rl": (1, 3, 5, 7)}
"""The edge slots of the slice between an axis's faces (Kociemba's order)."""


def _pieces_without(faces: set[str]) -> frozenset[str]:
    """Corner and edge names (Kociemba's) having none of `faces`."""
    return frozenset(n for n in CORNER_KOCIEMBA + EDGE_NAMES if not set(n) & faces)


def block_pieces(kind: str, where: str) -> frozenset[str]:
    """The pieces of a block: ("2x2x2", "DLB"), ("2x2x3", "DL"), ("f2l-1", "D-FR": face D,
    slot FR open)."""
    if kind in ("2x2x2", "2x2x3"):
        return _pieces_without({OPPOSITE[f] for f in where})
    face, _, slot = where.partition("-")
    f2l = _pieces_without({OPPOSITE[face]})
    corner = next(c for c in CORNER_KOCIEMBA if set(c) == {face, *slot})
    edge = next(e for e in EDGE_NAMES if set(e) == set(slot))
    return f2l - {corner, edge}


def _catalog_corner(faces: str) -> str:
    from cubelab.cube.pieces import CORNER_NAMES
    return next(c for c in CORNER_NAMES if set(c) == set(faces))


def _catalog_edge(faces: str) -> str:
    return next(e for e in EDGE_NAMES if set(e) == set(faces))


def block_goal(kind: str, where: str):
    """The TurnedGoal of a block."""
    from cubelab.cube.goal_catalog import resolve_goal
    if kind == "2x2x2":
        return resolve_goal(f"2x2x2:{_catalog_corner(where)}")[0]
    if kind == "2x2x3":
        return resolve_goal(f"2x2x3:{_catalog_edge(where)}")[0]
    return _f2l1_goal(where)


@lru_cache(maxsize=24)
def _f2l1_goal(where: str):
    """f2l-1's D-face goal (open slot FR, FL, BL or BR) turned by the rotation whose pieces are
    F2L-1 on `where`: the one whose checked pieces are exactly block_pieces("f2l-1", where)."""
    from cubelab.cube.goal_catalog import resolve_goal
    from cubelab.cube.goals import TurnedGoal
    from cubelab.cube.moves import rotations
    want = block_pieces("f2l-1", where)
    for base in resolve_goal("f2l-1:any"):
        for y in rotations():
            turned = TurnedGoal(base.goal, base.rotation * y, f"f2l-1:{where}")
            if _checked_pieces(turned) == want:
                return turned
    raise ValueError(f"no turned f2l-1 goal for {where}")   # not reached: 24 faces x slots


def _checked_pieces(goal) -> frozenset[str]:
    """The pieces a goal checks: those whose twist or flip alone makes it unmet."""
    out = set()
    for slot, name in enumerate(CORNER_KOCIEMBA):
        co = [0] * 8
        co[slot] = 1
        if not goal.is_met(CubeState(range(8), co, range(12), [0] * 12)):
            out.add(name)
    for slot, name in enumerate(EDGE_NAMES):
        eo = [0] * 12
        eo[slot] = 1
        if not goal.is_met(CubeState(range(8), [0] * 8, range(12), eo)):
            out.add(name)
    return frozenset(out)


def _edges_of_corner(corner: str) -> list[str]:
    return [a + b for i, a in enumerate(corner) for b in corner[i + 1:]]


def block_places(kind: str, previous: str | None) -> list[str]:
    """Where a block step may build (names as block_pieces takes), keeping `previous` (the
    place of the block before it, or None: any place)."""
    if kind == "2x2x2":
        return list(CORNER_KOCIEMBA)
    if kind == "2x2x3":
        if previous is None:
            return list(EDGE_NAMES)
        return [_catalog_edge(e) for e in _edges_of_corner(previous)]
    # f2l-1 keeping a 2x2x3 {a, b}: face a or b, one of the two slots away from the block
    if previous is None:
        faces = "UDRLFB"
        return [f"{f}-{_catalog_edge(x + y)}" for f in faces for x, y in _side_slots(f)]
    out = []
    for face in previous:
        other = next(g for g in previous if g != face)
        for x, y in _side_slots(face):
            if OPPOSITE[other] in (x, y):
                out.append(f"{face}-{_catalog_edge(x + y)}")
    return out


def _side_slots(face: str) -> list[tuple[str, str]]:
    """The four slots (pairs of side faces) around a face."""
    sides = [f for f in "UDRLFB" if f not in (face, OPPOSITE[face])]
    return [(a, b) for i, a in enumerate(sides) for b in sides[i + 1:] if b != OPPOSITE[a]]


def solved_blocks(position: CubeState, kind: str) -> list[str]:
    """The places where a block of this kind is solved in the position."""
    return [w for w in block_places(kind, None) if block_goal(kind, w).is_met(position)]


# ---- leave slice --------------------------------------------------------------------------------

def slice_permutations(axis: str) -> list[CubeState]:
    """The 24 re-labellings of the axis's slice edges (states moving those edges alone)."""
    slots = SLICE_SLOTS[axis]
    out = []
    for perm in permutations(slots):
        ep = list(range(12))
        for s, t in zip(slots, perm):
            ep[s] = t
        out.append(CubeState(range(8), [0] * 8, ep, [0] * 12))
    return out


def _perm_parity(p) -> int:
    p, seen, odd = [int(x) for x in p], set(), 0
    for i in range(len(p)):
        j, n = i, 0
        while j not in seen:
            seen.add(j)
            j, n = p[j], n + 1
        if n:
            odd ^= (n - 1) & 1
    return odd


def _parity(state: CubeState) -> int:
    """0 when the corner and edge permutations have the same parity (as face turns keep)."""
    return _perm_parity(state.cp) ^ _perm_parity(state.ep)


def only_slice_unsolved(state: CubeState, axis: str) -> bool:
    """Every piece solved but the axis's slice edges, which are in their slice, oriented."""
    from cubelab.cube.goals import turned_back
    s = turned_back(state)
    slots = SLICE_SLOTS[axis]
    return (all(int(s.cp[i]) == i and int(s.co[i]) == 0 for i in range(8))
            and all(int(s.eo[i]) == 0 for i in range(12))
            and all(int(s.ep[i]) == i for i in range(12) if i not in slots)
            and all(int(s.ep[i]) in slots for i in slots))


def solve_leave_slice(position: CubeState, axis: str, moves, niss: str = "never", *,
                      n: int | None = None, all: bool = False, counters=None, cancel=None, progress=None,
                      log=None, time_limit=None, on_solution=None):
    """The best leave-slice solutions (see the module docstring): a StepResult whose
    solutions leave only the slice's edges unsolved (checked on the model).
    `on_solution(StepSolution)` hears each as it is found, order by order of the slice (a
    front end lists them while the search goes on; the result ranks them)."""
    from cubelab.cube.goals import GoalError
    from ..goals.problem import Unreachable
    from ..protocol import Deadline, new_cancel, new_counters
    from .niss import StepResult, StepSolution, _merge, solve_step
    counters = new_counters() if counters is None else counters
    cancel = new_cancel() if cancel is None else cancel
    results = []
    label = f"leave slice {_SLICE_OF_AXIS[axis]}"
    heard: set[str] = set()

    def found(sol) -> None:
        if sol.text not in heard and only_slice_unsolved(sol.after(position), axis):
            heard.add(sol.text)
            on_solution(StepSolution(sol.normal, sol.inverse, label))
    with Deadline(cancel, time_limit) as clock:
        for s in slice_permutations(axis):
            if _parity(position * s) != 0:
                continue        # no face turns reach it (the search would not prove so)
            try:
                r = solve_step(position * s, "solved", moves, niss, n=None if all else n or 1,
                               all=all, counters=counters,
                               cancel=cancel, progress=progress, log=log,
                               on_solution=found if on_solution is not None else None)
            except (Unreachable, GoalError, ValueError):
                continue        # this order of the slice is not reachable in the move set
            if r.status == "not found" and not r.solutions:
                continue
            results.append(r)
            if cancel[0]:
                break
    if not results:
        return StepResult([], label, str(moves), niss, status="cancelled" if cancel[0]
                          else "not found")
    out = _merge(results, None if all else n or 1) if len(results) > 1 else results[0]
    seen, kept = set(), []
    for sol in sorted(out.solutions, key=StepSolution.sort_key):
        if sol.text in seen:
            continue
        seen.add(sol.text)
        if not only_slice_unsolved(sol.after(position), axis):
            raise RuntimeError(f"leave slice produced {sol.text}, which leaves more than the "
                               f"{_SLICE_OF_AXIS[axis]} slice")
        kept.append(StepSolution(sol.normal, sol.inverse, label))
    out.solutions = kept if all else kept[:n or 1]
    out.goal = label
    if cancel[0] and not out.optimal:
        out.status = "time limit" if clock.expired else "cancelled"
    return out


# ---- one step choice searched ------------------------------------------------------------------

def search_choice(position: CubeState, choice, niss: str = "never", **options):
    """Search one StepChoice (steps.py) from `position`: a leave slice by solve_leave_slice,
    anything else by niss.solve_step with its goal and move set; `options` go to either."""
    from .niss import solve_step
    if choice.kind == "ls":
        return solve_leave_slice(position, choice.axis, choice.moveset, niss, **options)
    return solve_step(position, choice.goal, choice.moveset, niss, **options)


def choice_met(choice, state: CubeState) -> bool:
    """Whether a state meets what the step choice searched for."""
    if choice.kind == "ls":
        return only_slice_unsolved(state, choice.axis)
    if isinstance(choice.goal, str):
        from cubelab.cube.goal_catalog import resolve_goal
        return any(g.is_met(state) for g in resolve_goal(choice.goal, state))
    return choice.goal.is_met(state)
