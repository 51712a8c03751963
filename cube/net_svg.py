"""The net of either cube as an SVG picture: the same layout as the terminal's net, to save or share.

Drawn from the stickers' colours (puzzles.py gives them for either cube) with net.py's layout
and the colour scheme's colours (Western by default), so the file shows exactly what the
workbench shows; plain SVG 1.1 that any browser opens.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from .colour_scheme import WESTERN, ColourScheme
from .net import net_position, side_of
from .puzzles import puzzle_of

STICKER = 30
"""Size of a sticker in SVG units."""
_GAP = 2


def net_svg(state, title: str = "", scheme: ColourScheme = WESTERN) -> str:
    """The SVG document of the state's net (a CubeState or a PocketState) in a colour scheme."""
    colours = puzzle_of(state).colours(state)
    n = side_of(len(colours))
    width, height = 4 * n * STICKER + 2 * _GAP, 3 * n * STICKER + 2 * _GAP
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}">']
    if title:
        out.append(f"<title>{escape(title)}</title>")
    for index, face in enumerate(colours):
        row, col = net_position(index, n)
        x, y = _GAP + col * STICKER, _GAP + row * STICKER
        out.append(f'<rect x="{x}" y="{y}" width="{STICKER}" height="{STICKER}" rx="3" '
                   f'fill="{scheme.colour(face).hex}" stroke="#000000" stroke-width="{_GAP}"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    from .moves import alg_state
    print(net_svg(alg_state("R U R' U'"), "R U R' U'"))
