"""The workbench's session: positions with undo/redo, and the `:` command language of the input line.

Free of Textual so the plain REPL runs the same commands: a front end feeds lines to
`Session.execute` and acts on the returned `Outcome` (print its message, and carry out its
`request` when there is one: run solvers, show help). Letters are moves, so commands start with
a colon. Every change of position is one step of the undo history.
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass, field
from typing import Callable, Iterable

import numpy as np

from cubelab.cube.facelets import FaceletError, colours_from_text, state_colours, state_from_colours, to_facelets
from cubelab.cube.facts import unreachable_reason
from cubelab.cube.moves import apply_moves
from cubelab.cube.notation import Move, NotationError, format_moves, invert_moves, parse
from cubelab.cube.paths import state_dir
from cubelab.cube.pieces import FACES
from cubelab.cube.random_states import random_state
from cubelab.cube.state import CubeState

COMMANDS: dict[str, tuple[str, str]] = {
    "reset": ("", "back to the solved cube"),
    "scramble": ("[seed]", "a 20-move random scramble from solved (same seed, same scramble)"),
    "random": ("[seed]", "a uniformly random reachable position"),
    "facelets": ("<54 chars>", "set the position from a facelet string (URFDLB order)"),
    "undo": ("", "undo the last change"),
    "redo": ("", "redo what was undone"),
    "invert": ("", "replace the position (and its sequence) by its inverse"),
    "solve": ("[solver...]", "solve the position (default: the first solver available)"),
    "compare": ("[solver...]", "run several solvers side by side (default: all)"),
    "apply": ("N", "apply solution N of the solver table"),
    "play": ("[N]", "step through solution N move by move (default: the shortest)"),
    "paint": ("", "paint stickers to enter a real cube's position"),
    "save": ("NAME", "save the position and its sequence in the state directory"),
    "load": ("NAME", "load a saved position"),
    "saves": ("", "list the saved positions"),
    "help": ("", "list commands and keys"),
}
"""Command name -> (arguments, what it does); completion and help read it."""

SCRAMBLE_LENGTH = 20
SOLVER_PREFERENCE = ("kociemba", "thistlethwaite", "korf", "threecycle", "astar", "bfs")
"""Which solver `:solve` picks when none is named: the first one installed, fast ones first."""

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


# ---------------------------------------------------------------- what a line asks for

@dataclass(frozen=True)
class SolveRequest:
    """Run these solvers on the current position (side by side when `compare`)."""

    solvers: tuple[str, ...]
    compare: bool = False


@dataclass(frozen=True)
class HelpRequest:
    """Show the help (the message holds it as text for front ends without a help screen)."""


@dataclass(frozen=True)
class PaintRequest:
    """Enter paint mode (the session already holds the painting)."""


@dataclass(frozen=True)
class Outcome:
    """What executing a line did: a message for the user and maybe a request for the front end."""

    message: str = ""
    error: bool = False
    column: int = 0                  # 1-based column of a notation error in the line, else 0
    changed: bool = False            # the position changed
    request: SolveRequest | HelpRequest | PaintRequest | None = None


@dataclass(frozen=True)
class Preview:
    """A line read without executing it: the position it would give, or the error at its column."""

    state: CubeState | None = None
    moves: tuple[Move, ...] = ()
    error: str = ""
    column: int = 0


# ---------------------------------------------------------------- the history of positions

@dataclass(frozen=True)
class Entry:
    """One position of the undo history and how it was reached."""

    state: CubeState
    moves: tuple[Move, ...]   # the sequence applied since the position was last set outright
    label: str                # what made the change, for the user


@dataclass
class SolutionRow:
    """One solver's result in the comparison table (updated while the solver runs)."""

    solver: str
    for_state: CubeState
    moves: list[Move] | None = None
    seconds: float = 0.0
    nodes: int = 0
    optimal: bool = False
    status: str = "waiting"
    message: str = ""
    solutions: int = 0        # how many improving solutions arrived

    def lengths(self) -> dict[str, int] | None:
        from cubelab.cube.notation import metric_lengths
        return None if self.moves is None else metric_lengths(self.moves)


@dataclass
class Playback:
    """Stepping through a move list from a start position; `index` moves are done."""

    start: CubeState
    moves: list[Move]
    index: int = 0
    label: str = ""

    @property
    def state(self) -> CubeState:
        return apply_moves(self.start, self.moves[:self.index])

    def step(self, delta: int) -> bool:
        new = min(max(self.index + delta, 0), len(self.moves))
        moved = new != self.index
        self.index = new
        return moved

    def describe(self) -> str:
        done = format_moves(self.moves[:self.index])
        rest = format_moves(self.moves[self.index:])
        return f"{self.index}/{len(self.moves)}  {done} | {rest}".rstrip()


@dataclass
class Painting:
    """Stickers being painted by hand, a cursor, and what is wrong with them so far."""

    colours: list[int]
    cursor: int = 0

    @classmethod
    def of(cls, state: CubeState) -> "Painting":
        return cls([int(c) for c in state_colours(state)])

    def paint(self, face: int, advance: bool = True) -> None:
        self.colours[self.cursor] = face
        if advance:
            self.cursor = (self.cursor + 1) % 54

    def clear(self) -> None:
        self.colours = [-1] * 54
        for face in range(6):
            self.colours[face * 9 + 4] = face

    def state(self) -> CubeState:
        """The painted position; FaceletError says what is wrong."""
        missing = sum(1 for c in self.colours if c < 0)
        if missing:
            raise FaceletError(f"{missing} sticker{'s' if missing > 1 else ''} not painted yet")
        return state_from_colours(np.array(self.colours, dtype=np.int8))

    def verdict(self) -> tuple[bool, str]:
        """(usable, message): usable once the stickers form a valid assembly."""
        try:
            state = self.state()
        except FaceletError as e:
            return False, str(e)
        reason = unreachable_reason(state)
        if reason:
            return True, f"valid assembly, but {reason}"
        return True, "valid position: Enter uses it"


# ---------------------------------------------------------------- the session

class Session:
    """Positions with undo/redo, the solutions found for them, and the command interpreter.

    `solver_names` says which solvers exist (a callable, so solvers installed later appear).
    """

    def __init__(self, solver_names: Callable[[], list[str]] | None = None,
                 saves_dir=None):
        self._solver_names = solver_names or (lambda: [])
        self._saves_dir = saves_dir
        self.history: list[Entry] = [Entry(CubeState.identity(), (), "start")]
        self.cursor = 0
        self.solutions: list[SolutionRow] = []
        self.playback: Playback | None = None
        self.painting: Painting | None = None

    # ---- the current position ------------------------------------------------------------
    @property
    def entry(self) -> Entry:
        return self.history[self.cursor]

    @property
    def state(self) -> CubeState:
        return self.entry.state

    @property
    def moves(self) -> tuple[Move, ...]:
        return self.entry.moves

    def shown_state(self) -> CubeState:
        """What the net shows: the playback position while stepping, else the current one."""
        return self.playback.state if self.playback else self.state

    def solver_names(self) -> list[str]:
        return list(self._solver_names())

    # ---- changes (each one is an undo step) ----------------------------------------------
    def _push(self, entry: Entry) -> None:
        del self.history[self.cursor + 1:]
        self.history.append(entry)
        self.cursor += 1
        self.playback = None

    def apply(self, moves: Iterable[Move], label: str | None = None) -> None:
        moves = tuple(moves)
        label = label if label is not None else format_moves(moves)
        self._push(Entry(apply_moves(self.state, moves), self.moves + moves, label))

    def set_position(self, state: CubeState, label: str, moves: Iterable[Move] = ()) -> None:
        self._push(Entry(state, tuple(moves), label))

    def undo(self) -> Entry | None:
        """Step back; returns the entry undone, or None when there is nothing to undo."""
        if self.cursor == 0:
            return None
        self.playback = None
        self.cursor -= 1
        return self.history[self.cursor + 1]

    def redo(self) -> Entry | None:
        if self.cursor + 1 >= len(self.history):
            return None
        self.playback = None
        self.cursor += 1
        return self.entry

    # ---- reading lines --------------------------------------------------------------------
    def preview(self, line: str) -> Preview | None:
        """The position a move line would give, without applying it (None for commands)."""
        text = line.strip()
        if text.startswith(":"):
            return None
        if not text:
            return Preview(self.state, ())
        try:
            moves = tuple(parse(line).flatten())
        except NotationError as e:
            return Preview(error=str(e), column=e.column)
        return Preview(apply_moves(self.state, moves), moves)

    def execute(self, line: str) -> Outcome:
        """Run one line: moves, or a `:` command."""
        text = line.strip()
        if not text:
            return Outcome()
        if not text.startswith(":"):
            return self._moves_line(line)
        name, _, rest = text[1:].partition(" ")
        args = rest.split()
        matches = [c for c in COMMANDS if c.startswith(name.lower())] if name else []
        if name.lower() in COMMANDS:
            matches = [name.lower()]
        if len(matches) != 1:
            hint = f" (did you mean {', '.join(':' + m for m in matches)}?)" if matches else \
                " (:help lists them)"
            return Outcome(f"unknown command :{name}{hint}", error=True)
        handler = getattr(self, "_cmd_" + matches[0])
        return handler(args, rest.strip())

    def _moves_line(self, line: str) -> Outcome:
        try:
            tree = parse(line)
            moves = tree.flatten()
        except NotationError as e:
            return Outcome(str(e), error=True, column=e.column)
        if not moves:
            return Outcome("no moves (they cancel out)")
        self.apply(moves, str(tree))
        return Outcome(f"applied {len(moves)} move{'s' if len(moves) != 1 else ''}", changed=True)

    # ---- commands ---------------------------------------------------------------------------
    def _cmd_reset(self, args, rest) -> Outcome:
        self.set_position(CubeState.identity(), ":reset")
        return Outcome("solved cube", changed=True)

    def _seed(self, args) -> tuple[int | None, Outcome | None]:
        if not args:
            return secrets.randbelow(10**6), None
        try:
            return int(args[0]), None
        except ValueError:
            return None, Outcome(f"the seed must be a whole number, not {args[0]!r}", error=True)

    def _cmd_scramble(self, args, rest) -> Outcome:
        seed, bad = self._seed(args)
        if bad:
            return bad
        moves = scramble_moves(seed)
        self.set_position(apply_moves(CubeState.identity(), moves), f":scramble {seed}", moves)
        return Outcome(f"scramble (seed {seed}): {format_moves(moves)}", changed=True)

    def _cmd_random(self, args, rest) -> Outcome:
        seed, bad = self._seed(args)
        if bad:
            return bad
        self.set_position(random_state(seed), f":random {seed}")
        return Outcome(f"random position (seed {seed})", changed=True)

    def _cmd_facelets(self, args, rest) -> Outcome:
        try:
            state = state_from_colours(colours_from_text(rest))
        except FaceletError as e:
            return Outcome(str(e), error=True)
        self.set_position(state, ":facelets")
        reason = unreachable_reason(state)
        return Outcome("position set" + (f" ({reason})" if reason else ""), changed=True)

    def _cmd_undo(self, args, rest) -> Outcome:
        undone = self.undo()
        if undone is None:
            return Outcome("nothing to undo", error=True)
        return Outcome(f"undid {undone.label}", changed=True)

    def _cmd_redo(self, args, rest) -> Outcome:
        redone = self.redo()
        if redone is None:
            return Outcome("nothing to redo", error=True)
        return Outcome(f"redid {redone.label}", changed=True)

    def _cmd_invert(self, args, rest) -> Outcome:
        self.set_position(self.state.inverse(), ":invert", invert_moves(self.moves))
        return Outcome("inverted", changed=True)

    def _solver_args(self, args, compare: bool) -> tuple[tuple[str, ...], Outcome | None]:
        names = self.solver_names()
        if not names:
            return (), Outcome("no solver is installed yet", error=True)
        unknown = [a for a in args if a not in names]
        if unknown:
            return (), Outcome(f"unknown solver {unknown[0]!r} (choose from {', '.join(names)})",
                               error=True)
        if args:
            return tuple(dict.fromkeys(args)), None
        if compare:
            return tuple(names), None
        preferred = [n for n in SOLVER_PREFERENCE if n in names] or names
        return (preferred[0],), None

    def _cmd_solve(self, args, rest) -> Outcome:
        chosen, bad = self._solver_args(args, compare=False)
        if bad:
            return bad
        return Outcome(f"solving with {', '.join(chosen)}", request=SolveRequest(chosen, False))

    def _cmd_compare(self, args, rest) -> Outcome:
        chosen, bad = self._solver_args(args, compare=True)
        if bad:
            return bad
        return Outcome(f"comparing {', '.join(chosen)}", request=SolveRequest(chosen, True))

    def _row(self, args, default_best: bool) -> tuple[int | None, Outcome | None]:
        if not self.solutions:
            return None, Outcome("no solutions yet (:solve or :compare first)", error=True)
        if not args and default_best:
            found = [i for i, r in enumerate(self.solutions) if r.moves is not None]
            if not found:
                return None, Outcome("no solver has found a solution yet", error=True)
            return min(found, key=lambda i: len(self.solutions[i].moves)), None
        if not args or not args[0].isdigit() or not 1 <= int(args[0]) <= len(self.solutions):
            return None, Outcome(f"give a row number from 1 to {len(self.solutions)}", error=True)
        index = int(args[0]) - 1
        if self.solutions[index].moves is None:
            return None, Outcome(f"row {index + 1} has no solution", error=True)
        return index, None

    def add_result(self, result, state: CubeState | None = None) -> int:
        """Record a finished SolveResult as a row (front ends without a live table use this);
        returns its index for `:apply N` / `:play N` (N = index + 1)."""
        state = self.state if state is None else state
        self.solutions = [r for r in self.solutions if r.for_state == state]
        self.solutions.append(SolutionRow(
            result.solver, state, list(result.moves) if result.moves is not None else None,
            float(result.seconds), int(result.nodes), bool(result.optimal), result.status,
            solutions=len(result.solutions)))
        return len(self.solutions) - 1

    def _cmd_apply(self, args, rest) -> Outcome:
        index, bad = self._row(args, default_best=False)
        if bad:
            return bad
        return self.apply_solution(index)

    def apply_solution(self, index: int) -> Outcome:
        row = self.solutions[index]
        if row.moves is None:
            return Outcome(f"row {index + 1} has no solution", error=True)
        if row.for_state != self.state:
            return Outcome(f"solution {index + 1} was found for another position", error=True)
        self.apply(row.moves, f"{row.solver} solution")
        return Outcome(f"applied {row.solver}'s solution ({len(row.moves)} moves)", changed=True)

    def _cmd_play(self, args, rest) -> Outcome:
        index, bad = self._row(args, default_best=True)
        if bad:
            return bad
        return self.play(index)

    def play(self, index: int) -> Outcome:
        row = self.solutions[index]
        if row.moves is None:
            return Outcome(f"row {index + 1} has no solution", error=True)
        if row.for_state != self.state:
            return Outcome(f"solution {index + 1} was found for another position", error=True)
        self.playback = Playback(self.state, list(row.moves), 0, f"{row.solver} solution")
        return Outcome(f"playing {row.solver}'s solution: left/right step, Enter keeps, Esc leaves",
                       changed=True)

    def step(self, delta: int) -> bool:
        return self.playback.step(delta) if self.playback else False

    def keep_playback(self) -> Outcome:
        """Make the position reached while stepping the current one (an undo step)."""
        pb = self.playback
        if pb is None:
            return Outcome()
        self.playback = None
        if pb.index == 0:
            return Outcome("left playback")
        self.apply(pb.moves[:pb.index], f"{pb.label} ({pb.index}/{len(pb.moves)})")
        return Outcome(f"kept {pb.index} of {len(pb.moves)} moves", changed=True)

    def _cmd_paint(self, args, rest) -> Outcome:
        self.painting = Painting.of(self.state)
        return Outcome("paint: arrows move, W R G Y O B (or U R F D L B, 1-6) paint, Backspace "
                       "blanks, Delete blanks all, Enter uses it, Esc leaves",
                       request=PaintRequest())

    def finish_painting(self) -> Outcome:
        """Use the painted position if it is a valid assembly."""
        if self.painting is None:
            return Outcome()
        usable, message = self.painting.verdict()
        if not usable:
            return Outcome(message, error=True)
        state = self.painting.state()
        self.painting = None
        if state == self.state:
            return Outcome("painting unchanged")
        self.set_position(state, ":paint")
        return Outcome(message.replace(": Enter uses it", ""), changed=True)

    # ---- saves --------------------------------------------------------------------------------
    def saves_dir(self):
        return self._saves_dir if self._saves_dir is not None else state_dir() / "saves"

    def _save_path(self, args):
        if len(args) != 1 or not _NAME.match(args[0]):
            return None, Outcome("give one name: letters, digits, '.', '_' or '-'", error=True)
        return self.saves_dir() / f"{args[0]}.json", None

    def _cmd_save(self, args, rest) -> Outcome:
        path, bad = self._save_path(args)
        if bad:
            return bad
        record = {"facelets": to_facelets(self.state), "alg": format_moves(self.moves),
                  "label": self.entry.label}
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(record) + "\n", encoding="utf-8")
            tmp.replace(path)
        except OSError as e:
            return Outcome(f"cannot save {args[0]}: {e.strerror}", error=True)
        return Outcome(f"saved {args[0]} ({path})")

    def _cmd_load(self, args, rest) -> Outcome:
        path, bad = self._save_path(args)
        if bad:
            return bad
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
            state = state_from_colours(colours_from_text(record["facelets"]))
            moves = parse(record.get("alg", "")).flatten()
        except FileNotFoundError:
            names = self.save_names()
            known = f" (saved: {', '.join(names)})" if names else ""
            return Outcome(f"no save named {args[0]}{known}", error=True)
        except (OSError, ValueError, KeyError, TypeError) as e:
            return Outcome(f"cannot load {args[0]}: {e}", error=True)
        # the saved sequence only counts if it still describes the saved position
        if apply_moves(CubeState.identity(), moves) != state:
            moves = []
        self.set_position(state, f":load {args[0]}", moves)
        return Outcome(f"loaded {args[0]}", changed=True)

    def save_names(self) -> list[str]:
        try:
            return sorted(p.stem for p in self.saves_dir().glob("*.json"))
        except OSError:
            return []

    def _cmd_saves(self, args, rest) -> Outcome:
        names = self.save_names()
        return Outcome("saved: " + ", ".join(names) if names else "no saved positions")

    def _cmd_help(self, args, rest) -> Outcome:
        return Outcome(help_text(), request=HelpRequest())

    # ---- completion -------------------------------------------------------------------------
    def completions(self, line: str) -> list[str]:
        """Whole-line completions of a `:` command line: command names, then solver or save names."""
        if not line.startswith(":"):
            return []
        name, space, rest = line[1:].partition(" ")
        if not space:
            return [f":{c}" for c in COMMANDS if c.startswith(name.lower())]
        words = rest.split(" ")
        head = " ".join(words[:-1])
        prefix = f":{name} " + (head + " " if head else "")
        if name in ("solve", "compare"):
            pool = [n for n in self.solver_names() if n not in words[:-1]]
        elif name == "load":
            pool = self.save_names()
        else:
            return []
        return [prefix + n for n in pool if n.startswith(words[-1])]


def scramble_moves(seed: int, length: int = SCRAMBLE_LENGTH) -> list[Move]:
    """A random face-turn scramble: never the same face twice in a row, and never three turns on
    one axis in a row (which would let two of them merge)."""
    rng = np.random.default_rng(seed)
    axis = {f: i % 3 for i, f in enumerate(FACES)}
    out: list[Move] = []
    while len(out) < length:
        face = FACES[int(rng.integers(6))]
        if out and out[-1].family == face:
            continue
        if len(out) >= 2 and axis[out[-1].family] == axis[out[-2].family] == axis[face]:
            continue
        out.append(Move(face, int(rng.integers(1, 4))))
    return out


def help_text() -> str:
    """The commands as text lines (the plain REPL prints this for :help)."""
    lines = ["Type moves (R U R' U', [R, U]3, [F: [R, U]], (R U)5 ...) and Enter; commands:"]
    for name, (args, what) in COMMANDS.items():
        lines.append(f"  :{name} {args}".ljust(24) + what)
    return "\n".join(lines)
