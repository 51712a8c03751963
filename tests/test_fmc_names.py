"""The FMC case names (issue 35): EO patterns, and the HTR subset names derived from the double
cosets of the half-turn group, checked on constructed cases and for invariance under the moves
that keep a case (half turns before and after, the same case on every DR axis)."""

from __future__ import annotations

import random

import pytest

from cubelab.cube.moves import alg_state
from cubelab.solvers.fmc.cases import corner_class, eo_case, htr_case

HALF = "U2 D2 R2 L2 F2 B2".split()
DR = {"ud": "U U' U2 D D' D2 R2 L2 F2 B2".split(),
      "fb": "F F' F2 B B' B2 U2 D2 R2 L2".split(),
      "rl": "R R' R2 L L' L2 U2 D2 F2 B2".split()}
# the same position on each DR axis: U -> F (x rotation) and U -> R (z' rotation)
TO_AXIS = {"ud": str.maketrans("", ""), "fb": str.maketrans("UFDB", "FDBU"),
           "rl": str.maketrans("URDL", "RDLU")}


@pytest.mark.parametrize("alg, name", [
    ("", "0c0 0e"), ("U", "4a1 4e"), ("U D", "0c2 8e"), ("U R2 U", "4b2 2e"),
    ("U R2 U2 F2 U", "4a2 4e"), ("U R2 U R2 U", "2c3 2e"), ("R2 F2 U2", "0c0 0e")])
def test_htr_names_of_constructed_cases(alg, name):
    for axis in ("ud", "fb", "rl"):
        assert htr_case(alg_state(alg.translate(TO_AXIS[axis])), axis) == name, axis


def _word(rng, moves, n):
    return " ".join(rng.choice(moves) for _ in range(n))


@pytest.mark.parametrize("axis", ["ud", "fb", "rl"])
def test_htr_names_are_invariant_under_half_turns(axis):
    rng = random.Random({"ud": 1, "fb": 2, "rl": 3}[axis])
    seen = set()
    for _ in range(60):
        core = _word(rng, DR[axis], rng.randrange(1, 40))
        name = htr_case(alg_state(core), axis)
        seen.add(name.split()[0])
        for _ in range(3):
            before, after = _word(rng, HALF, rng.randrange(0, 6)), _word(rng, HALF, rng.randrange(0, 6))
            assert htr_case(alg_state(f"{before} {core} {after}"), axis) == name
    assert len(seen) >= 6          # many classes met, not one name for everything


def test_the_corner_classes_are_the_double_cosets():
    """Over every corner permutation of DR: the name is constant on each double coset H p H
    (found here by closing each permutation under half turns on both sides), and two double
    cosets share a name only when their out-of-tetrad counts are k and 8 - k."""
    from itertools import permutations
    from cubelab.cube.state import CubeState
    from cubelab.solvers.fmc.cases import TETRAD
    half = [tuple(int(x) for x in alg_state(m).cp) for m in HALF]
    left = {}
    names = {}
    for p in permutations(range(8)):
        if p in left:
            continue
        members, todo = {p}, [p]
        while todo:
            x = todo.pop()
            for h in half:
                for y in (tuple(x[h[i]] for i in range(8)), tuple(h[x[i]] for i in range(8))):
                    if y not in members:
                        members.add(y)
                        todo.append(y)
        k = sum(1 for s in range(8) if TETRAD[p[s]] != TETRAD[s])
        got = {corner_class(CubeState(q, [0] * 8, range(12), [0] * 12)) for q in members}
        assert len(got) == 1
        for q in members:
            left[q] = len(names)
        names[len(names)] = (got.pop(), k)
    assert len(names) == 20
    by_name = {}
    for name, k in names.values():
        by_name.setdefault(name, set()).add(k)
    for name, ks in by_name.items():
        assert len(ks) == 1 or ks in ({0, 8}, {2, 6}), (name, ks)
    assert {"0c0", "0c3", "0c4", "2c3", "2c4", "4a1", "4a2", "4a3", "4a4", "4b2", "4b3",
            "4b4", "4b5"} <= set(by_name)


def test_eo_pattern_lists_the_bad_edges():
    assert eo_case(alg_state(""), "fb") == "0e"
    assert eo_case(alg_state("F"), "fb") == "4e UF DF FR FL"
    assert eo_case(alg_state("F"), "ud") == "0e"
    assert eo_case(alg_state("R"), "rl") == "4e UR DR FR BR"
    assert eo_case(alg_state("F B"), "fb").startswith("8e ")
