"""Smoke test of the real program: `cubelab` in a detached tmux terminal, driven with send-keys
and read back with capture-pane (the net, the order, the persisted history)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time

import pytest

from cubelab.cube import pocket
from cubelab.cube.moves import alg_state
from cubelab.cube.net import Net
from cubelab.tui.history import read_entries

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


WAIT = 180.0
"""How long a test waits for what it expects before it fails: only a bound for a program that
went wrong (each wait ends as soon as the screen or the file shows it), so it is generous: on
a loaded machine the program takes many seconds to start."""


def wait_for_entries(path, expected: list[str], seconds: float = WAIT) -> list[str]:
    """The history file's entries once they are `expected` (the file is written as each line
    is entered; it is read again until it says so)."""
    deadline = time.monotonic() + seconds
    while True:
        entries = read_entries(path)
        if entries == expected or time.monotonic() > deadline:
            return entries
        time.sleep(0.1)


class Tmux:
    """One private tmux server (its own socket) holding one 80x24 session."""

    def __init__(self, name: str):
        self.name = name

    def run(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-L", self.name, *args], capture_output=True, text=True,
                              timeout=WAIT)
        return done.stdout

    def screen(self, scrollback: bool = False) -> list[str]:
        """The pane's lines (with what scrolled out above it when `scrollback`)."""
        since = ["-S", "-"] if scrollback else []
        return self.run("capture-pane", "-p", *since, "-t", self.name).splitlines()

    def wait_for(self, text: str, seconds: float = WAIT, row: int | None = None,
                 scrollback: bool = False) -> list[str]:
        """The screen once `text` shows (on line `row`, or anywhere; with `scrollback`, also in
        lines a longer answer has since scrolled out of the pane)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            lines = self.screen(scrollback)
            where = lines if row is None else lines[row:row + 1]
            if any(text in line for line in where):
                return lines
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared; screen:\n" + "\n".join(self.screen()))

    def wait_until(self, shows, what: str, seconds: float = WAIT) -> list[str]:
        """The screen once `shows(lines)` holds (read again until it does)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            lines = self.screen()
            if shows(lines):
                return lines
            time.sleep(0.1)
        raise AssertionError(f"{what} never showed; screen:\n" + "\n".join(self.screen()))


def letters_of(lines, start: int, stickers: int, step: int = 3) -> list[str]:
    """The sticker letters of net lines, one every `step` cells from `start` (blank cells
    where a face is absent)."""
    return ["".join((line + " " * 80)[start + step * k] for k in range(stickers)).rstrip()
            for line in lines]


@pytest.fixture
def launch(tmp_path):
    """Starts the program with the given arguments in its own tmux server (killed at the end)."""
    servers = []

    def start(*args: str) -> Tmux:
        # a name per test: a server being killed must not be reused by the next test
        t = Tmux(f"cubelab-smoke-{os.getpid()}-{tmp_path.name}-{len(servers)}")
        env = " ".join(f"CUBELAB_{name.upper()}_DIR={tmp_path / name}"
                       for name in ("data", "cache", "state", "config"))
        # LINES/COLUMNS from the terminal pytest runs in would override the pane's own size
        command = (f"env -u LINES -u COLUMNS TERM=xterm-256color {env} {sys.executable} "
                   "-m cubelab.tui.cli")
        t.run("new-session", "-d", "-s", t.name, "-x", "80", "-y", "24",
              " ".join([command, *args]))
        servers.append(t)
        return t

    yield start
    for t in servers:
        t.run("kill-server")


@pytest.fixture
def tmux(launch):
    return launch()


def test_typed_sequence_shows_its_net_and_order(tmux, tmp_path):
    tmux.wait_for("facts")
    tmux.run("send-keys", "-t", tmux.name, "-l", "R U R' U'")
    tmux.run("send-keys", "-t", tmux.name, "Enter")
    tmux.run("send-keys", "-t", tmux.name, "F2")          # letters on, to read the net back
    expected = Net(alg_state("R U R' U'"), letters=True).plain_text().splitlines()
    tmux.wait_for("applied 4 moves")                    # the Enter ran (a preview says order 6 too)
    tmux.wait_for("order   6")
    # in colour each sticker is a letter, a space and the grid's column: read every third cell
    lines = tmux.wait_until(lambda lines: letters_of(lines[1:10], start=2, stickers=12)
                            == letters_of(expected, 0, 12, step=2), "the net's letters")
    assert any("4 HTM" in line for line in lines)
    # the line is kept in the history as it is entered, not at the end
    assert wait_for_entries(tmp_path / "state" / "history", ["R U R' U'"]) == ["R U R' U'"]
    tmux.run("send-keys", "-t", tmux.name, "C-q")


def test_the_app_starts_as_a_2x2_when_asked(launch):
    tmux = launch("--puzzle", "2x2")
    tmux.wait_for("facts · 2x2x2")
    tmux.run("send-keys", "-t", tmux.name, "-l", "R U")
    tmux.run("send-keys", "-t", tmux.name, "Enter")
    tmux.run("send-keys", "-t", tmux.name, "F2")
    expected = Net(pocket.from_alg("R U").state).plain_text().splitlines()
    tmux.wait_for("2 HTM  2 QTM")
    # the 2x2x2's net is centred in the 3x3x3's box
    tmux.wait_until(lambda lines: letters_of(lines[2:8], start=8, stickers=8)
                    == letters_of(expected, 0, 8, step=2), "the 2x2x2's letters")
    tmux.run("send-keys", "-t", tmux.name, "C-q")


def test_keys_sent_in_a_burst_all_paint(tmux):
    from cubelab.cube.facelets import to_facelets
    tmux.wait_for("facts")
    tmux.run("send-keys", "-t", tmux.name, "F3")
    tmux.wait_for("paint U1 (1/54)")
    tmux.run("send-keys", "-t", tmux.name, "-l", "uuuuu")  # U5 is a centre: taken, not painted
    tmux.wait_for("paint U6 (6/54)")
    tmux.run("send-keys", "-t", tmux.name, "C-u", "C-Home")
    target = alg_state("R U2 F' L D")
    tmux.run("send-keys", "-t", tmux.name, "-l", to_facelets(target))
    tmux.wait_for("valid position")
    tmux.run("send-keys", "-t", tmux.name, "Enter")
    tmux.wait_for("net ─")                                   # out of paint mode
    tmux.run("send-keys", "-t", tmux.name, "-l", ":reset")  # focus is back on the line
    tmux.run("send-keys", "-t", tmux.name, "Enter")
    tmux.wait_for("solved 3x3x3")
    tmux.run("send-keys", "-t", tmux.name, "C-q")


def test_a_recorded_walk_through_replays_in_the_workbench(launch, tmp_path):
    walk = tmp_path / "walk.jsonl"
    teacher = launch()
    teacher.wait_for("facts")
    for line, said in ((f":record {walk}", "recording to"), (":case UF UR UB", "position set"),
                       (":pattern superflip", "superflip:"), (":record stop", "2 lines")):
        teacher.run("send-keys", "-t", teacher.name, "-l", line)
        teacher.run("send-keys", "-t", teacher.name, "Enter")
        teacher.wait_for(said)
    teacher.run("send-keys", "-t", teacher.name, "C-q")
    student = launch("replay", str(walk), "--speed", "5")
    lines = student.wait_for("replay finished")
    # the superflip is on show (at 80x24 its long cycle lists push the sym row below the fold)
    assert any(re.search(r"order\s+2\s+parity even", line) for line in lines)
    student.run("send-keys", "-t", student.name, "C-q")


def test_lines_sent_with_no_pause_run_each_as_typed(tmux, tmp_path):
    """One send-keys: the program reads the three lines in one go, as over a slow SSH link."""
    tmux.wait_for("facts")
    tmux.run("send-keys", "-t", tmux.name, "R U", "Enter", ":reset", "Enter", "F", "Enter")
    lines = tmux.wait_for("order   4")                   # F alone
    assert not any("unknown" in line for line in lines)
    # a bracketed paste of several lines: each runs, the last (no line break) waits
    tmux.run("set-buffer", "-b", "lines", ":reset\nU2 R2\nD")
    tmux.run("paste-buffer", "-p", "-d", "-b", "lines", "-t", tmux.name)
    lines = tmux.wait_for("preview: 1 move")
    assert any("U2 R2" in line for line in lines) and not any("unknown" in l for l in lines)
    entered = ["R U", ":reset", "F", ":reset", "U2 R2"]
    assert wait_for_entries(tmp_path / "state" / "history", entered) == entered
    tmux.run("send-keys", "-t", tmux.name, "Escape", "C-q")


def test_one_resize_gives_the_layout_of_the_new_size(tmux):
    from cubelab.cube.net import net_size
    tmux.wait_for("facts", row=0)                        # 80x24: the facts beside the net
    tmux.run("send-keys", "-t", tmux.name, "R U", "Enter")
    tmux.wait_for("2 HTM")
    tmux.run("resize-window", "-t", tmux.name, "-x", "160", "-y", "48")
    below_the_large_net = net_size(3, 2)[1] + 2
    lines = tmux.wait_for("facts", row=below_the_large_net)
    assert "solvers" in lines[0]                          # the wide layout: solvers on the right
    assert any("2 HTM" in line for line in lines[below_the_large_net:])
    tmux.run("send-keys", "-t", tmux.name, "C-q")


def wait_for_session(path, moves: str, seconds: float = WAIT) -> dict:
    """The kept session once its current position was reached by `moves` (it is written as
    the program ends; read again until it says so)."""
    from cubelab.tui.session_store import SessionStore
    deadline = time.monotonic() + seconds
    while True:
        record, _ = SessionStore(path).load()
        if record is not None:
            current = record["history"][record["cursor"]]
            if current["moves"] == moves:
                return record
        assert time.monotonic() < deadline, f"no session of {moves!r} was kept"
        time.sleep(0.1)


def test_the_workbench_offers_the_last_session_and_ctrl_r_brings_it_back(launch, tmp_path):
    first = launch()
    first.wait_for("facts")
    first.run("send-keys", "-t", first.name, "-l", "R U")
    first.run("send-keys", "-t", first.name, "Enter")
    first.wait_for("applied 2 moves")
    first.run("send-keys", "-t", first.name, "C-q")
    wait_for_session(tmp_path / "state" / "session.json", "R U")
    second = launch()
    second.wait_for("Ctrl+R restores the last session (2 moves")
    second.run("send-keys", "-t", second.name, "C-r")
    second.wait_for("restored the last session")
    second.wait_for("2 HTM")
    second.run("send-keys", "-t", second.name, "C-q")


def test_the_repl_keeps_its_session_and_restore_brings_it_back(launch, tmp_path):
    first = launch("repl", "--no-net")
    first.wait_for("Ctrl-D leaves")
    first.run("send-keys", "-t", first.name, "-l", "R U F")
    first.run("send-keys", "-t", first.name, "Enter")
    # the facts of R U F (the head of a long answer may have scrolled out of the pane)
    first.wait_for("order        80", scrollback=True)
    first.run("send-keys", "-t", first.name, "C-d")
    wait_for_session(tmp_path / "state" / "session.json", "R U F")
    second = launch("repl", "--no-net", "--restore")
    second.wait_for("restored the last session (3 moves", scrollback=True)
    second.run("send-keys", "-t", second.name, "-l", ":undo")
    second.run("send-keys", "-t", second.name, "Enter")
    # solved again (the restored position's facts, above, have other facelets)
    second.wait_for("facelets     " + "".join(face * 9 for face in "URFDLB"), scrollback=True)
    second.run("send-keys", "-t", second.name, "C-d")
