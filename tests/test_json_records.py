"""The JSON of every command is what it was: each case of helpers_json_records against the records
main printed before the solver descriptions (tests/data/json_records.json; timings, paths and
the node counts of two-thread searches left out).

`tables status --json` lists every registered table, and other tests in the same process may
have registered small test tables (korf.corners-d5...), or built goal tables, which are made on
demand for what was searched (goal-...: listed once on disk): those are left out of the
comparison, and every table main listed must still be listed, with the same fields.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from helpers_json_records import CASES, run_case

CAPTURED = json.loads((Path(__file__).parent / "data" / "json_records.json").read_text())
_TEST_TABLE = re.compile(r"-d\d+$|^fake\.|^goal-")


def _tables(rows: list) -> dict:
    return {r["name"]: r for r in rows if not _TEST_TABLE.search(r["name"])}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CASES))
def test_the_records_are_those_of_main(name):
    got = run_case(CASES[name])
    want = CAPTURED[name]
    assert got.get("status") == want.get("status")
    if name == "tables status":
        (got_rows,), (want_rows,) = got["records"], want["records"]
        assert _tables(got_rows) == _tables(want_rows)
        return
    assert got["records"] == want["records"]


def test_every_case_was_captured():
    assert set(CAPTURED) == set(CASES)
