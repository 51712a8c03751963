"""The workbench's session: positions with undo/redo, and the `:` command language of the input line.

Free of Textual so the plain REPL runs the same commands: a front end feeds lines to
`Session.execute` and acts on the returned `Outcome` (print its message, and carry out its
`request` when there is one: run solvers or a search, show help). Letters are moves, so
commands start with a colon. Every change of position is one step of the undo history, and so
is a switch between the 3x3x3 and the 2x2x2: each history entry knows its puzzle
(cube/puzzles.py), so undo walks back across a switch like across any change.
"""

from __future__ import annotations

import json
import re
import secrets
import textwrap
from dataclasses import dataclass, field
from typing import Callable, Iterable

from cubelab.cube.facelets import FaceletError
from cubelab.cube.alg import Move, NotationError
from cubelab.cube.notation import format_moves, invert_moves, parse
from cubelab.cube.paths import state_dir
from cubelab.cube.pieces import FACES
from cubelab.cube.puzzles import PUZZLES, puzzle_named, puzzle_of
from cubelab.cube.random_states import face_scramble

COMMANDS: dict[str, tuple[str, str]] = {
    "reset": ("", "back to the solved cube"),
    "scramble": ("[seed]", "a random scramble from solved: 20 moves, 11 on the 2x2x2 (same seed, same scramble)"),
    "random": ("[seed]", "a uniformly random reachable position"),
    "facelets": ("<54|24 chars>", "set the position from a facelet string (URFDLB order)"),
    "undo": ("", "undo the last change"),
    "redo": ("", "redo what was undone"),
    "invert": ("", "replace the position (and its sequence) by its inverse"),
    "solve": ("[solver...]", "solve the position (default: the first solver available)"),
    "compare": ("[solver...]", "run several solvers side by side (default: all)"),
    "apply": ("N", "apply row N of the list on show (solutions, or search results)"),
    "play": ("[N]", "step through row N move by move (default: the shortest)"),
    "search": ("N [qtm] [auf] PRED", "sequences of up to N moves meeting PRED, one per class "
               "(3x3x3)"),
    "puzzle": ("[2x2|3x3]", "switch cubes (one undo step); the position's corners carry over"),
    "paint": ("", "paint stickers to enter a real cube's position"),
    "save": ("NAME", "save the position and its sequence in the state directory"),
    "load": ("NAME", "load a saved position"),
    "saves": ("", "list the saved positions"),
    "help": ("", "list commands and keys"),
}
"""Command name -> (arguments, what it does); completion and help read it."""

SCRAMBLE_LENGTH = 20
SOLVER_PREFERENCE = ("kociemba", "thistlethwaite", "korf", "threecycle", "astar", "bfs",
                     "pocket-htm")
"""Which solver `:solve` picks when none is named: the first one installed, fast ones first."""
SEARCH_MAX_LENGTH = 20
SEARCH_PREDICATES = "ll, only PIECE..., corner-3cycle, edge-3cycle, orient, equals [ALG]"

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


# ---------------------------------------------------------------- what a line asks for

@dataclass(frozen=True)
class SolveRequest:
    """Run these solvers on the current position (side by side when `compare`)."""

    solvers: tuple[str, ...]
    compare: bool = False


@dataclass(frozen=True)
class SearchRequest:
    """Run the algorithm search and list one sequence per class of effects it finds."""

    predicate: object          # a cubelab.solvers.algsearch.Predicate
    max_length: int
    metric: str = "htm"
    auf: bool = False

    def describe(self) -> str:
        return (f"{self.predicate.description}; up to {self.max_length} {self.metric.upper()}"
                + (", classes up to AUF" if self.auf else ""))


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
    request: SolveRequest | SearchRequest | HelpRequest | PaintRequest | None = None


@dataclass(frozen=True)
class Preview:
    """A line read without executing it: the position it would give, or the error at its column."""

    state: object = None             # CubeState or PocketState, as the puzzle has it
    moves: tuple[Move, ...] = ()
    error: str = ""
    column: int = 0


# ---------------------------------------------------------------- the history of positions

@dataclass(frozen=True)
class Entry:
    """One position of the undo history and how it was reached."""

    state: object             # a CubeState (3x3) or a PocketState (2x2)
    moves: tuple[Move, ...]   # the sequence applied since the position was last set outright
    label: str                # what made the change, for the user
    puzzle: str = "3x3"       # which cube: undo across a switch of puzzles restores it


@dataclass
class SolutionRow:
    """One solver's result in the comparison table (updated while the solver runs)."""

    solver: str
    for_state: object
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

    start: object
    moves: list[Move]
    index: int = 0
    label: str = ""

    @property
    def state(self):
        return puzzle_of(self.start).apply(self.start, self.moves[:self.index])

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
    puzzle: str = "3x3"

    @classmethod
    def of(cls, state) -> "Painting":
        puzzle = puzzle_of(state)
        return cls(puzzle.colours(state), puzzle=puzzle.name)

    def paint(self, face: int, advance: bool = True) -> None:
        self.colours[self.cursor] = face
        if advance:
            self.cursor = (self.cursor + 1) % len(self.colours)

    def clear(self) -> None:
        self.colours = PUZZLES[self.puzzle].blank()

    def state(self):
        """The painted position; a ValueError (FaceletError, PocketError) says what is wrong."""
        missing = sum(1 for c in self.colours if c < 0)
        if missing:
            raise FaceletError(f"{missing} sticker{'s' if missing > 1 else ''} not painted yet")
        return PUZZLES[self.puzzle].from_colours(self.colours)

    def verdict(self) -> tuple[bool, str]:
        """(usable, message): usable once the stickers form a valid assembly."""
        try:
            state = self.state()
        except ValueError as e:
            return False, str(e)
        reason = PUZZLES[self.puzzle].unreachable(state)
        if reason:
            return True, f"valid assembly, but {reason}"
        return True, "valid position: Enter uses it"


# ---------------------------------------------------------------- the session

class Session:
    """Positions with undo/redo, the solutions found for them, and the command interpreter.

    `solver_names(puzzle)` says which solvers a puzzle has (a callable, so solvers installed
    later appear); `puzzle` is the cube to start with.
    """

    def __init__(self, solver_names: Callable[[str], list[str]] | None = None,
                 saves_dir=None, *, puzzle: str = "3x3"):
        self._names_of = solver_names or (lambda puzzle: [])
        self._saves_dir = saves_dir
        start = puzzle_named(puzzle)
        self.history: list[Entry] = [Entry(start.identity(), (), "start", start.name)]
        self.cursor = 0
        self.solutions: list[SolutionRow] = []
        self.found: list = []               # search results (algsearch.AlgClass), in order
        self.listing = "solutions"          # which list :apply N and :play N pick from
        self.playback: Playback | None = None
        self.painting: Painting | None = None

    # ---- the current position ------------------------------------------------------------
    @property
    def entry(self) -> Entry:
        return self.history[self.cursor]

    @property
    def state(self):
        return self.entry.state

    @property
    def puzzle(self):
        """The cube of the current position (a cube.puzzles puzzle)."""
        return PUZZLES[self.entry.puzzle]

    @property
    def moves(self) -> tuple[Move, ...]:
        return self.entry.moves

    def shown_state(self):
        """What the net shows: the playback position while stepping, else the current one."""
        return self.playback.state if self.playback else self.state

    def solver_names(self) -> list[str]:
        """The solvers of the current puzzle."""
        return list(self._names_of(self.puzzle.name))

    # ---- changes (each one is an undo step) ----------------------------------------------
    def _move_to(self, cursor: int) -> None:
        before = self.entry.puzzle
        self.cursor = cursor
        self.playback = None
        if self.entry.puzzle != before:
            # rows solved one cube mean nothing on the other
            self.solutions = []

    def _push(self, entry: Entry) -> None:
        del self.history[self.cursor + 1:]
        self.history.append(entry)
        self._move_to(len(self.history) - 1)

    def apply(self, moves: Iterable[Move], label: str | None = None) -> None:
        """Apply moves to the position; a ValueError (PocketError) if the puzzle lacks one."""
        moves = tuple(moves)
        label = label if label is not None else format_moves(moves)
        state = self.puzzle.apply(self.state, moves)
        self._push(Entry(state, self.moves + moves, label, self.puzzle.name))

    def set_position(self, state, label: str, moves: Iterable[Move] = (),
                     puzzle: str | None = None) -> None:
        self._push(Entry(state, tuple(moves), label, puzzle or self.puzzle.name))

    def undo(self) -> Entry | None:
        """Step back; returns the entry undone, or None when there is nothing to undo."""
        if self.cursor == 0:
            return None
        self._move_to(self.cursor - 1)
        return self.history[self.cursor + 1]

    def redo(self) -> Entry | None:
        if self.cursor + 1 >= len(self.history):
            return None
        self._move_to(self.cursor + 1)
        return self.entry

    def turn(self, move_text: str) -> Outcome:
        """One move from the keyboard cube."""
        try:
            self.apply(parse(move_text).flatten(), move_text)
        except (NotationError, ValueError) as e:
            return Outcome(str(e), error=True)
        return Outcome(f"{move_text}   ({format_moves(self.moves[-12:])})", changed=True)

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
        try:
            return Preview(self.puzzle.apply(self.state, moves), moves)
        except ValueError as e:           # a slice on the 2x2x2
            return Preview(error=str(e))

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
        try:
            self.apply(moves, str(tree))
        except ValueError as e:
            return Outcome(str(e), error=True)
        return Outcome(f"applied {len(moves)} move{'s' if len(moves) != 1 else ''}", changed=True)

    # ---- commands ---------------------------------------------------------------------------
    def _cmd_reset(self, args, rest) -> Outcome:
        self.set_position(self.puzzle.identity(), ":reset")
        return Outcome(f"solved {self.puzzle.title}", changed=True)

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
        puzzle = self.puzzle
        moves = puzzle.scramble(seed)
        self.set_position(puzzle.apply(puzzle.identity(), moves), f":scramble {seed}", moves)
        return Outcome(f"scramble (seed {seed}): {format_moves(moves)}", changed=True)

    def _cmd_random(self, args, rest) -> Outcome:
        seed, bad = self._seed(args)
        if bad:
            return bad
        self.set_position(self.puzzle.random(seed), f":random {seed}")
        return Outcome(f"random position (seed {seed})", changed=True)

    def _cmd_facelets(self, args, rest) -> Outcome:
        try:
            state = self.puzzle.parse_facelets(rest)
        except ValueError as e:
            return Outcome(str(e), error=True)
        self.set_position(state, ":facelets")
        reason = self.puzzle.unreachable(state)
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

    def _cmd_puzzle(self, args, rest) -> Outcome:
        if not args:
            name = "2x2" if self.puzzle.name == "3x3" else "3x3"
        else:
            try:
                name = puzzle_named(args[0]).name
            except KeyError:
                return Outcome(f"no puzzle named {args[0]!r} (2x2 or 3x3)", error=True)
        return self.switch_puzzle(name)

    def switch_puzzle(self, name: str) -> Outcome:
        """Hold the other cube: one undo step, carrying the position over (see cube/puzzles.py)."""
        target = PUZZLES[name]
        if target is self.puzzle:
            return Outcome(f"already the {target.title}")
        state, moves, how = target.carry(self.state, self.moves)
        self.painting = None
        self.set_position(state, f":puzzle {name}", moves, puzzle=name)
        return Outcome(f"now the {target.title}: {how}", changed=True)

    def _cmd_search(self, args, rest) -> Outcome:
        usage = f"usage: :search N [htm|qtm] [auf] PREDICATE ({SEARCH_PREDICATES})"
        if self.puzzle.name != "3x3":
            return Outcome("the algorithm search works on the 3x3x3 (:puzzle 3x3)", error=True)
        if not args or not args[0].isdigit():
            return Outcome(usage, error=True)
        max_length, words = int(args[0]), args[1:]
        metric, auf = "htm", False
        while words and words[0].lower() in ("htm", "qtm", "auf"):
            if words[0].lower() == "auf":
                auf = True
            else:
                metric = words[0].lower()
            words = words[1:]
        if not 1 <= max_length <= SEARCH_MAX_LENGTH:
            return Outcome(f"N must lie between 1 and {SEARCH_MAX_LENGTH}", error=True)
        if not words:
            return Outcome(usage, error=True)
        lowered = [w.lower() for w in words]
        ignore: list[str] = []
        if "ignore" in lowered:
            at = lowered.index("ignore")
            words, ignore = words[:at], words[at + 1:]
            if not words or words[0].lower() != "equals" or not ignore:
                return Outcome("ignore PIECES goes after equals ALG", error=True)
        # the search engine imports numba: only now, when a search is asked for
        from cubelab.solvers.algsearch import SearchTooBig, check_size, equals, parse_predicate
        try:
            check_size(metric, max_length)
        except SearchTooBig:
            longest = max(n for n in range(1, max_length) if _search_fits(metric, n))
            return Outcome(f"{max_length} {metric.upper()} needs too much memory for the search; "
                           f"up to {longest} {metric.upper()} fits", error=True)
        try:
            if [w.lower() for w in words] == ["equals"]:
                reason = self.puzzle.unreachable(self.state)
                if reason:
                    return Outcome(f"no sequence reaches this position ({reason})", error=True)
                predicate = equals(self.state, ignore)
            else:
                predicate = parse_predicate(words, ignore)
        except ValueError as e:
            return Outcome(str(e), error=True)
        request = SearchRequest(predicate, max_length, metric, auf)
        return Outcome(f"searching: {request.describe()}", request=request)

    def record_found(self, classes) -> None:
        """The classes a search has found so far become the list :apply N and :play N use."""
        self.found = list(classes)
        self.listing = "search"

    def _pick(self, args, default_best: bool) -> tuple[int | None, Outcome | None]:
        """The row of the list on show that `:apply N` / `:play [N]` name."""
        if self.listing == "search":
            if not self.found:
                return None, Outcome("no search results yet", error=True)
            if not args and default_best:
                return 0, None          # results arrive shortest first
            if not args or not args[0].isdigit() or not 1 <= int(args[0]) <= len(self.found):
                return None, Outcome(f"give a result number from 1 to {len(self.found)}",
                                     error=True)
            return int(args[0]) - 1, None
        return self._row(args, default_best)

    def apply_found(self, index: int) -> Outcome:
        """Apply search result `index` (a sequence: it applies to any position)."""
        found = self.found[index]
        try:
            self.apply(found.moves, f"search result {index + 1}")
        except ValueError as e:
            return Outcome(str(e), error=True)
        return Outcome(f"applied search result {index + 1}: {format_moves(found.moves)}",
                       changed=True)

    def play_found(self, index: int) -> Outcome:
        found = self.found[index]
        try:
            self.puzzle.apply(self.state, found.moves)
        except ValueError as e:
            return Outcome(str(e), error=True)
        self.playback = Playback(self.state, list(found.moves), 0, f"search result {index + 1}")
        return Outcome(f"playing search result {index + 1}: left/right step, Enter keeps, "
                       "Esc leaves", changed=True)

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

    def add_result(self, result, state=None) -> int:
        """Record a finished SolveResult as a row (front ends without a live table use this);
        returns its index for `:apply N` / `:play N` (N = index + 1)."""
        state = self.state if state is None else state
        self.solutions = [r for r in self.solutions if r.for_state == state]
        self.solutions.append(SolutionRow(
            result.solver, state, list(result.moves) if result.moves is not None else None,
            float(result.seconds), int(result.nodes), bool(result.optimal), result.status,
            solutions=len(result.solutions)))
        self.listing = "solutions"
        return len(self.solutions) - 1

    def _cmd_apply(self, args, rest) -> Outcome:
        index, bad = self._pick(args, default_best=False)
        if bad:
            return bad
        return self.apply_found(index) if self.listing == "search" else self.apply_solution(index)

    def apply_solution(self, index: int) -> Outcome:
        row = self.solutions[index]
        if row.moves is None:
            return Outcome(f"row {index + 1} has no solution", error=True)
        if row.for_state != self.state:
            return Outcome(f"solution {index + 1} was found for another position", error=True)
        self.apply(row.moves, f"{row.solver} solution")
        return Outcome(f"applied {row.solver}'s solution ({len(row.moves)} moves)", changed=True)

    def _cmd_play(self, args, rest) -> Outcome:
        index, bad = self._pick(args, default_best=True)
        if bad:
            return bad
        return self.play_found(index) if self.listing == "search" else self.play(index)

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
        record = {"facelets": self.puzzle.to_facelets(self.state),
                  "alg": format_moves(self.moves), "label": self.entry.label,
                  "puzzle": self.puzzle.name}
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
            puzzle = puzzle_named(record.get("puzzle", "3x3"))
            state = puzzle.parse_facelets(record["facelets"])
            moves = parse(record.get("alg", "")).flatten()
        except FileNotFoundError:
            names = self.save_names()
            known = f" (saved: {', '.join(names)})" if names else ""
            return Outcome(f"no save named {args[0]}{known}", error=True)
        except (OSError, ValueError, KeyError, TypeError) as e:
            return Outcome(f"cannot load {args[0]}: {e}", error=True)
        # the saved sequence only counts if it still describes the saved position
        try:
            if puzzle.apply(puzzle.identity(), moves) != state:
                moves = []
        except ValueError:
            moves = []
        switched = puzzle is not self.puzzle
        self.set_position(state, f":load {args[0]}", moves, puzzle=puzzle.name)
        return Outcome(f"loaded {args[0]}" + (f" (a {puzzle.title})" if switched else ""),
                       changed=True)

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
        elif name == "puzzle" and len(words) == 1:
            pool = list(PUZZLES)
        else:
            return []
        return [prefix + n for n in pool if n.startswith(words[-1])]


def _search_fits(metric: str, max_length: int) -> bool:
    from cubelab.solvers.algsearch import SearchTooBig, check_size
    try:
        check_size(metric, max_length)
    except SearchTooBig:
        return False
    return True


def scramble_moves(seed: int, length: int = SCRAMBLE_LENGTH) -> list[Move]:
    """A random face-turn scramble of the 3x3x3: never the same face twice in a row, and never
    three turns on one axis in a row (which would let two of them merge)."""
    return face_scramble(seed, length, FACES)


HELP_NOTES = (
    "Every change is one undo step, and so is a switch of cube (:puzzle, F4): undo goes back "
    "to the other cube. Switching to the 2x2x2 keeps the 3x3x3's corners, and its sequence "
    "when that means the same there; switching back replays the 2x2x2's sequence, else starts "
    "solved.",
    "On the 2x2x2, wide turns are rotations and slices do not exist; its solvers pocket-htm "
    "and pocket-qtm are optimal in their metric.",
    f"Search predicates: {SEARCH_PREDICATES}. 'equals' alone means the current position, "
    "'equals ALG ignore UFR,UF' a partial one. :apply N and :play N use the list shown last "
    "(solutions or search results).",
)
"""What the command table cannot say in one line: paragraphs for :help and the help screen."""


def help_text() -> str:
    """The commands as text lines (the plain REPL prints this for :help)."""
    lines = ["Type moves (R U R' U', [R, U]3, [F: [R, U]], (R U)5 ...) and Enter; commands:"]
    heads = {name: f"  :{name} {args}".rstrip() for name, (args, _) in COMMANDS.items()}
    width = max(len(h) for h in heads.values()) + 2
    for name, (args, what) in COMMANDS.items():
        lines.append(heads[name].ljust(width) + what)
    for note in HELP_NOTES:
        lines.append("")
        lines.extend(textwrap.wrap(note, 88))
    return "\n".join(lines)
