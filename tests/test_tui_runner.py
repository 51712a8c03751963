"""The front ends' background runner with the fake solver: phases, streamed solutions, rows, the
tables offer, stopping (in a search and in a table build), errors, and waits that Ctrl-C ends."""

from __future__ import annotations

import time

import pytest

from cubelab.cube.moves import alg_state
from cubelab.solvers import StandIn
from cubelab.tui.records import SolutionRow
from cubelab.tui.runner import Runner, describe_missing
from cubelab.tui.session import Session


def until(condition, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.01)


def test_a_run_streams_solutions_into_its_row_and_the_row_applies():
    registry = StandIn(step_seconds=0.01)
    session = Session(solver_names=registry.solver_names)
    session.execute("R U F")
    (index,) = session.open_rows(["fake"], keep=False)
    run = Runner(registry).solve("fake", "3x3", session.state)
    assert run.wait() is False
    row = session.solutions[index]
    run.fill(row)
    assert run.status == row.status == "solved" and row.optimal
    assert row.solutions == len(run.found) == 3 and len(row.moves) == 3
    assert row.nodes > 0 and row.seconds > 0
    assert session.execute(":apply 1").changed and session.state.is_solved()


def test_the_runner_keeps_one_solver_instance_per_name_and_puzzle():
    runner = Runner(StandIn())
    assert runner.solver("fake", "3x3") is runner.solver("fake", "3x3")
    with pytest.raises(KeyError):
        runner.solver("kociemba", "3x3")


def test_stopping_a_search_ends_it_cancelled():
    run = Runner(StandIn(step_seconds=30)).solve("fake", "3x3", alg_state("R U"))
    until(lambda: run.phase == "search")
    assert run.status == "search" and run.stop()
    assert run.done.wait(5)
    assert run.status == "cancelled" and run.result.status == "cancelled"
    assert not run.stop()                                # nothing left to stop


def test_stopping_a_table_build_abandons_the_run_at_once():
    registry = StandIn(tables_built=False, build_steps=2, build_seconds=1)
    run = Runner(registry).solve("fake", "3x3", alg_state("U"))
    until(lambda: run.phase == "tables")
    run.stop()
    assert not run.active and run.status == "cancelled"  # nobody waits for the build
    row = SolutionRow("fake", alg_state("U"))
    run.fill(row)
    assert row.status == "cancelled" and "before the search" in row.message
    assert run.done.wait(5) and run.result is None


@pytest.mark.parametrize("answer", [True, False])
def test_missing_tables_are_offered_through_the_hook(answer):
    registry = StandIn(tables_built=False, build_steps=3, build_seconds=0)
    offers = []

    def ask(run, detail):
        offers.append((run.phase, detail))
        return answer

    run = Runner(registry).solve("fake", "3x3", alg_state("U"), ask_build=ask)
    run.wait()
    assert len(offers) == 1 and offers[0][0] == "offer"
    assert offers[0][1].startswith("1 table, 1 MB, about ") and "first time" in offers[0][1]
    if answer:
        assert run.status == "solved" and run.progress == (3, 3)
        assert not registry.solver.missing_tables()
    else:
        assert run.status == "skipped" and run.error == "tables not built"
        assert registry.solver.missing_tables()


def test_without_a_hook_prepare_builds_what_is_missing():
    registry = StandIn(tables_built=False, build_steps=2, build_seconds=0, step_seconds=0)
    run = Runner(registry).solve("fake", "3x3", alg_state("U"))
    run.wait()
    assert run.status == "solved" and run.progress == (2, 2)


def test_errors_end_the_run_with_a_message():
    runner = Runner(StandIn(step_seconds=0))
    refused = runner.solve("fake", "3x3", alg_state("R U F D L B R U F"))
    unknown = runner.solve("nope", "3x3", alg_state("R"))
    for run in (refused, unknown):
        run.wait()
        assert run.status == "error" and run.result is None
    assert "only solves positions within" in refused.error
    assert "unknown solver 'nope'" in unknown.error


def test_ctrl_c_in_a_wait_stops_the_run():
    run = Runner(StandIn(step_seconds=30)).solve("fake", "3x3", alg_state("R U"))

    def interrupt():
        if run.phase == "search":
            raise KeyboardInterrupt

    assert run.wait(tick=interrupt) is True
    assert run.done.is_set() and run.status == "cancelled"


def test_describe_missing():
    assert describe_missing([]) is None
    specs = StandIn().solver.table_specs()
    assert describe_missing(list(specs) * 2).startswith("2 tables, 2 MB, about ")


def test_a_solver_limit_reaches_the_row_as_its_message():
    from cubelab.solvers.protocol import SolveResult
    from cubelab.tui.records import SolutionRow
    from cubelab.tui.runner import SolverRun
    run = SolverRun(Runner(StandIn()), "bfs", "3x3", alg_state("R U F"))
    run.phase = "done"
    run.result = SolveResult("bfs", None, status="too deep",
                             detail={"message": "too deep for bfs: needs > 5"})
    row = SolutionRow("bfs", alg_state("R U F"))
    run.fill(row)
    assert row.status == "too deep" and row.moves is None
    assert row.message == "too deep for bfs: needs > 5"
