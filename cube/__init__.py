"""The cube model: cubie states, facelets, notation, symmetry and group facts.

The public face of the package; the modules hold the parts (state, alg, notation, facelets,
moves, symmetry, facts, coords, random_states, positions, pocket for the 2x2x2, puzzles for
both cubes behind one interface, facts_report, net).
"""

from .alg import Move, NotationError
from .facelets import FaceletError, parse_facelets, parse_singmaster, to_facelets, to_singmaster
from .facts import Facts, facts, trace, unreachable_reason
from .moves import FACE_MOVES, alg_state, apply_moves, move_state
from .notation import format_moves, parse, parse_moves, simplify
from .random_states import random_assembly, random_state
from .state import CubeState
from .symmetry import morph, morph_class

__all__ = [
    "CubeState", "FACE_MOVES", "FaceletError", "Facts", "Move", "NotationError", "alg_state",
    "apply_moves", "facts", "format_moves", "morph", "morph_class", "move_state", "parse",
    "parse_facelets", "parse_moves", "parse_singmaster", "random_assembly", "random_state",
    "simplify", "to_facelets", "to_singmaster", "trace", "unreachable_reason",
]
