"""The goal solver through the solver protocol, masked facelets searched, the developer front
end's exit codes, and the finger-trick cost that ranks solutions of one length."""

from __future__ import annotations

import pytest

from cubelab.cube.alg import Move
from cubelab.cube.facelets import to_facelets
from cubelab.cube.fingertricks import cost
from cubelab.cube.goal_catalog import resolve_goal
from cubelab.cube.masked_facelets import read_masked
from cubelab.cube.moves import alg_state
from cubelab.cube.notation import parse_moves
from cubelab.solvers.goals.__main__ import main
from cubelab.solvers.goals.search import find
from cubelab.solvers.goals.solver import GoalSolver
from cubelab.solvers.protocol import Solution, SolverError, new_counters
from cubelab.tables.goals import plan

SUNE = "R U R' U R U2 R'"


@pytest.fixture(autouse=True)
def small_tables(monkeypatch):
    monkeypatch.setattr(plan, "BALL_NODES", 150_000)


def test_the_solver_lists_every_optimal_cross():
    s = GoalSolver(goal="cross", moves="<U,R,F,D,L,B>", all=True)
    seen = []
    state = alg_state("R U F' L2 D")
    r = s.solve(state, on_solution=seen.append, counters=new_counters())
    assert r.optimal and r.found and r.detail["goal"] == "cross:D"
    assert len(r.detail["solutions"]) == len(seen) >= 1
    assert all(isinstance(x, Solution) for x in seen)
    goal = resolve_goal("cross")[0]
    for sol in r.detail["solutions"]:
        assert goal.is_met(state * alg_state(sol["solution"]))
        assert set(sol) >= {"solution", "length", "cost", "auf"}
    assert r.to_json()["solver"] == "goal" and s.metrics == ("htm",)


def test_the_solver_refuses_what_cannot_be():
    s = GoalSolver(goal="eo", moves="eo-fb")
    with pytest.raises(SolverError, match="cannot be reached"):
        s.solve(alg_state("F"))
    with pytest.raises(SolverError):
        s.solve(alg_state("F").__class__(range(8), [1] + [0] * 7, range(12), [0] * 12))


def test_masked_facelets_are_searched_as_shown():
    case = alg_state(SUNE).inverse()
    f = to_facelets(case)
    shown = "".join(ch if (ch == "U" or i >= 27 or (i // 9 in (1, 2) and i % 9 >= 3))
                    or (i // 9 in (4, 5) and i % 9 >= 3) else "*" for i, ch in enumerate(f))
    masked = read_masked(shown)
    r = find(masked, None, "R,U", auf="pre", all=True)
    assert r.optimal and r.optimum == 7
    for sol in r.solutions:
        assert masked.goal.is_met(masked.state * alg_state(" ".join(map(str, sol.full()))))


def test_the_front_end(capsys):
    assert main(["R U F'", "--goal", "cross", "--moves", "all", "--json"]) == 0
    assert '"optimal": true' in capsys.readouterr().out
    assert main(["R U", "--goal", "crss"]) == 2
    assert "did you mean cross" in capsys.readouterr().err
    assert main(["R U", "--moves", "R,Q"]) == 2
    assert "column 3" in capsys.readouterr().err
    assert main(["R U", "--weights", "R=0"]) == 2
    assert "above 0" in capsys.readouterr().err


def test_finger_tricks_rank_comfort():
    def c(text):
        return cost(parse_moves(text))
    assert c("R U R' U'") < c("F U F U") < c("F U' F U F U F U' F' U' F2")
    assert c("R U R' U'") < c("R U R U")                # the second R needs a regrip
    assert c("R' F R F'") < c("R F R' F'")              # F pushed from the top grip
    assert c("y R U R'") > c("R U R'") + 2              # a rotation breaks the flow
    assert c("R2 U R U R' U' R' U' R' U R'") < c("F2 U F U F' U' F' U' F' U F'")
    assert cost([Move("R", 1)]) == 1.0
