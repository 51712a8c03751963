"""`cubelab replay FILE`: play a recorded session back in the workbench, with its timing.

Each recorded line is executed again at its time (divided by --speed); when the position it
gives differs from the recorded one (a `:scramble` without a seed, a solver that found another
solution) the recorded position is put in its place, so the replay always shows what the
recording saw. With --json, or when stdout is not a terminal, the lines are replayed without
the workbench and without waiting, one JSON record (or text line) each.
"""

from __future__ import annotations

import json
import sys

from .errors import InputError


def register(sub) -> None:
    p = sub.add_parser("replay", help="play back a session recorded with :record")
    p.add_argument("file", metavar="FILE", help="a recording written by :record FILE")
    p.add_argument("--speed", type=float, default=1.0, metavar="X",
                   help="play X times as fast (default %(default)s; 0.5 is half speed)")
    p.add_argument("--json", action="store_true",
                   help="replay without the workbench: one JSON record per line, at once")
    p.set_defaults(func=run)


def _load(path: str):
    from .recording import RecordingError, read_recording
    try:
        return read_recording(path)
    except RecordingError as e:
        raise InputError(str(e)) from None
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}") from None


def start_session(recording, session) -> None:
    """Put the recording's start position in the session."""
    session.set_position(recording.start_state(), "replay: start", recording.start_moves(),
                         puzzle=recording.puzzle)


def replay_step(session, step):
    """Execute one recorded line; (outcome, whether the position matched the recording). A
    position that differs is replaced by the recorded one (one more undo step)."""
    from cubelab.cube.puzzles import puzzle_named
    outcome = session.execute(step.line)
    puzzle = puzzle_named(step.puzzle)
    matched = (session.puzzle is puzzle and puzzle.to_facelets(session.state) == step.facelets)
    if not matched:
        session.set_position(puzzle.parse_facelets(step.facelets), f"{step.line} (as recorded)",
                             puzzle=puzzle.name)
    return outcome, matched


def run(args) -> int:
    if not args.speed > 0:
        raise InputError("--speed must be positive")
    recording = _load(args.file)
    if args.json or not sys.stdout.isatty():
        return _replay_plain(recording, args.json)
    replay_app(recording, args.speed, args.file).run()
    return 0


def replay_app(recording, speed: float, name: str, **app_options):
    """The workbench that plays `recording` at `speed` once it is ready."""
    from .app import CubeLabApp

    class ReplayApp(CubeLabApp):
        """The workbench, playing the recording's lines at their times."""

        def on_ready(self) -> None:
            start_session(recording, self.session)
            self.refresh_position()
            self.say(f"replaying {name}: {len(recording.steps)} lines")
            for number, step in enumerate(recording.steps, start=1):
                self.set_timer(step.t / speed + 0.01,
                               lambda number=number, step=step: self._play(number, step))

        def _play(self, number: int, step) -> None:
            outcome, matched = replay_step(self.session, step)
            self.handle(outcome)
            note = "" if matched else " (position as recorded)"
            self.say(f"replay {number}/{len(recording.steps)}: {step.line}{note}"
                     + (" · replay finished" if number == len(recording.steps) else ""),
                     error=outcome.error)
            self.refresh_position()

    return ReplayApp(puzzle=recording.puzzle, **app_options)


def _replay_plain(recording, as_json: bool) -> int:
    from cubelab.solvers import REGISTRY
    from .session import Session
    session = Session(REGISTRY, puzzle=recording.puzzle)
    start_session(recording, session)
    for step in recording.steps:
        outcome, matched = replay_step(session, step)
        record = {"t": step.t, "line": step.line, "message": outcome.message,
                  "error": outcome.error, "facelets": step.facelets, "matched": matched}
        if as_json:
            print(json.dumps(record), flush=True)
        else:
            print(f"{step.t:8.2f}  {step.line}" + ("" if matched else "  (position as recorded)"))
    return 0
