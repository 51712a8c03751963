"""The plain REPL: piped sessions, JSON Lines, error lines and exit status, solving, prompt."""

import json
import os
import signal
import subprocess
import sys
import time

from rich.console import Console

from cubelab.solvers import StandIn
from cubelab.tui.repl import Repl
from helpers_search import search_kernels  # noqa: F401  (a fixture)


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
    repl = Repl(console, json_mode=False, registry=StandIn(step_seconds=0.0), time_limit=5)
    repl.handle(1, "R U F")
    record = repl.handle(2, ":solve fake")
    sol = record["solutions"][0]
    assert sol["solver"] == "fake" and sol["verified"] and sol["length"]["htm"] == 3
    after = repl.handle(3, ":apply 1")
    assert after["order"] == 1 and repl.failures == 0


def test_a_table_build_never_counts_against_the_time_limit():
    # the tables take longer to build than the whole limit; the solve still gets its time
    console = Console(file=open(os.devnull, "w"))
    registry = StandIn(step_seconds=0.01, tables_built=False, build_steps=8,
                            build_seconds=0.3)
    repl = Repl(console, registry=registry, time_limit=1.5)
    repl.handle(1, "R U")
    sol = repl.handle(2, ":solve fake")["solutions"][0]
    assert sol["status"] == "solved" and sol["verified"], sol
    assert not registry.solver.missing_tables()


def test_a_notation_error_gets_a_caret_under_its_column():
    import io
    out = io.StringIO()
    repl = Repl(Console(file=out, width=80), registry=StandIn())
    repl.handle(1, "R U2 F Q")
    lines = out.getvalue().splitlines()
    assert lines[0] == "  R U2 F Q"
    assert lines[1].index("^") == lines[0].index("Q")
    assert lines[2].startswith("error: unknown move 'Q'")


def test_solve_errors_are_reported_not_raised():
    console = Console(file=open(os.devnull, "w"))
    repl = Repl(console, registry=StandIn(step_seconds=0.0), time_limit=5)
    repl.handle(1, "R U F D L B R U F")   # beyond the fake solver's reach
    record = repl.handle(2, ":solve fake")
    assert "error" in record["solutions"][0]


def test_interactive_prompt_in_a_pipe_input():
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput
    from cubelab.tui import repl as repl_module

    console = Console(file=open(os.devnull, "w"))
    r = Repl(console, registry=StandIn(step_seconds=0.0))
    with create_pipe_input() as inp:
        inp.send_text("R U\r:scra\t\r")   # a move line, then a completed command
        inp.close()
        with create_app_session(input=inp, output=DummyOutput()):
            assert repl_module._prompt_loop(r, vi=False) == 0
    assert r.session.history.entries[1].label == "R U"
    assert r.session.entry.label.startswith(":scramble")


def test_piped_2x2_session_with_the_optimal_solver():
    proc = run_repl("R U R' U'\nM\n:solve\n:apply 1\n:puzzle 3x3\n", "--puzzle", "2x2", "--json")
    records = [json.loads(x) for x in proc.stdout.splitlines()]
    assert proc.returncode == 2                          # the slice line failed, the rest ran
    assert records[0]["puzzle"] == "2x2" and records[0]["order"] == 6
    assert len(records[0]["facelets"]) == 24
    assert "no middle layer" in records[1]["error"]
    sol = records[2]["solutions"][0]
    assert sol["solver"] == "pocket-htm" and sol["optimal"] and sol["length"]["htm"] == 4
    assert records[3]["order"] == 1 and records[3]["puzzle"] == "2x2"
    assert records[4]["order"] == 1 and "puzzle" not in records[4]    # the 3x3x3 again
    assert len(records[4]["facelets"]) == 54


def test_plain_2x2_output_has_its_net():
    proc = run_repl("R\n", "--puzzle", "2x2")
    assert proc.returncode == 0
    assert "    U F" in proc.stdout and "held DLB" in proc.stdout and "edges" not in proc.stdout


def test_search_results_stream_and_apply(search_kernels):
    proc = run_repl(":search 6 ll\n:apply 1\n:search 2 frob\n")
    lines = proc.stdout.splitlines()
    assert proc.returncode == 2                          # the unknown predicate
    heading = lines.index("searching: only the U layer changes (not a U turn); up to 6 HTM")
    assert lines[heading + 1].startswith("  1.  6  R U B U' B' R'")
    assert lines[heading + 2].startswith("1 classes, 16 sequences, shortest 6")
    assert "applied search result 1: R U B U' B' R'" in proc.stdout
    assert "unknown predicate" in proc.stdout


def test_search_in_json_mode_is_one_record(search_kernels):
    proc = run_repl(":search 6 qtm ll\n", "--json")
    (record,) = [json.loads(x) for x in proc.stdout.splitlines()]
    search = record["search"]
    assert search["status"] == "done" and search["complete_to"] == 6
    assert [c["moves"] for c in search["classes"]] == ["R U B U' B' R'"]


def test_ctrl_c_stops_a_search_and_the_repl_goes_on(search_kernels):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "cubelab.tui.cli", "repl", "--no-net"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    proc.stdin.write(":search 12 ll\nR\n")
    proc.stdin.close()
    lines = []
    for line in proc.stdout:                             # the first class: the search is on
        lines.append(line)
        if line.startswith("  1."):
            break
    proc.send_signal(signal.SIGINT)
    rest = proc.stdout.read()
    assert proc.wait(timeout=30) == 0
    assert "cancelled after length" in rest
    assert "order        4" in rest                      # the next line still ran


SLOW_BUILD_REPL = """
import sys
import time
from rich.console import Console
from cubelab.solvers import StandIn
from cubelab.tui.repl import Repl
registry = StandIn(step_seconds=0.01, tables_built=False, store_build=True,
                 build_steps=60, build_seconds=float(sys.argv[1]))
repl = Repl(Console(), registry=registry, time_limit=5, show_net=False)
for number, line in enumerate(sys.stdin, start=1):
    repl.handle(number, line.rstrip("\\n"))
"""


def test_ctrl_c_stops_a_table_build_before_the_repl_goes_on(tmp_path):
    """Ctrl-C while a solver's tables build: the REPL goes on only once the build has
    stopped (the fake build stops 2 s after its flag, as a real one does that is inside a
    numba compile): its lock released, no temporary file, nothing built."""
    env = dict(os.environ, PYTHONUNBUFFERED="1", CUBELAB_DATA_DIR=str(tmp_path / "data"))
    proc = subprocess.Popen([sys.executable, "-c", SLOW_BUILD_REPL, "2"], env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    tables = tmp_path / "data" / "tables"
    try:
        proc.stdin.write("R U\n:solve fake\n")
        proc.stdin.flush()
        for line in proc.stderr:                         # the build is announced
            if "building the tables of fake" in line:
                break
        deadline = time.monotonic() + 60
        while not list(tables.rglob("*.lock")):          # and under way, holding its lock
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        proc.stdin.write("R\n")
        proc.stdin.close()
        out = []
        for line in proc.stdout:
            out.append(line)
            if line.startswith("alg          R U R"):  # the next line's facts
                # the REPL went on: nothing may be building behind it
                assert not list(tables.rglob("*.lock")), "the build still holds its lock"
                assert not list(tables.rglob("*.tmp"))
                break
        else:
            raise AssertionError("".join(out))
        assert proc.wait(timeout=60) == 0
        assert "fake: cancelled" in "".join(out)
        assert "stopping its table build" in proc.stderr.read()
        assert not list(tables.rglob("*.npt"))           # nothing half-built left as built
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_list_solves_numbered_solutions_are_what_apply_picks():
    """`:solve --goal cross --within 1` prints its solutions numbered; `:apply 3` then applies
    the third of them (the list a list solve leaves is the one :apply N reads, as in the
    workbench's solutions panel)."""
    from cubelab.cube.goal_catalog import resolve_goal
    from cubelab.cube.moves import alg_state
    proc = run_repl("R U F' L2 D B\n:solve --goal cross --within 1\n:apply 3\n", "--json")
    assert proc.returncode == 0, proc.stderr
    records = [json.loads(x) for x in proc.stdout.splitlines()]
    listed = records[1]["solutions"][0]["solutions"]
    assert len(listed) >= 3
    third = listed[2]["solution"]
    assert third in records[2]["message"]
    assert records[2]["alg"] == "R U F' L2 D B " + third
    assert resolve_goal("cross")[0].is_met(alg_state(records[2]["alg"]))
    text = run_repl("R U F' L2 D B\n:solve --goal cross --within 1\n").stdout
    assert f"  3  {third}" in text
