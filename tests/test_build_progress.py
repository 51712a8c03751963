"""The build estimates said before and during a build (tui/build_progress.py): a table's own
measured time where its spec gives one, its size at the usual rate otherwise, scaled by how busy
the machine is; then the rate of the build's own progress. A fake clock and a fake load."""

from __future__ import annotations

from types import SimpleNamespace as Note

import pytest

from cubelab.tui.build_progress import (BYTES_PER_SECOND, SECONDS_PER_TABLE, BuildProgress,
                                        describe_build)

IDLE = lambda: (0.5, 2)         # noqa: E731  (load average, cores)
BUSY = lambda: (15.2, 2)        # noqa: E731


def _spec(name, nbytes, seconds=None):
    return Note(name=name, expected_bytes=nbytes, expected_seconds=seconds)


def test_a_table_without_a_time_of_its_own_is_judged_by_its_size():
    spec = _spec("a", int(BYTES_PER_SECOND * 600))
    assert describe_build([spec], compile_seconds=0, load=IDLE) == "1 table, 3,600 MB, about 10 min the first time"


def test_a_measured_time_replaces_the_size_rule():
    spec = _spec("a", int(BYTES_PER_SECOND * 1200), seconds=420)
    assert describe_build([spec], compile_seconds=0, load=IDLE).endswith("about 7 min the first time")


def test_the_bar_weighs_each_table_by_its_expected_time():
    quick = _spec("quick", int(BYTES_PER_SECOND * 900), seconds=100)  # a measured time says all
    slow = _spec("slow", int(BYTES_PER_SECOND * 100), seconds=300)
    clock = [0.0]
    bar = BuildProgress([quick, slow], clock=lambda: clock[0], load=IDLE)
    bar.log(Note(event="building", name="quick"))
    bar.log(Note(event="built", name="quick", nbytes=quick.expected_bytes))
    assert abs(bar.fraction - 0.25) < 1e-9
    bar.log(Note(event="building", name="slow"))
    bar.progress(1, 2)
    assert abs(bar.fraction - 0.625) < 1e-9
    # a table nobody announced still finishes cleanly
    bar.log(Note(event="built", name="stray", nbytes=10))
    assert bar.count == 3


def test_the_h48_table_announces_its_measured_time():
    from cubelab.tables.korf.specs import h48_spec
    text = describe_build([h48_spec()], compile_seconds=0, load=IDLE)
    assert text == "1 table, 7,524 MB, about 6 min the first time"


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _bar(specs, load=IDLE):
    clock = Clock()
    return BuildProgress(specs, clock=clock, load=load), clock


def _seconds(line: str) -> float:
    """The time left a line says, in seconds ('about 3 min left' -> 180)."""
    words = line.split(" left")[0].split("about ")[-1].split()
    return float(words[0].replace(",", "")) * (60 if words[1] == "min" else 1)


def test_a_busy_machine_lengthens_the_estimate_up_front_and_says_so():
    spec = _spec("layers", 2_791_000_000, seconds=240 - SECONDS_PER_TABLE)
    assert describe_build([spec], compile_seconds=0, load=IDLE) == \
        "1 table, 2,791 MB, about 4 min the first time"
    assert describe_build([spec], compile_seconds=0, load=BUSY) == \
        "1 table, 2,791 MB, about 30 min the first time (busy: load 15 on 2 cores)"
    bar, _ = _bar([spec], load=BUSY)
    assert bar.line() == "table 0/1 · 0/2,791 MB · about 30 min left · busy: load 15 on 2 cores"
    bar, _ = _bar([spec], load=lambda: (2.0, 2))        # our own two threads are not "busy"
    assert "busy" not in bar.line() and "about 4 min left" in bar.line()


def test_a_table_that_reports_nothing_counts_down_then_says_how_long_it_has_been():
    """The issue's case: 'about 3 min left' for six minutes while nothing moved."""
    corners = _spec("korf.corners", 88_000_000, seconds=9)
    layers = _spec("korf.layers", 2_791_000_000, seconds=230)
    bar, clock = _bar([corners, layers])
    bar.log(Note(event="building", name="korf.corners"))
    clock.now = 8
    bar.log(Note(event="built", name="korf.corners", nbytes=corners.expected_bytes))
    bar.log(Note(event="building", name="korf.layers"))
    lines = []
    for second in range(0, 361, 30):
        clock.now = 8 + second
        lines.append(bar.line())
    lefts = [_seconds(line) for line in lines if "left" in line]
    assert lefts and lefts == sorted(lefts, reverse=True)      # counting down, not frozen
    assert lefts[0] == pytest.approx(230, abs=30)
    assert lines[-1].endswith("88/2,879 MB · preparing, 6 min so far")
    for earlier, later in zip(lines, lines[2:]):                # a minute never looks the same
        assert earlier != later


def test_the_estimate_follows_the_rate_of_the_build_itself():
    """A table expected to take 100 s that runs four times slower: once it has shown real
    progress the estimate is its own pace, not the expected time."""
    bar, clock = _bar([_spec("t", 600_000_000, seconds=100 - SECONDS_PER_TABLE)])
    bar.log(Note(event="building", name="t"))
    for second in range(1, 301):
        clock.now = second
        bar.progress(second, 400)               # 1/400 of the table a second: 400 s in all
    assert bar.seconds_left() == pytest.approx(100, rel=0.1)
    assert "about 2 min left" in bar.line()


def test_the_rate_is_smoothed_and_decays_while_nothing_moves():
    bar, clock = _bar([_spec("t", 0, seconds=1000)])
    bar.log(Note(event="building", name="t"))
    for second in range(1, 201):
        clock.now = second
        bar.progress(second, 1000)              # 0.1 % a second
    steady = bar.seconds_left()
    clock.now += 1
    bar.progress(260, 1000)                     # a burst of 60 s worth in one second
    assert steady / 2 < bar.seconds_left() < steady
    bar.progress(260, 1000)
    estimates = []
    for quiet in (10, 60, 120, 240):            # then nothing, for minutes
        clock.now = 201 + quiet
        estimates.append(bar.seconds_left())
    assert estimates == sorted(estimates) and estimates[-1] > 2 * estimates[0]


def test_a_slow_start_past_the_expected_time_gives_no_wild_guess():
    """Breadth-first builders fill few entries in their first levels: a rate read there
    says hours (the issue saw '127 min left' after '3 min')."""
    bar, clock = _bar([_spec("t", 0, seconds=60)])
    bar.log(Note(event="building", name="t"))
    for second in range(1, 400):
        clock.now = second
        bar.progress(second // 100, 10_000)     # 0.04 % after 400 s
    assert bar.seconds_left() is None
    assert bar.line().endswith("preparing, 7 min so far")


def test_the_pace_of_the_tables_built_carries_over_to_the_next():
    first = _spec("first", 0, seconds=100 - SECONDS_PER_TABLE)
    second = _spec("second", 0, seconds=100 - SECONDS_PER_TABLE)
    bar, clock = _bar([first, second])
    bar.log(Note(event="building", name="first"))
    clock.now = 300                             # three times the expected time
    bar.log(Note(event="built", name="first", nbytes=0))
    bar.log(Note(event="building", name="second"))
    assert 200 < bar.seconds_left() < 300       # the load's guess (idle: 1x) weighs less


def test_progress_without_build_notes_moves_the_whole_bar():
    bar, clock = _bar([_spec("a", 0, seconds=50), _spec("b", 0, seconds=50)])
    for second in range(1, 51):
        clock.now = second
        bar.progress(second, 100)
    assert bar.fraction == 0.5
    assert bar.seconds_left() == pytest.approx(50, rel=0.2)


def test_compiling_counts_only_until_numba_has_cached_the_kernels(tmp_path, monkeypatch):
    import hashlib
    import os

    from cubelab.solvers.goals import solver as goal_solver
    from cubelab.tui.build_progress import COMPILE_SECONDS, LOAD_SECONDS, compile_estimate
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    thing = goal_solver.GoalSolver(goal="cross")
    assert compile_estimate(thing) == COMPILE_SECONDS            # nothing cached yet
    folder = os.path.dirname(os.path.abspath(goal_solver.__file__))
    cached = tmp_path / f"{os.path.basename(folder)}_{hashlib.sha1(folder.encode()).hexdigest()}"
    cached.mkdir()
    (cached / "kernel.search-1.py311.nbi").write_bytes(b"")
    assert compile_estimate(thing) == LOAD_SECONDS
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    assert compile_estimate(thing) == COMPILE_SECONDS            # no cache placed: assume cold


def test_small_goal_tables_are_announced_as_the_seconds_they_take():
    from cubelab.solvers.goals.solver import GoalSolver
    specs = GoalSolver(goal="cross").table_specs()
    assert describe_build(specs, compile_seconds=0, load=IDLE).endswith(
        "a few seconds the first time")
