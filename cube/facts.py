"""Group facts of a position: order, parity, trace, reachability, morph, cycles, 3-cycles, centre.

One convention for whole-cube rotations, on both cubes: facts describe the position with the
cube turned back to its home holding, S R^-1 where R is the rotation S's centres show (on the
2x2x2, which has no centres, the rotation that brings DLB home: pocket.py). So a rotation at
the end of an alg changes no fact ("U x" has the facts of "U"), and pieces and slots are named
by the colours of the centres (U white, F green, ...), as facelet letters are. The net shows
the cube as it is held, and solvers solve it as held: their moves name faces where they are now.
"""

from __future__ import annotations

from dataclasses import dataclass

from .coords import coordinates
from .cycle_notation import cycles_text
from .notation import metric_lengths
from .position_symmetry import symmetry_record
from .pieces import CORNER_NAMES, EDGE_NAMES
from .state import CubeState, permutation_cycles, permutation_parity, rotation_with_centres
from .symmetry import morph


def turned_back(state: CubeState) -> CubeState:
    """The position with the whole cube turned back so its centres are home (S R^-1): what
    every fact here describes."""
    if state.centres_home():
        return state
    return state * rotation_with_centres(state.cc).inverse()


def trace(state: CubeState) -> tuple[int, int, int]:
    """The TIPE's trace: (corner and edge parities differ?, flip sum mod 2, twist sum mod 3).
    A homomorphism from the group of assemblies onto (Z/2)^2 x Z/3; zero exactly when reachable."""
    s = turned_back(state)
    return (
        permutation_parity(s.cp) ^ permutation_parity(s.ep),
        int(s.eo.sum()) & 1,
        int(s.co.sum()) % 3,
    )


def is_reachable(state: CubeState) -> bool:
    return trace(state) == (0, 0, 0)


def invariant_failures(state: CubeState) -> list[str]:
    """One phrase per failing invariant, empty for a reachable position."""
    swapped, flip, twist = trace(state)
    out = []
    if twist:
        out.append(f"one corner twisted (twist sum {twist} mod 3)")
    if flip:
        out.append("an edge flipped (flip sum odd)")
    if swapped:
        out.append("two pieces swapped (corner and edge parities differ)")
    return out


def unreachable_reason(state: CubeState) -> str | None:
    """'unreachable: ...' naming every failing invariant, or None when reachable."""
    failures = invariant_failures(state)
    return "unreachable: " + "; ".join(failures) if failures else None


def parity(state: CubeState) -> str:
    """'even' or 'odd': the sign of the corner permutation (equal to the edges' when reachable,
    and to the parity of the number of quarter turns that reach it)."""
    return "odd" if permutation_parity(turned_back(state).cp) else "even"


def corner_cycles(state: CubeState) -> str:
    """Cycles of corners in Singmaster's notation (cycle_notation.py), e.g. '(UFR ULF UBL URB)'
    or '(UFR BUR DBR FDR)' (each piece spelt from the face its travelling sticker lands on),
    '(UFR)- (URB)+' for corners twisted in place."""
    s = turned_back(state)
    return cycles_text(s.cp, s.co, "corner")


def edge_cycles(state: CubeState) -> str:
    """Cycles of edges, e.g. '(UR UF UL UB)' or '(UF RF DF LF)' (spelt as the corners are;
    '+' marks a cycle that brings its first edge home flipped, '(UF)+' an edge flipped in place)."""
    s = turned_back(state)
    return cycles_text(s.ep, s.eo, "edge")


def three_cycles(perm) -> list[tuple[int, int, int]] | None:
    """An even permutation (perm[i] = piece at slot i) as a product of 3-cycles (a b c), each
    moving the piece at a to b, b to c, c to a, applied in order; None for an odd permutation.
    Uses at most floor(moved/2) 3-cycles: (n-1)/2 per odd cycle, pairs of even cycles merged."""
    if permutation_parity(perm):
        return None
    current = [int(p) for p in perm]
    # Undo the permutation one 3-cycle at a time, then read the undo steps backwards. Each step
    # puts two pieces home while some cycle is longer than 2; only pairs of 2-cycles are left
    # after that, and those take two steps per pair.
    undo: list[tuple[int, int, int]] = []
    while True:
        wrong = [i for i in range(len(current)) if current[i] != i]
        if not wrong:
            break
        step = None
        for a in wrong:
            b = current.index(a)        # the slot holding the piece that belongs at a
            c = current.index(b)        # the slot holding the piece that belongs at b
            if c != a:
                step = (a, b, c)
                break
        if step is None:                # only 2-cycles: a <-> b, and c from another 2-cycle
            a = wrong[0]
            b = current.index(a)
            c = next(i for i in wrong if i not in (a, b))
            step = (a, b, c)
        a, b, c = step
        # move piece at b to a, piece at a to c, piece at c to b
        current[a], current[c], current[b] = current[b], current[a], current[c]
        undo.append((b, a, c))
    # Each undo step (x y z) sent x->y->z->x; the original permutation is their inverses in
    # reverse order, and the inverse of (x y z) is (z y x).
    return [(z, y, x) for (x, y, z) in reversed(undo)]


def three_cycles_text(state: CubeState) -> dict[str, str]:
    """The 3-cycle decompositions of both permutations, or why there is none."""
    s = turned_back(state)
    out = {}
    for key, perm, names in (("corners", s.cp, CORNER_NAMES), ("edges", s.ep, EDGE_NAMES)):
        cycles = three_cycles(perm)
        if cycles is None:
            out[key] = "odd permutation: not a product of 3-cycles (one quarter turn fixes that)"
        else:
            out[key] = " ".join("(" + " ".join(names[i] for i in c) + ")" for c in cycles)
    return out


def _assembly_generators() -> list[CubeState]:
    from .moves import FACE_MOVES, move_state
    gens = [move_state(m) for m in FACE_MOVES[::3]]
    ident8, ident12 = list(range(8)), list(range(12))
    gens.append(CubeState(ident8, [1] + [0] * 7, ident12, [0] * 12))           # one twist
    gens.append(CubeState(ident8, [0] * 8, ident12, [1] + [0] * 11))           # one flip
    gens.append(CubeState([1, 0] + ident8[2:], [0] * 8, ident12, [0] * 12))    # a corner swap
    gens.append(CubeState(ident8, [0] * 8, [1, 0] + ident12[2:], [0] * 12))    # an edge swap
    return gens


_GENERATORS: list[CubeState] = []


def in_centre(state: CubeState) -> bool:
    """Whether the position commutes with every assembly (for reachable positions: identity
    or the superflip)."""
    if not _GENERATORS:
        _GENERATORS.extend(_assembly_generators())
    s = turned_back(state)
    return all(s * g == g * s for g in _GENERATORS)


@dataclass(frozen=True)
class Facts:
    """Everything the facts panel and `cubelab facts` show about one position."""

    facelets: str
    order: int
    parity: str
    trace: tuple[int, int, int]
    reachable: bool
    invariants: tuple[str, ...]
    morph: int
    corner_cycles: str
    edge_cycles: str
    corner_3cycles: str
    edge_3cycles: str
    in_centre: bool
    coordinates: dict
    symmetry: dict
    """position_symmetry.symmetry_record: symmetry_order, symmetry (the type's name),
    antisymmetry_order, symmetry_elements."""

    def as_dict(self) -> dict:
        d = {
            "facelets": self.facelets,
            "order": self.order,
            "parity": self.parity,
            "trace": list(self.trace),
            "reachable": self.reachable,
            "invariants": list(self.invariants),
            "morph": self.morph,
            "corner_cycles": self.corner_cycles,
            "edge_cycles": self.edge_cycles,
            "corner_3cycles": self.corner_3cycles,
            "edge_3cycles": self.edge_3cycles,
            "in_centre": self.in_centre,
            "coordinates": dict(self.coordinates),
            **self.symmetry,
        }
        return d


def facts(state: CubeState) -> Facts:
    from .facelets import to_facelets
    s = turned_back(state)
    tr = trace(s)
    three = three_cycles_text(s)
    return Facts(
        facelets=to_facelets(state),
        order=s.order(),
        parity=parity(s),
        trace=tr,
        reachable=tr == (0, 0, 0),
        invariants=tuple(invariant_failures(s)),
        morph=morph(s),
        corner_cycles=corner_cycles(s),
        edge_cycles=edge_cycles(s),
        corner_3cycles=three["corners"],
        edge_3cycles=three["edges"],
        in_centre=in_centre(s),
        coordinates=coordinates(s),
        symmetry=symmetry_record(s),
    )


def alg_lengths(moves) -> dict[str, int]:
    return metric_lengths(moves)
