"""`cubelab repl`: the line-oriented front end (prompt_toolkit), or a line filter when piped.

It speaks the workbench's command language (tui/session.py) and shares its history file. After
each line it prints the net (the same renderable as the TUI) and the facts. With standard input
not a terminal it executes the lines it reads, as plain text or JSON Lines (`--json`), keeps going
after errors, and exits 2 at the end if any line failed.
"""

from __future__ import annotations

import json
import sys
import threading

from .errors import InputError


def register(sub) -> None:
    p = sub.add_parser("repl", help="the plain line REPL (reads lines from stdin when piped)")
    p.add_argument("--json", action="store_true", help="JSON Lines output (one record per input line)")
    p.add_argument("--vi", action="store_true", help="vi editing mode (default emacs)")
    p.add_argument("--letters", action="store_true", help="show sticker letters on the net")
    p.add_argument("--no-net", action="store_true", help="print the facts without the net")
    p.add_argument("--time-limit", type=float, default=10.0,
                   help="seconds each solver may take for :solve / :compare (default %(default)s)")
    p.set_defaults(func=run)


class Repl:
    """Executes lines against a Session and renders what happened; front-end independent."""

    def __init__(self, console, json_mode: bool = False, letters: bool = False,
                 show_net: bool = True, time_limit: float = 10.0, registry=None):
        from cubelab import solvers
        from .session import Session
        self.registry = registry or solvers
        self.session = Session(solver_names=self.registry.solver_names)
        self.console = console
        self.json_mode = json_mode
        self.letters = letters
        self.show_net = show_net
        self.time_limit = time_limit
        self.failures = 0
        self.cancel = None

    # ---- one line ---------------------------------------------------------------------------
    def handle(self, number: int, line: str) -> dict:
        from .session import HelpRequest, PaintRequest, SolveRequest, help_text
        outcome = self.session.execute(line)
        record: dict = {"line": number, "input": line}
        if outcome.error:
            self.failures += 1
            record["error"] = outcome.message
            if outcome.column:
                record["column"] = outcome.column
            self._emit(record, error=True)
            return record
        record["message"] = outcome.message
        if isinstance(outcome.request, HelpRequest):
            record["message"] = help_text()
        elif isinstance(outcome.request, PaintRequest):
            self.session.painting = None
            record["message"] = "paint mode needs the workbench (cubelab); use :facelets here"
        elif isinstance(outcome.request, SolveRequest):
            record["solutions"] = self._solve(outcome.request.solvers)
        if outcome.changed or not line.strip().startswith(":") or "solutions" in record:
            record.update(self._facts())
        self._emit(record)
        return record

    def _facts(self) -> dict:
        from cubelab.cube.notation import format_moves, metric_lengths
        from .facts_cmd import facts_record
        from cubelab.cube.positions import Position
        s = self.session
        pos = Position(s.state, tuple(s.moves), format_moves(s.moves))
        rec = facts_record(pos)
        rec["length"] = metric_lengths(s.moves)
        return rec

    def _solve(self, names) -> list[dict]:
        from cubelab.solvers.protocol import SolverError, new_cancel, new_counters
        from .session import SolutionRow
        results = []
        self.session.solutions = []
        for name in names:
            row = SolutionRow(solver=name, for_state=self.session.state)
            self.session.solutions.append(row)
            try:
                solver = self.registry.get_solver(name)
            except KeyError as e:
                row.status, row.message = "error", str(e.args[0])
                results.append({"solver": name, "error": row.message})
                continue
            counters, cancel = new_counters(), new_cancel()
            self.cancel = cancel
            box: dict = {}

            def work():
                try:
                    box["result"] = solver.solve(self.session.state, time_limit=self.time_limit,
                                                 counters=counters, cancel=cancel)
                except SolverError as e:
                    box["error"] = str(e)
                except Exception as e:  # a solver bug must not end the session
                    box["error"] = f"{type(e).__name__}: {e}"

            worker = threading.Thread(target=work, daemon=True)
            worker.start()
            try:
                while worker.is_alive():
                    worker.join(0.1)
            except KeyboardInterrupt:
                cancel[0] = 1
                worker.join()
            if "error" in box:
                row.status, row.message = "error", box["error"]
                results.append({"solver": name, "error": box["error"]})
                continue
            result = box["result"]
            row.moves, row.seconds, row.nodes = result.moves, result.seconds, result.nodes
            row.optimal, row.status = result.optimal, result.status
            results.append(result.to_json())
        return results

    # ---- output -----------------------------------------------------------------------------
    def _emit(self, record: dict, error: bool = False) -> None:
        if self.json_mode:
            print(json.dumps(record), flush=True)
            return
        from rich.text import Text
        if error:
            self.console.print(Text(f"error: {record['error']}", style="bold red"))
            return
        if record.get("message"):
            self.console.print(record["message"], highlight=False, markup=False, soft_wrap=True)
        for sol in record.get("solutions", []):
            if "error" in sol:
                self.console.print(f"  {sol['solver']}: {sol['error']}", highlight=False, markup=False)
            else:
                ln = sol["length"]
                size = f"{ln['htm']} HTM, {ln['qtm']} QTM" if ln else "no solution"
                self.console.print(
                    f"  {sol['solver']}: {sol['solution'] or '(none)'}  [{size}, "
                    f"{sol['seconds']:.3f} s, {sol['nodes']} nodes"
                    f"{', optimal' if sol['optimal'] else ''}, {sol['status']}]",
                    highlight=False, markup=False)
        if "facelets" in record:
            from cubelab.cube.net import Net
            from .facts_cmd import format_facts
            if self.show_net:
                self.console.print(Net(self.session.shown_state(),
                                       letters=True if self.letters else None))
            self.console.print(format_facts(record), highlight=False, markup=False)


def _prompt_loop(repl: Repl, vi: bool) -> int:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
    from prompt_toolkit.completion import Completer, Completion
    from prompt_toolkit.history import FileHistory
    from .history import history_path

    class CommandCompleter(Completer):
        def get_completions(self, document, complete_event):
            text = document.text_before_cursor
            for option in repl.session.completions(text):
                yield Completion(option, start_position=-len(text))

    path = history_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        history = FileHistory(str(path))
    except OSError:
        from prompt_toolkit.history import InMemoryHistory
        history = InMemoryHistory()
    prompt = PromptSession(history=history, completer=CommandCompleter(),
                           auto_suggest=AutoSuggestFromHistory(), vi_mode=vi,
                           complete_while_typing=True)
    repl.console.print("cubelab repl: type moves or :help; Ctrl-D leaves", highlight=False)
    number = 0
    while True:
        try:
            line = prompt.prompt("cube> ")
        except KeyboardInterrupt:
            continue
        except EOFError:
            return 0
        number += 1
        repl.handle(number, line)


def run(args) -> int:
    from rich.console import Console
    if args.time_limit <= 0:
        raise InputError("--time-limit must be positive")
    interactive = sys.stdin.isatty() and sys.stdout.isatty() and not args.json
    repl = Repl(Console(), json_mode=args.json, letters=args.letters, show_net=not args.no_net,
                time_limit=args.time_limit)
    if interactive:
        return _prompt_loop(repl, args.vi)
    for number, raw in enumerate(sys.stdin, start=1):
        line = raw.rstrip("\n")
        if not line.strip():
            continue
        repl.handle(number, line)
    return 2 if repl.failures else 0
