"""The build estimates said before and during a build (tui/build_progress.py): a table's own
measured time where its spec gives one, its size at the usual rate otherwise."""

from __future__ import annotations

from types import SimpleNamespace as Note

from cubelab.tui.build_progress import BYTES_PER_SECOND, BuildProgress, describe_build


def _spec(name, nbytes, seconds=None):
    return Note(name=name, expected_bytes=nbytes, expected_seconds=seconds)


def test_a_table_without_a_time_of_its_own_is_judged_by_its_size():
    spec = _spec("a", int(BYTES_PER_SECOND * 600))
    assert describe_build([spec], compile_seconds=0) == "1 table, 3,600 MB, about 10 min the first time"


def test_a_measured_time_replaces_the_size_rule():
    spec = _spec("a", int(BYTES_PER_SECOND * 1200), seconds=420)
    assert describe_build([spec], compile_seconds=0).endswith("about 7 min the first time")


def test_the_bar_weighs_each_table_by_its_expected_time():
    quick = _spec("quick", int(BYTES_PER_SECOND * 900), seconds=99)   # 100 s with the table cost
    slow = _spec("slow", int(BYTES_PER_SECOND * 100), seconds=299)    # 300 s
    clock = [0.0]
    bar = BuildProgress([quick, slow], clock=lambda: clock[0])
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
    text = describe_build([h48_spec()], compile_seconds=0)
    assert text == "1 table, 7,524 MB, about 6 min the first time"
