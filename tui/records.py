"""Records the session hands its front ends: outcomes and requests, solution rows, playback, painting.

Plain values, free of Textual: the workbench and the plain REPL read the same records. An
`Outcome` says what a line did (a message, and maybe a request the front end carries out:
solve, search, help, paint); a `SolutionRow` is one solver's line in the table of solutions;
`Playback` steps through a move list on the net; `Painting` holds stickers painted by hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cubelab.cube.facelets import FaceletError
from cubelab.cube.alg import Move
from cubelab.cube.notation import format_moves

from cubelab.cube.puzzles import PUZZLES, puzzle_of


# ---------------------------------------------------------------- what a line asks for

@dataclass(frozen=True)
class SolveRequest:
    """Run these solvers on the current position (side by side when `compare`), to solved or,
    with a `target` state, to that position, made with `options` (as typed: each solver's
    declaration reads them)."""

    solvers: tuple[str, ...]
    compare: bool = False
    target: object = None
    options: dict = field(default_factory=dict)


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
class ScreenshotRequest:
    """Save the whole screen as SVG (Textual's screenshot), to `path` or a dated file name."""

    path: str | None = None


@dataclass(frozen=True)
class Outcome:
    """What executing a line did: a message for the user and maybe a request for the front end."""

    message: str = ""
    error: bool = False
    column: int = 0                  # 1-based column of a notation error in the line, else 0
    changed: bool = False            # the position changed
    rows: bool = False               # the solution rows changed (:clear)
    request: (SolveRequest | SearchRequest | HelpRequest | PaintRequest | ScreenshotRequest
              | None) = None


@dataclass(frozen=True)
class Preview:
    """A line read without executing it: the position it would give, or the error at its column."""

    state: object = None             # CubeState or PocketState, as the puzzle has it
    moves: tuple[Move, ...] = ()
    error: str = ""
    column: int = 0


# ---------------------------------------------------------------- rows, playback, painting

@dataclass
class SolutionRow:
    """One solver's result in the table of solutions (updated while the solver runs)."""

    solver: str
    for_state: object
    moves: list[Move] | None = None
    seconds: float = 0.0
    nodes: int = 0
    optimal: bool = False
    status: str = "waiting"
    message: str = ""
    solutions: int = 0        # how many improving solutions arrived
    steps: tuple[tuple[str, int], ...] = ()
    """A human method's named steps (name, number of moves in `played`), which playback pauses
    between."""
    played: list[Move] | None = None
    """A human method's moves as its steps do them (its rotation first, turns that cancel at the
    joins not yet cancelled), which playback steps through; None: `moves`."""
    step_lines: tuple[str, ...] = ()
    """The row detail's lines for the steps (tui.method_steps.method_lines)."""

    RUNNING = ("waiting", "loading", "tables?", "tables", "search")
    """Statuses of a row whose run has not ended (runner.SolverRun.status)."""

    @property
    def running(self) -> bool:
        return self.status in self.RUNNING


@dataclass
class ListedSolution:
    """One solution of a list solve (`:solve --goal X --all`, `-n N`, `--within K`): the moves
    to apply (its AUF turns included) and the solver's record of it (solution, length in each
    metric, metric_cost, finger-trick cost, auf, goal met)."""

    moves: tuple[Move, ...]
    record: dict
    seconds: float = 0.0
    """When the search found it (0 when not known: a session brought back)."""

    @property
    def text(self) -> str:
        return str(self.record.get("solution", format_moves(self.moves)))

    @property
    def auf(self) -> str:
        """'pre U, post U2' ('' with no AUF turn)."""
        auf = self.record.get("auf") or {}
        return ", ".join(f"{k} {v}" for k, v in auf.items() if v)


@dataclass
class Playback:
    """Stepping through a move list from a start position; `index` moves are done."""

    start: object
    moves: list[Move]
    index: int = 0
    label: str = ""
    steps: tuple[tuple[str, int], ...] = ()
    """Named steps (name, number of moves) of a human method's solution: a jump (Home, End)
    stops at the end of each step, and describe() says which step is playing."""
    fmc_index: int | None = None
    """An FMC candidate played (its row): keeping it applies the step (fmc_commands.py)."""

    @property
    def state(self):
        return puzzle_of(self.start).apply(self.start, self.moves[:self.index])

    def _boundaries(self) -> list[int]:
        ends, at = [], 0
        for _, n in self.steps:
            at += n
            ends.append(at)
        return ends

    def step(self, delta: int) -> bool:
        new = min(max(self.index + delta, 0), len(self.moves))
        if abs(delta) > 1 and self.steps:
            # pause at the end of the step being played (or the start of the one behind)
            ends = [0] + self._boundaries()
            if delta > 0:
                new = min([e for e in ends if e > self.index] or [new])
            else:
                new = max([e for e in ends if e < self.index] or [new])
        moved = new != self.index
        self.index = new
        return moved

    def step_name(self) -> str:
        """The step the last move played belongs to (the first step before any move)."""
        for (name, _), end in zip(self.steps, self._boundaries()):
            if self.index <= end and (end > 0 or self.index == 0):
                return name
        return self.steps[-1][0] if self.steps else ""

    def describe(self) -> str:
        done = format_moves(self.moves[:self.index])
        rest = format_moves(self.moves[self.index:])
        head = f"[{self.step_name()}] " if self.steps else ""
        return f"{head}{self.index}/{len(self.moves)}  {done} | {rest}".rstrip()


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

    @property
    def grey(self) -> int:
        """How many stickers are grey (unknown: painted grey, blanked, or not painted yet)."""
        return sum(1 for c in self.colours if c < 0)

    def masked(self):
        """The picture with grey stickers as a masked position (a MaskedPosition: one position
        it shows and the goal of solving what is shown), None when no sticker is grey;
        FaceletError saying what no position can show, as `--facelets` with `*` says it."""
        grey = self.grey
        if not grey:
            return None
        if self.puzzle != "3x3":
            raise FaceletError(f"the {PUZZLES[self.puzzle].title} is entered whole: paint "
                               "every sticker (grey stickers are read on the 3x3x3)")
        from cubelab.cube.masked_facelets import masked_text, read_masked
        return read_masked(masked_text(self.colours))

    def state(self):
        """The painted position (with grey stickers: one position the picture shows); a
        ValueError (FaceletError, PocketError) says what is wrong."""
        masked = self.masked()
        if masked is not None:
            return masked.state
        return PUZZLES[self.puzzle].from_colours(self.colours)

    def verdict(self) -> tuple[bool, str]:
        """(usable, message): usable once the stickers form a valid assembly, or with grey
        stickers a picture some position shows (a masked position)."""
        grey = self.grey
        try:
            state = self.state()
        except ValueError as e:
            if grey:
                return False, f"{grey} sticker{'s' if grey > 1 else ''} grey: {e}"
            return False, str(e)
        if grey:
            return True, (f"{grey} grey sticker{'s' if grey > 1 else ''} (unknown): Enter uses "
                          "it as a masked position")
        reason = PUZZLES[self.puzzle].unreachable(state)
        if reason:
            return True, f"valid assembly, but {reason}"
        return True, "valid position: Enter uses it"
