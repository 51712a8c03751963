"""Checkpoints of long table builds (tables/checkpoint.py): a stopped build keeps the levels it
completed in a checked file, the next build goes on from them and writes the same table; a
checkpoint that is damaged, of other parameters or of another builder is never trusted."""

from __future__ import annotations

import os

import numpy as np
import pytest

from cubelab.tables import catalog, checkpoint, spec as spec_register, store
from cubelab.tables.bfs import CHECKPOINT_KIND, pair_sweep, run_levels
from cubelab.tables.fileformat import FORMAT_VERSION
from cubelab.tables.spec import BuildCancelled, TableSpec
from cubelab.tables.store import clear_table, load_or_build, table_path, table_status


def _twist_levels(ctx):
    """Distances of the corner twist, level by level, its one array handed to the driver."""
    from cubelab.tables.movetables import _build_twist
    twist_move = np.ascontiguousarray(_build_twist(ctx), dtype=np.int64)
    still = np.zeros((1, 18), np.int64)
    dist = np.full(twist_move.shape[0], 255, np.uint8)
    dist[0] = 0
    run_levels(ctx, n_rows=len(dist), total=len(dist), initial=1, chunk_rows=64, threads=1,
               forward=lambda d, lo, hi, part: pair_sweep(dist, d, lo, hi, twist_move, still,
                                                          False, ctx.cancel),
               backward=lambda d, lo, hi: pair_sweep(dist, d, lo, hi, twist_move, still, True,
                                                     ctx.cancel),
               state=dist, state_format="twist-distances/1")
    return dist


def twist_spec(name="test.twist-levels", version=1) -> TableSpec:
    return TableSpec(name, "test", {"version": version}, _twist_levels)


@pytest.fixture
def tables(fresh_dirs, monkeypatch):
    """A clean store, and checkpoints kept after every level (however quick)."""
    monkeypatch.setattr(checkpoint, "MIN_SECONDS", 0.0)
    monkeypatch.setattr(checkpoint, "WORTH", 0.0)
    store.forget_cache()
    yield fresh_dirs
    store.forget_cache()
    for name in [n for n in spec_register._specs if n.startswith("test.")]:
        spec_register.unregister(name)


class StopAfter:
    """A log callback that raises the cancel flag once a checkpoint of depth `depth` is kept."""

    def __init__(self, depth: int):
        self.depth = depth
        self.cancel = np.zeros(1, np.int32)
        self.lines: list[str] = []

    def __call__(self, message) -> None:
        self.lines.append(str(message))
        if "checkpoint of" in message and f"depth {self.depth} done" in message:
            self.cancel[0] = 1


def stopped_build(spec, depth: int) -> StopAfter:
    stop = StopAfter(depth)
    with pytest.raises(BuildCancelled):
        load_or_build(spec, cancel=stop.cancel, log=stop)
    return stop


def partial_of(spec):
    return checkpoint.partial_path(table_path(spec))


def straight(spec) -> np.ndarray:
    """The table built in one go, without checkpoints (a spec of its own name)."""
    other = TableSpec(spec.name + "-straight", "test", spec.params, spec.build)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(checkpoint, "MIN_SECONDS", 1e9)
        return np.array(load_or_build(other))


def test_a_stopped_build_keeps_its_levels_and_the_next_goes_on_from_them(tables):
    s = twist_spec()
    stopped_build(s, depth=3)
    assert partial_of(s).exists() and not table_path(s).exists()
    notes = table_status(s)["checkpoint"]
    assert notes["kind"] == f"{CHECKPOINT_KIND} twist-distances/1"
    assert notes["counts"][:2] == [1, 4]
    assert len(notes["counts"]) == 4                    # depths 0..3 done
    log = []
    table = load_or_build(s, log=log.append)
    assert any("resuming test.twist-levels from its checkpoint: depth 3 done" in m for m in log)
    # the levels up to 3 were not searched again: the build began at depth 4
    assert not any(m.startswith("  depth 1:") for m in log)
    assert (np.asarray(table) == straight(s)).all() and table.max() == 6
    assert not partial_of(s).exists() and table_status(s)["checkpoint"] is None


def test_the_korf_layer_table_resumed_is_the_table_built_in_one_go(tables):
    from cubelab.tables.korf.specs import layer_spec
    s = layer_spec(5, corners=False)
    stopped_build(s, depth=3)
    log = []
    resumed = np.asarray(load_or_build(s, log=log.append))
    assert any("from its checkpoint: depth 3 done" in m for m in log)
    assert (resumed == straight(s)).all()


def _flip_byte(path, at_end: int) -> None:
    with open(path, "r+b") as f:
        f.seek(os.path.getsize(path) - at_end)
        b = f.read(1)
        f.seek(-1, 1)
        f.write(bytes([b[0] ^ 0xFF]))


@pytest.mark.parametrize("damage, said", [
    (lambda p: _flip_byte(p, 10), "data damaged (checksum mismatch)"),
    (lambda p: os.truncate(p, os.path.getsize(p) - 100), "truncated"),
    (lambda p: _flip_byte(p, os.path.getsize(p) - 40), "header damaged"),
])
def test_a_damaged_checkpoint_is_not_trusted(tables, damage, said):
    s = twist_spec()
    stopped_build(s, depth=3)
    damage(partial_of(s))
    log = []
    table = load_or_build(s, log=log.append)
    assert any(m.startswith("not resuming test.twist-levels: its checkpoint is") and said in m
               and m.endswith("starting over") for m in log)
    assert not any("resuming test.twist-levels from" in m for m in log)
    assert (np.asarray(table) == straight(s)).all()
    assert not partial_of(s).exists()


def test_a_checkpoint_of_other_parameters_is_not_trusted(tables):
    stopped_build(twist_spec(version=1), depth=2)
    newer = twist_spec(version=2)
    log = []
    load_or_build(newer, log=log.append)
    assert any("its checkpoint is parameters changed (version: 1 -> 2)" in m for m in log)
    assert not partial_of(newer).exists()


@pytest.mark.parametrize("notes, said", [
    ({"kind": "other/1", "counts": [1]}, "written by another builder ('other/1')"),
    ({"kind": f"{CHECKPOINT_KIND} twist-distances/0", "counts": [1]},
     "written by another builder"),
    ({"kind": f"{CHECKPOINT_KIND} twist-distances/1", "counts": [1, 5000],
      "modes": ["seed", "forward"], "seconds": [0, 0]},
     "damaged (its notes: levels that do not add up)"),
    ({"kind": f"{CHECKPOINT_KIND} twist-distances/1", "counts": [1]},
     "damaged (its notes: 'modes')"),
])
def test_a_checkpoint_of_another_builder_or_with_bad_notes_is_not_trusted(tables, notes, said):
    from cubelab.tables.fileformat import write_table
    s = twist_spec()
    table_path(s).parent.mkdir(parents=True)
    write_table(s, partial_of(s), np.zeros(2187, np.uint8), 0.0, checkpoint=notes)
    log = []
    table = load_or_build(s, log=log.append)
    assert any(said in m and m.endswith("starting over") for m in log), log
    assert table.max() == 6 and not partial_of(s).exists()


def test_a_checkpoint_is_never_read_as_a_table_nor_a_table_as_one(tables):
    s = twist_spec()
    stopped_build(s, depth=2)
    os.replace(partial_of(s), table_path(s))       # renamed by hand: still not a table
    log = []
    table = load_or_build(s, log=log.append)
    assert any("an unfinished build's checkpoint, not a table" in m for m in log)
    assert table.max() == 6
    os.link(table_path(s), partial_of(s))          # and a table is no checkpoint
    assert table_status(s)["checkpoint"] is None


def test_clearing_a_table_removes_its_checkpoint_and_strays_are_tidied(tables):
    s = twist_spec()
    stopped_build(s, depth=2)
    assert clear_table(s) and not partial_of(s).exists()
    orphan = spec_register.register(twist_spec("test.twist-orphan"))
    stopped_build(orphan, depth=2)
    spec_register.unregister(orphan.name)
    assert catalog.clear_stray_files() == [partial_of(orphan).name]


def test_checkpoints_are_kept_only_when_the_work_is_worth_the_write(tables, monkeypatch):
    monkeypatch.setattr(checkpoint, "MIN_SECONDS", 20.0)
    monkeypatch.setattr(checkpoint, "WORTH", 8.0)
    monkeypatch.setattr(checkpoint, "WRITE_RATE", 1e6)
    now = [0.0]
    s = twist_spec()
    path = table_path(s).with_name("t.npt.partial")
    path.parent.mkdir(parents=True)
    said = []
    keeper = checkpoint.Checkpoints(s, path, said.append, clock=lambda: now[0])
    state = np.zeros(5_000_000, np.uint8)            # 5 s to write at 1 MB/s: 40 s of work
    now[0] = 39.0
    assert not keeper.keep(state, {"counts": [1]}, "k")
    now[0] = 41.0
    assert keeper.keep(state, {"counts": [1]}, "k") and path.exists()
    now[0] = 41.0 + 19.0                             # the write took no time: 20 s is enough
    assert not keeper.keep(state, {"counts": [1]}, "k")
    now[0] = 41.0 + 21.0
    assert keeper.keep(state, {"counts": [1]}, "k")
    monkeypatch.setattr(checkpoint, "ROOM_MARGIN", 1 << 62)
    now[0] += 100
    assert not keeper.keep(state, {"counts": [1]}, "k")
    assert not keeper.keep(state, {"counts": [1]}, "k", force=True)
    assert said == [f"no room on disk to keep a checkpoint of {s.name}"]
    assert checkpoint.checkpoint_notes(s, path) == {"counts": [1], "kind": "k"}


def test_a_table_that_cannot_be_saved_keeps_no_checkpoint(tables, monkeypatch):
    s = twist_spec()
    d = tables / "data" / "tables" / f"v{FORMAT_VERSION}"
    d.parent.mkdir(parents=True)
    d.write_text("a file where the folder should be")
    log = []
    assert load_or_build(s, log=log.append).max() == 6
    assert not any("checkpoint" in m for m in log)


def test_tables_status_says_a_stopped_build_will_go_on(tables, capsys):
    from cubelab.tui.cli import main
    s = spec_register.register(twist_spec())
    stopped_build(s, depth=3)
    assert main(["tables", "status"]) == 0
    line = next(l for l in capsys.readouterr().out.splitlines() if l.startswith(s.name))
    assert "not built (a stopped build kept depth 3; the next goes on from there)" in line
    assert main(["tables", "clear", s.name]) == 0 and not partial_of(s).exists()


def test_a_cancelled_set_keeps_the_tables_it_finished(tables):
    """A solver's prepare() builds its tables one after another: cancelling the second leaves
    the first on disk (each is written the moment it is done), and the second's checkpoint."""
    first, second = twist_spec("test.first"), twist_spec("test.second")
    stop = StopAfter(depth=2)

    def prepare(log):
        for spec in (first, second):
            load_or_build(spec, cancel=stop.cancel, log=log)

    with pytest.raises(BuildCancelled):
        prepare(lambda m: stop(m) if "test.second" in m else None)
    assert table_status(first)["built"] and not table_status(second)["built"]
    assert table_status(second)["checkpoint"]["counts"][:3] == [1, 4, 34]
