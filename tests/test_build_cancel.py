"""A table build hears its cancel flag while it sets up, not only between its levels.

Korf's layer table is 2.75 GB: filling it with "unknown" and sweeping it took tens of seconds
on a busy machine, deaf to the flag, while a front end had already said "cancelled". Now the
fill and the sweeps go in pieces with the flag looked at between them: a build cancelled as it
starts never holds the table.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from cubelab.tables.packed import FILL_BYTES, new_packed2, new_packed4
from cubelab.tables.spec import BuildCancelled

CANCELLED_AT_START = """
import resource, sys
import numpy as np
import cubelab.tables.korf.specs  # noqa: F401  (registers the korf tables)
from cubelab.tables.spec import BuildCancelled
from cubelab.tables.store import load_or_build
for name in ("moves.twist", "moves.flip"):      # its small dependencies, ready beforehand
    load_or_build(name)
cancel = np.zeros(1, np.int32)
def log(message):
    if getattr(message, "event", None) == "building" and message.name == sys.argv[1]:
        cancel[0] = 1                           # Ctrl-C, just as the build begins
try:
    load_or_build(sys.argv[1], cancel=cancel, log=log)
    print("built")
except BuildCancelled:
    print("cancelled")
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
"""


@pytest.mark.slow
def test_a_layer_build_cancelled_as_it_starts_never_fills_its_table(tmp_path):
    import os
    env = dict(os.environ, CUBELAB_DATA_DIR=str(tmp_path / "data"))
    done = subprocess.run([sys.executable, "-c", CANCELLED_AT_START, "korf.layers"], env=env,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    outcome, peak = done.stdout.split()
    assert outcome == "cancelled"
    assert int(peak) < 1_500_000_000, f"peak memory {int(peak) / 1e9:.1f} GB: the table was filled"
    assert not list((tmp_path / "data").rglob("korf.layers*"))


@pytest.mark.parametrize("new", [new_packed2, new_packed4])
def test_a_new_table_is_filled_in_pieces_that_a_cancel_stops(new):
    calls = []

    def check():
        calls.append(1)
        if len(calls) == 3:
            raise BuildCancelled("t")

    with pytest.raises(BuildCancelled):
        new(12 * FILL_BYTES, check)
    assert len(calls) == 3
    table = new(3 * FILL_BYTES + 5, lambda: None)
    assert np.all(table == 0xFF)
