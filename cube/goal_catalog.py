"""Named goals and move sets: the data file (goals.toml), the user's additions, and how a name
with an argument (`cross:U`, `eo:ud`, `f2l-pair:any`) becomes goals to search.

The package ships goals.toml; a goals.toml in the user's config directory (`paths.config_dir`)
adds entries or replaces them by name. `resolve_goal` reads what users type: a name, a name
with `:ARG`, or else a piece list (piece_lists.py). An argument turns the goal written for its
canonical face, axis, slot, corner or edge with a whole-cube rotation; `any` gives one goal per
choice (a search keeps the best). Arguments name faces as the cube is held: given the start
position, a face is mapped to the colour whose centre sits there.
"""

from __future__ import annotations

import difflib
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from .files import FileProblem, read_small_file
from .goals import Goal, GoalError, Joint, TurnedGoal
from .moves import family_state, rotations
from .movesets import MoveSet, parse_moveset
from .paths import config_dir
from .piece_lists import parse_piece_list
from .pieces import CORNER_NAMES, EDGE_NAMES, FACES, corner_slot, edge_slot
from .state import CubeState

USER_FILE = "goals.toml"
MAX_FILE_BYTES = 1 << 20

ARG_CHOICES = {
    "face": tuple(FACES),
    "axis": ("ud", "fb", "rl"),
    "slot": ("FR", "FL", "BL", "BR"),
    "corner": tuple(CORNER_NAMES),
    "edge": tuple(EDGE_NAMES),
}
"""What each kind of argument may be (besides `any`)."""

_AXIS_FACES = {"ud": "UD", "fb": "FB", "rl": "RL"}


@dataclass(frozen=True)
class GoalEntry:
    """One named goal as the data file gives it."""

    name: str
    pieces: str
    about: str = ""
    joint: str = ""
    arg: str = ""
    canonical: str = ""
    default: str = ""
    auf: str | None = None
    source: str = "built in"

    def goal(self) -> Goal:
        return _build(self)

    @property
    def choices(self) -> tuple[str, ...]:
        return ARG_CHOICES.get(self.arg, ())


def _build(entry: GoalEntry) -> Goal:
    where = f"goal {entry.name!r} ({entry.source})"
    try:
        base = parse_piece_list(entry.pieces, entry.name)
    except GoalError as e:
        raise GoalError(f"{where}: pieces: {e}") from None
    joints = ()
    if entry.joint:
        if entry.joint != "half-turn-corners":
            raise GoalError(f"{where}: unknown joint condition {entry.joint!r} "
                            "(known: half-turn-corners)")
        joints = (half_turn_corners(),)
    auf = entry.auf
    if auf is not None and auf not in FACES:
        raise GoalError(f"{where}: auf {auf!r} is not a face letter")
    corners = base.corners
    if joints:
        corners = (None,) * 8
    return Goal(entry.name, corners, base.edges, base.centres, joints, entry.about, auf)


@lru_cache(maxsize=1)
def half_turn_corners() -> Joint:
    """The 96 corner positions the six half turns reach, as codes (slot * 3, corners untwisted)."""
    steps = [family_state(f).power(2) for f in FACES]
    seen = {CubeState.identity().cp.tobytes(): CubeState.identity()}
    frontier = [CubeState.identity()]
    while frontier:
        nxt = []
        for s in frontier:
            for g in steps:
                t = s * g
                key = t.cp.tobytes()
                if key not in seen:
                    seen[key] = t
                    nxt.append(t)
        frontier = nxt
    targets = set()
    for s in seen.values():
        where = {int(p): slot for slot, p in enumerate(s.cp)}
        targets.add(tuple(where[p] * 3 for p in range(8)))
    assert len(targets) == 96
    return Joint("c", tuple(range(8)), frozenset(targets), "corners in a half-turn position")


@dataclass(frozen=True, eq=False)
class Catalog:
    goals: dict
    movesets: dict
    sources: tuple

    def entry(self, name: str) -> GoalEntry:
        try:
            return self.goals[name]
        except KeyError:
            close = difflib.get_close_matches(name, self.goals, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise GoalError(f"unknown goal {name!r}{hint}; goals: "
                            + ", ".join(sorted(self.goals))) from None


def _entries(data: dict, source: str) -> tuple[dict, dict]:
    goals, movesets = {}, {}
    for key in data:
        if key not in ("goals", "movesets"):
            raise GoalError(f"{source}: unknown table [{key}] (use [goals.NAME] or [movesets])")
    for name, body in data.get("goals", {}).items():
        if not isinstance(body, dict) or not isinstance(body.get("pieces"), str):
            raise GoalError(f"{source}: goal {name!r} needs pieces = \"...\" (a piece list)")
        unknown = set(body) - {"about", "pieces", "joint", "arg", "canonical", "default", "auf"}
        if unknown:
            raise GoalError(f"{source}: goal {name!r}: unknown key {sorted(unknown)[0]!r}")
        entry = GoalEntry(name, body["pieces"], str(body.get("about", "")),
                          str(body.get("joint", "")), str(body.get("arg", "")),
                          str(body.get("canonical", "")), str(body.get("default", "")),
                          body.get("auf"), source)
        if entry.arg and entry.arg not in ARG_CHOICES:
            raise GoalError(f"{source}: goal {name!r}: arg {entry.arg!r} is not one of "
                            + ", ".join(ARG_CHOICES))
        if entry.arg and _norm(entry, entry.canonical) is None:
            raise GoalError(f"{source}: goal {name!r}: canonical {entry.canonical!r} is not "
                            f"{_a(entry.arg)}")
        entry.goal()   # checks the pieces now, with the file named
        goals[name] = entry
    for name, text in data.get("movesets", {}).items():
        try:
            parse_moveset(str(text))
        except ValueError as e:
            raise GoalError(f"{source}: move set {name!r}: {e}") from None
        movesets[name.lower()] = str(text)
    return goals, movesets


def _read_toml(path: Path, source: str) -> dict:
    try:
        raw = read_small_file(path, MAX_FILE_BYTES)
        return tomllib.loads(raw.decode("utf-8"))
    except (FileProblem, UnicodeDecodeError) as e:
        raise GoalError(f"{source}: {e}") from None
    except tomllib.TOMLDecodeError as e:
        raise GoalError(f"{source}: {e}") from None


def user_file() -> Path:
    return config_dir() / USER_FILE


def catalog() -> Catalog:
    """The built-in goals, with the user's file over them (read again when it changes)."""
    path = user_file()
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        stamp = None
    return _catalog(str(path), stamp)


@lru_cache(maxsize=4)
def _catalog(path: str, stamp) -> Catalog:
    text = resources.files("cubelab.cube").joinpath("goals.toml").read_text("utf-8")
    goals, movesets = _entries(tomllib.loads(text), "built-in goals.toml")
    sources = ["built in"]
    if stamp is not None:
        user_goals, user_sets = _entries(_read_toml(Path(path), path), path)
        goals.update(user_goals)
        movesets.update(user_sets)
        sources.append(path)
    return Catalog(goals, movesets, tuple(sources))


def goal_names() -> list[str]:
    return sorted(catalog().goals)


def moveset_names() -> list[str]:
    return sorted(catalog().movesets)


def resolve_moveset(text: str) -> MoveSet:
    """A move set as typed, named sets included (MoveSetError for anything else)."""
    return _moveset(text, catalog())


@lru_cache(maxsize=256)
def _moveset(text: str, cat: Catalog) -> MoveSet:
    return parse_moveset(text, cat.movesets)


def _a(kind: str) -> str:
    """'a face', 'an edge', 'an axis'."""
    return f"{'an' if kind[0] in 'aeiou' else 'a'} {kind}"


def _norm(entry: GoalEntry, value: str) -> str | None:
    """An argument in its canonical spelling, or None when it is not one of the choices."""
    v = value.strip()
    if entry.arg == "axis":
        v = v.lower()
        return v if v in ARG_CHOICES["axis"] else None
    if entry.arg == "corner":
        try:
            return CORNER_NAMES[corner_slot(v)]
        except KeyError:
            return None
    if entry.arg == "edge":
        try:
            return EDGE_NAMES[edge_slot(v)]
        except KeyError:
            return None
    if entry.arg == "slot":
        v = v.upper()
        for s in ARG_CHOICES["slot"]:
            if sorted(s) == sorted(v):
                return s
        return None
    v = v.upper()
    return v if v in FACES else None


def _faces(entry: GoalEntry, value: str) -> list[tuple[str, str]]:
    """Constraints a rotation must meet: (faces of the choice, faces of the canonical)."""
    kind, canon = entry.arg, _norm(entry, entry.canonical)
    if kind == "face":
        return [(value, canon)]
    if kind == "axis":
        return [(_AXIS_FACES[value], _AXIS_FACES[canon])]
    if kind == "slot":
        return [("D", "D"), (value, canon)]
    return [(value, canon)]


def _rotation(constraints: list[tuple[str, str]], start: CubeState | None) -> CubeState:
    """The first rotation Y sending each choice's faces (as held in `start`, so by the colour
    of the centre there) onto the canonical faces, as sets."""
    def colour(face: str) -> str:
        return face if start is None else FACES[int(start.cc[FACES.index(face)])]
    for r in rotations():
        if all({FACES[int(r.cc[FACES.index(colour(f))])] for f in held} == set(canon)
               for held, canon in constraints):
            return r
    raise GoalError(f"no rotation meets {constraints}")


def resolve_goal(text: str, start: CubeState | None = None) -> list[TurnedGoal]:
    """The goals a name (`cross`, `cross:U`, `eo:any`) or a piece list stands for, turned for
    the start position's held orientation; GoalError with the reason (and close names)."""
    held = None if start is None or start.centres_home() else start.cc.tobytes()
    return list(_resolve(text, held, catalog()))


@lru_cache(maxsize=256)
def _resolve(text, held, cat) -> tuple:
    start = None if held is None else CubeState(range(8), [0] * 8, range(12), [0] * 12,
                                                list(held))
    return tuple(_resolve_goal(text, start, cat))


def _resolve_goal(text: str, start, cat) -> list[TurnedGoal]:
    if text is None or not text.strip():
        raise GoalError("empty goal (a name such as cross, or a piece list)")
    text = text.strip()
    name, sep, arg = text.partition(":")
    if name in cat.goals and " " not in text:
        entry = cat.goals[name]
        goal = entry.goal()
        if not entry.arg:
            if sep:
                raise GoalError(f"goal {name!r} takes no argument ({text!r})", len(name) + 1)
            return [TurnedGoal(goal, CubeState.identity(), name)]
        value = arg if sep else (entry.default or entry.canonical)
        if value.strip().lower() == "any":
            values = list(entry.choices)
        else:
            v = _norm(entry, value)
            if v is None:
                raise GoalError(f"{text!r}: {value!r} is not {_a(entry.arg)} (choose "
                                + ", ".join(entry.choices) + " or any)", len(name) + 2)
            values = [v]
        out = []
        for v in values:
            rotation = _rotation(_faces(entry, v), start)
            out.append(TurnedGoal(goal, rotation, f"{name}:{v}"))
        return out
    if " " not in text and ":" not in text and text.isidentifier() and len(text) > 3:
        cat.entry(text)     # an unknown single word: say so, with the names there are
    try:
        return [TurnedGoal(parse_piece_list(text), CubeState.identity(), text)]
    except GoalError as e:
        if " " not in text and name not in cat.goals and not _looks_like_pieces(text):
            close = difflib.get_close_matches(name, cat.goals, n=1)
            if close:
                raise GoalError(f"unknown goal {name!r} (did you mean {close[0]}?)") from None
        raise e


def _looks_like_pieces(text: str) -> bool:
    head = text.split(":")[0]
    return len(head) in (2, 3) and head.isalpha()
