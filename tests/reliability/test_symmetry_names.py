"""The 33 symmetry types carry Cube Explorer's names, kind for kind (issue 37, item 8).

cubelab says it uses Cube Explorer's names; an audit found C2v(a1) and C2v(a2) swapped and D2,
D2h, D2d written (a)/(b) where Cube Explorer writes (face)/(edge). The check here does not
trust a list of example positions: it rebuilds Cube Explorer's numbering of the 48 symmetries
from its definition and reads each of its 33 type masks through it.

Cube Explorer numbers symmetry 16*a + 8*b + 2*c + d as the product S_URF3^a S_F2^b S_U4^c
S_LR2^d, applied left to right (its cubie multiplication: the left factor acts first), where
S_URF3 is the third turn about the URF-DLB diagonal carrying the F centre to U, U to R and R to
F; S_F2 the half turn about the F-B axis; S_U4 the quarter turn about the U-D axis carrying the
B centre to R, R to F, F to L and L to B (the way U turns); S_LR2 the mirror swapping L and R.
A position's mask has bit k set when symmetry k fixes it; each type is named by the mask of
one subgroup of its class (the masks below are Cube Explorer's, as its type pictures list them).
"""

from __future__ import annotations

import numpy as np
import pytest

from cubelab.cube import position_symmetry as P
from cubelab.cube.moves import alg_state
from cubelab.tui.cli import main

CUBE_EXPLORER_MASKS = {
    "Oh": 281474976710655, "O": 93824992236885, "Td": 168884986026393,
    "D3d": 39621677884425, "Th": 56294995342131, "C3v": 38655295497, "T": 18764998447377,
    "D4h": 65535, "D3": 4402408653825, "D4": 21845, "D2d(face)": 39321, "C4v": 255,
    "C4h": 43605, "D2h(edge)": 26265, "D2d(edge)": 52275, "S6": 35189204000769,
    "D2h(face)": 13107, "C2v(a1)": 153, "C2v(b)": 1665, "C2h(b)": 9225, "D2(edge)": 17425,
    "C4": 85, "D2(face)": 4369, "S4": 34833, "C2h(a)": 8721, "C2v(a2)": 51,
    "C3": 4295032833, "Cs(b)": 129, "C2(b)": 1025, "C2(a)": 17, "Cs(a)": 513, "Ci": 8193,
    "C1": 1,
}

# each basic symmetry as where it carries each face's centre (U, R, F, D, L, B)
_FACES = "URFDLB"
_DIRECTION = {"U": (0, 1, 0), "R": (1, 0, 0), "F": (0, 0, 1), "D": (0, -1, 0),
              "L": (-1, 0, 0), "B": (0, 0, -1)}
_BASIC = {
    "URF3": dict(F="U", U="R", R="F", B="D", D="L", L="B"),
    "F2": dict(U="D", D="U", R="L", L="R", F="F", B="B"),
    "U4": dict(B="R", R="F", F="L", L="B", U="U", D="D"),
    "LR2": dict(R="L", L="R", U="U", D="D", F="F", B="B"),
}


def _matrix(carries: dict[str, str]) -> np.ndarray:
    m = np.zeros((3, 3), np.int64)
    for face in "URF":
        source = np.array(_DIRECTION[face])
        m[:, np.argmax(np.abs(source))] = np.array(_DIRECTION[carries[face]]) * source.sum()
    return m


def cube_explorer_symmetries() -> list[int]:
    """cubelab's index of each of Cube Explorer's 48 symmetries, in Cube Explorer's order."""
    ours = {m.tobytes(): k for k, m in enumerate(P.matrices())}
    basic = {name: _matrix(carries) for name, carries in _BASIC.items()}
    out = []
    for a in range(3):
        for b in range(2):
            for c in range(4):
                for d in range(2):
                    # the left factor acts first: as matrices it stands rightmost
                    m = (np.linalg.matrix_power(basic["LR2"], d)
                         @ np.linalg.matrix_power(basic["U4"], c)
                         @ np.linalg.matrix_power(basic["F2"], b)
                         @ np.linalg.matrix_power(basic["URF3"], a))
                    out.append(ours[m.tobytes()])
    assert sorted(out) == list(range(48))
    return out


def _subgroup(mask: int) -> list[int]:
    numbering = cube_explorer_symmetries()
    return [numbering[k] for k in range(48) if mask >> k & 1]


def test_each_of_cube_explorers_33_masks_is_a_subgroup_of_its_own_type():
    classes = P.subgroup_classes()
    assert len(CUBE_EXPLORER_MASKS) == 33
    found = set()
    for name, mask in CUBE_EXPLORER_MASKS.items():
        group = frozenset(_subgroup(mask))
        # the numbering is read right: every mask is closed under products
        mats = P.matrices()
        index = {m.tobytes(): k for k, m in enumerate(mats)}
        assert all(index[(mats[a] @ mats[b]).tobytes()] in group for a in group for b in group)
        cls = next(i for i, c in enumerate(classes) if group in c)
        found.add(cls)
        assert P.type_name(sorted(group)) == name, (name, P.type_name(sorted(group)))
    assert len(found) == 33     # 33 masks, 33 different types


@pytest.mark.parametrize("alg, name", [
    ("R2 L2 U2", "C2v(a2)"),                    # the audit's example
    ("U R2 L2 U2 F2 B2 U'", "C2v(a1)"),
    ("U R L F2 B2 R' L' U", "D2d(face)"),
    ("U F2 B2 D2 F2 B2 U", "D2d(edge)"),
    ("B2 D2 U2 F2", "D2h(face)"),
    ("U R2 L2 D2 F2 B2 U", "D2h(edge)"),
    ("R2 L2 F B", "D2(face)"),
    ("U F2 U2 D2 F2 D", "D2(edge)"),
])
def test_positions_get_the_name_of_cube_explorers_mask(alg, name):
    """A position's fixing subgroup is a conjugate of the subgroup Cube Explorer's mask names."""
    state = alg_state(alg)
    fixed = frozenset(P.fixing(state))
    cls = next(c for c in P.subgroup_classes() if fixed in c)
    assert frozenset(_subgroup(CUBE_EXPLORER_MASKS[name])) in cls
    assert P.symmetry_record(state)["symmetry"] == name


@pytest.mark.parametrize("typed", ["D2d(face)", "d2d(a)", "D2d(A)", "D2D(FACE)", " D2d(face) "])
def test_search_takes_either_spelling(typed):
    from cubelab.solvers.algsearch import parse_predicate
    predicate = parse_predicate(["symmetry", typed])
    assert predicate.description.startswith("symmetric under D2d(face) (fixed by 8 ")


def test_an_unknown_type_lists_cube_explorers_names(capsys):
    assert main(["search", "-n", "2", "symmetry", "D2d(x)"]) == 2
    err = capsys.readouterr().err
    assert "D2d(face)" in err and "C2v(a2)" in err and "D2(a)" not in err and "D2d(b)" not in err
