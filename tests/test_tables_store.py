"""The table store: file format checks, rebuilds with reasons, locking, cancel, read-only disks."""

import errno
import multiprocessing
import os
import threading
import time

import numpy as np
import pytest

from cubelab.tables import catalog, fileformat, spec as spec_register, store
from cubelab.tables.fileformat import FORMAT_VERSION, NOT_BUILT
from cubelab.tables.lock import LockBusy, file_lock
from cubelab.tables.spec import BuildCancelled, TableError, TableSpec
from cubelab.tables.store import (clear_table, load_or_build, table_path, table_status,
                                  verify_table)

BUILDS = {"count": 0}


def _squares(ctx):
    BUILDS["count"] += 1
    n = ctx.spec.params["n"]
    for i in range(4):
        ctx.progress(i + 1, 4)
    return (np.arange(n, dtype=np.int64) ** 2).reshape(-1, 2)


def spec(name="test.squares", n=64, build=_squares, **kw):
    return TableSpec(name, "test", {"n": n, "builder": 1}, build, "squares", **kw)


@pytest.fixture
def tables(fresh_dirs):
    """A clean store for each test: fresh data dir, empty process cache, no test specs."""
    store.forget_cache()
    BUILDS["count"] = 0
    yield fresh_dirs
    store.forget_cache()
    for name in [n for n in spec_register._specs if n.startswith("test.")]:
        spec_register.unregister(name)


class Log(list):
    def __call__(self, message):
        self.append(message)

    def rebuilt(self):
        return [m for m in self if m.startswith("rebuilding")]


def _fresh_load(s, log=None):
    store.forget_cache()
    return load_or_build(s, log=log)


# ---- the basics ----------------------------------------------------------------------------

def test_build_save_load(tables):
    s = spec()
    progress = []
    a = load_or_build(s, progress=lambda d, t: progress.append((d, t)))
    assert a.shape == (32, 2) and a.dtype == np.int64 and not a.flags.writeable
    assert (a.reshape(-1) == np.arange(64) ** 2).all()
    assert progress[-1] == (4, 4)
    path = table_path(s)
    assert path == tables / "data" / "tables" / f"v{FORMAT_VERSION}" / "test.squares.npt"
    assert path.exists() and verify_table(s) is None
    assert load_or_build(s) is a                  # the process cache
    b = _fresh_load(s)
    assert BUILDS["count"] == 1 and (a == b).all() and not b.flags.writeable
    st = table_status(s)
    assert st["built"] and st["problem"] is None and st["bytes"] == path.stat().st_size
    assert st["name"] == "test.squares" and st["solver"] == "test" and st["path"] == str(path)
    assert sorted(os.listdir(path.parent)) == ["test.squares.npt"]


def test_registry_and_names(tables):
    s = spec_register.register(spec())
    assert catalog.registered()["test.squares"] is s
    assert load_or_build("test.squares").shape == (32, 2)
    with pytest.raises(TableError):
        load_or_build("test.nope")
    with pytest.raises(ValueError):
        TableSpec("bad name/", "test", {}, _squares)
    with pytest.raises(ValueError):
        TableSpec("test.x", "test", {"n": np.int64(3)}, _squares)


def test_status_before_building(tables):
    st = table_status(spec(expected_bytes=512))
    assert not st["built"] and st["bytes"] == 512 and st["problem"] is None
    assert verify_table(spec()) == NOT_BUILT


def test_clear(tables):
    s = spec()
    load_or_build(s)
    assert clear_table(s) and not table_path(s).exists()
    assert not clear_table(s)
    load_or_build(s)
    assert BUILDS["count"] == 2


def test_empty_and_odd_shapes(tables):
    for name, arr in (("test.empty", np.zeros((0, 3), np.uint8)),
                      ("test.scalar", np.array(7, np.int32)),
                      ("test.floats", np.linspace(0, 1, 7, dtype=np.float32))):
        s = TableSpec(name, "test", {}, lambda ctx, arr=arr: arr)
        load_or_build(s)
        b = _fresh_load(s)
        assert b.shape == arr.shape and b.dtype == arr.dtype and (b == arr).all()


def test_builder_must_return_an_array(tables):
    with pytest.raises(TableError):
        load_or_build(TableSpec("test.bad", "test", {}, lambda ctx: [1, 2, 3]))
    assert not table_path("test.bad").exists()


# ---- damaged files are rebuilt, with the reason ------------------------------------------

def _damage_and_reload(s, damage):
    load_or_build(s)
    damage(table_path(s))
    log = Log()
    before = BUILDS["count"]
    a = _fresh_load(s, log)
    assert BUILDS["count"] == before + 1
    assert (a.reshape(-1) == np.arange(s.params["n"]) ** 2).all()
    assert verify_table(s) is None
    return log.rebuilt()


def _flip(offset):
    def damage(path):
        data = bytearray(path.read_bytes())
        data[offset] ^= 0x10
        path.write_bytes(bytes(data))
    return damage


def test_flipped_data_byte(tables):
    reasons = _damage_and_reload(spec(), _flip(-3))
    assert reasons == ["rebuilding test.squares: data damaged (checksum mismatch)"]


def test_flipped_header_byte(tables):
    reasons = _damage_and_reload(spec(), _flip(40))
    assert len(reasons) == 1 and "header damaged" in reasons[0]


def test_verify_reports_damage_without_rebuilding(tables):
    s = spec()
    load_or_build(s)
    _flip(-1)(table_path(s))
    assert verify_table(s) == "data damaged (checksum mismatch)"
    assert table_status(s)["built"]      # status reads headers only; verify reads the data


# ---- a file checked whole is not read whole again until it changes --------------------------

class CrcReads:
    """Counts the whole-data checksum reads (fileformat.crc32) of the data files."""

    def __init__(self, monkeypatch):
        self.count = 0
        real = fileformat.crc32

        def counted(view):
            self.count += 1
            return real(view)
        monkeypatch.setattr(fileformat, "crc32", counted)


def _settled(monkeypatch):
    # the file is taken as changed long ago, so a passing check is noted (checked.SETTLED_NS)
    from cubelab.tables import checked
    real = time.time_ns
    monkeypatch.setattr(checked.time, "time_ns", lambda: real() + 10 * checked.SETTLED_NS)


def _rewrite_in_place(path, damage):
    """Damage the file in place, once its status-change time differs from what the note
    holds (the kernel's clock ticks coarsely: wait on that event, not a fixed sleep)."""
    noted = os.stat(path).st_ctime_ns
    while os.stat(path).st_ctime_ns == noted:
        os.utime(path)
    damage(path)


def test_a_load_reads_the_whole_file_once_until_it_changes(tables, monkeypatch):
    s = spec()
    load_or_build(s)                 # built and written: its checksum is the array's
    _settled(monkeypatch)
    reads = CrcReads(monkeypatch)
    _fresh_load(s)
    assert reads.count == 1          # checked whole, and noted
    _fresh_load(s)
    assert reads.count == 1          # the same file: the note stands for the check
    _rewrite_in_place(table_path(s), _flip(-3))
    log = Log()
    a = _fresh_load(s, log)
    assert log.rebuilt() == ["rebuilding test.squares: data damaged (checksum mismatch)"]
    assert (a.reshape(-1) == np.arange(s.params["n"]) ** 2).all()


def test_a_file_changed_just_now_is_checked_whole_every_time(tables, monkeypatch):
    s = spec()
    load_or_build(s)
    reads = CrcReads(monkeypatch)
    for n in (1, 2):
        _fresh_load(s)
        assert reads.count == n      # too fresh for its times to tell a later write apart


def _noted(monkeypatch):
    """A table built, then loaded once, its file checked whole and noted."""
    s = spec()
    load_or_build(s)
    _settled(monkeypatch)
    _fresh_load(s)
    return s


def test_verify_reads_the_whole_file_even_when_noted(tables, monkeypatch):
    s = _noted(monkeypatch)
    reads = CrcReads(monkeypatch)
    assert verify_table(s) is None
    assert reads.count == 1


def test_a_replaced_file_is_checked_whole(tables, monkeypatch):
    s = _noted(monkeypatch)
    path = table_path(s)
    copy = path.with_name("copy.bin")
    copy.write_bytes(path.read_bytes())
    os.replace(copy, path)           # a new inode, same bytes
    reads = CrcReads(monkeypatch)
    _fresh_load(s)
    assert reads.count == 1


@pytest.mark.parametrize("keep", [0, 5, 20, 100, -8])
def test_truncated(tables, keep):
    def damage(path):
        data = path.read_bytes()
        path.write_bytes(data[:keep])
    reasons = _damage_and_reload(spec(), damage)
    assert len(reasons) == 1 and "truncated" in reasons[0]


def test_trailing_bytes(tables):
    reasons = _damage_and_reload(spec(), lambda p: p.write_bytes(p.read_bytes() + b"x"))
    assert len(reasons) == 1 and "trailing" in reasons[0]


def test_foreign_file(tables):
    reasons = _damage_and_reload(spec(), lambda p: p.write_bytes(b"PK\x03\x04 not ours" * 50))
    assert reasons == ["rebuilding test.squares: not a cubelab table file (foreign or damaged)"]


def test_other_format_version(tables):
    def damage(path):
        data = bytearray(path.read_bytes())
        data[8:12] = (FORMAT_VERSION + 1).to_bytes(4, "little")
        path.write_bytes(bytes(data))
    reasons = _damage_and_reload(spec(), damage)
    assert len(reasons) == 1 and f"format {FORMAT_VERSION + 1}" in reasons[0]


def test_file_of_another_table(tables):
    other = spec("test.other")
    load_or_build(other)
    s = spec()
    reasons = _damage_and_reload(s, lambda p: p.write_bytes(table_path(other).read_bytes()))
    assert reasons == ["rebuilding test.squares: the file holds table 'test.other'"]


def test_changed_params(tables):
    load_or_build(spec(n=64))
    log = Log()
    a = load_or_build(spec(n=80), log=log)
    assert a.shape == (40, 2)
    assert log.rebuilt() == ["rebuilding test.squares: parameters changed (n: 64 -> 80)"]
    assert BUILDS["count"] == 2
    assert load_or_build(spec(n=80)) is a


def test_reregistering_drops_the_cached_copy(tables):
    spec_register.register(spec(n=64))
    a = load_or_build("test.squares")
    spec_register.register(spec(n=96))
    assert load_or_build("test.squares").shape == (48, 2) and a.shape == (32, 2)


# ---- dependencies, threads, cancel --------------------------------------------------------

def test_dependencies_are_loaded_through_the_context(tables):
    spec_register.register(spec())

    def doubled(ctx):
        return np.asarray(ctx.load("test.squares")) * 2

    d = TableSpec("test.doubled", "test", {}, doubled, deps=("test.squares",))
    assert (load_or_build(d).reshape(-1) == 2 * np.arange(64) ** 2).all()
    assert table_path("test.squares").exists()


def test_dependency_cycles_are_refused(tables):
    spec_register.register(TableSpec("test.a", "test", {}, lambda ctx: ctx.load("test.b")))
    spec_register.register(TableSpec("test.b", "test", {}, lambda ctx: ctx.load("test.a")))
    with pytest.raises(TableError, match="cycle"):
        load_or_build("test.a")


def test_two_threads_build_once(tables):
    started = threading.Event()

    def slow(ctx):
        started.set()
        time.sleep(0.3)
        return _squares(ctx)

    s = spec(build=slow)
    results = []
    threads = [threading.Thread(target=lambda: results.append(load_or_build(s)))
               for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert BUILDS["count"] == 1 and len(results) == 3
    assert all(r is results[0] for r in results)


def test_kernel_counters_reach_the_progress_callback(tables):
    def counting(ctx):
        ctx.counters[1] = 10
        for i in range(10):
            ctx.counters[0] = i + 1
            time.sleep(0.05)
        return np.zeros(3, np.uint8)

    seen = []
    load_or_build(TableSpec("test.counted", "test", {}, counting),
                  progress=lambda d, t: seen.append((d, t)))
    assert seen and all(t == 10 for _, t in seen) and seen == sorted(seen)


def _debris(tables):
    d = tables / "data" / "tables" / f"v{FORMAT_VERSION}"
    return sorted(os.listdir(d)) if d.exists() else []


def test_cancel_leaves_no_debris(tables):
    cancel = np.zeros(1, np.int32)

    def cancelled_midway(ctx):
        ctx.progress(1, 2)
        cancel[0] = 1          # as the UI would, from another thread
        ctx.check_cancel()
        return np.zeros(4)

    with pytest.raises(BuildCancelled):
        load_or_build(spec(build=cancelled_midway), cancel=cancel)
    assert _debris(tables) == []

    def ignores_the_flag(ctx):     # a kernel that returned early: whatever it made is dropped
        cancel[0] = 1
        return np.zeros(4)

    cancel[0] = 0
    with pytest.raises(BuildCancelled):
        load_or_build(spec(build=ignores_the_flag), cancel=cancel)
    assert _debris(tables) == []
    cancel[0] = 0
    assert load_or_build(spec()).shape == (32, 2)


def test_interrupted_write_leaves_no_debris(tables, monkeypatch):
    def boom(f, chunk):
        raise KeyboardInterrupt

    monkeypatch.setattr(fileformat, "_write_all", boom)
    with pytest.raises(KeyboardInterrupt):
        load_or_build(spec())
    assert _debris(tables) == []


# ---- disks that refuse -------------------------------------------------------------------

def test_full_disk_keeps_the_table_in_memory(tables, monkeypatch):
    def full(f, chunk):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(fileformat, "_write_all", full)
    log = Log()
    a = load_or_build(spec(), log=log)
    assert a.shape == (32, 2)
    assert any("disk full" in m and "kept in memory for this session" in m for m in log)
    assert _debris(tables) == []
    st = table_status(spec())
    assert not st["built"] and st["in_memory"]
    assert load_or_build(spec()) is a and BUILDS["count"] == 1


def test_unwritable_data_dir_keeps_the_table_in_memory(tables, monkeypatch):
    blocker = tables / "not-a-dir"
    blocker.write_text("a file where the data directory should be")
    monkeypatch.setenv("CUBELAB_DATA_DIR", str(blocker / "data"))
    log = Log()
    a = load_or_build(spec(), log=log)
    assert (a.reshape(-1) == np.arange(64) ** 2).all()
    assert any("kept in memory for this session" in m for m in log)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through read-only permissions")
def test_read_only_data_dir(tables):
    d = tables / "data" / "tables" / f"v{FORMAT_VERSION}"
    d.mkdir(parents=True)
    d.chmod(0o555)
    try:
        log = Log()
        load_or_build(spec(), log=log)
        assert any("read-only" in m and "kept in memory" in m for m in log)
    finally:
        d.chmod(0o755)


def test_read_only_file_system_message(tables, monkeypatch):
    def rofs(f, chunk):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(fileformat, "_write_all", rofs)
    log = Log()
    load_or_build(spec(), log=log)
    assert any("read-only (Read-only file system)" in m for m in log)


# ---- two processes ---------------------------------------------------------------------------

def _slow_squares(ctx):
    marker = ctx.spec.params["marker"]
    with open(marker, "a") as f:
        f.write(f"{os.getpid()}\n")
    # the build goes on once the other process is waiting for its lock (a busy machine may
    # start the second process seconds after the first: a fixed pause would race it)
    deadline = time.monotonic() + 120
    while not os.path.exists(marker + ".waiting") and time.monotonic() < deadline:
        time.sleep(0.02)
    n = ctx.spec.params["n"]
    return (np.arange(n, dtype=np.int64) ** 2).reshape(-1, 2)


def _process_spec(marker):
    return TableSpec("test.shared", "test", {"n": 4096, "marker": str(marker)}, _slow_squares)


def _build_in_child(marker, go, out):
    go.wait()
    messages = []

    def log(message):
        messages.append(message)
        if "waiting for another process" in str(message):
            open(str(marker) + ".waiting", "w").close()
    a = load_or_build(_process_spec(marker), log=log)
    out.put((int(a.sum()), messages))


def test_two_processes_build_one_good_file(tables):
    marker = tables / "builders.txt"
    ctx = multiprocessing.get_context("spawn")
    go, out = ctx.Event(), ctx.Queue()
    procs = [ctx.Process(target=_build_in_child, args=(marker, go, out)) for _ in range(2)]
    for p in procs:
        p.start()
    go.set()
    results = [out.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    want = int((np.arange(4096, dtype=np.int64) ** 2).sum())
    assert [r[0] for r in results] == [want, want]
    assert len(marker.read_text().split()) == 1            # one process built it
    assert any("waiting for another process" in m for r in results for m in r[1])
    s = _process_spec(marker)
    assert verify_table(s) is None
    assert _debris(tables) == ["test.shared.npt"]


def test_lock_is_exclusive_and_leaves_no_file(tables):
    path = tables / "x.lock"
    with file_lock(path):
        assert path.exists()
        with pytest.raises(LockBusy):
            with file_lock(path, wait=False):
                pass
    assert not path.exists()


def test_clear_stray_files(tables):
    s = spec_register.register(spec())
    load_or_build(s)
    d = table_path(s).parent
    (d / ".test.squares.abc123_x.tmp").write_bytes(b"half a table")
    (d / "test.gone.npt").write_bytes(b"old")
    removed = catalog.clear_stray_files()
    assert sorted(removed) == [".test.squares.abc123_x.tmp", "test.gone.npt"]
    assert sorted(os.listdir(d)) == ["test.squares.npt"]


# ---- the breadth-first driver through the store --------------------------------------------

def _twist_distances(ctx):
    from cubelab.tables.bfs import pair_distances
    from cubelab.tables.movetables import _build_twist
    twist_move = _build_twist(ctx)
    return pair_distances(twist_move, np.zeros((1, 18), np.int64), [0], ctx)


def test_the_bfs_driver_builds_through_the_store_with_progress(tables):
    s = TableSpec("test.twist_distance", "test", {}, _twist_distances)
    seen = []
    a = load_or_build(s, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (2187, 2187)
    # twist alone: 0 moves for 1 value, at most 6 moves for any (Kociemba's figures)
    assert a[0] == 0 and a.max() == 6 and verify_table(s) is None


def test_cancelling_the_bfs_driver(tables):
    cancel = np.zeros(1, np.int32)

    def stop_on_first_report(done, total):
        cancel[0] = 1

    s = TableSpec("test.twist_distance", "test", {}, _twist_distances)
    with pytest.raises(BuildCancelled):
        load_or_build(s, cancel=cancel, progress=stop_on_first_report)
    assert _debris(tables) == []


def test_a_large_table_just_built_is_handed_out_as_its_files_mapping(tables, monkeypatch):
    # so a solver copying it to huge pages holds one copy, not the built array beside it
    import mmap
    from cubelab.tables import memory
    monkeypatch.setattr(store, "REMAP_BYTES", 1)
    arr = load_or_build(spec("test.squares.mapped", n=4096))
    assert (np.asarray(arr).ravel() == np.arange(4096) ** 2).all() and not arr.flags.writeable
    assert isinstance(memory._file_mapping(arr), mmap.mmap)
    monkeypatch.setattr(store, "REMAP_BYTES", 1 << 40)
    store.forget_cache()
    clear_table(spec("test.squares.mapped", n=4096))
    assert memory._file_mapping(load_or_build(spec("test.squares.mapped", n=4096))) is None


def test_a_private_copy_is_shared_while_held_and_goes_with_its_last_user(monkeypatch):
    # the workbench lets a solver go when another table set is chosen: its copies must go too
    import gc
    import weakref
    from cubelab.tables import memory
    monkeypatch.setattr(memory, "_SHARED", False)   # a --jobs test in this worker may have set it
    source = np.arange(memory.MIN_BYTES // 8 + 1, dtype=np.int64)
    copy = memory.resident(source)
    assert copy is not source and not copy.flags.writeable and (copy == source).all()
    assert memory.resident(source) is copy               # a second user shares it
    gone = weakref.ref(copy)
    del copy
    gc.collect()
    assert gone() is None                                # nothing else held it
    again = memory.resident(source)
    assert (again == source).all() and not again.flags.writeable
    small = np.arange(10)
    assert memory.resident(small) is small               # small arrays are used as they are
