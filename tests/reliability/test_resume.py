"""`solve --file --output --resume` after any sequence of kills and resumes (issue 37, item 5).

The audit resumed a file holding an `internal` error record (line 21): the line was solved again
and appended, so the file held line 21 twice, out of order. The guarantee: the output holds
every input line exactly once, in input order. Here a file goes through rounds of runs that
are killed at random records (a last line cut short, held records lost, a rewrite stopped
before its rename) and of runs whose solver fails on random lines (internal records); after
every round the records stand in strictly increasing line order, and a last clean resume leaves
each line exactly once, every answer right.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from cubelab.cube.moves import FACE_MOVES, alg_state, apply_moves
from cubelab.cube.notation import parse
from cubelab.solvers.fake import FakeSolver
from cubelab.solvers.fake_about import FAKE
from cubelab.tui.cli import main

from helpers_registry import registered


class Killed(BaseException):
    """A kill -9 landing in the run (not an exception the program could catch)."""


class QuickFake(FakeSolver):
    """The stand-in with no pause between its improvements."""

    def __init__(self, **options):
        super().__init__(**{"step_seconds": 0.0, **options})


@pytest.fixture
def fake_solver():
    """`--solver fake` offered to users, answering at once."""
    with registered(replace(FAKE, hidden=False), QuickFake):
        yield


def _input(tmp_path, rng):
    lines = []
    for k in range(30):
        if k in (4, 17):
            lines.append("R U ]")                       # a bad line: an error record, kept
        elif k == 9:
            lines.append("")                            # blank: no record
        else:
            lines.append(" ".join(str(rng.choice(FACE_MOVES)) for _ in range(rng.randint(1, 5))))
    path = tmp_path / "in.txt"
    path.write_text("\n".join(lines) + "\n")
    numbered = {n: text for n, text in enumerate(lines, start=1) if text}
    return path, numbered


def _records(out):
    """The whole records of the file (a last line cut short is not one)."""
    if not out.exists():
        return []
    lines = out.read_bytes().split(b"\n")
    return [json.loads(raw) for raw in lines[:-1]]


def _run(out, path, monkeypatch, rng, *, fail=(), kill_at=None):
    """One resumed run: the solver fails (internal records) on the lines in `fail`; with
    `kill_at`, the run dies at that record written (None: it runs to the end)."""
    import cubelab.solvers.batch as batch
    from cubelab.tui import resume
    real_solve_one = batch.solve_one
    failing = {alg_state(text).key() for text in fail}

    def solve_one(solver, state, *args, **kwargs):
        if state.key() in failing:
            return {"error": "internal error: RuntimeError: injected", "internal": True}
        return real_solve_one(solver, state, *args, **kwargs)
    monkeypatch.setattr(batch, "solve_one", solve_one)

    writes = [0]
    real_write, real_rewrite = resume.ResumedOutput.write, resume.ResumedOutput._rewrite

    def write(self, text):
        writes[0] += 1
        if kill_at is not None and writes[0] == kill_at:
            if self.handle is not None and rng.random() < 0.7:
                self.handle.write(text[:rng.randint(1, len(text) - 1)])    # cut mid-line
                self.handle.flush()
            raise Killed()
        real_write(self, text)

    def rewrite(self):
        if kill_at is not None and rng.random() < 0.3:
            # killed before the rename: the file as it was, a temporary beside it
            (out.parent / f".{out.name}.k1ll3d_x.tmp").write_text("half")
            raise Killed()
        real_rewrite(self)
    monkeypatch.setattr(resume.ResumedOutput, "write", write)
    monkeypatch.setattr(resume.ResumedOutput, "_rewrite", rewrite)
    try:
        main(["solve", "--solver", "fake", "--jobs", "1", "--json", "--file", str(path),
              "--output", str(out), "--resume"])
    except Killed:
        pass
    finally:
        monkeypatch.setattr(resume.ResumedOutput, "write", real_write)
        monkeypatch.setattr(resume.ResumedOutput, "_rewrite", real_rewrite)
        monkeypatch.setattr(batch, "solve_one", real_solve_one)


@pytest.mark.parametrize("seed", range(6))
def test_every_line_once_in_order_after_any_kills_and_resumes(tmp_path, monkeypatch, capsys,
                                                              fake_solver, seed):
    rng = random.Random(seed)
    path, numbered = _input(tmp_path, rng)
    out = tmp_path / "out.jsonl"
    for _ in range(8):
        fail = rng.sample(sorted(set(numbered.values()) - {"R U ]"}), rng.randint(0, 4))
        kill_at = rng.choice([None, rng.randint(1, 30)])
        _run(out, path, monkeypatch, rng, fail=fail, kill_at=kill_at)
        lines = [r["line"] for r in _records(out)]
        assert lines == sorted(set(lines)), lines           # each once, in input order
    _run(out, path, monkeypatch, rng)                         # a last, clean resume
    records = _records(out)
    assert out.read_bytes().endswith(b"\n")
    assert [r["line"] for r in records] == sorted(numbered)
    for r in records:
        assert not r.get("internal"), r
        if "error" not in r:
            state = alg_state(numbered[r["line"]])
            assert apply_moves(state, parse(r["solution"]).flatten()).is_identity()
    assert not list(tmp_path.glob(".out.jsonl.*.tmp"))        # no rewrite left behind
    capsys.readouterr()


def test_the_audits_case_line_21_retried_in_its_place(tmp_path, capsys, fake_solver):
    algs = [" ".join(str(m) for m in FACE_MOVES[k % 18:k % 18 + 2]) for k in range(40)]
    path = tmp_path / "in.txt"
    path.write_text("\n".join(algs) + "\n")
    out = tmp_path / "out.jsonl"
    assert main(["solve", "--solver", "fake", "--json", "--jobs", "1", "--file", str(path),
                 "--output", str(out)]) == 0
    records = _records(out)
    records[20] = {"error": "the worker solving this position died 3 times (out of memory, or "
                            "killed); giving up on it", "internal": True, "line": 21}
    out.write_text("".join(json.dumps(r) + "\n" for r in records[:30]))    # and killed at 30
    capsys.readouterr()
    assert main(["solve", "--solver", "fake", "--json", "--jobs", "1", "--file", str(path),
                 "--output", str(out), "--resume"]) == 0
    after = _records(out)
    assert [r["line"] for r in after] == list(range(1, 41))
    assert "solution" in after[20] and "internal" not in after[20]
    err = capsys.readouterr().err
    assert "29 lines were already there" in err and "solved again in their place" in err


@pytest.mark.parametrize("kind", ["not-records", "deep"])
def test_resume_refuses_an_output_that_is_no_file_of_records_at_once(tmp_path, capsys,
                                                                     fake_solver, kind):
    # (devices, FIFOs, directories and gigabytes in PATH: test_file_readers.py's table, in a
    # process whose memory is bounded)
    path = tmp_path / "in.txt"
    path.write_text("R\n")
    out = tmp_path / "out.jsonl"
    if kind == "not-records":
        out.write_text('{"line": 1}\n[1, 2]\n')
    else:
        out.write_text("[" * 100_000 + "\n")
    assert main(["solve", "--solver", "fake", "--file", str(path), "--output", str(out),
                 "--resume"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--resume" in err or "cannot" in err, err
