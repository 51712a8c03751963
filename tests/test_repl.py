"""The plain REPL: piped sessions, JSON Lines, error lines and exit status, solving, prompt."""

import json
import os
import subprocess
import sys

import pytest
from rich.console import Console

from cubelab.solvers.fake import FakeRegistry
from cubelab.tui.repl import Repl


def run_repl(text: str, *args: str, env_extra=None) -> subprocess.CompletedProcess:
    env = dict(os.environ, **(env_extra or {}))
    return subprocess.run([sys.executable, "-m", "cubelab.tui.cli", "repl", *args], input=text,
                          capture_output=True, text=True, env=env, timeout=120)


def test_piped_json_session():
    proc = run_repl("R U R' U'\n(R U R' U')5\n:undo\n:undo\n", "--json")
    records = [json.loads(x) for x in proc.stdout.splitlines()]
    assert proc.returncode == 0
    assert [r["line"] for r in records] == [1, 2, 3, 4]
    assert records[0]["order"] == 6 and records[0]["alg"] == "R U R' U'"
    assert records[1]["order"] == 1          # (R U R' U')6 in all
    assert records[2]["order"] == 6 and records[3]["order"] == 1


def test_errors_keep_going_and_set_the_exit_status():
    proc = run_repl("R U ]\n:frobnicate\nR\n", "--json")
    records = [json.loads(x) for x in proc.stdout.splitlines()]
    assert proc.returncode == 2
    assert records[0]["error"].startswith("unexpected ']'") and records[0]["column"] == 5
    assert "unknown command" in records[1]["error"]
    assert records[2]["order"] == 4


def test_plain_text_output_has_net_and_facts():
    proc = run_repl("R2\n:help\n")
    assert proc.returncode == 0
    assert "order        2" in proc.stdout and ":scramble" in proc.stdout
    assert "      U U D" in proc.stdout  # the net, as letters when piped


def test_history_lives_in_the_state_directory():
    from cubelab.tui.history import history_path
    assert str(history_path()).startswith(os.environ["CUBELAB_STATE_DIR"])


def test_solve_and_apply_with_a_registry():
    console = Console(file=open(os.devnull, "w"))
    repl = Repl(console, json_mode=False, registry=FakeRegistry(step_seconds=0.0), time_limit=5)
    repl.handle(1, "R U F")
    record = repl.handle(2, ":solve fake")
    sol = record["solutions"][0]
    assert sol["solver"] == "fake" and sol["verified"] and sol["length"]["htm"] == 3
    after = repl.handle(3, ":apply 1")
    assert after["order"] == 1 and repl.failures == 0


def test_solve_errors_are_reported_not_raised():
    console = Console(file=open(os.devnull, "w"))
    repl = Repl(console, registry=FakeRegistry(step_seconds=0.0), time_limit=5)
    repl.handle(1, "R U F D L B R U F")   # beyond the fake solver's reach
    record = repl.handle(2, ":solve fake")
    assert "error" in record["solutions"][0]


def test_interactive_prompt_in_a_pipe_input():
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput
    from cubelab.tui import repl as repl_module

    console = Console(file=open(os.devnull, "w"))
    r = Repl(console, registry=FakeRegistry(step_seconds=0.0))
    with create_pipe_input() as inp:
        inp.send_text("R U\r:sc\t\r")   # a move line, then a completed command
        inp.close()
        with create_app_session(input=inp, output=DummyOutput()):
            assert repl_module._prompt_loop(r, vi=False) == 0
    assert r.session.history[1].label == "R U"
    assert r.session.entry.label.startswith(":scramble")
