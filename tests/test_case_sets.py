"""Case sets and alg generation: the standard counts, names found from the position (never
from a stored alg: the algs below only make positions to look up), records per case, resume."""

from __future__ import annotations

import pytest

from cubelab.cube.case_sets import case_key, case_set, cases, ocll_shape, set_names
from cubelab.cube.goal_catalog import resolve_goal
from cubelab.cube.goals import GoalError
from cubelab.cube.moves import alg_state
from cubelab.cube.state import CubeState
from cubelab.solvers.goals.generate import generate

KNOWN = {
    "pll": {"T": "R U R' U' R' F R2 U' R' U' R U R' F'",
            "Jb": "R U R' F' R U R' U' R' F R2 U' R'",
            "Ua": "M2 U M U2 M' U M2", "H": "M2 U M2 U2 M2 U M2",
            "Y": "F R U' R' U' R U R' F' R U R' U' R' F R F'"},
    "oll": {"OLL 27": "R U R' U R U2 R'", "OLL 26": "R U2 R' U' R U' R'",
            "OLL 45": "F R U R' U' F'", "OLL 21": "R U2 R' U' R U R' U' R U' R'",
            "OLL 57": "R U R' U' M' U R U' r'"},
}


@pytest.mark.parametrize("name, count", [("oll", 57), ("pll", 21), ("coll", 40),
                                         ("ocll", 7)])
def test_standard_counts(name, count):
    cs = cases(name)
    assert len(cs) == count and len({c.name for c in cs}) == count
    assert not any(c.name.startswith("unnamed") for c in cs)
    goal = resolve_goal(case_set(name).goal)[0]
    assert not any(goal.is_met(c.state) for c in cs)


@pytest.mark.slow
def test_zbll_has_472_cases():
    cs = cases("zbll")
    assert len(cs) == 472
    per_shape = {}
    for c in cs:
        per_shape[c.name.split()[0]] = per_shape.get(c.name.split()[0], 0) + 1
    assert per_shape == {"H": 40, "Pi": 72, "U": 72, "T": 72, "L": 72, "AS": 72, "S": 72}


@pytest.mark.parametrize("which", ["pll", "oll"])
def test_names_come_from_the_position(which):
    cs = case_set(which)
    goal = resolve_goal(cs.goal)[0]
    by_key = {c.key: c.name for c in cases(which)}
    for name, alg in KNOWN[which].items():
        # the case an alg solves, seen from another side and with an AUF: still its name
        state = alg_state(alg).inverse().normalized()
        for extra in ("", "U", "U2"):
            turned = alg_state(extra) * state * alg_state(extra).inverse()
            assert by_key[case_key(goal, turned, cs.auf)] == name


def test_ocll_shapes():
    assert ocll_shape(alg_state("R U R' U R U2 R'").inverse()) == "S"
    assert ocll_shape(alg_state("R U2 R' U' R U' R'").inverse()) == "AS"
    assert ocll_shape(CubeState.identity()) == "O"


def test_unknown_sets_are_named():
    with pytest.raises(GoalError, match="unknown case set 'plll'"):
        case_set("plll")
    assert {"oll", "pll", "coll", "zbll"} <= set(set_names())


@pytest.mark.slow
def test_generation_records_and_resume():
    seen, progress = [], []
    done = [c.name for c in cases("pll")][:-2]
    records = generate("pll", "R,U,F", n=2, done=done, on_case=seen.append,
                       progress=lambda d, t: progress.append((d, t)))
    assert [r["case"] for r in records] == [c.name for c in cases("pll")][-2:] == \
        [r["case"] for r in seen]
    assert progress[-1] == (2, 2)
    for r in records:
        assert r["optimal"] and r["status"] == "solved" and 1 <= len(r["algs"]) <= 2
        best = r["algs"][0]
        assert {"solution", "length", "cost", "auf"} <= set(best)
        case = next(c for c in cases("pll") if c.name == r["case"])
        goal = resolve_goal("pll")[0]
        full = " ".join(x for x in (best["auf"]["pre"], best["solution"], best["auf"]["post"])
                        if x)
        assert goal.is_met(case.state * alg_state(full))
        assert goal.is_met(alg_state(r["setup"]) * alg_state(full)) or \
            case_key(goal, alg_state(r["setup"]), "both") == case.key
