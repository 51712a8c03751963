"""The benchmark harness (bench/harness.py, bench/contenders.py): its statistics, the order it
runs contenders in, its cases, its record, and a contender in a worker process (of this tree
or of another). No timing is asserted."""

import json
import math
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, strategies as st

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

import harness  # noqa: E402
from contenders import Contender, Function, Worker, import_root  # noqa: E402

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)


@given(st.lists(finite, min_size=1, max_size=60), st.floats(min_value=0, max_value=100))
def test_percentile_is_numpys_linear_one(values, q):
    assert math.isclose(harness.percentile(values, q), float(np.percentile(values, q)),
                        rel_tol=1e-9, abs_tol=1e-6)


def test_describe():
    d = harness.describe([4, 1, None, 3, float("nan"), 2, 10])
    assert d == {"n": 5, "mean": 4.0, "median": 3.0, "p90": pytest.approx(7.6), "min": 1.0,
                 "max": 10.0}
    assert harness.describe([]) == {"n": 0}
    assert harness.describe([None]) == {"n": 0}


def test_paired_ratios_match_cases_and_skip_what_is_missing():
    a = [{"case": 0, "seconds": 2.0}, {"case": 1, "seconds": 4.0}, {"case": 2, "error": "x"},
         {"case": 3, "seconds": 0.0}]
    b = [{"case": 1, "seconds": 2.0}, {"case": 0, "seconds": 3.0}, {"case": 2, "seconds": 1.0},
         {"case": 3, "seconds": 1.0}, {"case": 4, "seconds": 1.0}]
    assert sorted(harness.paired_ratios(a, b)) == [0.5, 1.5]


def test_summarize_counts_shares_and_errors():
    s = harness.summarize([{"case": 0, "seconds": 1.0, "optimal": True, "length": 20},
                           {"case": 1, "seconds": 3.0, "optimal": False, "length": None},
                           {"case": 2, "error": "boom"}])
    assert s["runs"] == 3 and s["errors"] == 1
    assert s["optimal"] == {"n": 2, "share": 0.5}
    assert s["seconds"]["median"] == 2.0 and s["length"]["n"] == 1
    assert "case" not in s


class Recorder(Contender):
    """Appends (name, case id) to a shared log; raises on the cases it is told to."""

    def __init__(self, name, log, fail=(), seconds=None):
        self.name, self.log, self.fail, self.seconds = name, log, set(fail), seconds
        self.measures_itself = seconds is not None

    def setup(self, case):
        return case["id"]

    def run(self, item):
        self.log.append((self.name, item))
        if item in self.fail:
            raise ValueError(f"no case {item}")
        return {"value": item * 10} | ({"seconds": self.seconds} if self.seconds else {})


def test_interleave_runs_case_by_case_and_rotates_the_first():
    log = []
    cs = [Recorder(n, log) for n in "ABC"]
    out = harness.interleave(cs, [{"id": i} for i in range(4)])
    assert log == [("A", 0), ("B", 0), ("C", 0), ("B", 1), ("C", 1), ("A", 1),
                   ("C", 2), ("A", 2), ("B", 2), ("A", 3), ("B", 3), ("C", 3)]
    for name in "ABC":
        assert [o["case"] for o in out[name]] == [0, 1, 2, 3]     # in case order
        assert [o["value"] for o in out[name]] == [0, 10, 20, 30]
        assert all(o["seconds"] >= 0 and "cpu_seconds" in o for o in out[name])


def test_interleave_without_rotation_keeps_the_order():
    log = []
    harness.interleave([Recorder("A", log), Recorder("B", log)], [{"id": i} for i in range(2)],
                       rotate=False)
    assert log == [("A", 0), ("B", 0), ("A", 1), ("B", 1)]


def test_a_failing_run_is_recorded_and_the_others_go_on():
    log = []
    out = harness.interleave([Recorder("A", log, fail={1}), Recorder("B", log)],
                             [{"id": i} for i in range(3)])
    assert out["A"][1] == {"error": "ValueError: no case 1", "case": 1}
    assert [o["value"] for o in out["B"]] == [0, 10, 20]
    assert len(log) == 6


def test_a_contender_that_measures_itself_keeps_its_figures():
    out = harness.interleave([Recorder("A", [], seconds=123.0)], [{"id": 0}])
    assert out["A"][0]["seconds"] == 123.0 and "cpu_seconds" not in out["A"][0]


def test_cases_are_seeded_and_read_back():
    from cubelab.cube.facts import unreachable_reason
    a, b = harness.random_states(5, seed=7), harness.random_states(5, seed=7)
    assert a == b and a != harness.random_states(5, seed=8)
    assert [c["id"] for c in a] == list(range(5))
    for case in a:
        assert unreachable_reason(harness.state_of(case)) is None
    from cubelab.cube.moves import alg_state
    for case in harness.scrambles(3, 12, seed=7):
        assert len(case["scramble"].split()) == 12
        assert harness.state_of(case) == alg_state(case["scramble"])


def test_the_record_keeps_every_run_of_a_commit(tmp_path):
    path = tmp_path / "bench_x-abc.json"
    harness.save({"commit": "abc", "n": 1}, "bench_x", path)
    harness.save({"commit": "abc", "n": 2}, "bench_x", path)
    assert [r["n"] for r in json.loads(path.read_text())] == [1, 2]


def test_machine_and_load_are_recorded():
    m = harness.machine()
    assert m["cores"] >= 1 and m["cpu"] and m["python"]
    assert len(harness.load()) == 3


SCRIPT = '''
"""A benchmark for the harness's tests."""
import sys
from contenders import Function
from harness import Bench

bench = Bench(__file__, __doc__, count=3)
bench.parser.add_argument("--scale", type=int, default=1)


@bench.contender("size")
def _size(args):
    def prepare():
        print("noise on stdout must not reach the protocol")
        return {"scale": args.scale}

    def run(item):
        print("more noise")
        import cubelab.cube
        return {"value": len(item) * args.scale, "where": cubelab.cube.__file__}

    return Function("size", run, setup=lambda case: case["facelets"], prepare=prepare)


@bench.contender("fails")
def _fails(args):
    def run(item):
        raise RuntimeError("as it should")
    return Function("fails", run)
'''


@pytest.fixture
def script(tmp_path):
    path = tmp_path / "bench_fake.py"
    path.write_text(textwrap.dedent(SCRIPT))
    return path


def _load(script):
    import importlib.util
    spec = importlib.util.spec_from_file_location("bench_fake", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_worker_runs_the_scripts_contender_in_its_own_process(script):
    cases = harness.random_states(2, seed=1)
    w = Worker("size", script, "size", ["--scale", "3"])
    try:
        facts = w.prepare()
        assert facts["scale"] == 3 and facts["prepare_seconds"] >= 0
        out = harness.interleave([w], cases)["size"]
    finally:
        w.close()
    assert [o["value"] for o in out] == [162, 162]
    assert all(o["seconds"] >= 0 and o["cpu_seconds"] >= 0 for o in out)


def test_a_worker_in_another_tree_imports_that_trees_cubelab(script, tmp_path):
    """The tree is linked in, not copied: the worker reads its cube/ (here: this checkout's,
    reached through the link folder import_root makes)."""
    tree = Path(__file__).resolve().parent.parent
    root = import_root(tree)
    assert (root / "cubelab" / "cube").resolve() == tree / "cube"
    assert import_root(tree) == root            # one folder per tree: numba's cache holds
    w = Worker("size@here", script, "size", [], tree=tree, fresh=True)
    try:
        assert w.prepare() == {"fresh": True}
        out = harness.interleave([w], harness.random_states(1, seed=1))["size@here"]
    finally:
        w.close()
    assert out[0]["where"].startswith(str(root))


def test_errors_in_a_worker_come_back_as_errors(script):
    w = Worker("fails", script, "fails", [])
    try:
        w.prepare()
        out = harness.interleave([w], [{"id": 0, "facelets": ""}])["fails"]
    finally:
        w.close()
    assert out[0]["error"] == "RuntimeError: as it should"


def test_checkouts_give_one_worker_per_tree_and_contender(script):
    module = _load(script)
    args = module.bench.parse(["--only", "size", "--checkout", "base=/tmp/a",
                               "--checkout", "new=/tmp/b"])
    cs = module.bench.contenders(args)
    assert [c.name for c in cs] == ["size@base", "size@new"]
    assert all(isinstance(c, Worker) for c in cs)
    assert [str(c.tree) for c in cs] == ["/tmp/a", "/tmp/b"]
    with pytest.raises(SystemExit):
        module.bench.contenders(module.bench.parse(["--only", "nothing"]))


def test_function_contenders_and_the_summary_table(script):
    module = _load(script)
    args = module.bench.parse(["--only", "size", "--no-save"])
    c = module.bench.contenders(args)
    assert isinstance(c[0], Function)
    text = harness.Bench.summary_table(
        {"a": [{"case": 0, "seconds": 1.0}, {"case": 1, "seconds": 3.0}],
         "b": [{"case": 0, "seconds": 2.0}, {"case": 1, "seconds": 3.0}]})
    rows = text.splitlines()
    assert rows[0].startswith("| contender | runs | seconds median")
    assert rows[2].startswith("| a | 2 | 2 | 2.8 | 2 | 1x")
    assert rows[3].endswith("| 1.5x |")     # per case: 2/1 and 3/3


class Interrupted(Recorder):
    def run(self, item):
        if item == 1:
            raise KeyboardInterrupt
        return super().run(item)


def test_ctrl_c_keeps_the_cases_so_far_and_the_record(tmp_path):
    bench = harness.Bench(tmp_path / "bench_x.py", "doc")
    args = bench.parse(["--no-save", "--json", str(tmp_path / "out.json")])
    log = []
    cases = [{"id": i} for i in range(3)]
    out = bench.compare(args, cases, contenders=[Recorder("A", log), Interrupted("B", log)])
    # case 1 starts with B (the first rotates), which is interrupted
    assert [o["case"] for o in out["A"]] == [0] and [o["case"] for o in out["B"]] == [0]
    assert bench.compare(args, cases, contenders=[Recorder("A", log)]) == {}
    record = bench.finish(args)
    assert record["sections"][0]["interrupted"] is True
    assert json.loads((tmp_path / "out.json").read_text())["load_end"]
