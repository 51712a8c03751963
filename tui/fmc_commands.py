"""`:fmc`: the fewest-moves steps one at a time, in the workbench and the REPL.

    :fmc start                      the position is the scramble (any :fmc STEP starts too)
    :fmc eo|dr|htr|fin|ls|2x2x2|2x2x3|f2l-1 [--axis ..] [--niss never|before|always] [-n N]
                                    search the step from where the steps applied leave the
                                    cube; its candidates are listed as they are found
    :fmc apply K                    candidate K is the next step (Enter on its row too)
    :fmc undo                       back to the step before
    :fmc insert                     the steps so far as a skeleton (after ls, say): where
                                    3-cycle and parity algs go to finish it, marked in it
    :fmc inverse                    show the inverse side (the inverse scramble), again: back
    :fmc back                       the chain's position on the net again (after other moves)
    :fmc                            the steps so far, FMC notation, with their labels
    :fmc done | off                 leave (the position stays)

The steps, NISS and cases are solvers/fmc's (`cubelab fmc` runs the same ones as a pipeline);
the state of the attempt is fmc_session.FmcState, kept on the session as `session.fmc`.
"""

from __future__ import annotations

from .command_table import CommandTable
from .records import Outcome

TABLE = CommandTable()

STEPS = ("eo", "dr", "htr", "fin", "ls", "2x2x2", "2x2x3", "f2l-1")
WORDS = ("start", *STEPS, "apply", "undo", "insert", "inverse", "back", "done", "off")
USAGE = ("usage: :fmc [start | eo|dr|htr|fin|ls|2x2x2|2x2x3|f2l-1 [--axis fb,ud,rl|any] [--niss never|before|always] "
         "[-n N] | apply K | undo | insert | inverse | back | done]")


def _complete(session, words) -> list[str]:
    if not words:
        return list(WORDS)
    if words[0] in STEPS:
        if words[-1] == "--axis":
            return ["fb", "ud", "rl", "any"]
        if words[-1] == "--niss":
            return ["never", "before", "always"]
        return ["--axis", "--niss", "-n"]
    return []


@TABLE.command("fmc", "[start|eo|dr|htr|fin|ls|2x2x2|2x2x3|f2l-1|apply K|undo|insert|inverse|back|"
                      "done]",
               "fewest moves step by step: start takes the position as the scramble; eo, dr, "
               "htr, fin [--axis fb,ud,rl|any] [--niss never|before|always] [-n N] list a "
               "step's candidates as they are found (ls: leave slice; 2x2x2, 2x2x3, f2l-1: "
               "blocks, each keeping the one before); apply K (or Enter on a row) makes one "
               "the next step; undo goes back a step; insert finishes the steps so far (a "
               "skeleton) with insertions; inverse shows the inverse side; alone, "
               "the steps so far; done leaves", complete=_complete)
def _fmc(session, args, rest) -> Outcome:
    if session.puzzle.name != "3x3":
        return Outcome(f"FMC steps are of the 3x3x3, not the {session.puzzle.title}",
                       error=True)
    if not args:
        if session.fmc is None:
            return Outcome("no FMC attempt: :fmc start takes this position as the scramble, "
                           ":fmc eo lists EOs")
        return Outcome(session.fmc.text())
    word = args[0].lower()
    if word == "start":
        if len(args) > 1:
            return Outcome(f":fmc start takes nothing after it, not {args[1]!r}", error=True)
        return _start(session, "FMC started: this position is the scramble · :fmc eo lists "
                               "EOs (--axis, --niss, -n)")
    if word in STEPS:
        return _step(session, word, args[1:])
    if word in ("done", "off"):
        if session.fmc is None:
            return Outcome("no FMC attempt to leave")
        text = session.fmc.total_line()
        session.fmc = None
        return Outcome(f"left FMC ({text})", changed=True)
    fmc = session.fmc
    if fmc is None:
        return Outcome(f"no FMC attempt yet: :fmc start (then :fmc eo, ...) before :fmc {word}",
                       error=True)
    if word == "apply":
        if len(args) != 2 or not args[1].isdigit():
            return Outcome("give a candidate number: :fmc apply K", error=True)
        return apply_candidate(session, int(args[1]) - 1)
    if word == "undo":
        return _undo(session)
    if word == "insert":
        if len(args) > 1:
            return Outcome(f":fmc insert takes nothing after it, not {args[1]!r}", error=True)
        return _insert(session)
    if word == "inverse":
        return toggle_inverse(session)
    if word == "back":
        if session.state == fmc.position:
            return Outcome("the net already shows the FMC position")
        _show(session, ":fmc back")
        return Outcome(f"back to the FMC position ({fmc.total_line()})", changed=True)
    return Outcome(f"unknown :fmc {args[0]!r}; {USAGE}", error=True)


def _start(session, message: str) -> Outcome:
    from .fmc_session import FmcState
    if session.mask is not None:
        return Outcome("FMC needs a whole position, not one with grey stickers", error=True)
    reason = session.puzzle.unreachable(session.state)
    if reason:
        return Outcome(f"no FMC from this position ({reason})", error=True)
    state = session.state
    moves = tuple(session.moves)
    # the session's moves name the scramble only when they make it from solved
    known = session.puzzle.apply(session.puzzle.identity(), moves) == state
    session.fmc = FmcState(state, moves if known else None)
    return Outcome(message, changed=True)


def _insert(session) -> Outcome:
    """The chain so far as a skeleton of the attempt's scramble, finished by insertions."""
    from cubelab.cube.moves import FACE_MOVES
    from .insert_commands import insertions_outcome
    chain = session.fmc.chain
    if not chain.steps:
        return Outcome("no steps yet: :fmc insert finishes the steps applied (after :fmc ls, "
                       "say) with insertions", error=True)
    out = insertions_outcome(session.fmc.scramble,
                             tuple(FACE_MOVES.index(m) for m in chain.final))
    if out.error:
        return out
    return Outcome(f"{session.fmc.one_line()}\n{out.message}")


def _off_chain(session) -> Outcome | None:
    """Refuse when the position has moved away from the chain's (moves typed, undo)."""
    if session.state != session.fmc.position:
        return Outcome("the position is not the FMC chain's any more (moves or undo since): "
                       ":fmc back returns to it, :fmc start begins again from here",
                       error=True)
    return None


def _read_options(words: list[str]) -> dict:
    """--axis, --niss, -n from the words after the step; ValueError with the reason."""
    from cubelab.solvers.fmc.niss import NISS_MODES
    from cubelab.solvers.fmc.steps import StepError, check_axes
    out: dict = {}
    i = 0
    while i < len(words):
        word = words[i].lower()
        name = {"--axis": "axis", "--axes": "axis", "--niss": "niss", "-n": "count",
                "--count": "count"}.get(word)
        if name is None:
            raise ValueError(f"unknown option {words[i]!r} (--axis, --niss, -n)")
        if i + 1 >= len(words):
            raise ValueError(f"{word} needs a value")
        value = words[i + 1]
        if name == "axis":
            try:
                out["axis"] = check_axes(value, "--axis")
            except StepError as e:
                raise ValueError(str(e)) from None
        elif name == "niss":
            if value.lower() not in NISS_MODES:
                raise ValueError(f"--niss: unknown mode {value!r} (choose "
                                 f"{', '.join(NISS_MODES)})")
            out["niss"] = value.lower()
        else:
            if not value.isdigit() or not 1 <= int(value) <= 100:
                raise ValueError(f"-n: give a number of candidates from 1 to 100, not {value!r}")
            out["count"] = int(value)
        i += 2
    return out


def _step(session, kind: str, words: list[str]) -> Outcome:
    from cubelab.solvers.fmc.pipeline import DEFAULT_NISS
    from cubelab.solvers.fmc.steps import (AXES, LABELS, StepError, check_steps, choices,
                                           detect_previous)
    from .fmc_session import DEFAULT_COUNT, FmcStepRequest
    try:
        options = _read_options(words)
    except ValueError as e:
        return Outcome(f":fmc {kind}: {e}", error=True)
    if "axis" in options and kind in ("htr", "fin", "2x2x2", "2x2x3", "f2l-1"):
        return Outcome(f":fmc {kind}: {LABELS[kind]} keeps the DR's axis (no --axis)",
                       error=True)
    started = ""
    if session.fmc is None:
        refused = _start(session, "")
        if refused.error:
            return refused
        started = "FMC started from this position · "
    else:
        refused = _off_chain(session)
        if refused:
            return refused
    fmc = session.fmc
    chain = fmc.chain
    try:
        check_steps([s.choice.kind for s in chain.steps] + [kind])
    except StepError as e:
        done = ", ".join(s.choice.label for s in chain.steps)
        return Outcome(f":fmc {kind}: {e} (done: {done}; :fmc undo goes back)", error=True)
    previous = dict(chain.previous)
    need = {"htr": ("dr",), "fin": ("htr", "dr"), "ls": ("htr", "dr")}.get(kind, ())
    if (kind in ("dr", "2x2x3", "f2l-1") and not chain.steps) or \
            (need and not any(k in previous for k in need)):
        # no step of this attempt before it: what the position already is (an EO, a DR)
        try:
            previous = {**detect_previous(chain.position, kind), **previous}
        except StepError:
            first = "a DR: :fmc dr first" if kind == "htr" else \
                "an HTR or a DR: :fmc htr (or :fmc dr) first"
            return Outcome(f":fmc {kind}: {LABELS[kind]} follows {first} (the position "
                           "is not there yet)", error=True)
    axes = options.get("axis", () if kind == "ls" else AXES)
    found = choices(kind, previous, tuple(axes))
    if not found:
        return Outcome(f":fmc {kind}: DR on {axes[0]} cannot follow an EO on "
                       f"{previous.get('eo')} (the DR keeps the EO: choose another axis)",
                       error=True)
    request = FmcStepRequest(kind, tuple(found), options.get("niss", DEFAULT_NISS[kind]),
                             options.get("count", DEFAULT_COUNT), chain)
    fmc.candidates, fmc.candidates_for, fmc.about = [], chain, request.describe()
    return Outcome(f"{started}searching {request.describe()} · Esc stops", request=request)


def apply_candidate(session, index: int) -> Outcome:
    """Make candidate `index` (0-based) of the last step searched the next step."""
    fmc = session.fmc
    if fmc is None:
        return Outcome("no FMC attempt: :fmc start", error=True)
    if fmc.candidates_for is not fmc.chain:
        return Outcome("no candidates for this step yet: :fmc eo (or dr, htr, fin) lists them",
                       error=True)
    if not fmc.candidates:
        return Outcome("no candidates (yet) for this step", error=True)
    if not 0 <= index < len(fmc.candidates):
        return Outcome(f"give a candidate number from 1 to {len(fmc.candidates)}", error=True)
    refused = _off_chain(session)
    if refused:
        return refused
    candidate = fmc.candidates[index]
    fmc.apply(candidate)
    _show(session, f":fmc {candidate.label}")
    step = candidate.chain.steps[-1]
    case = f" · leaves {step.case}" if step.case else ""
    return Outcome(f"{candidate.label}: {candidate.text} ({candidate.solution.length}/"
                   f"{candidate.total}){case}", changed=True)


def play_candidate(session, index: int) -> Outcome:
    """P on an FMC row: step through the candidate's normal-side moves from the position on
    the net (the inverse side's when `:fmc inverse` shows it, with its ^( ) moves); Enter then
    applies the whole step as Enter on the row does. A candidate with no moves on the side
    shown has nothing to play there: one line says so and where its moves go."""
    from .records import Playback
    fmc = session.fmc
    refused = None if fmc is None else _off_chain(session)
    if fmc is None or fmc.candidates_for is not fmc.chain or not fmc.candidates:
        return Outcome("no candidates for this step yet: :fmc eo (or dr, htr, fin) lists them",
                       error=True)
    if refused:
        return refused
    if not 0 <= index < len(fmc.candidates):
        return Outcome(f"give a candidate number from 1 to {len(fmc.candidates)}", error=True)
    candidate = fmc.candidates[index]
    sol = candidate.solution
    side, moves = ("inverse", sol.inverse) if fmc.inverse_view else ("normal", sol.normal)
    if not moves:
        other = "inverse scramble (^( ))" if side == "normal" else "normal scramble"
        return Outcome(f"{candidate.label} {candidate.text}: no moves on the {side} side (they "
                       f"are on the {other}): Enter applies it, F10 shows the other side",
                       error=True)
    start = fmc.position.inverse() if fmc.inverse_view else fmc.position
    session.playback = Playback(start, list(moves), 0, f"{candidate.label} {candidate.text}",
                                fmc_index=index)
    rest = (f"; its {'^( ) part is' if side == 'normal' else 'normal part is'} on the other "
            "side") if sol.normal and sol.inverse else ""
    return Outcome(f"playing {candidate.label} {candidate.text} on the {side} side{rest}: "
                   "left/right step, Enter applies the step, Esc leaves", changed=True)


def _show(session, label: str) -> None:
    """The chain's position becomes the session's (one undo step)."""
    fmc = session.fmc
    session.set_position(fmc.position, label, fmc.moves())


def _undo(session) -> Outcome:
    fmc = session.fmc
    refused = _off_chain(session)
    if refused:
        return refused
    dropped = fmc.undo()
    if dropped is None:
        return Outcome("no FMC step to undo (this is the scramble)", error=True)
    _show(session, ":fmc undo")
    label = dropped.steps[-1].choice.label
    return Outcome(f"undid {label} · {fmc.total_line()}", changed=True)


def toggle_inverse(session) -> Outcome:
    """Show the inverse side (or the normal side again)."""
    fmc = session.fmc
    if fmc is None:
        return Outcome("no FMC attempt: :fmc start, then :fmc inverse shows the inverse "
                       "scramble", error=True)
    fmc.inverse_view = not fmc.inverse_view
    if fmc.inverse_view:
        return Outcome("showing the inverse side: the inverse scramble with the steps done "
                       "on it (:fmc inverse again: the normal side)", changed=True)
    return Outcome("showing the normal side", changed=True)


def shown(session, state, moves):
    """What the net and the facts show for the session's (state, moves): the inverse side
    while `:fmc inverse` is on and the position is the chain's."""
    fmc = session.fmc
    if fmc is not None and fmc.inverse_view and state == fmc.position:
        from cubelab.cube.notation import invert_moves
        return state.inverse(), tuple(invert_moves(moves)), True
    return state, moves, False
