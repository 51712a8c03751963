"""`cubelab repl`: the line-oriented front end (prompt_toolkit), or a line filter when piped.

It speaks the workbench's command language (tui/session.py, tui/commands.py) and shares its
history file. After each line it prints the net (the same renderable as the TUI) and the facts.
With standard input not a terminal it executes the lines it reads, as plain text or JSON Lines
(`--json`), keeps going after errors, and exits 2 at the end if any line failed. `--puzzle 2x2`
starts on the 2x2x2 (`:puzzle` switches at any time). Solvers and `:search` run on the
workbench's runner (tui/runner.py) and the REPL waits for them: `:search` prints what it finds
as it finds it, and Ctrl-C stops it (or a solver) without leaving the REPL. The prompt, the
history offered, the time limit, the default solver, metric and table sets come from the
settings file (the flags win); `--restore` starts from the last session of either front end,
and an interactive REPL keeps its own for the next start (session_store.py).
"""

from __future__ import annotations

import json
import sys
import time

from cubelab.cube.puzzles import DEFAULT_PUZZLE, PUZZLES

from .argtypes import seconds
from .errors import InputError
from .interrupts import Terminated
from .method_steps import method_lines


def register(sub) -> None:
    p = sub.add_parser("repl", help="the plain line REPL (reads lines from stdin when piped)")
    p.add_argument("--json", action="store_true", help="JSON Lines output (one record per input line)")
    p.add_argument("--vi", action="store_true", help="vi editing mode (default emacs)")
    p.add_argument("--letters", action="store_true", help="show sticker letters on the net")
    p.add_argument("--no-net", action="store_true", help="print the facts without the net")
    p.add_argument("--time-limit", type=seconds,
                   help="seconds of search each solver gets at most in :solve / :compare "
                        "(default: the settings' repl.time_limit, 10; kociemba stops within "
                        "about a second, as soon as its solution is proven optimal; building "
                        "tables never counts)")
    p.add_argument("--puzzle", choices=tuple(PUZZLES), default=DEFAULT_PUZZLE.name,
                   help="the cube to start with (default %(default)s; :puzzle switches)")
    p.add_argument("--tables", metavar="SET",
                   help="the table set the optimal solver reads (names and sizes: cubelab "
                        "tables status; :tables switches)")
    p.add_argument("--restore", action="store_true",
                   help="start from the last session (of the workbench or the REPL): its "
                        "position, undo history, solutions and search results")
    p.set_defaults(func=run)


class Repl:
    """Executes lines against a Session and renders what happened; front-end independent."""

    def __init__(self, console, json_mode: bool = False, letters: bool = False,
                 show_net: bool = True, time_limit: float | None = 10.0, registry=None,
                 puzzle: str = DEFAULT_PUZZLE.name, tables: dict[str, str] | None = None):
        from cubelab.solvers import REGISTRY
        from .runner import Runner
        from .session import Session
        self.registry = registry or REGISTRY
        self.runner = Runner(self.registry)     # kept: loaded tables stay loaded
        self.session = Session(self.registry, puzzle=puzzle, table_sets=tables)
        self.console = console
        self.json_mode = json_mode
        self.letters = letters
        self.show_net = show_net
        self.time_limit = time_limit
        self.failures = 0
        """The last solve's named parts (solvers.results.Parts), by its solutions' order."""

    # ---- one line ---------------------------------------------------------------------------
    def handle(self, number: int, line: str) -> dict:
        from .fmc_session import FmcStepRequest
        from .gen_session import GenRequest
        from .records import PaintRequest, ScreenshotRequest, SearchRequest, SolveRequest
        outcome = self.session.execute(line)
        record: dict = {"line": number, "input": line}
        if outcome.error:
            self.failures += 1
            record["error"] = outcome.message
            if outcome.column:
                record["column"] = outcome.column
            self._emit(record, error=True)
            return record
        record["message"] = outcome.message      # for :help, the help as text
        if isinstance(outcome.request, PaintRequest):
            self.session.painting = None
            record["message"] = "paint mode needs the workbench (cubelab); use :facelets here"
        elif isinstance(outcome.request, ScreenshotRequest):
            record["message"] = "screenshots are of the workbench (cubelab); :svg FILE writes the net"
        elif isinstance(outcome.request, SolveRequest):
            request = outcome.request
            record["solutions"] = self._solve(request.solvers, request.target, request.options)
        elif isinstance(outcome.request, SearchRequest):
            if not self.json_mode:
                self._emit(record)          # the heading first: results stream under it
                record = dict(record, message="")
            record["search"] = self._search(outcome.request)
        elif isinstance(outcome.request, FmcStepRequest):
            if not self.json_mode:
                self._emit(record)          # the heading first: candidates stream under it
                record = dict(record, message="")
            record["fmc"] = self._fmc_step(outcome.request)
        elif isinstance(outcome.request, GenRequest):
            if not self.json_mode:
                self._emit(record)          # the heading first: cases print as they end
                record = dict(record, message="")
            record["gen"] = self._gen(outcome.request)
        if outcome.changed or not line.strip().startswith(":") or "solutions" in record:
            record.update(self._facts())
        self._emit(record)
        return record

    def _facts(self) -> dict:
        from cubelab.cube.notation import format_moves
        from cubelab.cube.positions import Position
        from .fmc_commands import shown
        s = self.session
        state, moves, inverse = shown(s, s.state, tuple(s.moves))    # :fmc inverse
        record = s.puzzle.facts_record(Position(state, moves, format_moves(moves)),
                                       memo_options=s.memo_options)
        if s.fmc is not None:
            record["fmc_chain"] = s.fmc.chain_record()
            if inverse:
                record["fmc_chain"]["side"] = "inverse"
        goal = s.goal_view()        # :goal (issue 34): where the position stands against it
        if goal is not None:
            record["goal"] = goal.as_dict() | {"line": goal.line()}
        return record

    def _fmc_step(self, request) -> dict:
        """Search an FMC step, printing each candidate as it is kept (text mode), then the
        ranked best, which `:fmc apply K` picks from; Ctrl-C stops it (those found stay)."""
        from .fmc_session import FmcStepRun
        run = FmcStepRun(request=request)
        printed = [0]

        def tick() -> None:
            while printed[0] < len(run.found):
                item = run.found[printed[0]]
                printed[0] += 1
                if not self.json_mode:
                    self.console.print(f"  ... {item.label:<7} {item.text}  "
                                       f"({item.solution.length}/{item.total})", style="dim",
                                       highlight=False, markup=False, soft_wrap=True)

        run.start()
        run.wait(tick=tick)
        tick()
        fmc = self.session.fmc
        ranked = run.ranked if run.ranked is not None else list(run.found)
        if fmc is not None and fmc.candidates_for is request.chain:
            fmc.candidates = list(ranked)
        if run.ranked is None and run.error != "cancelled":
            self.failures += 1
        return {"step": request.kind, "niss": request.niss, "status": run.status,
                "summary": run.summary(),
                "candidates": [fmc_candidate(k, c) for k, c in enumerate(ranked, 1)],
                "chain": fmc.chain_record() if fmc is not None else None}

    def _gen(self, request) -> dict:
        """Search a case set, printing each case's algs as it ends (text mode), numbered as
        :apply N (sets the case up) and :play N (plays its alg) pick them; Ctrl-C stops it
        (the cases ended stay)."""
        from cubelab.cube.notation import format_moves
        from .gen_session import GenRun, row_line, rows_of
        run = GenRun(request=request)
        s = self.session
        gen = s.gen
        metric = request.options.metric
        printed = [0]

        told = [self.json_mode or not self.console.is_terminal]

        def tick() -> None:
            if not told[0] and run.elapsed() > 1.0 and run.preparing:
                told[0] = True
                self.console.print("(making the set's tables and kernels: the first case takes "
                                   "longer; Ctrl-C stops)", highlight=False, markup=False,
                                   style="dim")
            while printed[0] < len(run.records):
                record = run.records[printed[0]]
                printed[0] += 1
                start = len(gen.rows)
                gen.rows += rows_of([record])
                if not self.json_mode:
                    for number, row in enumerate(gen.rows[start:], start + 1):
                        self.console.print(row_line(number, row, metric), highlight=False,
                                           markup=False, soft_wrap=True)

        run.start()
        run.wait(tick=tick)
        tick()
        s.listing = "gen"
        if run.error and run.error != "cancelled":
            self.failures += 1
        return {"set": request.set.name, "status": run.status if not run.error or
                run.error == "cancelled" else "error", "summary": run.summary(),
                "cases": list(run.records),
                "rows": [{"number": k, "case": r.case, "solution": r.text if r.alg else None,
                          "setup": format_moves(r.setup) if r.alg else None}
                         for k, r in enumerate(gen.rows, 1)]}

    def _search(self, request) -> dict:
        """Run the search, printing each class as it is found (text mode); Ctrl-C stops it."""
        from cubelab.solvers.protocol import BOUND
        numbered = [0]

        def show(cls) -> None:
            numbered[0] += 1
            if not self.json_mode:
                self.console.print(search_line(numbered[0], cls), highlight=False, markup=False,
                                   soft_wrap=True)

        told = [self.json_mode or not self.console.is_terminal]

        def tell_compiling() -> None:
            if not told[0] and run.elapsed() > 1.0 and run.counters[BOUND] == 0:
                told[0] = True      # no length started yet: numba is compiling the kernels
                self.console.print("(compiling the search kernels: the first search on this "
                                   "machine takes some seconds; Ctrl-C stops it)",
                                   highlight=False, markup=False, style="dim")

        run = self.runner.search(request, on_class=show)
        run.wait(tick=tell_compiling)
        self.session.record_found(run.classes, request)
        if run.error:
            self.failures += 1
        out = {"predicate": request.predicate.name, "max_length": request.max_length,
               "metric": request.metric, "auf": request.auf, "summary": run.summary()}
        if run.result is not None:
            res = run.result
            out.update(status=res.status, sequences=res.sequences, complete_to=res.lengths_done,
                       seconds=round(res.seconds, 3))
        out["classes"] = [c.as_dict() for c in run.classes]
        return out

    def _solve(self, names, target=None, options: dict | None = None) -> list[dict]:
        """Run the solvers one after the other (Ctrl-C stops the one running), to solved or to
        `target`, made with `options` (as :solve read them); their rows become the list
        :apply N and :play N pick from."""
        from cubelab.solvers.target import relative_state
        from .goal_text import is_list_solve, listed
        s = self.session
        state = s.solve_position() if target is None else relative_state(s.state, target)
        results = []
        for name, index in zip(names, s.open_rows(names, keep=False)):
            run = self.runner.solve(name, s.puzzle.name, state, cap=self.time_limit,
                                    options=s.solver_options(name, options))
            if run.wait(tick=self._building_note(run)):
                self._until_stopped(run)
            run.fill(s.solutions[index])
            if run.result is None:
                results.append({"solver": name, "error": run.error})
                continue
            if len(names) == 1 and target is None and is_list_solve(options or {}):
                # a list solve's solutions, numbered as printed, are what :apply N picks
                s.listed, s.listed_for = listed(run.found, run.result.detail), s.state
                s.listing = "listed"
            record = run.result.to_json()
            record["solver"] = name     # as asked for: pocket-htm and pocket-qtm are one class
            if target is not None:
                record["target"] = s.puzzle.to_facelets(target)
            results.append(record)
        return results

    @staticmethod
    def _until_stopped(run) -> None:
        """After Ctrl-C, wait for a run whose table build has not stopped yet: a build looks at
        its cancel flag between pieces of work, and not at all while numba compiles a kernel
        (seconds, longer on a busy machine). The prompt then comes back with nothing running
        behind it, the build's lock released and nothing half-written. Ctrl-C again stops the
        waiting; the build then stops on its own, in the background."""
        if run.done.is_set():
            return
        print(f"cubelab: {run.name}: stopping its table build (Ctrl-C again not to wait)",
              file=sys.stderr, flush=True)
        try:
            run.done.wait()
        except Terminated:
            raise
        except KeyboardInterrupt:
            print(f"cubelab: {run.name}: its table build stops in the background",
                  file=sys.stderr, flush=True)

    @staticmethod
    def _building_note(run):
        """A tick for run.wait() that says once, on stderr, which tables are being built and
        how long that takes (it never counts against the time limit)."""
        told = [False]

        def tick() -> None:
            if not told[0] and run.phase == "tables" and run.build is not None:
                told[0] = True
                from .build_progress import describe_build
                solver = run.runner.solver(run.name, run.puzzle, run.options)
                missing = solver.missing_tables()
                if missing:
                    print(f"cubelab: building the tables of {run.name} "
                          f"({describe_build(missing, solver=solver)}; not part of the time limit)",
                          file=sys.stderr, flush=True)
        return tick

    # ---- output -----------------------------------------------------------------------------
    def _emit(self, record: dict, error: bool = False) -> None:
        if self.json_mode:
            print(json.dumps(record), flush=True)
            return
        from rich.text import Text
        if error:
            column = record.get("column", 0)
            if column:
                # the line again with a caret under the error, as the workbench shows it
                self.console.print(Text("  " + record["input"]), highlight=False, soft_wrap=True)
                self.console.print(Text(" " * (column + 1) + "^", style="bold red"))
            self.console.print(Text(f"error: {record['error']}", style="bold red"))
            return
        if record.get("message"):
            self.console.print(record["message"], highlight=False, markup=False, soft_wrap=True)
        for at, sol in enumerate(record.get("solutions", [])):
            if "error" in sol:
                self.console.print(f"  {sol['solver']}: {sol['error']}", highlight=False, markup=False)
            else:
                ln = sol["length"]
                size = f"{ln['htm']} HTM, {ln['qtm']} QTM" if ln else "no solution"
                self.console.print(
                    f"  {sol['solver']}: {sol['solution'] or '(none)'}  [{size}, "
                    f"{sol['seconds']:.3f} s, {sol['nodes']} nodes"
                    + (f", optimal in {sol.get('metric', 'htm').upper()}" if sol["optimal"]
                       else "") + f", {sol['status']}]",
                    highlight=False, markup=False)
                for ln in method_lines(sol, indent="    "):   # a human method's steps
                    self.console.print(ln if ln.startswith(" ") else "    " + ln,
                                       highlight=False, markup=False)
        if "search" in record:
            self.console.print(record["search"]["summary"], highlight=False, markup=False)
        if "gen" in record:
            self.console.print(record["gen"]["summary"], highlight=False, markup=False)
        if "fmc" in record:
            for c in record["fmc"]["candidates"]:
                case = f"  {c['case']}" if c["case"] else ""
                self.console.print(f"{c['number']:>3}. {c['step']:<7} {c['moves']:<28} "
                                   f"({c['length']}/{c['total']}){case}",
                                   highlight=False, markup=False, soft_wrap=True)
            self.console.print(record["fmc"]["summary"], highlight=False, markup=False)
        if "facelets" in record:
            from cubelab.cube.facts_report import format_facts
            from cubelab.cube.net import Net
            s = self.session
            net = Net(s.shown_state(), letters=True if self.letters else None, scheme=s.scheme)
            if s.view != "net":
                from cubelab.cube.iso import IsoView
                net = IsoView(s.shown_state(), orientation=s.orientation, scheme=s.scheme,
                              letters=True if self.letters else None, width=40, height=14)
            if self.show_net:
                self.console.print(net)
            if "facts" in record.get("goal", {}):      # a picture with grey stickers
                self.console.print(f"facts        {record['goal']['facts']}", highlight=False,
                                   markup=False)
            self.console.print(format_facts(record), highlight=False, markup=False)
            if "goal" in record:
                self.console.print(f"goal         {record['goal']['line']}", highlight=False,
                                   markup=False)


def fmc_candidate(number: int, c) -> dict:
    """An FMC step's candidate as a record: its number for :fmc apply K, label, moves (FMC
    notation), its length, the running total after it, the case it leaves."""
    return {"number": number, "step": c.label, "moves": c.text, "length": c.solution.length,
            "total": c.total, "case": c.case}


def search_line(number: int, cls) -> str:
    """One search result as a line: its number for :apply N, length, sequence, what it does."""
    d = cls.as_dict()
    return (f"{number:>3}. {cls.length:>2}  {d['moves']:<30} corners {d['corners']}; "
            f"edges {d['edges']}; order {d['order']}; morph {d['morph']}")


def _prompt_loop(repl: Repl, vi: bool, settings=None, store=None) -> int:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
    from prompt_toolkit.completion import Completer, Completion
    from .history import history_path, prompt_history

    class CommandCompleter(Completer):
        def get_completions(self, document, complete_event):
            text = document.text_before_cursor
            for option in repl.session.completions(text):
                yield Completion(option, start_position=-len(text))

    path = history_path()
    size = settings.get("repl.history_size") if settings is not None else None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        history = prompt_history(path, size)
    except OSError:
        from prompt_toolkit.history import InMemoryHistory
        history = InMemoryHistory()
    prompt = PromptSession(history=history, completer=CommandCompleter(),
                           auto_suggest=AutoSuggestFromHistory(), vi_mode=vi,
                           complete_while_typing=True)
    repl.console.print("cubelab repl: type moves or :help; Ctrl-D leaves", highlight=False)
    prompt_text = settings.get("repl.prompt") if settings is not None else "cube> "
    number = 0
    saved = time.monotonic()
    try:
        while True:
            try:
                line = prompt.prompt(prompt_text)
            except Terminated:
                raise   # SIGTERM ends the program (exit 143); Ctrl-C only clears the line
            except KeyboardInterrupt:
                continue
            except EOFError:
                return 0
            number += 1
            repl.handle(number, line)
            if store is not None and time.monotonic() - saved > SAVE_SECONDS:
                _keep(repl, store)
                saved = time.monotonic()
    finally:
        if store is not None:
            _keep(repl, store)


SAVE_SECONDS = 30.0
"""How often an interactive REPL keeps its session (after a line), besides at the end."""


def _keep(repl: Repl, store) -> None:
    problem = store.save(repl.session)
    if problem:
        print(f"cubelab: {problem}", file=sys.stderr)


def _restore(repl: Repl, store, interactive: bool) -> None:
    """Start from the last session, and say so (on stderr when the output is records)."""
    from .session_store import describe
    record, problem = store.load()
    if record is not None:
        problem = store.restore(repl.session, record)
    if problem or record is None:
        print(f"cubelab: {problem or 'no session to restore'}", file=sys.stderr)
        return
    said = f"restored the last session ({describe(record)})"
    if not interactive:
        print(f"cubelab: {said}", file=sys.stderr)
        return
    # the facts first and the note last, just above the prompt: a long answer would scroll a
    # note printed before it out of a small terminal
    repl._emit(dict(repl._facts(), line=0, input=""))
    repl.console.print(said, highlight=False, markup=False)


def run(args) -> int:
    from rich.console import Console
    from .session_store import SessionStore
    from .settings import current
    from .stopping import claim_sigint
    if args.time_limit is not None and args.time_limit <= 0:
        raise InputError("--time-limit must be positive")
    settings = current()
    claim_sigint()      # Ctrl-C stops the solve under way (or clears the line), not the REPL
    from .table_commands import chosen_tables
    tables = {**settings.table_sets(), **chosen_tables(args.tables)}
    time_limit = args.time_limit if args.time_limit is not None else settings.time_limit("repl")
    interactive = sys.stdin.isatty() and sys.stdout.isatty() and not args.json
    repl = Repl(Console(), json_mode=args.json, letters=args.letters, show_net=not args.no_net,
                time_limit=time_limit, puzzle=args.puzzle, tables=tables)
    repl.session.default_solver = settings.solver("repl")
    repl.session.default_metric = settings.default_metric()
    from .look_commands import look_from_settings
    for problem in look_from_settings(repl.session, settings):
        print(f"cubelab: settings: {problem}", file=sys.stderr)
    store = SessionStore()
    if args.restore or settings.get("repl.restore"):
        _restore(repl, store, interactive)
    for problem in settings.problems:
        print(f"cubelab: {problem}", file=sys.stderr)
    if interactive:
        # only a person's session is kept: a script piping lines must not replace it
        return _prompt_loop(repl, args.vi, settings, store)
    for number, raw in enumerate(sys.stdin, start=1):
        line = raw.rstrip("\n")
        if not line.strip():
            continue
        repl.handle(number, line)
    return 2 if repl.failures else 0
