"""What a command imports before it runs: the command line reads only the module of the command
it runs (`cubelab facts` never loads the solvers, numba or Textual), while `cubelab --help` and
a mistyped command still name every command. Import-level checks in a fresh interpreter (its
sys.modules), never timings: bench/bench_cli_start.py measures the seconds."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from cubelab.tui import cli

_FACTS_RUN = """
import contextlib, io, sys
from cubelab.tui.cli import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    status = main(ARGV)
assert status == 0, status
assert "order" in out.getvalue(), out.getvalue()
print(" ".join(sorted(sys.modules)))
"""


def _modules_after(argv: list[str], terminal: dict | None = None) -> set[str]:
    import os
    env = {k: v for k, v in os.environ.items()
           if k not in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "NO_COLOR")
           and not k.startswith("JUPYTER_")}
    env.update(terminal or {})
    run = subprocess.run([sys.executable, "-c", _FACTS_RUN.replace("ARGV", repr(argv))],
                         capture_output=True, text=True, timeout=300, env=env)
    assert run.returncode == 0, run.stderr
    return set(run.stdout.split())


# a pipe; a 256-colour terminal (FORCE_COLOR makes the captured output one)
_COLOUR = {"FORCE_COLOR": "1", "TERM": "xterm-256color", "COLUMNS": "100"}


@pytest.mark.parametrize("argv, terminal", [
    (["facts", "R U R' U'"], None), (["facts", "--json", "U R2 F'"], None),
    (["facts", "--puzzle", "2x2", "R U"], None), (["facts", "R U R' U'"], _COLOUR),
    (["facts", "--puzzle", "2x2", "R U"], _COLOUR)])
def test_facts_imports_no_solver_no_kernel_no_ui(argv, terminal):
    loaded = _modules_after(argv, terminal)
    heavy = {"numba", "llvmlite", "textual", "prompt_toolkit", "cubelab.solvers",
             "cubelab.tables", "multiprocessing",
             # numpy's lazily loaded parts: np.unique(axis=0) pulled in numpy.ma (symmetry.py)
             "numpy.ma",
             # the net and the facts are written without rich's Console where they come out
             # the same (tui/plain_terminal.py): ~15-20 ms of the command's 0.15 s
             "rich.console",
             # grey stickers come only with --facelets (and their module with them)
             "cubelab.cube.masked_facelets",
             # for --file and --json only
             "tempfile", "cubelab.tui.record_writer"}
    assert not heavy & loaded, sorted(heavy & loaded)
    # no other command's module either (cli.py imported every one to build its parser)
    others = {m for m in cli._COMMAND_MODULES if m != "cubelab.tui.facts_cmd"}
    assert not others & loaded, sorted(others & loaded)


def test_every_command_module_registers_the_command_its_name_says():
    # _modules_for finds a command's module by its name, without importing the others
    import importlib
    for module in cli._COMMAND_MODULES:
        sub = argparse.ArgumentParser().add_subparsers(dest="command")
        importlib.import_module(module).register(sub)
        assert list(sub.choices) == [cli._command_name(module)], module


@pytest.mark.parametrize("argv, expected", [
    (["facts", "R"], ("cubelab.tui.facts_cmd",)),
    (["--port", "8001", "solve", "R"], ("cubelab.tui.solve_cmd",)),
    (["--port=8001", "--puzzle", "2x2", "repl"], ("cubelab.tui.repl",)),
    (["--tables", "layers"], ()),                  # the workbench: no command at all
    (["--serve"], ()),
    ([], ()),
    (["--help"], cli._COMMAND_MODULES),            # the list of every command
    (["-h", "facts"], cli._COMMAND_MODULES),
    (["fatcs", "R"], cli._COMMAND_MODULES),        # "invalid choice" names them all
    (["--po", "8001", "facts"], cli._COMMAND_MODULES),   # abbreviations: argparse judges
])
def test_the_parser_reads_only_the_command_it_runs(argv, expected):
    assert cli._modules_for(argv) == expected


def test_help_still_lists_every_command(capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    for module in cli._COMMAND_MODULES:
        assert f"    {cli._command_name(module)} " in out, module


def test_a_commands_help_and_a_mistyped_command(capsys):
    with pytest.raises(SystemExit):
        cli.main(["solve", "--help"])
    assert "usage: cubelab solve" in capsys.readouterr().out
    assert cli.main(["fatcs", "R"]) == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'fatcs'" in err and "'fmc'" in err and "'facts'" in err


_WORKBENCH_RUN = """
import asyncio, sys
from cubelab.tui.app import CubeLabApp

async def first_screen():
    app = CubeLabApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.query_one("#facts").border_title == "facts"
    print(" ".join(sorted(sys.modules)))

asyncio.run(first_screen())
"""


def test_the_workbench_paints_before_any_kernel_loads():
    # numba and llvmlite alone cost ~0.15 s of the start: the FMC panel's session module
    # reached them through the step search (solvers/fmc/niss.py and the goal kernels); they
    # load at the first search, never for the first screen
    run = subprocess.run([sys.executable, "-c", _WORKBENCH_RUN], capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    loaded = set(run.stdout.split())
    assert "cubelab.tui.fmc_session" in loaded
    heavy = {"numba", "llvmlite", "cubelab.tables.jit", "cubelab.solvers.fmc.pipeline",
             "cubelab.solvers.fmc.niss", "cubelab.solvers.goals.kernel"}
    assert not heavy & loaded, sorted(heavy & loaded)


_ENTRY_RUN = """
import atexit, os, sys
sys.argv = ["cubelab", "facts", "R U"]
atexit.register(lambda: print("threads", os.environ.get("OPENBLAS_NUM_THREADS"),
                              len(os.listdir("/proc/self/task")), file=sys.stderr))
from cubelab.tui.entry import run
run()
"""


@pytest.mark.parametrize("given, expected", [(None, "1"), ("3", "3")])
def test_the_program_starts_numpy_without_a_blas_thread_pool(given, expected):
    # numpy's OpenBLAS started a thread per core as numpy loaded, spinning beside the main
    # thread: ~90 ms of CPU at every start on 2 cores, ~50 ms of wall time when the other core
    # is busy. The program asks for none; a user's own setting stays.
    import os
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = given
    run = subprocess.run([sys.executable, "-c", _ENTRY_RUN], capture_output=True, text=True,
                         timeout=300, env=env)
    assert run.returncode == 0, run.stderr
    line = next(x for x in run.stderr.splitlines() if x.startswith("threads "))
    _, value, threads = line.split()
    assert value == expected
    if given is None:
        assert int(threads) == 1        # the main thread only
