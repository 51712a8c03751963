"""`:gen` in the REPL (issue 34): each case's algs printed numbered as the case ends, the rows
what `:apply N` (sets the case up) and `:play N` (plays its alg from the case) pick, Ctrl-C
stopping the run and not the REPL, bad set names and options in one line."""

from __future__ import annotations

import _thread
import io
import json
import threading

import pytest
from rich.console import Console

from cubelab.cube.facelets import parse_facelets
from cubelab.cube.moves import apply_moves
from cubelab.cube.state import CubeState
from cubelab.solvers.goals import generate as generate_module
from cubelab.tables.goals import plan
from cubelab.tui.repl import Repl

GEN = ':gen pll --moves RU --cases "Ua,Ub" -n 2'


@pytest.fixture(autouse=True)
def small_tables(monkeypatch):
    monkeypatch.setattr(plan, "BALL_NODES", 150_000)


def _repl(json_mode: bool = False):
    out = io.StringIO()
    return Repl(Console(file=out, width=200), json_mode=json_mode, show_net=False), out


def test_cases_print_numbered_and_apply_sets_a_case_up():
    repl, out = _repl()
    repl.handle(1, GEN)
    text = out.getvalue()
    lines = [ln for ln in text.splitlines() if ln[:4].strip().rstrip(".").isdigit()]
    assert [ln.split()[0] for ln in lines] == ["1.", "2.", "3.", "4."]
    assert lines[0].split()[1] == "Ua" and lines[2].split()[1] == "Ub"
    assert "11 HTM optimal" in lines[0] and "11 HTM optimal" in lines[2]
    assert "2 cases done, 2 with algs, 2 optimal" in text
    rows = repl.session.gen.rows
    assert [r.case for r in rows] == ["Ua", "Ua", "Ub", "Ub"]
    # :apply 3 sets Ub up (its best alg's inverse from solved: the case itself)
    record = repl.handle(2, ":apply 3")
    assert "error" not in record
    assert repl.session.state == parse_facelets(rows[2].record["facelets"])
    # :play 2 plays Ua's second alg from the case that alg sets up; played out, it solves
    repl.handle(3, ":play 2")
    playback = repl.session.playback
    assert playback is not None and list(playback.moves) == list(rows[1].moves)
    assert playback.start == rows[1].state()
    assert apply_moves(playback.start, playback.moves) == CubeState.identity()
    assert repl.handle(4, ":apply 9")["error"] == "give a row number from 1 to 4"


def test_json_mode_is_one_record_with_the_cases(capsys):
    repl, _ = _repl(json_mode=True)
    record = repl.handle(1, ':gen pll --moves RU --cases Ua')
    gen = record["gen"]
    assert gen["set"] == "pll" and gen["status"] == "done"
    (case,) = gen["cases"]
    assert case["case"] == "Ua" and case["optimal"] and case["algs"][0]["metric_cost"] == 11
    assert gen["rows"] == [{"number": 1, "case": "Ua", "solution": case["algs"][0]["solution"],
                            "setup": case["setup"]}]
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(lines) == 1          # one record for the line


@pytest.mark.parametrize("line, says", [
    (":gen", "give a case set: :gen oll|pll|coll|zbll|ocll"),
    (":gen xyz", ":gen: unknown case set 'xyz' (sets: oll, pll, coll, zbll, ocll)"),
    (":gen pll --bogus", ":gen: unrecognized arguments: --bogus"),
    (":gen pll -n 0", ":gen: argument -n:"),
    (":gen pll --weights R=x", ":gen: --weights:"),
    (":gen pll --cases 'Ua,Q'", ":gen: --cases: no case 'Q' in the set"),
    (":gen pll --json", ":gen: --json is for the command line"),
    (':gen pll --cases "Ua', ":gen: No closing quotation"),
    (":gen --start f2l", ":gen: name a set (oll, pll, coll, zbll, ocll) or give --start"),
])
def test_bad_input_is_one_line_and_the_repl_goes_on(line, says):
    repl, out = _repl(json_mode=True)
    record = repl.handle(1, line)
    assert record["error"].startswith(says), record["error"]
    assert "\n" not in record["error"]
    assert repl.handle(2, "R")["alg"] == "R"
    assert repl.failures == 1


def test_a_case_the_moves_cannot_reach_stops_the_run_in_one_line():
    repl, out = _repl()
    repl.handle(1, ":gen pll --moves RU --cases T")
    assert "gen stopped: pll cannot be reached with <R,U>" in out.getvalue()
    assert repl.failures == 1


def test_ctrl_c_stops_the_run_not_the_repl(monkeypatch):
    """Ctrl-C (an interrupt of the main thread, as the terminal's SIGINT makes it) while the
    run is held after its first case: the run stops, that case's rows stay, the next line
    runs. The interrupt comes once the REPL is waiting on the run (its tick has been called),
    and the hold ends when the REPL stops the run."""
    from cubelab.tui import gen_session
    release, waiting = threading.Event(), threading.Event()
    real_generate = generate_module.generate
    real_stop, real_wait = gen_session.GenRun.stop, gen_session.GenRun.wait

    def generate(*args, on_case=None, **kwargs):
        def told(record):
            on_case(record)
            if not release.is_set():
                waiting.wait(60)
                _thread.interrupt_main()        # the user's Ctrl-C, mid-run
                release.wait(120)
        return real_generate(*args, on_case=told, **kwargs)

    def stop(self):
        try:
            return real_stop(self)
        finally:
            release.set()

    def wait(self, tick=None):
        def ticked():
            waiting.set()
            if tick is not None:
                tick()
        return real_wait(self, tick=ticked)
    monkeypatch.setattr(generate_module, "generate", generate)
    monkeypatch.setattr(gen_session.GenRun, "stop", stop)
    monkeypatch.setattr(gen_session.GenRun, "wait", wait)
    repl, out = _repl()
    repl.handle(1, GEN)
    text = out.getvalue()
    assert "cancelled: 1 of 2 cases done" in text
    assert [r.case for r in repl.session.gen.rows] == ["Ua", "Ua"]
    assert repl.failures == 0
    assert repl.handle(2, "R")["alg"] == "R"


def test_completion_and_help_list_it():
    repl, out = _repl()
    s = repl.session
    assert ":gen" in s.completions(":ge")
    assert s.completions(":gen p") == [":gen pll"]
    assert ":gen pll --moves RU --metric qtm" in s.completions(":gen pll --moves RU --metric q")
    assert ":gen pll --all" in s.completions(":gen pll --a")
    repl.handle(1, ":help")
    assert ":gen SET [options]" in out.getvalue()
