"""Recording a session: each line, when it came and the position after it, in a JSON Lines file.

`:record FILE` starts (the file's first record is the position to start from), `:record stop`
ends; `cubelab replay FILE` plays it back (replay_cmd.py). One record a line, so a recording
cut short by a crash still replays up to its last whole line:

    {"cubelab_recording": 1, "puzzle": "3x3", "facelets": "...", "alg": "...", "started": "..."}
    {"t": 1.52, "line": "R U", "puzzle": "3x3", "facelets": "...", "error": false}
"""

from __future__ import annotations

import json
import math
import os
import time
from dataclasses import dataclass
from pathlib import Path

from cubelab.cube.files import FileProblem, open_regular, read_small_file
from cubelab.cube.notation import format_moves, parse
from cubelab.cube.puzzles import puzzle_named

from .command_table import CommandTable
from .records import Outcome

FORMAT = 1

_MAX_BRACKETS = 64
"""A recording's line holds flat records: this many brackets mean it is something else."""


class RecordingError(ValueError):
    """A file that is not a recording cubelab can play; the message says where."""


MAX_RECORDING_BYTES = 64 << 20
"""The largest recording replayed: a day of typing with every position is a few megabytes."""


class Recorder:
    """Appends the lines a session executes to an open recording file."""

    def __init__(self, path: Path, session):
        self.path = path
        self.start = time.monotonic()
        self.lines = 0
        # a regular file only: opening a FIFO to write would wait for a reader (a hung
        # workbench), and a device is no recording (FileProblem says which it is)
        fd = open_regular(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        self.handle = os.fdopen(fd, "w", encoding="utf-8")
        puzzle = session.puzzle
        self._write({"cubelab_recording": FORMAT, "puzzle": puzzle.name,
                     "facelets": puzzle.to_facelets(session.state),
                     "alg": format_moves(session.moves),
                     "started": time.strftime("%Y-%m-%dT%H:%M:%S%z")})

    def _write(self, record: dict) -> None:
        self.handle.write(json.dumps(record) + "\n")
        self.handle.flush()         # a cut-off session still leaves every line it did

    def line(self, text: str, session, error: bool) -> None:
        self._write({"t": round(time.monotonic() - self.start, 3), "line": text,
                     "puzzle": session.puzzle.name,
                     "facelets": session.puzzle.to_facelets(session.state), "error": error})
        self.lines += 1

    def close(self) -> int:
        """Stop; the number of lines recorded."""
        self.handle.close()
        return self.lines


@dataclass(frozen=True)
class Step:
    t: float
    line: str
    puzzle: str
    facelets: str
    error: bool


@dataclass(frozen=True)
class Recording:
    puzzle: str
    facelets: str
    alg: str
    steps: tuple[Step, ...]

    def start_state(self):
        return puzzle_named(self.puzzle).parse_facelets(self.facelets)

    def start_moves(self):
        """The sequence of the start position when it still gives it, else none."""
        puzzle = puzzle_named(self.puzzle)
        try:
            moves = parse(self.alg).flatten()
            if puzzle.apply(puzzle.identity(), moves) == self.start_state():
                return moves
        except ValueError:
            pass
        return []


def read_recording(path: str) -> Recording:
    """The recording in a file; RecordingError says what is wrong (OSError passes through).
    Read through the bounded reader: a device, a FIFO or a file too large is refused at once."""
    try:
        text = read_small_file(path, MAX_RECORDING_BYTES).decode("utf-8")
    except FileProblem as e:
        raise RecordingError(f"{path}: {e}: not a cubelab recording") from None
    except UnicodeDecodeError as e:
        raise RecordingError(f"{path}: not UTF-8 text (byte {e.start + 1}): not a cubelab "
                             "recording") from None
    lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if not lines:
        raise RecordingError(f"{path} is empty: not a cubelab recording")
    records = []
    for n, line in lines:
        if line.count("[") + line.count("{") > _MAX_BRACKETS:
            # refused before json.loads would recurse that deep (saves.py says why)
            raise RecordingError(f"{path}: line {n}: nested too deeply for a recording")
        try:
            records.append((n, json.loads(line)))
        except json.JSONDecodeError as e:
            raise RecordingError(f"{path}: line {n}: not JSON Lines ({e.msg})") from None
    n, head = records[0]
    if not isinstance(head, dict) or head.get("cubelab_recording") != FORMAT:
        raise RecordingError(f"{path}: line 1 is not a cubelab recording header")
    steps = []
    try:
        puzzle_named(head["puzzle"]).parse_facelets(head["facelets"])
        last = 0.0
        for n, r in records[1:]:
            step = Step(float(r["t"]), str(r["line"]), str(r["puzzle"]), str(r["facelets"]),
                        bool(r.get("error", False)))
            puzzle_named(step.puzzle)
            if not math.isfinite(step.t) or step.t < last:
                raise ValueError("times go backwards" if step.t < last else "no time")
            last = step.t
            steps.append(step)
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise RecordingError(f"{path}: line {n}: {e}") from None
    return Recording(head["puzzle"], head["facelets"], head.get("alg", ""), tuple(steps))


# ---------------------------------------------------------------- the `:` command

TABLE = CommandTable()


@TABLE.command("record", "FILE|stop", "record the session (each line, its time, the "
               "position) to FILE for cubelab replay; :record stop ends it")
def _record(session, args, rest) -> Outcome:
    recorder = session.recorder
    if rest.lower() in ("stop", "off", "") and recorder is not None:
        session.recorder = None
        lines = recorder.close()
        return Outcome(f"recording stopped: {lines} line{'s' if lines != 1 else ''} in "
                       f"{recorder.path} (cubelab replay {recorder.path})")
    if not rest or rest.lower() in ("stop", "off"):
        return Outcome("not recording: :record FILE starts", error=True)
    if recorder is not None:
        return Outcome(f"already recording to {recorder.path} (:record stop first)", error=True)
    path = Path(rest).expanduser()
    try:
        session.recorder = Recorder(path, session)
    except FileProblem as e:
        return Outcome(f"cannot record to {rest}: {e}", error=True)
    except OSError as e:
        return Outcome(f"cannot record to {rest}: {e.strerror}", error=True)
    return Outcome(f"recording to {path} (:record stop ends it)")
