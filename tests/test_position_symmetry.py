"""The symmetry of a position: the 33 types found from the group, their names, the laws a
position's symmetry obeys, the facts keys, and the search predicate against plain enumeration."""

from __future__ import annotations

import json
from itertools import product

import numpy as np
from hypothesis import given, strategies as st

from cubelab.cube import position_symmetry as P
from cubelab.cube.facts import facts
from cubelab.cube.moves import FACE_MOVES, alg_state, apply_moves
from cubelab.cube.notation import format_moves
from cubelab.cube.random_states import random_assembly
from cubelab.cube.state import CubeState
from cubelab.cube.symmetry import conjugate_all
from cubelab.tui.cli import main

SUPERFLIP = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2"


def test_the_group_has_33_symmetry_types_each_with_its_own_name():
    classes = P.subgroup_classes()
    assert len(classes) == 33 and sum(len(c) for c in classes) == 98
    names = [P.type_name(c[0]) for c in classes]
    assert len(set(names)) == 33
    for cls in classes:       # conjugate subgroups are one type: one name, one order
        assert {P.type_name(h) for h in cls} == {P.type_name(cls[0])}
    assert {"Oh", "O", "Td", "Th", "T", "D4h", "C4v", "D3d", "C2v(a1)", "C2v(b)", "Ci",
            "C1"} <= set(names)


def test_kinds_of_the_48_symmetries():
    from collections import Counter
    assert Counter(P.kinds()) == {"E": 1, "C4": 6, "C2": 3, "C3": 8, "C2'": 6, "i": 1, "σ": 3,
                                  "σd": 6, "S4": 6, "S6": 8}
    assert P.kinds()[0] == "E"


def test_well_known_positions():
    for alg in ("", "R2 L2 U2 D2 F2 B2", SUPERFLIP):
        record = P.symmetry_record(alg_state(alg))
        assert (record["symmetry"], record["symmetry_order"]) == ("Oh", 48)
    ud = P.symmetry_record(alg_state("U D'"))
    assert (ud["symmetry"], ud["symmetry_order"]) == ("C4h", 8)
    assert P.symmetry_record(alg_state("U D"))["symmetry"] == "D4"    # a half turn swaps U and D
    assert P.symmetry_record(alg_state("U2 D2"))["symmetry"] == "D4h"
    assert P.symmetry_record(alg_state("R U R' U'"))["symmetry"] == "C1"
    assert P.symmetry_record(alg_state("U"))["symmetry"] == "C4"


def _conjugates(state):
    rows = np.concatenate(conjugate_all(state.normalized()), axis=-1)
    return len(np.unique(rows, axis=0))


positions = st.one_of(
    st.integers(0, 2**32).map(random_assembly),
    st.lists(st.sampled_from(["U", "U2", "D'", "R2", "L2", "F2", "B2", "M2", "E2", "S2", "U D'",
                              "R L'", "F B'"]), max_size=8).map(lambda w: alg_state(" ".join(w))))


@given(positions)
def test_laws_of_a_positions_symmetry(state):
    fixed = set(P.fixing(state))
    assert 0 in fixed
    prod = P._products()
    assert all(int(prod[a, b]) in fixed for a in fixed for b in fixed)     # a subgroup
    assert _conjugates(state) * len(fixed) == 48                           # orbit-stabiliser
    anti = P.anti_fixing(state)
    assert len(anti) in (0, len(fixed))                                    # a coset or nothing
    record = P.symmetry_record(state)
    assert record["symmetry_order"] == len(fixed)
    assert sum(record["symmetry_elements"].values()) == len(fixed)
    # conjugating by a symmetry keeps the type (the position is only held differently)
    other = CubeState(*(a[0] for a in conjugate_all(state.normalized(), slice(7, 8))))
    assert P.symmetry_record(other)["symmetry"] == record["symmetry"]


def test_facts_carry_the_symmetry_keys(capsys):
    assert main(["facts", "--json", "U D'"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["symmetry_order"] == 8 and record["symmetry"] == "C4h"
    assert record["antisymmetry_order"] == 8
    assert main(["facts", SUPERFLIP]) == 0
    assert "symmetry     Oh: 48 of the 48 symmetries fix it" in capsys.readouterr().out
    assert facts(alg_state("R U")).symmetry["symmetry"] == "C1"


def test_the_search_finds_exactly_the_symmetric_sequences():
    from cubelab.solvers.algsearch import parse_predicate, search
    predicate = parse_predicate(["symmetry", "c4h"])
    result = search(predicate, 3, "htm", keep_sequences=True)
    found = {format_moves(s) for s in result.found}
    # the same by walking every canonical sequence in Python
    expected = set()
    for n in (1, 2, 3):
        for seq in product(FACE_MOVES, repeat=n):
            if any(a.family == b.family or ("URFDLB".index(a.family) % 3
                                            == "URFDLB".index(b.family) % 3
                                            and "URFDLB".index(b.family) < "URFDLB".index(a.family))
                   for a, b in zip(seq, seq[1:])):
                continue
            if predicate.accepts(apply_moves(CubeState.identity(), seq)):
                expected.add(format_moves(seq))
    assert found == expected and "U D'" in found


def test_search_command_names_the_types(capsys):
    assert main(["search", "-n", "2", "symmetry", "X9"]) == 2
    err = capsys.readouterr().err
    assert "no symmetry type named 'X9'" in err and "D4h" in err
