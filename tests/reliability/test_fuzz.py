"""Fuzzing the command line with hypothesis: notation, facelets, --file lines and save files
(issue 18). Whatever goes in, the program answers with exit status 0 or 2, no traceback and
no internal error, and everything it accepts it prints in a form it reads back the same.

Each test tries `settings.max_examples` inputs (100 in the default profile; the slow variant
at the end tries 2,000 more alg lines).
"""

from __future__ import annotations

import contextlib
import io
import json
import string
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pytest

from cubelab.tui.cli import main

NOTATION = "RUFDLBMESxyzrufdlbw'23 ()[],:/\n\t0123456789-+*.#"
alg_text = st.one_of(
    st.text(alphabet=NOTATION, max_size=60),
    st.text(max_size=30),                                   # any unicode at all
    st.lists(st.sampled_from(["R", "U'", "F2", "Rw", "3Rw", "M", "x", "(", ")", "[", "]", ",",
                              ":", "2", "'", " ", "//c\n", "R1000000", "r2'"]),
             max_size=40).map("".join),
)
facelet_text = st.one_of(
    st.text(alphabet="URFDLBWYGOurfdlbwygo X", min_size=0, max_size=60),
    st.permutations(list("U" * 9 + "R" * 9 + "F" * 9 + "D" * 9 + "L" * 9 + "B" * 9)).map(
        "".join),
)
FUZZ = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
                deadline=None)


def run(argv: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    """main(argv) with its output captured (and stdin given), as the command line runs it."""
    out, err = io.StringIO(), io.StringIO()
    patches = [contextlib.redirect_stdout(out), contextlib.redirect_stderr(err)]
    if stdin is not None:
        patches.append(mock.patch("sys.stdin", io.StringIO(stdin)))
    with contextlib.ExitStack() as stack:
        for p in patches:
            stack.enter_context(p)
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


def answered(status: int, err: str, records_say_why: bool = False) -> None:
    """Exit 0 or 2, never a traceback; a refusal is said on stderr, one line a problem (with
    --json --file the error records say it instead)."""
    assert status in (0, 2), err
    assert "Traceback" not in err and "internal error" not in err, err
    if status == 2 and not records_say_why:
        assert err.count("\n") >= 1 and all(line.startswith(("cubelab:", "line "))
                                            for line in err.splitlines()), err


@FUZZ
@given(alg_text)
def test_any_alg_is_answered_and_what_is_accepted_reads_back(text):
    status, out, err = run(["facts", "--json", "--", text])
    answered(status, err)
    if status == 0:
        record = json.loads(out)
        again, out2, err2 = run(["facts", "--json", "--", record["alg"]])
        assert again == 0, err2
        assert json.loads(out2)["facelets"] == record["facelets"]
        assert json.loads(out2)["alg"] == record["alg"]


@FUZZ
@given(facelet_text)
def test_any_facelets_are_answered_and_read_back(text):
    status, out, err = run(["facts", "--json", "--facelets", text])
    answered(status, err)
    if status == 0:
        facelets = json.loads(out)["facelets"]
        again, out2, _ = run(["facts", "--json", "--facelets", facelets])
        assert again == 0 and json.loads(out2)["facelets"] == facelets


@FUZZ
@given(st.lists(st.one_of(alg_text.map(lambda t: t.replace("\n", " ")),
                          facelet_text.map(lambda t: "facelets: " + t)), max_size=8))
def test_file_lines_give_one_record_each_in_order(lines):
    text = "\n".join(lines) + "\n"
    status, out, err = run(["facts", "--json", "--file", "-"], stdin=text)
    answered(status, err, records_say_why=True)
    if "\0" in text:
        # a NUL byte makes it a binary file, refused whole on one line
        assert status == 2 and "not a text file" in err and err.count("\n") == 1
        return
    # lines end at "\n" only (str.splitlines would also split at \x1c, \x85, \u2028...)
    expected = [n for n, line in enumerate(text.split("\n")[:-1], start=1)
                # blank, '#' and '// comment'-only lines are skipped
                if line.split("//", 1)[0].strip() and not line.strip().startswith("#")]
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["line"] for r in records] == expected
    assert (status == 2) == any("error" in r for r in records)


save_bytes = st.one_of(
    st.binary(max_size=200),
    st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=60),
                 lambda kids: st.lists(kids, max_size=4)
                 | st.dictionaries(st.sampled_from(["facelets", "alg", "puzzle", "label", "x"]),
                                   kids, max_size=5),
                 max_leaves=12).map(lambda v: json.dumps(v).encode()),
    st.fixed_dictionaries({"facelets": facelet_text, "alg": alg_text,
                           "puzzle": st.sampled_from(["3x3", "2x2", "4x4", ""])}).map(
        lambda v: json.dumps(v).encode()),
)


@FUZZ
@given(save_bytes)
def test_any_save_file_is_loaded_or_refused_by_the_repl(fresh_dirs, data):
    saves = fresh_dirs / "state" / "saves"
    saves.mkdir(parents=True, exist_ok=True)
    (saves / "fuzzed.json").write_bytes(data)
    status, out, err = run(["repl", "--json", "--no-net"], stdin=":load fuzzed\n:save again\n")
    answered(status, err, records_say_why=True)
    records = [json.loads(line) for line in out.splitlines()]
    assert len(records) == 2
    if "error" not in records[0]:
        # what was loaded saves and loads back to the same position
        status, out, err = run(["repl", "--json", "--no-net"], stdin=":load again\n")
        assert status == 0, err
        assert json.loads(out.splitlines()[0])["facelets"] == records[0]["facelets"]


@pytest.mark.slow
@settings(max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.text(alphabet=NOTATION + string.ascii_letters, max_size=200))
def test_many_more_alg_lines(text):
    status, _, err = run(["facts", "--json", "--", text])
    answered(status, err)


GOAL_WORDS = ["cross", "cross:U", "cross:any", "oll", "eo:ud", "f2l-pair:FR", "UF", "UFR:o",
              "DF:p", "corners", "E-slice:s", "U-layer", ":", "::", "any", "dr:", "xcross:Q",
              "all", "i", " ", ",", "UF:poi"]
MOVE_WORDS = ["R", "U", "F", ",", "<", ">", "R2", "M", "r", "Rw", "x", "2gen", "eo-fb", " ",
              "Q", "3", "'", "2R", "E,S"]


@settings(FUZZ, max_examples=60)
@given(st.one_of(st.text(max_size=20), st.lists(st.sampled_from(GOAL_WORDS), max_size=4)
                 .map(" ".join)),
       st.one_of(st.text(max_size=12), st.lists(st.sampled_from(MOVE_WORDS), max_size=6)
                 .map("".join)),
       st.one_of(st.none(), st.text(alphabet="RUFM=,.0123456789- x", max_size=14)))
def test_any_goal_move_set_and_weights_are_answered(goal, moves, weights):
    argv = ["solve", "--json", "--max-length", "2", "--goal", goal, "--moves", moves]
    argv += ["--weights", weights] if weights is not None else []
    status, out, err = run(argv + ["--", "R U"])
    answered(status, err)
    if status == 0:
        record = json.loads(out)
        assert record["solver"] == "goal" and record["status"] in ("solved", "not found")


@settings(FUZZ, max_examples=40)
@given(st.text(alphabet="UUURRFFDDLLB*?", min_size=54, max_size=54))
def test_any_grey_facelets_are_answered(text):
    status, out, err = run(["solve", "--json", "--max-length", "1", "--moves", "RU",
                            "--facelets", text])
    answered(status, err)
