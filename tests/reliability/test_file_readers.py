"""Every file the program reads, replaced by what a file can be replaced by (issue 37, item 1).

`ln -s /dev/zero z.jsonl; cubelab replay z.jsonl` ran until killed: replay read without bounds.
The program has one bounded reader (cube/files.py); here each command that reads a file meets
a link to /dev/zero, a FIFO nobody writes, a directory, a sparse file of gigabytes, a binary
file, JSON nested deeper than a parser recurses, bytes that are not UTF-8, an empty file and a
line of megabytes without an end. Each case must end at once (a hang is caught by an alarm),
within bounded memory (the address space is limited), with the program's message, no traceback.

READERS is the table of readers: a file the program reads gets a row (where the file lies, the
Python that makes the program read it and say what it saw). A settings file, when one exists,
is one more row.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

CASE_SECONDS = 20
MEMORY_LIMIT = 3 << 30


@dataclass(frozen=True)
class Reader:
    name: str
    place: str
    """Where the file lies, under the case's folder ('state/...' is the state directory)."""
    code: str
    """Python making the program read it (`path`, `folder` are set); what it prints or exits
    with is what the user sees."""
    exits: tuple[int, ...] = (0, 2)
    """Exit statuses of main() that are a clean answer to a bad file."""
    stream: bool = False
    """The file is input the user names to be read as a stream (--file): a FIFO is waited on
    for its writer, as any filter waits (the FIFO tests below), not tried in the table."""


READERS = [
    Reader("cubelab replay FILE", "recording.jsonl",
           "from cubelab.tui.cli import main\nsys.exit(main(['replay', '--json', path]))",
           exits=(2,)),
    Reader(":load NAME (a save)", "state/saves/bad.json",
           "from cubelab.tui.session import Session\nprint(Session().execute(':load bad').message)"),
    Reader(":record FILE", "recording.jsonl",
           "from cubelab.tui.session import Session\ns = Session()\n"
           "print(s.execute(':record ' + path).message)\ns.execute('R U')\n"
           "print(s.execute(':record stop').message)"),
    Reader("the input history", "state/history",
           "from cubelab.tui.history import InputHistory\nh = InputHistory()\n"
           "h.append('R U')\nprint(len(h.entries), 'entries')"),
    Reader("the REPL's history", "state/history",
           "from cubelab.tui.history import history_path, prompt_history\n"
           "h = prompt_history(history_path())\nprint(len(list(h.load_history_strings())))\n"
           "h.store_string('R U')"),
    Reader("facts --file FILE", "positions.txt",
           "from cubelab.tui.cli import main\nsys.exit(main(['facts', '--json', '--file', path]))",
           stream=True),
    Reader("solve --file FILE", "positions.txt",
           "from cubelab.tui.cli import main\n"
           "sys.exit(main(['solve', '--solver', 'bfs', '--json', '--file', path]))", stream=True),
    Reader("solve --output FILE --resume", "out.jsonl",
           "from cubelab.tui.cli import main\n"
           "open(folder + '/in.txt', 'w').write('R U\\n')\n"
           "sys.exit(main(['solve', '--solver', 'bfs', '--file', folder + '/in.txt', "
           "'--output', path, '--resume']))"),
    Reader("gen --output FILE --resume", "out.jsonl",
           "from cubelab.tui.cli import main\n"
           "sys.exit(main(['gen', 'ocll', '--cases', 'H', '--moves', 'RU', '--max-length', '0',"
           " '--output', path, '--resume']))"),
    Reader("a table file (tables status)", "data/tables/v1/movetables.twist.npt",
           "from cubelab.tui.cli import main\nsys.exit(main(['tables', 'status', '--json']))",
           exits=(0,)),
]


def _zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _urandom(path: Path) -> None:
    path.symlink_to("/dev/urandom")


def _fifo(path: Path) -> None:
    os.mkfifo(path)             # nobody writes: a plain open would wait for ever


def _directory(path: Path) -> None:
    path.mkdir()


def _huge(path: Path) -> None:
    with open(path, "wb") as f:
        f.truncate(4 << 30)     # sparse: 4 GB of nothing


def _bytes(data: bytes):
    def make(path: Path) -> None:
        path.write_bytes(data)
    return make


BAD_FILES = {
    "link to /dev/zero": _zero,
    "link to /dev/urandom": _urandom,
    "FIFO": _fifo,
    "directory": _directory,
    "4 GB sparse": _huge,
    "binary": _bytes(bytes(range(256)) * 64),
    "nested JSON": _bytes(b"[" * 200_000 + b"\n"),
    "not UTF-8": _bytes(b"\xff\xfe\xfd R U\n" * 10),
    "empty": _bytes(b""),
    "a 16 MB line": _bytes(b"R " * (8 << 20)),
}

_DRIVER = r"""
import contextlib, io, json, os, resource, signal, sys, time, traceback
resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
class Hung(BaseException):
    pass
def alarm(*_):
    raise Hung()
signal.signal(signal.SIGALRM, alarm)
job = json.loads(sys.stdin.read())
for case in job["cases"]:
    for name in ("DATA", "STATE"):
        os.environ[f"CUBELAB_{name}_DIR"] = os.path.join(case["folder"], name.lower())
    out, err = io.StringIO(), io.StringIO()
    start, status, outcome = time.monotonic(), None, "answered"
    signal.alarm(CASE_SECONDS)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                exec(job["code"], {"sys": sys, "path": case["path"], "folder": case["folder"]})
            except SystemExit as e:
                status = e.code
    except Hung:
        outcome = "hung"
    except BaseException:
        outcome = "crashed"
        err.write(traceback.format_exc())
    finally:
        signal.alarm(0)
    print(json.dumps({"kind": case["kind"], "outcome": outcome, "status": status,
                      "seconds": round(time.monotonic() - start, 2),
                      "stdout": out.getvalue()[-2000:], "stderr": err.getvalue()[-2000:]}),
          flush=True)
""".replace("MEMORY_LIMIT", str(MEMORY_LIMIT)).replace("CASE_SECONDS", str(CASE_SECONDS))


@pytest.mark.parametrize("reader", READERS, ids=[r.name for r in READERS])
def test_a_bad_file_costs_a_message_never_a_hang(reader, tmp_path):
    cases = []
    for kind, make in BAD_FILES.items():
        if reader.stream and kind == "FIFO":
            continue        # waited on for its writer, as it should (the tests below)
        folder = tmp_path / kind.replace(" ", "-").replace("/", "")
        path = folder / reader.place
        path.parent.mkdir(parents=True)
        make(path)
        cases.append({"kind": kind, "path": str(path), "folder": str(folder)})
    done = subprocess.run([sys.executable, "-c", _DRIVER],
                          input=json.dumps({"code": reader.code, "cases": cases}),
                          capture_output=True, text=True,
                          timeout=CASE_SECONDS * len(cases) + 120)
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(results) == len(cases), done.stderr[-3000:]
    problems = []
    for r in results:
        said = r["stdout"] + r["stderr"]
        if r["outcome"] != "answered":
            problems.append(f"{r['kind']}: {r['outcome']} after {r['seconds']} s: {said[-600:]}")
        elif r["status"] not in (None, *reader.exits):
            problems.append(f"{r['kind']}: exit {r['status']}: {said[-600:]}")
        elif "Traceback" in said or "internal error" in said:
            problems.append(f"{r['kind']}: {said[-600:]}")
        elif r["status"] == 2 and r["stderr"].count("\n") > 1:
            problems.append(f"{r['kind']}: not one line: {r['stderr'][-600:]}")
    print(f"{reader.name}: " + "; ".join(f"{r['kind']} {r['seconds']} s" for r in results))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_a_fifo_named_as_input_is_waited_on_and_ctrl_c_ends_the_wait(tmp_path, sig):
    import signal
    import time
    from .helpers import CUBELAB
    fifo = tmp_path / "positions"
    os.mkfifo(fifo)
    p = subprocess.Popen(CUBELAB + ["facts", "--json", "--file", str(fifo)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # until it waits in the FIFO's open (the kernel's wait for the other end; a kernel
        # that hides where a process waits gets two seconds instead)
        deadline, shown = time.monotonic() + 60, time.monotonic() + 2.0
        while (wchan := Path(f"/proc/{p.pid}/wchan").read_text(errors="replace")) \
                != "wait_for_partner":
            assert time.monotonic() < deadline and p.poll() is None
            if wchan in ("", "0") and time.monotonic() > shown:
                break
            time.sleep(0.05)
        t0 = time.monotonic()
        p.send_signal(getattr(signal, sig))
        out, err = p.communicate(timeout=60)
    finally:
        p.kill()        # never left running, whatever happened
    assert p.returncode == (130 if sig == "SIGINT" else 143), err
    assert err.strip() in ("cubelab: interrupted", "cubelab: terminated")
    assert time.monotonic() - t0 < 3.0


def test_a_fifo_named_as_input_is_read_when_written(tmp_path):
    from .helpers import CUBELAB
    fifo = tmp_path / "positions"
    os.mkfifo(fifo)
    p = subprocess.Popen(CUBELAB + ["facts", "--json", "--file", str(fifo)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        import time
        deadline = time.monotonic() + 120
        while True:     # the writer's end opens once the program reads (never a wait for ever)
            try:
                fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
                break
            except OSError:
                assert time.monotonic() < deadline and p.poll() is None
                time.sleep(0.05)
        os.set_blocking(fd, True)
        with os.fdopen(fd, "w") as writer:
            writer.write("R U\nF\n")
        out, err = p.communicate(timeout=120)
    finally:
        p.kill()
    assert p.returncode == 0, err
    assert [json.loads(line)["line"] for line in out.splitlines()] == [1, 2]
