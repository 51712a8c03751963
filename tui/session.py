"""The workbench's session: the position and its undo history, the lists on show, lines to execute.

Free of Textual so the plain REPL runs the same commands: a front end feeds lines to
`Session.execute` and acts on the returned `Outcome` (print its message, and carry out its
`request` when there is one: run solvers or a search, show help). Letters are moves; `:`
commands are interpreted by commands.py. Every change of position is one step of the undo
history (undo.py), and so is a switch between the 3x3x3 and the 2x2x2: each history entry knows
its puzzle (cube/puzzles.py), so undo walks back across a switch like across any change.
"""

from __future__ import annotations

from typing import Callable, Iterable

from cubelab.cube.alg import Move, NotationError
from cubelab.cube.colour_scheme import WESTERN
from cubelab.cube.letters import MemoOptions
from cubelab.cube.notation import format_moves, parse
from cubelab.cube.pieces import FACES
from cubelab.cube.puzzles import PUZZLES, puzzle_named
from cubelab.cube.random_states import face_scramble

from . import commands
from .records import ListedSolution, Outcome, Painting, Playback, Preview, SolutionRow
from .saves import saves_dir
from .undo import Entry, UndoHistory

SCRAMBLE_LENGTH = 20


class Session:
    """The position with undo/redo, the solutions and search results found, and the
    interpreter of lines.

    `registry` is where its solvers come from (a solvers.Registry: names, declarations, the
    default order; None: no solvers); `solver_names(puzzle)`, instead, offers only those names
    of the installed ones (tests); `puzzle` is the cube to start with; `table_sets` the sets
    chosen before the session starts (`cubelab --tables`).
    """

    def __init__(self, registry=None, saves_dir=None, *,
                 solver_names: Callable[[str], list[str]] | None = None, puzzle: str = "3x3",
                 table_sets: dict[str, str] | None = None):
        if solver_names is not None:
            from cubelab.solvers import REGISTRY
            registry = _offering(REGISTRY, solver_names)
        elif registry is None:
            from cubelab.solvers import Registry
            registry = Registry()           # no solvers
        self.registry = registry
        self._saves_dir = saves_dir
        start = puzzle_named(puzzle)
        self.history = UndoHistory(Entry(start.identity(), (), "start", start.name))
        self.solutions: list[SolutionRow] = []
        self.found: list = []               # search results (algsearch.AlgClass), in order
        self.found_by: dict[str, str] = {}
        """What the search results answer: the search's "caption" and "metric"."""
        self.listed: list[ListedSolution] = []
        """The solutions of the last list solve (`:solve --goal X --all`, -n, --within), as
        they came and, once it ended, ranked."""
        self.listed_for = None
        """The position they solve (a CubeState; :apply refuses them on another)."""
        self.listing = "solutions"
        """Which list :apply N and :play N pick from: "solutions" (the solver rows), "listed"
        (a list solve's solutions) or "search"."""
        self.playback: Playback | None = None
        # how the cube looks (look_commands.py); a settings file may set these too
        self.view = "net"
        """How the cube is drawn: "net", or "3d" (held as `orientation`)."""
        self.orientation = "UFR"
        """How the 3-D view holds the cube: the faces on top, in front and on the right."""
        self.view_flipped = False
        """Whether F8 has shown the 3-D view's other side (the next F8 goes to the net)."""
        self.scheme = WESTERN
        """The colour scheme of every picture of the cube (cube/colour_scheme.py)."""
        self.animate = True
        """Whether the 3-D view shows a move turning in a few frames."""
        self.sticker_size: int | None = None
        """The net's sticker size: 1, 2, or None to fit the terminal."""
        self.memo_options = MemoOptions()
        """The blindfold letter scheme and buffers the memo is written with (:letters)."""
        self.painting: Painting | None = None
        self.recorder = None                # a recording.Recorder while :record runs
        self.table_sets: dict[str, str] = dict(table_sets or {})
        """Solver name -> the table set `:tables` chose for it (absent: the solver's default)."""
        self.default_solver: str | None = None
        """The solver :solve runs when none is named (the settings'; None: the fastest)."""
        self.default_metric: str | None = None
        """The metric :solve, :compare and :search count in when none is named (None: each
        solver its own, :search HTM)."""
        self.goal: str | None = None
        """The goal `:goal` set (as typed), read against every position (goal_commands.py)."""
        self.fmc = None
        """The FMC attempt under way (`:fmc`, fmc_commands.py): a fmc_session.FmcState."""
        self.gen = None
        """The last `:gen` (gen_commands.py): a gen_session.GenState, its rows one per alg."""

    # ---- the current position ------------------------------------------------------------
    @property
    def entry(self) -> Entry:
        return self.history.current

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

    @property
    def mask(self):
        """The picture with grey stickers the current position stands for (a MaskedPosition:
        painted grey in paint mode), or None for a whole position."""
        return self.entry.mask

    def solve_position(self):
        """What a solve of the current position is given: the masked picture (the goal solver
        solves what it shows), else the state."""
        return self.entry.mask if self.entry.mask is not None else self.state

    def shown_colours(self) -> list[int]:
        """The stickers of the current position as the net shows them (-1: grey)."""
        if self.entry.mask is not None:
            return list(self.entry.mask.colours)
        return self.puzzle.colours(self.state)

    def shown_state(self):
        """What the net shows: the playback position while stepping, else the current one."""
        return self.playback.state if self.playback else self.state

    def goal_view(self, state=None):
        """The position (the current one by default) against the session's goal: a
        goal_commands.GoalView, or None without a goal."""
        from .goal_commands import goal_view, masked_view
        state = self.state if state is None else state
        if self.entry.mask is not None:     # a picture with grey stickers: its own goal
            return masked_view(self.entry.mask, state)
        return goal_view(self.goal, PUZZLES[self.entry.puzzle], state)

    def solver_names(self) -> list[str]:
        """The solvers of the current puzzle."""
        return list(self.registry.solver_names(self.puzzle.name))

    def solver_options(self, name: str, asked: dict | None = None) -> dict:
        """What solver `name` is made with in this session: the options asked for this solve
        (`:solve NAME --OPTION VALUE`), and the table set chosen for it."""
        from .solve_commands import own_options
        options = {"tables": self.table_sets[name]} if name in self.table_sets else {}
        options.update(own_options(self.registry.describe(name), asked or {}))
        return options

    def saves_dir(self):
        return self._saves_dir if self._saves_dir is not None else saves_dir()

    # ---- changes (each one is an undo step) ----------------------------------------------
    def _moved(self, before: str) -> None:
        """After the history's cursor moved: playback ends, and rows solved on the other cube
        go (they mean nothing on this one)."""
        self.playback = None
        if self.entry.puzzle != before:
            self.solutions = []
            self.listed, self.listed_for = [], None
        if self.fmc is not None:
            self.fmc.follow(self.state)     # an undo back to a step of the FMC attempt

    def _push(self, entry: Entry) -> None:
        before = self.entry.puzzle
        self.history.push(entry)
        self._moved(before)

    def apply(self, moves: Iterable[Move], label: str | None = None) -> None:
        """Apply moves to the position; a ValueError (PocketError) if the puzzle lacks one."""
        moves = tuple(moves)
        label = label if label is not None else format_moves(moves)
        state = self.puzzle.apply(self.state, moves)
        mask = self.entry.mask
        if mask is not None:        # the grey stickers travel with their pieces
            from cubelab.cube.masked_facelets import turned
            mask = turned(mask, state)
        self._push(Entry(state, self.moves + moves, label, self.puzzle.name, mask))

    def set_position(self, state, label: str, moves: Iterable[Move] = (),
                     puzzle: str | None = None, mask=None) -> None:
        """Make `state` the position outright (`mask`: the picture with grey stickers it
        stands for, whose state it is)."""
        self._push(Entry(state, tuple(moves), label, puzzle or self.puzzle.name, mask))

    def undo(self) -> Entry | None:
        """Step back; returns the entry undone, or None when there is nothing to undo."""
        return self._walk(self.history.undo)

    def redo(self) -> Entry | None:
        """Step forward; returns the entry redone, or None when there is nothing to redo."""
        return self._walk(self.history.redo)

    def _walk(self, step: Callable[[], Entry | None]) -> Entry | None:
        before = self.entry.puzzle
        entry = step()
        if entry is not None:
            self._moved(before)
        return entry

    def turn(self, move_text: str) -> Outcome:
        """One move from the keyboard cube."""
        try:
            self.apply(parse(move_text).flatten(), move_text)
        except (NotationError, ValueError) as e:
            return Outcome(str(e), error=True)
        self._record(move_text, False)
        return Outcome(f"{move_text}   ({format_moves(self.moves[-12:])})", changed=True)

    def switch_puzzle(self, name: str) -> Outcome:
        """Hold the other cube: one undo step, carrying the position over (see cube/puzzles.py)."""
        target = PUZZLES[name]
        if target is self.puzzle:
            return Outcome(f"already the {target.title}")
        state, moves, how = target.carry(self.state, self.moves)
        self.painting = None
        self.set_position(state, f":puzzle {name}", moves, puzzle=name)
        return Outcome(f"now the {target.title}: {how}", changed=True)

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
        """Run one line: moves, or a `:` command (recorded while :record runs)."""
        outcome = self._execute(line)
        if line.strip() and not line.strip().lower().startswith(":rec"):
            self._record(line.strip(), outcome.error)
        return outcome

    def _record(self, line: str, error: bool) -> None:
        if self.recorder is not None:
            self.recorder.line(line, self, error)

    def _execute(self, line: str) -> Outcome:
        text = line.strip()
        if not text:
            return Outcome()
        if text.startswith(":"):
            return commands.run_command(self, text)
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

    def completions(self, line: str) -> list[str]:
        """Whole-line completions of a `:` command line (see commands.completions)."""
        return commands.completions(self, line)

    # ---- the lists on show: solutions and search results ----------------------------------
    def open_rows(self, names: Iterable[str], keep: bool) -> list[int]:
        """Fresh rows for solving the current position with `names`, and their indices. With
        `keep`, the other solvers' rows for this position stay (a solver's own row is replaced
        in place); else the table starts empty."""
        state, rows = self.state, self.solutions
        if not keep or any(r.for_state != state for r in rows):
            rows.clear()
        indices = []
        for name in names:
            index = next((i for i, r in enumerate(rows) if r.solver == name), None)
            if index is None:
                index = len(rows)
                rows.append(SolutionRow(name, state))
            else:
                rows[index] = SolutionRow(name, state)
            indices.append(index)
        self.listing = "solutions"
        return indices

    def clear_old_rows(self) -> Outcome:
        """Drop the solver rows found for other positions than the current one (:clear)."""
        if any(r.running for r in self.solutions):
            return Outcome("solvers are still running (Esc stops them): clear the old rows "
                           "once they end", error=True)
        kept = [r for r in self.solutions if r.for_state == self.state]
        old = len(self.solutions) - len(kept)
        if not old:
            return Outcome("no solver rows of a previous position")
        self.solutions[:] = kept
        return Outcome(f"cleared {old} solver row{'s' if old != 1 else ''} of previous "
                       "positions", rows=True)

    def record_found(self, classes, request=None) -> None:
        """The classes a search has found so far become the list :apply N and :play N use;
        `request` (a SearchRequest), given when a search starts, is what they answer."""
        self.found = list(classes)
        self.listing = "search"
        if request is not None:
            self.found_by = {"caption": request.describe(), "metric": request.metric}

    def _choice(self, index: int, listing: str):
        """Row `index` of a list as (moves, undo label, name, detail for :apply), or an Outcome
        saying why it cannot be used here. A search result is a sequence: it applies anywhere."""
        if listing == "search":
            moves = tuple(self.found[index].moves)
            name = f"search result {index + 1}"
            return moves, name, name, f": {format_moves(moves)}"
        if listing == "listed":
            if self.listed_for != self.state:
                return Outcome(f"solution {index + 1} was found for another position",
                               error=True)
            listed = self.listed[index]
            name = f"solution {index + 1}"
            aufs = f", {listed.auf}" if listed.auf else ""
            return (listed.moves, f"{name} of the list", name,
                    f": {format_moves(listed.moves) or '(none needed)'}{aufs}")
        row = self.solutions[index]
        if row.moves is None:
            return Outcome(f"row {index + 1} has no solution", error=True)
        if row.for_state != self.state:
            return Outcome(f"solution {index + 1} was found for another position", error=True)
        return (tuple(row.moves), f"{row.solver} solution", f"{row.solver}'s solution",
                f" ({len(row.moves)} moves)")

    def apply_row(self, index: int, listing: str | None = None) -> Outcome:
        """Apply row `index` of the solutions or the search results (the list on show unless
        `listing` names one); an FMC candidate becomes the next step (`:fmc apply`)."""
        if (listing or self.listing) == "fmc":
            from .fmc_commands import apply_candidate
            return apply_candidate(self, index)
        if (listing or self.listing) == "gen":      # a :gen row sets its case up
            from .gen_commands import set_up_case
            return set_up_case(self, index)
        chosen = self._choice(index, listing or self.listing)
        if isinstance(chosen, Outcome):
            return chosen
        moves, label, name, detail = chosen
        try:
            self.apply(moves, label)
        except ValueError as e:
            return Outcome(str(e), error=True)
        return Outcome(f"applied {name}{detail}", changed=True)

    def play_row(self, index: int, listing: str | None = None) -> Outcome:
        """Step through row `index` on the net (as apply_row picks it); nothing changes yet."""
        if (listing or self.listing) == "fmc":
            from .fmc_commands import play_candidate
            return play_candidate(self, index)
        if (listing or self.listing) == "gen":      # its alg, played from its case
            from .gen_commands import play_alg
            return play_alg(self, index)
        chosen = self._choice(index, listing or self.listing)
        if isinstance(chosen, Outcome):
            return chosen
        moves, label, name, _ = chosen
        try:
            self.puzzle.apply(self.state, moves)
        except ValueError as e:
            return Outcome(str(e), error=True)
        steps = ()
        if (listing or self.listing) == "solutions" and self.solutions[index].steps:
            # a human method's steps, played as they are done, each pause at a milestone
            row = self.solutions[index]
            moves, steps = row.played or moves, row.steps
        self.playback = Playback(self.state, list(moves), 0, label, steps)
        return Outcome(f"playing {name}: left/right step, Enter keeps, Esc leaves", changed=True)

    def step(self, delta: int) -> bool:
        return self.playback.step(delta) if self.playback else False

    def keep_playback(self) -> Outcome:
        """Make the position reached while stepping the current one (an undo step)."""
        pb = self.playback
        if pb is None:
            return Outcome()
        self.playback = None
        if pb.fmc_index is not None:        # an FMC candidate: Enter makes it the next step
            from .fmc_commands import apply_candidate
            return apply_candidate(self, pb.fmc_index)
        if pb.index == 0:
            return Outcome("left playback")
        self.apply(pb.moves[:pb.index], f"{pb.label} ({pb.index}/{len(pb.moves)})")
        return Outcome(f"kept {pb.index} of {len(pb.moves)} moves", changed=True)

    # ---- painting -------------------------------------------------------------------------
    def finish_painting(self) -> Outcome:
        """Use the painted position if it is a valid assembly."""
        if self.painting is None:
            return Outcome()
        usable, message = self.painting.verdict()
        if not usable:
            return Outcome(message, error=True)
        mask = self.painting.masked()
        state = mask.state if mask is not None else self.painting.state()
        colours = list(self.painting.colours)
        self.painting = None
        if colours == self.shown_colours():
            return Outcome("painting unchanged")
        if mask is not None:
            return self.take_masked(mask, ":paint")
        self.set_position(state, ":paint")
        return Outcome(message.replace(": Enter uses it", ""), changed=True)

    def take_masked(self, mask, label: str) -> Outcome:
        """Make a picture with grey stickers (a MaskedPosition) the position: one undo step;
        :solve then solves what it shows."""
        self.set_position(mask.state, label, mask=mask)
        grey = sum(1 for c in mask.colours if c < 0)
        return Outcome(f"masked position: {grey} grey sticker{'s' if grey > 1 else ''} · "
                       ":solve solves what is shown (goal solver)", changed=True)


def scramble_moves(seed: int, length: int = SCRAMBLE_LENGTH) -> list[Move]:
    """A random face-turn scramble of the 3x3x3: never the same face twice in a row, and never
    three turns on one axis in a row (which would let two of them merge)."""
    return face_scramble(seed, length, FACES)


def _offering(registry, names: Callable[[str], list[str]]):
    """A registry that offers only some of another's solvers (a test's `solver_names`); their
    declarations and classes are the other's."""
    from cubelab.solvers import Registry

    class Offering(Registry):
        def solver_names(self, puzzle: str = "3x3") -> list[str]:
            return list(names(puzzle))

    view = Offering()
    view._entries = registry._entries
    return view
