"""CFOP's named steps end where their names say, checked from the stickers (helpers_cfop.py):
play the solution's rotation, then each step in turn, and look at the cube after each step. The
cross is held on D after the rotation, so the last layer is U and the book's algorithms are
played as cubers learn them. The turns that cancel at the joins are the solver's merges.
"""

import numpy as np
import pytest
from hypothesis import given, strategies as st

from cubelab.cube.alg import Move
from cubelab.cube.moves import FACE_MOVES, alg_state
from cubelab.cube.notation import parse_moves, simplify
from cubelab.cube.random_states import random_state
from cubelab.solvers.cfop import lastlayer as ll
from cubelab.solvers.cfop.joins import joined
from cubelab.solvers.cfop.solver import CfopSolver
from cubelab.tables.sequences import cancel

from helpers_cfop import ISSUE_SCRAMBLE, check_record
from helpers_solvers import prepared_solver

solver = prepared_solver(CfopSolver)

# ---- the solver's answers --------------------------------------------------------------------

def test_the_issue_scramble_plays_back_step_by_step(solver):
    s = alg_state(ISSUE_SCRAMBLE)
    record = solver.solve(s).to_json()
    assert check_record(s, record) == []


def book_problem(step) -> str | None:
    """An OLL or PLL step is its book algorithm as written with the last layer on U, after a
    U turn at most (cancelled into it if the algorithm starts with one)."""
    word = step["step"].split()[0]
    if word not in ("oll", "pll") or step["step"].endswith("skip"):
        return None
    case = step["step"].split()[1]
    alg = next(a for a in getattr(ll.book(), word) if a.case == case)
    moves = tuple(parse_moves(step["moves"]))
    if any(simplify(([Move("U", k)] if k else []) + alg_moves(alg)) == list(moves) for k in range(4)):
        return None
    return f"{step['step']} played as {step['moves']!r}, not as {alg.text!r}"


def alg_moves(alg):
    return [FACE_MOVES[m] for m in alg.moves]


@pytest.mark.parametrize("case, setup, solution, names", [
    # the issue's example: the white cross is on U, the case on the yellow side is a Sune
    ("Sune", "x2 R U2 R' U' R U' R' x2", "x2 R U R' U R U2 R'", ["cross", "oll 27 (Sune)", "pll skip"]),
    ("T perm", "x2 R U R' U' R' F R2 U' R' U' R U R' F' x2",
     "x2 R U R' U' R' F R2 U' R' U' R U R' F'", ["cross", "oll skip", "pll T"]),
    ("U on the cross's right", "z' R U2 R' U' R U' R' z", "z' R U R' U R U2 R'",
     ["cross", "oll 27 (Sune)", "pll skip"]),
])
def test_the_last_layer_reads_as_cubers_learn_it(solver, case, setup, solution, names):
    record = solver.solve(alg_state(setup)).to_json()
    assert record["solution"] == solution
    assert record["rotation"] == solution.split()[0]
    assert [st["step"] for st in record["steps"]] == names
    assert record["length"]["htm"] == len(solution.split()) - 1
    assert check_record(alg_state(setup), record) == []


@pytest.mark.slow
def test_every_step_of_100_random_solves_reaches_its_milestone(solver):
    rng = np.random.default_rng(37)
    bad, faces, merges = {}, set(), 0
    for i in range(100):
        s = random_state(rng)
        record = solver.solve(s).to_json()
        assert record["verified"]
        problems = check_record(s, record) + [
            p for p in map(book_problem, record["steps"]) if p]
        if problems:
            bad[i] = problems
        faces.add(record["cross_face"])
        merges += sum("merge" in st for st in record["steps"])
    assert bad == {}
    # the sample does exercise crosses built away from D and cancelling joins
    assert len(faces) >= 4 and merges > 0


# ---- the merges at the joins ------------------------------------------------------------------

R, R2, R_, U, U2, U_, L, L_ = 3, 4, 5, 0, 1, 2, 12, 14


def merge_of(steps):
    solution, merges = joined(steps)
    return solution, {i: m.to_json() for i, m in merges.items()}


def test_turns_that_cancel_at_a_join_are_a_merge_of_the_earlier_step():
    assert merge_of([("a", (R, U)), ("b", (U_, R_))]) == (
        (), {0: {"with": "b", "tail": "R U", "head": "U' R'", "into": "", "saved": 4}})
    # across a commuting turn of the same axis
    assert merge_of([("a", (R, L)), ("b", (L_, U))]) == (
        (R, U), {0: {"with": "b", "tail": "L", "head": "L'", "into": "", "saved": 2}})
    assert merge_of([("a", (R, U)), ("b", (U, R))]) == (
        (R, U2, R), {0: {"with": "b", "tail": "U", "head": "U", "into": "U2", "saved": 1}})
    # through a step that cancels away entirely
    assert merge_of([("a", (R,)), ("b", (R,)), ("c", (R, U))]) == (
        (R_, U), {0: {"with": "b, c", "tail": "R", "head": "R R", "into": "R'", "saved": 2}})
    assert merge_of([("a", (R,)), ("b", ()), ("c", (U,))]) == ((R, U), {})


canonical = st.lists(st.integers(0, 17), max_size=6).map(cancel)


@given(st.lists(canonical, max_size=5))
def test_the_joined_solution_is_the_steps_cancelled_less_the_merges(seqs):
    steps = [(f"s{i}", seq) for i, seq in enumerate(seqs)]
    solution, merges = joined(steps)
    assert solution == cancel([m for seq in seqs for m in seq])
    assert sum(len(seq) for seq in seqs) - sum(m.saved for m in merges.values()) == len(solution)
