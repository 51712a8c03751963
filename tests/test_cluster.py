"""Batch solving and Pos(n) on a real Dask LocalCluster (2 worker processes, when Dask is here)."""

import json
import os
import time

import pytest

pytest.importorskip("distributed")

from cubelab.cube.moves import alg_state  # noqa: E402
from cubelab.solvers import cluster as batch_cluster  # noqa: E402
from cubelab.solvers.batch import BatchSettings  # noqa: E402
from cubelab.tables import counting  # noqa: E402
from cubelab.tables.cluster import connect, workers  # noqa: E402
from cubelab.tables.counting.sharded import count_on_cluster, owners  # noqa: E402
from cubelab.tui.cli import main  # noqa: E402
from helpers_registry import as_records, visible_fake  # noqa: E402,F401  (a fixture)

pytestmark = pytest.mark.cluster

ALGS = ["R U F", "R", "U2 F' L", "D B", "L' U R' F", "F2 D", "B' L", "U R2 D'"]


@pytest.fixture(scope="module")
def client():
    with connect("local:2") as c:
        yield c


def _lengths(records):
    return [r["length"]["htm"] for r in as_records(records)]


def test_records_come_back_in_input_order(client):
    settings = BatchSettings("fake", {"step_seconds": 0.0})
    done = []
    states = [alg_state(a) for a in ALGS * 3]
    records = list(batch_cluster.solve_many(client, settings, states, total=len(states),
                                            on_done=done.append))
    assert _lengths(records) == [3, 1, 3, 2, 4, 2, 2, 3] * 3
    assert all(r["verified"] for r in as_records(records)) and done == list(range(1, 25))


def test_refused_positions_are_error_records(client):
    settings = BatchSettings("fake", {"step_seconds": 0.0})
    records = as_records(batch_cluster.solve_many(
        client, settings, [alg_state("R"), alg_state("R U F D L B R U F")]))
    assert records[0]["length"]["htm"] == 1 and "error" in records[1]


def test_a_killed_workers_positions_are_solved_elsewhere():
    with connect("local:2") as own:     # its own cluster: the others' keeps its workers
        _kill_one_worker_mid_run(own)


def _kill_one_worker_mid_run(client):
    settings = BatchSettings("fake", {"step_seconds": 0.15})
    batch_cluster.prepare_everywhere(client, settings)
    pids = client.run(os.getpid)
    states = [alg_state(a) for a in ALGS]
    records, killed = [], False
    for record in batch_cluster.solve_many(client, settings, states, total=len(states)):
        records.append(record)
        if not killed:
            # the first answer is in, the other worker is mid-solve: kill one of them
            os.kill(sorted(pids.values())[0], 9)
            killed = True
    assert _lengths(records) == [3, 1, 3, 2, 4, 2, 2, 3]
    assert not any("error" in r for r in as_records(records))


def test_cli_cluster_output_and_resume(tmp_path, capsys, visible_fake):
    f = tmp_path / "in.txt"
    f.write_text("\n".join(["R U F", "R U ]", *ALGS[1:]]) + "\n")
    out = tmp_path / "out.jsonl"
    out.write_text(json.dumps({"solution": "F' U' R'", "line": 1}) + "\n")
    status = main(["solve", "--solver", "fake", "--file", str(f), "--cluster", "local:2",
                   "--output", str(out), "--resume"])
    assert status == 2                       # line 2 is bad
    records = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["line"] for r in records] == list(range(1, 10))
    assert "error" in records[1] and records[1]["input"] == "R U ]"
    assert _lengths(records[2:]) == [1, 3, 2, 4, 2, 2, 3]


def test_owners_share_the_buckets_evenly():
    for n in (2, 3, 7):
        share = [int((owners(n) == k).sum()) for k in range(n)]
        assert max(share) - min(share) < 0.05 * max(share)


@pytest.mark.parametrize("metric, depth", [("qtm", 8), ("htm", 7)])
def test_sharded_count_is_exact_with_half_the_memory_per_worker(client, metric, depth):
    here = counting.count_positions(metric, depth)
    t = time.perf_counter()
    spread = count_on_cluster(client, metric, depth)
    assert time.perf_counter() - t < 600
    assert [(c.positions, c.classes_sym, c.classes_sym_inv) for c in here] == \
        [(c.count.positions, c.count.classes_sym, c.count.classes_sym_inv) for c in spread]
    assert [c.positions for c in here] == list(counting.PUBLISHED[metric][:depth + 1])
    last = spread[-1]
    assert len(last.peak_bytes) == 2
    assert max(last.peak_bytes) < 0.7 * here[-1].peak_bytes


def test_cli_count_on_a_cluster(capsys):
    assert main(["count", "--metric", "htm", "--depth", "4", "--json", "--cluster",
                 "local:2"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [r["positions"] for r in rows] == list(counting.PUBLISHED["htm"][:5])
    assert len(rows[-1]["worker_peak_bytes"]) == 2


def test_workers_are_listed(client):
    assert sorted(workers(client).values()) == [1, 1]


def _worker_log_level() -> int:
    import logging
    return logging.getLogger("distributed.worker").getEffectiveLevel()


def test_a_local_clusters_workers_keep_their_log_to_themselves(client):
    # a worker that outlives its scheduler (Ctrl-C) must not print a heartbeat traceback under
    # the command's last line; its failures reach this process through the tasks
    import logging
    workers(client)
    levels = client.run(_worker_log_level)
    assert len(levels) == 2 and set(levels.values()) == {logging.CRITICAL}


def test_gen_on_the_cluster_gives_the_records_made_here_in_the_set_order(client):
    """Cases spread over the workers come back in the set's order, each record what the
    one-process run makes (but its time and node count)."""
    from cubelab.solvers.goals.generate import SearchOptions, generate, generate_on_cluster
    keep = {"T", "Ua", "Ub", "Aa", "H", "Z"}
    from cubelab.cube.case_sets import case_set, cases
    skipped = [c.name for c in cases(case_set("pll")) if c.name not in keep]
    seen = []
    here = generate("pll", "RUF", n=2, done=skipped)
    there = generate_on_cluster(client, "pll", SearchOptions("RUF", n=2), done=skipped,
                                on_case=lambda r: seen.append(r["case"]))

    def same(r):
        return {k: v for k, v in r.items() if k not in ("seconds", "nodes")}
    assert [same(r) for r in there] == [same(r) for r in here]
    assert seen == [r["case"] for r in here] and len(seen) == len(keep)


def test_gen_cli_cluster_writes_and_resumes(tmp_path, capsys):
    out = tmp_path / "pll.jsonl"
    assert main(["gen", "pll", "--moves", "RUF", "--cases", "T", "--output", str(out)]) == 0
    assert main(["gen", "pll", "--moves", "RUF", "--cases", "T,Ua,Ub", "--cluster", "local:2",
                 "--output", str(out), "--resume"]) == 0
    assert [json.loads(x)["case"] for x in out.read_text().splitlines()] == ["T", "Ua", "Ub"]
    assert "2 case records written" in capsys.readouterr().err
    assert main(["gen", "pll", "--cluster", "local:x"]) == 2
    assert "local:N must be a number" in capsys.readouterr().err
