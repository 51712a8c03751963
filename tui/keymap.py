"""Which key does what on the focused net: the QWERTY keyboard cube, paint colours, playback keys.

The keyboard cube's map is the default of its bindings (bindings.py builds one binding per
move from it, which the settings file can remap); the paint and cursor keys are read here.

The move keys follow the mapping of cubing.js's 3x3x3 keyboard (the same hands as csTimer's
virtual cube): the right hand turns the right side of the cube, the left hand the left side,
index fingers do U/U', and so on. Face keys: I/K R R', J/F U U', H/G F F', D/E L L', S/L D D',
W/O B B'; wide turns U/M r r', C/R l l', X/, d d'; slices Z/. M', B M; rotations T/Y x,
V/N x', ;/A y y', P/Q z z'.
"""

from __future__ import annotations

from cubelab.cube.pieces import FACES

KEY_MOVES: dict[str, str] = {
    "i": "R", "k": "R'",
    "j": "U", "f": "U'",
    "h": "F", "g": "F'",
    "d": "L", "e": "L'",
    "s": "D", "l": "D'",
    "w": "B", "o": "B'",
    "u": "r", "m": "r'",
    "c": "l", "r": "l'",
    "x": "d", ",": "d'",
    "z": "M'", ".": "M'", "b": "M",
    "t": "x", "y": "x", "v": "x'", "n": "x'",
    ";": "y", "a": "y'",
    "p": "z", "q": "z'",
}
"""Typed character (lower case) -> the move it performs on the keyboard cube."""

PAINT_KEYS: dict[str, int] = {}
"""Typed character -> face id of the colour it paints: colour letters W R G Y O B, face letters
U R F D L B (they agree where they overlap: R is red and B blue either way), digits 1-6."""
for _face, (_colour_letter, _face_letter) in enumerate(zip("wrgyob", FACES.lower())):
    PAINT_KEYS[_colour_letter] = _face
    PAINT_KEYS[_face_letter] = _face
    PAINT_KEYS[str(_face + 1)] = _face

GREY = -1
"""The paint value of a grey sticker (unknown, `*` in facelets), as the net draws it."""
GREY_KEYS = ("*", "?", "0")
"""Typed characters that paint a sticker grey: the facelet strings' `*` and `?`, and 0 beside
the colours' 1-6 (so a masked facelet string pasted or typed paints as it reads)."""
GREY_WORDS = "* ? 0"
"""The grey keys as the paint messages and the help name them."""

CURSOR_KEYS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
"""Arrow key -> (row, column) step of the paint cursor over the net."""


def move_for_key(character: str | None) -> str | None:
    """The move a typed character turns on the keyboard cube, or None."""
    if not character:
        return None
    return KEY_MOVES.get(character.lower())


if __name__ == "__main__":
    for key, move in KEY_MOVES.items():
        print(f"{key.upper():3} {move}")
