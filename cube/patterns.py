"""The gallery of named patterns: each with an alg that makes it and, where proven, its optimal length.

A pattern is a position cubers make for its look. Each entry keeps the shortest alg we know and
the proven optimal length in HTM when there is a proof: a search of every shorter sequence
(cubelab's algorithm search, `tests/test_patterns.py` re-runs it for the short ones), or a
published proof (the superflip: Michael Reid, 1995). `None` says no proof is known to cubelab,
and the alg is then only the best it knows (the shortest of the classic alg and what cubelab's
two-phase solver found in 20 seconds). The symmetry shown beside a pattern is computed
from the position (position_symmetry.py), never stored.
"""

from __future__ import annotations

from dataclasses import dataclass

from .moves import alg_state
from .state import CubeState


@dataclass(frozen=True)
class Pattern:
    name: str
    alg: str
    optimal_htm: int | None
    """The proven optimal length in HTM, or None when cubelab knows no proof."""
    proof: str
    """How the optimal length is known ('' when it is not)."""
    looks: str
    """What the pattern looks like, in a few words."""

    def state(self) -> CubeState:
        return alg_state(self.alg)

    def length(self) -> int:
        return len(self.alg.split())


_SEARCHED = "no shorter sequence exists (exhaustive search)"
_TWO_PHASE = "two-phase search proved no shorter solution"

PATTERNS: tuple[Pattern, ...] = (
    Pattern("checkerboard", "U2 D2 F2 B2 L2 R2", 6, _SEARCHED,
            "every face a checkerboard of its own and the opposite colour (pons asinorum)"),
    Pattern("four-spots", "F2 B2 U D' R2 L2 U D'", 8, _SEARCHED,
            "the four side faces show the opposite colour in the centre"),
    Pattern("six-spots", "U D' R L' F B' U D'", 8, _SEARCHED,
            "every face shows another colour in the centre"),
    Pattern("tetris", "L R F B U' D' L' R'", 8, _SEARCHED,
            "interlocking blocks of two colours on every face"),
    Pattern("crosses", "U F B' L2 U2 L2 F' B U2 L2 U", None, "",
            "a cross of each colour on its face, corners of the opposite colour"),
    Pattern("cube-in-a-cube", "F L F U' R U F2 L2 U' L' B D' B' L2 U", None, "",
            "a 2x2x2 cube of other colours sits in the UFR corner"),
    Pattern("cube-in-a-cube-in-a-cube", "F' U B' R' U F2 U2 F' U' F U2 D B' D' R2 B2 U'",
            None, "", "a 1x1x1 cube in a 2x2x2 cube in the UFR corner"),
    Pattern("anaconda", "L U B' U' R L' B R' F B' D R D' F'", None, "",
            "a band of two colours winding round the cube"),
    Pattern("python", "F2 R' B' U R' L F' L F' B D' R B L2", None, "",
            "a thicker band winding round the cube"),
    Pattern("twister", "F R' U L F' L' F U' R U L' U' L F'", None, "",
            "stripes twisting about the UFR-DBL diagonal"),
    Pattern("exchanged-peaks", "F2 R2 D R2 U D F2 D' R' D' F L2 F' D R U'", None, "",
            "two peaks of colour exchanged between opposite corners"),
    Pattern("superflip", "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2", 20,
            "Michael Reid (1995): the superflip needs 20 face turns",
            "every edge flipped in place, everything else solved"),
    Pattern("superflip-checkerboard", "R L' F U' D L2 F2 L' F' B R2 L2 D' R2 U' R2 L2 U' F2 U'",
            None, "", "the checkerboard with every edge flipped"),
)
"""The gallery, simplest first."""

BY_NAME = {p.name: p for p in PATTERNS}


def pattern_named(text: str) -> Pattern:
    """The pattern a user named: its name, any case, spaces or underscores for the hyphens, or a
    unique prefix; KeyError says which names there are."""
    key = "-".join(text.strip().lower().replace("_", " ").replace("-", " ").split())
    if key in BY_NAME:
        return BY_NAME[key]
    matches = [name for name in BY_NAME if name.startswith(key)] if key else []
    if len(matches) == 1:
        return BY_NAME[matches[0]]
    names = matches or list(BY_NAME)
    raise KeyError(f"no pattern named {text.strip()!r}" + (" (ambiguous)" if matches else "")
                   + f"; choose from {', '.join(names)}")


def optimal_text(pattern: Pattern) -> str:
    """'optimal: 20 HTM' or what is known instead."""
    if pattern.optimal_htm is None:
        return f"best known {pattern.length()} HTM (optimal not proven here)"
    return f"optimal {pattern.optimal_htm} HTM"


if __name__ == "__main__":
    from .position_symmetry import symmetry_record
    for p in PATTERNS:
        print(f"{p.name:26} {symmetry_record(p.state())['symmetry']:8} {optimal_text(p)}")
