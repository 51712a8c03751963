"""Batch solving: one process per core, results in input order, errors as records."""

import json

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
