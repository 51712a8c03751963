"""The `:` commands that choose how the cube looks: the view, how the 3-D view holds the cube,
the colour scheme, animation and the size of the net's stickers.

Each sets a choice the session keeps (session.py: `view`, `orientation`, `scheme`, `animate`,
`sticker_size`) and the front ends draw from; a settings file can set the same choices.
"""

from __future__ import annotations

from cubelab.cube.colour_scheme import SCHEMES, scheme_from_text
from cubelab.cube.holding import orientation_named, other_side, turned

from .command_table import CommandTable
from .records import Outcome

TABLE = CommandTable()

TURN_WORDS = ("left", "right", "up", "down", "over")
"""What `:view` takes to turn the 3-D picture (over: to the three faces it hides)."""


def describe_view(session) -> str:
    if session.view == "net":
        return "the net"
    top, front, right = session.orientation
    return f"3-D, {top} on top, {front} in front, {right} on the right"


@TABLE.command("view", "[net|3d|back|FACES|TURN]",
               "draw the cube as the net or in 3-D (3d: as last held, U F R at first; back: "
               "D L B; FACES: top and front, e.g. DB; TURN: left, right, up, down or over "
               "turns the picture); alone, the net, 3-D, its other side in turn",
               complete=lambda session, words: ["net", "3d", "back", *TURN_WORDS])
def _view(session, args, rest) -> Outcome:
    if len(args) > 1:
        return Outcome("give one of net, 3d, back, two faces (e.g. UF), or left, right, up, "
                       "down, over", error=True)
    if not args:
        # F8: the net, the 3-D view as last held, its other side, the net again
        if session.view == "net":
            session.view, session.view_flipped = "3d", False
        elif not session.view_flipped:
            session.orientation, session.view_flipped = other_side(session.orientation), True
        else:
            session.view = "net"
        return Outcome(f"view: {describe_view(session)}", changed=True)
    word = args[0].lower()
    if word == "net":
        session.view = "net"
    elif word in TURN_WORDS:
        session.view, session.orientation = "3d", turned(session.orientation, word)
    elif word == "3d":
        session.view, session.view_flipped = "3d", False
    else:
        try:
            orientation = orientation_named(word)
        except ValueError:
            return Outcome("give one of net, 3d, back, two faces (e.g. UF), or left, right, "
                           "up, down, over", error=True)
        session.view, session.orientation = "3d", orientation
    return Outcome(f"view: {describe_view(session)}", changed=True)


@TABLE.command("scheme", "[western|japanese|6 colours|F=COLOUR ...]",
               "the colour scheme of the net, the 3-D view, SVG and paint mode (six colours "
               "for U R F D L B, names or #rrggbb); alone, the one in use",
               complete=lambda session, words: list(SCHEMES))
def _scheme(session, args, rest) -> Outcome:
    if not rest:
        return Outcome(f"colour scheme {session.scheme.describe()} (choose: "
                       f"{', '.join(SCHEMES)}, or six colours for U R F D L B)")
    try:
        session.scheme = scheme_from_text(rest)
    except ValueError as e:
        return Outcome(str(e), error=True)
    return Outcome(f"colour scheme {session.scheme.describe()}", changed=True)


@TABLE.command("animate", "[on|off]", "show moves turning in the 3-D view (alone: say which)",
               complete=lambda session, words: ["on", "off"])
def _animate(session, args, rest) -> Outcome:
    if not args:
        return Outcome(f"animation {'on' if session.animate else 'off'} (:animate on|off)")
    word = args[0].lower()
    if len(args) != 1 or word not in ("on", "off"):
        return Outcome("give on or off", error=True)
    session.animate = word == "on"
    return Outcome(f"animation {word}" + (" (moves turn in the 3-D view)" if
                                          session.animate and session.view == "net" else ""),
                   changed=True)


STICKER_SIZES = {"auto": None, "1": 1, "2": 2, "small": 1, "large": 2}


@TABLE.command("stickers", "[auto|1|2]",
               "the net's sticker size: 1 (two cells), 2 (four cells by two lines), auto (as "
               "the terminal allows)", complete=lambda session, words: ["auto", "1", "2"])
def _stickers(session, args, rest) -> Outcome:
    if not args:
        size = session.sticker_size
        return Outcome(f"stickers {'auto' if size is None else size} (:stickers auto|1|2)")
    if len(args) != 1 or args[0].lower() not in STICKER_SIZES:
        return Outcome("give auto, 1 or 2", error=True)
    session.sticker_size = STICKER_SIZES[args[0].lower()]
    return Outcome(f"stickers {args[0].lower()}", changed=True)



def look_from_settings(session, settings) -> list[str]:
    """Give the session the look the settings file chose (colour scheme, memo letters and
    buffers); returns what could not be taken (one line each), the session's defaults kept."""
    from cubelab.cube.letters import LetterScheme, MemoOptions
    problems = []
    scheme = settings.colour_scheme()
    try:
        session.scheme = scheme_from_text(scheme if isinstance(scheme, str) else " ".join(scheme))
    except ValueError as e:
        problems.append(f"colours: {e}")
    chosen = settings.letter_scheme()
    try:
        letters = MemoOptions().letters
        if chosen["corners"] != letters.corners or chosen["edges"] != letters.edges:
            letters = LetterScheme("custom", chosen["corners"], chosen["edges"])
        session.memo_options = MemoOptions(letters, chosen["corner_buffer"],
                                           chosen["edge_buffer"])
    except ValueError as e:
        problems.append(f"letters: {e}")
    return problems
