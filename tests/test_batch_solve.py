"""Batch solving: one process per core, results in input order, errors as records."""

import json
import os
import threading
from dataclasses import dataclass

from cubelab.cube.moves import alg_state
from cubelab.solvers.batch import BatchSettings, solve_many
from cubelab.tui.cli import main
from helpers_registry import as_records, visible_fake  # noqa: F401  (a fixture)

ALGS = ["R U F", "R", "U2 F' L", "D B", "L' U R' F"]


def test_solve_many_keeps_input_order_across_two_processes():
    states = [alg_state(a) for a in ALGS]
    done = []
    records = as_records(solve_many(BatchSettings("fake", {"step_seconds": 0.0}), states, jobs=2,
                                    on_done=done.append))
    assert [r["length"]["htm"] for r in records] == [3, 1, 3, 2, 4]
    assert all(r["verified"] for r in records)
    assert sorted(done) == [1, 2, 3, 4, 5]


def test_refused_positions_come_back_as_error_records():
    states = [alg_state("R"), alg_state("R U F D L B R U F")]
    records = as_records(solve_many(BatchSettings("fake"), states, jobs=2))
    assert records[0]["length"]["htm"] == 1 and "error" in records[1]


def test_cli_refuses_hidden_and_other_puzzles_solvers(capsys):
    assert main(["solve", "--solver", "fake", "R U"]) == 2
    assert "unknown solver 'fake'" in capsys.readouterr().err
    assert main(["solve", "--solver", "pocket-htm", "R U"]) == 2
    assert "solves the 2x2" in capsys.readouterr().err


def test_cli_file_with_jobs(tmp_path, capsys, visible_fake):
    f = tmp_path / "in.txt"
    f.write_text("\n".join(["R U F", "R U ]", "facelets: XYZ", "D B"]) + "\n")
    status = main(["solve", "--solver", "fake", "--json", "--jobs", "2", "--file", str(f)])
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert status == 2
    assert [r["line"] for r in lines] == [1, 2, 3, 4]
    assert lines[0]["solution"] and "error" in lines[1] and "error" in lines[2]
    assert lines[3]["length"]["htm"] == 2


def test_workers_are_forked_when_the_other_threads_are_only_ending(monkeypatch):
    # the preparation's helper thread and a solve's cancelled timer are still winding down
    # when the workers start: counted as running, they made half the batches spawn their
    # workers, which then imported and prepared the solver again
    import threading
    import time as clock

    import pytest

    from cubelab.solvers import batch
    if threading.active_count() > 1:
        pytest.skip("threads an earlier test left running would keep any batch from forking")
    solver = object()
    ending = threading.Thread(target=clock.sleep, args=(0.05,), daemon=True)
    ending.start()
    ctx, inherited = batch._start_method(solver)
    assert ctx.get_start_method() == "fork" and inherited is solver
    # one that keeps running: spawned workers, after a short wait
    monkeypatch.setattr(batch, "ENDING_SECONDS", 0.05)
    stop = threading.Event()
    running = threading.Thread(target=stop.wait, daemon=True)
    running.start()
    try:
        ctx, inherited = batch._start_method(solver)
        assert ctx.get_start_method() == "spawn" and inherited is None
    finally:
        stop.set()
        running.join()


KILLER = "F B' U2"


@dataclass(frozen=True)
class _KillingSettings(BatchSettings):
    """The settings, except that solving KILLER kills the worker at once."""

    def solve(self, solver, state):
        if state == alg_state(KILLER):
            os._exit(9)
        return super().solve(solver, state)


def test_a_position_that_kills_its_workers_is_given_up_alone():
    # positions travel in batches once the rate is known: the batch holding the killer
    # goes back one position per batch, and only the killer's own batch counts its deaths
    import pytest
    if threading.active_count() > 1:
        pytest.skip("threads an earlier test left running would keep the batch from forking")
    algs = [ALGS[k % len(ALGS)] for k in range(60)]
    algs[40] = KILLER
    settings = _KillingSettings("fake", {"step_seconds": 0.0}, as_records=True)
    solver = settings.make_solver()
    solver.prepare()
    records = list(solve_many(settings, [alg_state(a) for a in algs], jobs=2, solver=solver))
    assert "died 2 times" in records[40]["error"] and records[40]["internal"]
    for k, (alg, r) in enumerate(zip(algs, records)):
        if k != 40:
            assert r.get("verified") and r["length"]["htm"] == len(alg.split()), (k, r)


def test_batches_grow_to_the_target_time_once_the_rate_is_known():
    from cubelab.solvers.batch import Batcher
    b = Batcher(2, 0.02, 64)
    assert b.size() == 1                    # nothing known yet: one at a time
    b.learn(4, 0.004)                       # 1 ms a position
    assert b.size() == 20
    assert b.size(left=10) == 2             # a fair share of what is left
    b.learn(1, 10.0)                        # slow ones
    assert b.size() == 1
    b = Batcher(2, 0.02, 64)
    b.learn(1000, 0.001)
    assert b.size() == 64
