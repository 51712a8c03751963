"""Bad files never crash the program nor make it hang, and what it accepts it can read again
(issue 18, items 4 and 7): saves, --file input, history written by two front ends at once,
temporaries left by killed builds, the commutator table's contents."""

from __future__ import annotations

import json
import multiprocessing
import os
import random

import numpy as np
import pytest

from cubelab.cube.moves import FACE_MOVES
from cubelab.cube.notation import MAX_INPUT_CHARS, parse
from cubelab.cube.puzzles import puzzle_named
from cubelab.tables import store
from cubelab.tables.spec import TableSpec, unregister
from cubelab.tui.cli import main
from cubelab.tui.history import append_entry, read_entries
from cubelab.tui.saves import SaveError, read_save, write_save
from cubelab.tui.session import Session

SOLVED = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB"

BAD_SAVES = {
    "list": "[1, 2, 3]",
    "number-facelets": '{"facelets": 5}',
    "deep": "[" * 100_000 + "]" * 100_000,
    "puzzle-list": json.dumps({"facelets": SOLVED, "puzzle": ["3x3"]}),
    "puzzle-unknown": json.dumps({"facelets": SOLVED, "puzzle": "4x4"}),
    "alg-number": json.dumps({"facelets": SOLVED, "alg": 7}),
    "bad-facelets": json.dumps({"facelets": "X" * 54}),
    "not-utf8": b"\xff\xfe{}",
    "empty": "",
    "null": "null",
}


@pytest.mark.parametrize("kind", list(BAD_SAVES))
def test_a_bad_save_is_a_message_in_the_session(fresh_dirs, kind):
    folder = fresh_dirs / "saves"
    folder.mkdir()
    data = BAD_SAVES[kind]
    path = folder / "bad.json"
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    with pytest.raises(SaveError, match="cannot load bad"):
        read_save(folder, "bad")
    session = Session(saves_dir=folder)
    outcome = session.execute(":load bad")
    assert outcome.error and "cannot load bad" in outcome.message


@pytest.mark.parametrize("kind", ["dev-zero", "fifo", "directory", "huge"])
def test_a_save_that_is_no_regular_file_is_refused_at_once(fresh_dirs, kind):
    folder = fresh_dirs / "saves"
    folder.mkdir()
    path = folder / "odd.json"
    if kind == "dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(path)                 # no writer: a plain read would wait for ever
    elif kind == "directory":
        path.mkdir()
    else:
        with open(path, "wb") as f:
            f.truncate(64 << 20)        # sparse: 64 MB of nothing
    with pytest.raises(SaveError, match="cannot load odd"):
        read_save(folder, "odd")


def test_a_long_session_saves_and_loads_back(fresh_dirs):
    puzzle = puzzle_named("3x3")
    rng = random.Random(18)
    moves = [rng.choice(FACE_MOVES) for _ in range(20_000)]
    state = puzzle.apply(puzzle.identity(), moves)
    write_save(fresh_dirs, "long", puzzle, state, moves, "a long session")
    _, loaded, back = read_save(fresh_dirs, "long")
    assert loaded == state and back == moves


def test_a_planted_temporary_link_is_not_written_through(fresh_dirs, tmp_path):
    folder = fresh_dirs / "saves"
    folder.mkdir()
    target = tmp_path / "victim"
    for name in ("mine.tmp", ".mine.tmp", "mine.json.tmp"):
        (folder / name).symlink_to(target)
    puzzle = puzzle_named("3x3")
    write_save(folder, "mine", puzzle, puzzle.identity(), [], "x")
    assert not target.exists()
    assert read_save(folder, "mine")[1] == puzzle.identity()
    assert not [p for p in folder.iterdir() if p.name.startswith(".mine.") and
                not p.is_symlink()]


def _append_many(path, tag, count):
    for k in range(count):
        append_entry(path, f"{tag}{k} " + "R U R' U' " * 400)


def test_two_front_ends_appending_history_never_interleave(tmp_path):
    path = tmp_path / "history"
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_append_many, args=(path, tag, 300)) for tag in "ab"]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    entries = read_entries(path)
    assert len(entries) == 600
    assert all(e.endswith("R U R' U' " * 399 + "R U R' U'") or e.endswith("U' ")
               for e in entries)
    assert sorted(e.split()[0] for e in entries) == sorted(
        f"{t}{k}" for t in "ab" for k in range(300))


def test_a_history_file_that_is_a_device_is_ignored(tmp_path):
    path = tmp_path / "history"
    path.symlink_to("/dev/zero")
    assert read_entries(path) == []


def test_an_accepted_alg_prints_as_text_that_reads_back():
    for text in ("R" * MAX_INPUT_CHARS, "[R,U]" * (MAX_INPUT_CHARS // 5),
                 "(RU)2" * (MAX_INPUT_CHARS // 5)):
        printed = str(parse(text))
        assert str(parse(printed)) == printed


# ---- --file --------------------------------------------------------------------------------

def test_file_lines_that_are_not_utf8_are_error_records(tmp_path, capsys):
    path = tmp_path / "mixed.txt"
    path.write_bytes(b"R U\n\xff\xfe bad\nF\n" + b"R " * 40_000 + b"\nL\n")
    assert main(["facts", "--json", "--file", str(path)]) == 2
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r.get("line") for r in records] == [1, 2, 3, 4, 5]
    assert "UTF-8" in records[1]["error"] and "longer" in records[3]["error"]
    assert "error" not in records[0] and "error" not in records[4]


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/urandom"])
@pytest.mark.parametrize("command", ["facts", "solve"])
def test_a_binary_file_is_refused_on_one_line(path, command, capsys):
    assert main([command, "--file", path]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a text file" in err


# ---- tables ----------------------------------------------------------------------------------

def _small(ctx):
    return np.arange(64, dtype=np.int64)


@pytest.fixture
def test_spec(fresh_dirs):
    store.forget_cache()
    spec = TableSpec("test.reliable", "test", {"n": 64}, _small, "a small table")
    yield spec
    store.forget_cache()
    unregister("test.reliable")


def test_a_killed_builds_temporary_is_removed_by_the_next_build(test_spec):
    directory = store.tables_dir()
    directory.mkdir(parents=True)
    dead = directory / ".test.reliable.k1ll3d99.tmp"
    dead.write_bytes(b"\0" * 4096)
    other = directory / ".test.reliable-b.k1ll3d99.tmp"     # another table's: not ours
    other.write_bytes(b"\0")
    store.load_or_build(test_spec)
    assert not dead.exists() and other.exists()


def test_tables_status_removes_temporaries_of_killed_builds(fresh_dirs, capsys):
    directory = store.tables_dir()
    directory.mkdir(parents=True)
    dead = directory / ".kociemba.phase1_prune.abcd1234.tmp"
    dead.write_bytes(b"\0" * 4096)
    assert main(["tables", "status"]) == 0
    assert not dead.exists()
    assert "removed .kociemba.phase1_prune.abcd1234.tmp" in capsys.readouterr().err


def test_commutator_rows_that_cannot_be_right_are_refused():
    from cubelab.tables.threecycle.specs import MOVES, _checked
    good_row = np.full(MOVES + 4, 255, np.uint8)
    good_row[:40] = 0
    good_row[40:43] = (0, 1, 1)
    good_row[43:45] = (0, 3)
    bad_move, too_long = good_row.copy(), good_row.copy()
    bad_move[44] = 200
    too_long[40:43] = (9, 9, 9)
    for arr in (np.ones((1, 1), np.uint8), bad_move[None], too_long[None],
                good_row[None],                       # well formed, but covers almost nothing
                np.ones((2, MOVES + 4), np.int64)):
        with pytest.raises(ValueError):
            _checked(arr)


@pytest.mark.slow
def test_a_commutator_table_with_a_good_checksum_and_wrong_rows_is_rebuilt(fresh_dirs):
    from cubelab.tables.fileformat import write_table
    from cubelab.tables.threecycle.specs import COMMUTATORS, load_table
    store.forget_cache()
    store.tables_dir().mkdir(parents=True)
    write_table(COMMUTATORS, store.table_path(COMMUTATORS), np.ones((3, 50), np.uint8), 0.0)
    log = []
    table = load_table(log=log.append)
    assert any("contents wrong" in m for m in log)
    assert len(table) > 1000
    assert store.verify_table(COMMUTATORS) is None
