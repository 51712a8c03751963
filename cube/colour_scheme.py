"""The cube's colour schemes: which colour each face shows, for every picture of the cube.

A scheme gives each face (in the facelet order U R F D L B) a colour: its name, the exact
xterm-256 colour the terminal pictures use (so truecolor and 256-colour terminals look alike),
the RGB colour of the SVG picture, and the key that paints it. The net, the 3-D view, the SVG
picture and paint mode all take a scheme; facelet strings keep the face letters URFDLB
whatever the scheme (a scheme changes how the cube looks, never how positions are written).

Two standard schemes: the Western one (also called BOY, or "minus yellow": each colour plus or
minus yellow gives the opposite one) - white U opposite yellow D, green F opposite blue B, red R
opposite orange L - and the Japanese one, the scheme of the first mass-produced cubes and
still used by some cubers: the Western scheme with yellow and blue exchanged, so white U is
opposite blue D and green F opposite yellow B, with red R and orange L as before. Any other
six colours make a scheme too (`scheme_from_text`: names or #rrggbb).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .pieces import FACES

if TYPE_CHECKING:
    from rich.style import Style
# rich's colours and styles are imported where a style is built: `cubelab facts` writes the
# net's colours without them (sgr below), and the module loads with the model.

_NAMED: dict[str, tuple[str, int | None]] = {
    "white": ("#ffffff", 231), "red": ("#d00000", 196), "green": ("#00a040", 40),
    "yellow": ("#ffd500", 226), "orange": ("#ff8000", 208), "blue": ("#0040d0", 21),
    "purple": ("#8000c0", None), "pink": ("#ff80c0", None), "black": ("#202020", None),
    "grey": ("#909090", None), "brown": ("#8b4513", None), "cyan": ("#00c0d0", None),
    "magenta": ("#d000d0", None), "lime": ("#a0ff20", None),
}
"""Colour names users may give -> (SVG colour, xterm-256 colour). The six colours of the
standard schemes have their xterm colours chosen by eye; the others take the nearest."""

_DARK, _LIGHT = 16, 231
"""xterm-256 black and white: the letter colours on a sticker."""
UNPAINTED = 240
"""The xterm-256 grey of a sticker not painted yet."""


def _xterm_rgb(number: int) -> tuple[int, int, int]:
    from rich.color import Color
    triplet = Color.from_ansi(number).get_truecolor()
    return triplet.red, triplet.green, triplet.blue


def _luminance(rgb: tuple[int, int, int]) -> float:
    """Relative luminance (WCAG) of an sRGB colour."""
    def linear(c: int) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def letter_colour(xterm: int) -> int:
    """Black or white, whichever reads better on the xterm colour (the larger WCAG contrast)."""
    lum = _luminance(_xterm_rgb(xterm))
    return _DARK if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else _LIGHT


@dataclass(frozen=True)
class Colour:
    """One sticker colour: its name, SVG colour, xterm-256 colour and paint key."""

    name: str
    hex: str
    xterm: int
    key: str
    """The letter that paints it (the first of its name; '' when another colour has it)."""


def colour_named(text: str, key: str = "") -> Colour:
    """A Colour from a name ('orange') or '#rrggbb'; ValueError saying what is wrong."""
    word = text.strip().lower()
    if word in ("gray",):
        word = "grey"
    if word in _NAMED:
        hex_, xterm = _NAMED[word]
    elif len(word) == 7 and word[0] == "#" and all(c in "0123456789abcdef" for c in word[1:]):
        hex_, xterm = word, None
    else:
        raise ValueError(f"unknown colour {text!r} (a name such as {', '.join(list(_NAMED)[:6])}"
                         f", or #rrggbb)")
    if xterm is None:
        from rich.color import Color, ColorSystem
        xterm = Color.parse(hex_).downgrade(ColorSystem.EIGHT_BIT).number
    return Colour(word, hex_, int(xterm), key or (word[0].upper() if word[0].isalpha() else ""))


@dataclass(frozen=True)
class ColourScheme:
    """The colour of each face, in facelet order U R F D L B (`colours[face id]`)."""

    name: str
    colours: tuple[Colour, ...]

    def __post_init__(self):
        if len(self.colours) != 6:
            raise ValueError(f"a scheme gives six colours, not {len(self.colours)}")
        if len({c.xterm for c in self.colours}) != 6:
            names = [c.name for c in self.colours]
            raise ValueError("the six colours must differ on the screen: "
                             + ", ".join(f"{f} {n}" for f, n in zip(FACES, names)))

    def colour(self, face: int) -> Colour:
        return self.colours[face]

    def style(self, face: int, cursor: bool = False, plain_fg: bool = False) -> Style:
        """A sticker's style: its colour as background, a readable letter colour on top (dark
        on every colour with `plain_fg`, when no letter is drawn and the colour only draws the
        grid line), bold when under the cursor; grey for a sticker not painted (face -1)."""
        from rich.color import Color
        from rich.style import Style
        fg, xterm = self._colours(face, plain_fg)
        return Style(color=Color.from_ansi(fg), bgcolor=Color.from_ansi(xterm), bold=cursor)

    def sgr(self, face: int, cursor: bool = False, plain_fg: bool = False,
            underline: bool = False) -> str:
        """The parameters of the escape sequence (ESC [ ... m) that `style` (plus underline)
        writes on a 256-colour or truecolor terminal, made without rich: its order, the
        attributes then the letter colour then the sticker's (every colour here is one of
        xterm's 240 above the 16 of the terminal's own palette, written the same way on both
        kinds of terminal)."""
        fg, xterm = self._colours(face, plain_fg)
        assert fg >= 16 and xterm >= 16, (fg, xterm)
        attributes = ("1;" if cursor else "") + ("4;" if underline else "")
        return f"{attributes}38;5;{fg};48;5;{xterm}"

    def _colours(self, face: int, plain_fg: bool) -> tuple[int, int]:
        """(letter colour, sticker colour) of a face's stickers, xterm-256."""
        xterm = UNPAINTED if face < 0 else self.colours[face].xterm
        return (_DARK if plain_fg else letter_colour(xterm)), xterm

    def letter(self, face: int) -> str:
        """The colour's letter for the net's colour letters (the face letter when two colours
        share an initial, so no two faces ever show the same letter)."""
        keys = self.keys()
        return keys[face].upper() if keys[face] else FACES[face]

    def keys(self) -> tuple[str, ...]:
        """Each face's colour key, '' where two colours would share one."""
        initials = [c.key.lower() for c in self.colours]
        return tuple(k if k and initials.count(k) == 1 else "" for k in initials)

    def paint_keys(self) -> dict[str, int]:
        """Typed character -> the face whose colour it paints: the colours' initials first,
        then the face letters U R F D L B no colour took, then the digits 1-6 (face order)."""
        out: dict[str, int] = {}
        for face, key in enumerate(self.keys()):
            if key:
                out[key] = face
        for face, letter in enumerate(FACES.lower()):
            out.setdefault(letter, face)
            out[str(face + 1)] = face
        return out

    def describe(self) -> str:
        """'western: U white, R red, F green, D yellow, L orange, B blue'."""
        return f"{self.name}: " + ", ".join(f"{f} {c.name}" for f, c in zip(FACES, self.colours))


def _scheme(name: str, words: str) -> ColourScheme:
    return ColourScheme(name, tuple(colour_named(w) for w in words.split()))


WESTERN = _scheme("western", "white red green yellow orange blue")
"""The standard scheme (U white, R red, F green, D yellow, L orange, B blue): the default."""
JAPANESE = _scheme("japanese", "white red green blue orange yellow")
"""U white, R red, F green, D blue, L orange, B yellow: yellow and blue exchanged."""

SCHEMES = {s.name: s for s in (WESTERN, JAPANESE)}
"""The named schemes, by the word users type."""


def scheme_from_text(text: str) -> ColourScheme:
    """The scheme a user names: 'western', 'japanese', six colours in the order U R F D L B
    ('white red green yellow orange blue'), or some faces given by letter over the Western
    scheme ('D=blue B=yellow', 'U=#f0f0f0'). ValueError with a one-line reason."""
    words = text.replace(",", " ").split()
    if not words:
        raise ValueError("name a scheme (" + ", ".join(SCHEMES) + "), or give six colours "
                         "for U R F D L B")
    if len(words) == 1 and words[0].lower() in SCHEMES:
        return SCHEMES[words[0].lower()]
    if all("=" in w for w in words):
        colours = list(WESTERN.colours)
        for word in words:
            face, _, colour = word.partition("=")
            if face.upper() not in FACES or len(face) != 1:
                raise ValueError(f"{word!r}: put a face letter (U R F D L B) before '='")
            colours[FACES.index(face.upper())] = colour_named(colour)
        return ColourScheme("custom", tuple(colours))
    if len(words) != 6:
        raise ValueError(f"give six colours for U R F D L B (got {len(words)}), a scheme "
                         f"name ({', '.join(SCHEMES)}), or FACE=COLOUR words")
    return ColourScheme("custom", tuple(colour_named(w) for w in words))


if __name__ == "__main__":
    from rich.console import Console
    from rich.text import Text
    for scheme in SCHEMES.values():
        line = Text(f"{scheme.name:9}")
        for face in range(6):
            line.append(f" {FACES[face]} ", scheme.style(face))
        Console().print(line, scheme.describe())
