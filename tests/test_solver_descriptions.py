"""Solvers that describe themselves: the front ends read the declarations, and nothing else.

A solver the tests register (helpers_tiny_solver) appears in `cubelab solve --help`, gets its
declared option as a flag, has an option it does not declare refused before it is made, and is
listed by completion and the help; table sets declared by a solver are listed by `:tables` and
`cubelab tables status`; the status words of the JSON come from one enum; "time limit" and
"cancelled" are told apart in one place, whoever keeps the time; listing the declarations loads
no kernel.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import time
from dataclasses import replace

import pytest

from cubelab.cube.moves import alg_state
from cubelab.solvers import REGISTRY, StandIn
from cubelab.solvers.description import OptionError, SolverDescription, TableSetChoice
from cubelab.solvers.fake import FakeSolver, _PRETEND_TABLE
from cubelab.solvers.protocol import (
    CANCEL, TIME_UP, Deadline, SolveResult, Status, new_cancel, stopped_by,
)
from cubelab.tui.cli import main
from cubelab.tui.runner import Runner
from cubelab.tui.session import Session
from helpers_tiny_solver import TINY, TinySolver, tiny_registered


@pytest.fixture
def tiny():
    with tiny_registered():
        TinySolver.made.clear()
        yield


# ---- the command line builds its flags from the declarations --------------------------------

def test_a_registered_solver_and_its_option_appear_in_solve_help(tiny, capsys):
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "tiny" in text and "--reach REACH" in text
    assert "tiny: the most face turns it looks (1 to 6) (default 6)" in text
    # every option every solver declares is a flag, with its solvers named in its help
    for d in REGISTRY.descriptions():
        for option in d.user_options:
            assert option.flag in text and d.name in text


def test_without_the_registry_line_there_is_no_flag(capsys):
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    assert "--reach" not in capsys.readouterr().out
    assert main(["solve", "--reach", "3", "R U"]) == 2      # argparse knows no such flag


def test_its_option_reaches_the_solver(tiny, capsys):
    assert main(["solve", "--solver", "tiny", "--reach", "4", "--json", "R U F"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["solver"] == "tiny" and record["length"]["htm"] == 3 and record["optimal"]
    assert TinySolver.made == [{"reach": 4}]


@pytest.mark.parametrize("argv, says", [
    (["--heuristic", "pdb"], "solver tiny takes no --heuristic (idastar, greedy do)"),
    (["--first"], "solver tiny takes no --first (kociemba does)"),
    (["--tables", "strong"], "solver tiny has no table sets to choose from"),
    (["--reach", "far"], "solver tiny: --reach: invalid literal"),
])
def test_options_it_does_not_take_are_refused_before_it_is_made(tiny, capsys, argv, says):
    assert main(["solve", "--solver", "tiny", *argv, "R U"]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1
    assert TinySolver.made == []            # refused before any solver was made


def test_the_registry_refuses_before_making_for_every_front_end(tiny):
    with pytest.raises(OptionError, match="takes no --first"):
        REGISTRY.make("tiny", "3x3", {"first": True})
    with pytest.raises(OptionError, match="takes no --reach"):
        REGISTRY.make("kociemba", "3x3", {"reach": "3"})
    assert TinySolver.made == []
    assert REGISTRY.make("tiny", "3x3", {"reach": "2"}).reach == 2


def test_the_workbench_and_repl_words_come_from_the_same_declarations(tiny):
    session = Session(REGISTRY)
    assert ":solve tiny" in session.completions(":solve ti")
    assert ":solve tiny --reach" in session.completions(":solve tiny --re")
    out = session.execute(":solve tiny --reach 3")
    assert not out.error and out.request.options == {"reach": "3"}
    refused = session.execute(":solve tiny --heuristic pdb")
    assert refused.error and "takes no --heuristic" in refused.message
    assert session.execute(":solve --reach 2").request.solvers == ("tiny",)  # the one taking it
    from cubelab.tui._help_screen import help_renderable
    from rich.console import Console
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(help_renderable({"3x3x3": REGISTRY.descriptions("3x3")}))
    text = console.export_text()
    assert "tiny: a test's solver" in text and "--reach" in text


# ---- table sets -----------------------------------------------------------------------------

class _PretendSet(TableSetChoice):
    def specs(self) -> tuple:
        return (_PRETEND_TABLE,)


def test_declared_table_sets_are_listed_and_chosen(capsys):
    sets = (_PretendSet("small-one", "a pretend set", default=True),
            _PretendSet("big-one", "another"))
    described = SolverDescription("setful", "a test's solver with table sets", table_sets=sets)
    REGISTRY.register(described, FakeSolver)
    try:
        assert main(["tables", "status"]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert any(line.split()[:2] == ["setful", "small-one"] and line.endswith("(default)")
                   for line in lines)
        session = Session(REGISTRY)
        assert "setful: small-one" in session.execute(":tables").message
        assert session.execute(":tables big-one").message.startswith("setful solves with")
        assert session.solver_options("setful") == {"tables": "big-one"}
        assert ":tables big-one" in session.completions(":tables big")
        assert REGISTRY.check_options("setful", "3x3", {"tables": "BIG-ONE"}) == \
            {"tables": "big-one"}
        with pytest.raises(ValueError, match="belongs to another solver"):
            REGISTRY.register(replace(described, name="other"), FakeSolver)
    finally:
        REGISTRY.unregister("setful")


# ---- statuses -------------------------------------------------------------------------------

def test_the_status_enum_writes_the_json_words():
    words = {Status.SOLVED: "solved", Status.CANCELLED: "cancelled",
             Status.TIME_LIMIT: "time limit", Status.NOT_FOUND: "not found",
             Status.TOO_DEEP: "too deep", Status.INTERRUPTED: "interrupted"}
    assert {s: s.value for s in Status} == words
    for status, word in words.items():
        record = SolveResult("x", None, status=status).to_json()
        assert record["status"] == word and json.loads(json.dumps(record))["status"] == word
        assert status == word       # a status compares equal to its word


def test_why_a_search_stopped_is_read_in_one_place():
    cancel = new_cancel()
    assert stopped_by(cancel) is None
    assert stopped_by(cancel, expired=True) == Status.TIME_LIMIT
    cancel[0] = CANCEL
    assert stopped_by(cancel) == Status.CANCELLED
    cancel[0] = TIME_UP
    assert stopped_by(cancel) == Status.TIME_LIMIT
    flag = new_cancel()
    with Deadline(flag, 0.0) as clock:
        deadline = time.monotonic() + 5
        while not flag[0] and time.monotonic() < deadline:
            time.sleep(0.005)
    assert clock.expired and flag[0] == TIME_UP


def test_time_limit_and_cancel_whoever_keeps_the_time():
    slow = FakeSolver(step_seconds=0.2, improvements=3)
    assert slow.solve(alg_state("R U"), time_limit=0.05).status == Status.TIME_LIMIT \
        or slow.solve(alg_state("R U"), time_limit=0.05).moves is not None
    # the workbench's cap is the same mechanism: the solver itself says "time limit"
    run = Runner(StandIn(step_seconds=30)).solve("fake", "3x3", alg_state("R U"), cap=0.2)
    assert run.done.wait(10)
    assert run.result.status == Status.TIME_LIMIT and run.status == "time limit"
    stopped = Runner(StandIn(step_seconds=30)).solve("fake", "3x3", alg_state("R U"))
    deadline = time.monotonic() + 10
    while stopped.phase != "search" and time.monotonic() < deadline:
        time.sleep(0.01)
    stopped.stop()
    assert stopped.done.wait(10)
    assert stopped.result.status == Status.CANCELLED


# ---- cheap to list ----------------------------------------------------------------------------

def test_listing_the_declarations_loads_no_kernel():
    code = ("import sys\n"
            "from cubelab.solvers import REGISTRY\n"
            "from cubelab.tui.table_sets import set_names\n"
            "names = [d.name for d in REGISTRY.descriptions()]\n"
            "flags = [o.flag for d in REGISTRY.descriptions() for o in d.user_options]\n"
            "assert 'korf' in names and '--tables' in flags and 'layers' in set_names(REGISTRY)\n"
            "assert 'numba' not in sys.modules, 'numba was imported'\n"
            "assert not any(m.startswith('cubelab.solvers.korf.solver') for m in sys.modules)\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_solve_help_imports_no_kernel():
    code = ("import sys\n"
            "from cubelab.tui.cli import build_parser\n"
            "build_parser()\n"
            "assert 'numba' not in sys.modules, 'numba was imported'\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_a_description_is_light():
    assert TINY.option("reach").parse("3") == 3
    with pytest.raises(OptionError):
        TINY.check_options({"depth": "3"})
