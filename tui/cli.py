"""The `cubelab` command line: the TUI by default, and the sub-commands of the contract.

Each sub-command lives in its own module with `register(subparsers)`; heavy imports (numba,
Textual) happen inside the command, so `cubelab facts` starts fast. Exit status: 0 success,
2 bad input (one line on stderr, no traceback), 1 internal failure.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import re
import signal
import sys

from . import stopping
from .argtypes import port_number
from .errors import InputError
from .interrupts import exit_status, install_sigterm, restore_sigterm
from .interrupts import message as interrupt_message

# Sub-command modules; the parser imports only the one a command line names (_modules_for),
# and each keeps its heavy imports lazy.
_COMMAND_MODULES = (
    "cubelab.tui.facts_cmd",
    "cubelab.tui.solve_cmd",
    "cubelab.tui.gen_cmd",          # issue 34: alg generation over case sets
    "cubelab.tui.goals_cmd",        # issue 34: the goals, move sets and case sets there are
    "cubelab.tui.tables_cmd",
    "cubelab.tui.repl",
    "cubelab.tui.bench_cmd",
    "cubelab.tui.count_cmd",
    "cubelab.tui.search_cmd",
    "cubelab.tui.replay_cmd",
    "cubelab.tui.config_cmd",
    "cubelab.tui.fmc_cmd",
    "cubelab.tui.insert_cmd",       # issue 35: insertions into an FMC skeleton
)


class _Parser(argparse.ArgumentParser):
    """argparse with its errors as one line (InputError: exit 2), not usage plus a message."""

    def error(self, message: str):
        hint = f"; see {self.prog} --help"
        if re.search(r"unrecognized arguments: -[^-]", message):
            hint += " (an alg that starts with '-' goes after '--')"
        raise InputError(f"{message}{hint}")


def _command_name(module: str) -> str:
    """The command a module of _COMMAND_MODULES registers: its name less `_cmd` (facts_cmd ->
    facts, repl -> repl). tests/test_cli_start.py holds every module to it."""
    return module.rpartition(".")[2].removesuffix("_cmd")


# the options before a command that take a value (`--port 8000` or `--port=8000`)
_VALUED = ("--port", "--puzzle", "--tables")


def _modules_for(argv: list[str]) -> tuple[str, ...]:
    """The command modules the parser needs for `argv`: only the named command's (so a command
    imports nothing of the others: `cubelab facts` starts in a fraction of the time), none for
    the workbench (no command), and all of them when the arguments ask for the list or may be
    wrong (help, an unknown word, an abbreviated option) so the answer names every command."""
    words = iter(argv)
    for word in words:
        if word in _VALUED:
            next(words, None)
        elif word == "--serve" or word.startswith(tuple(o + "=" for o in _VALUED)):
            continue
        elif word.startswith("-"):
            return _COMMAND_MODULES                 # --help, or anything argparse must judge
        else:
            own = [m for m in _COMMAND_MODULES if _command_name(m) == word]
            return tuple(own) if own else _COMMAND_MODULES
    return ()


def build_parser(modules: tuple[str, ...] = _COMMAND_MODULES) -> argparse.ArgumentParser:
    """The command line's parser with the sub-commands of `modules` (by default every one)."""
    parser = _Parser(
        prog="cubelab",
        description="A terminal workbench for the Rubik's Cube. With no command, opens the TUI.")
    parser.add_argument("--serve", action="store_true",
                        help="serve the TUI to a browser on localhost (textual-serve)")
    parser.add_argument("--port", type=port_number, default=8000,
                        help="port for --serve (default %(default)s)")
    # its own dest: a sub-command's --puzzle default must not overwrite it, nor it theirs
    parser.add_argument("--puzzle", dest="app_puzzle", choices=("3x3", "2x2"), default="3x3",
                        help="the cube the TUI starts with (default %(default)s; F4 switches)")
    parser.add_argument("--tables", dest="app_tables", metavar="SET",
                        help="the table set the TUI's optimal solver reads (names and sizes: "
                             "cubelab tables status; :tables switches)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name == name:
                continue  # that command is not part of this build yet
            raise
        module.register(sub)
    return parser


def _collect_again() -> None:
    """Garbage collection back on once the modules are loaded (entry.py turns it off for the
    start), with what they made set aside for good (gc.freeze): a collection never walks it."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()


def main(argv: list[str] | None = None) -> int:
    if not stopping.installed():
        install_sigterm()   # called in-process (tests): SIGTERM ends a command as Ctrl-C does
    try:
        if argv is None:
            argv = sys.argv[1:]
        args = build_parser(_modules_for(argv)).parse_args(argv)
        stopping.running()  # a signal now stops the command in order (stopping.py)
        if args.command is None:
            from cubelab.tui.app import run_app
            from .table_commands import chosen_tables
            if args.serve:
                _collect_again()
            # else the workbench turns the collector on once its first frame is out (~4 ms
            # less before it: tui/_hidden_lists.py)
            tables = chosen_tables(args.app_tables)
            # the workbench ends on Ctrl-C and SIGTERM its own way
            stopping.hand_over() if stopping.installed() else restore_sigterm()
            return run_app(serve=args.serve, port=args.port, puzzle=args.app_puzzle,
                           tables=tables) or 0
        if args.app_tables:
            raise InputError(f"--tables before a command is for the workbench: give it after "
                             f"the command (cubelab {args.command} --tables "
                             f"{args.app_tables})")
        _collect_again()
        return args.func(args) or 0
    except InputError as e:
        print(f"cubelab: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as stop:
        stopping.acknowledge()
        stopping.say(interrupt_message(stop))
        return exit_status(stop)
    except BrokenPipeError:
        return 0
    except Exception as e:  # an internal failure: one line, exit 1 (CUBELAB_DEBUG=1 for the trace)
        interrupt = stopping.pending_interrupt()
        if interrupt is not None:
            # the signal's KeyboardInterrupt came out as another exception (an import it cut
            # short: "PyCapsule_Import could not import module ..."): it is the interrupt
            stopping.acknowledge()
            stopping.say(interrupt_message(interrupt))
            return exit_status(interrupt)
        if os.environ.get("CUBELAB_DEBUG"):
            raise
        print(f"cubelab: internal error: {type(e).__name__}: {e}", file=sys.stderr)
        return 1


def _quiet_llvm_cleanup(unraisable) -> None:
    """sys.unraisablehook: a numba compile cut short by Ctrl-C leaves half-made LLVM objects
    whose finalisers fail ("Exception ignored in ObjectRef.__del__"); that says nothing to the
    user, who asked to stop. Anything else is reported as usual."""
    if getattr(unraisable.object, "__module__", "").startswith("llvmlite"):
        return
    sys.__unraisablehook__(unraisable)


def _default_signal_actions() -> KeyboardInterrupt | None:
    """Give SIGINT and SIGTERM their default actions (the process just ends); a signal that
    Python's handlers turn into an exception meanwhile is returned, not raised."""
    late = None
    while True:
        try:
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            return late
        except KeyboardInterrupt as stop:   # each comes from a handler the loop then replaces
            late = stop


def run() -> None:
    sys.unraisablehook = _quiet_llvm_cleanup
    late = None
    try:
        status = main()
    except KeyboardInterrupt as stop:   # outside main's own handling: starting up or returning
        late, status = stop, 0
    # the work is done and said: a signal during the exit (numba and LLVM take a second to
    # finalise) just ends the process, as the shell expects (130, 143), with no traceback;
    # one that came between main's return and the default actions ends it the same way
    late = _default_signal_actions() or late
    if late is None and status not in (130, 143):
        # a signal swallowed on its way (stopping.py) while the work went on to its end
        late = stopping.pending_interrupt()
    if late is not None:
        stopping.flush_briefly()
        os.kill(os.getpid(), exit_status(late) - 128)   # 128 + the signal's number
    if status in (130, 143):
        # our half-written files and scratch folders removed, child processes ended
        stopping.leave_nothing_behind()
        if "multiprocessing" in sys.modules:
            # what its exit hook would do: reap children, release a worker pool's semaphores
            # (else the resource tracker warns of leaked ones on stderr)
            import multiprocessing.util
            multiprocessing.util._exit_function()
        # Interrupted: leave now. A normal exit finalises numba and LLVM (over a second once
        # kernels are loaded) and would wait on abandoned daemon threads; what we owe the user
        # is written, the workers reaped and our temporary and lock files removed already.
        stopping.flush_briefly()
        os._exit(status)
    sys.exit(status)


if __name__ == "__main__":
    stopping.begin()    # the signals' handling, as the installed command has it (entry.py)
    run()
