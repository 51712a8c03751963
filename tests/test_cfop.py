"""CFOP: the last-layer book checked by the model for every case and AUF, the algorithms' face
turns, and solutions whose named steps do what they say."""

import itertools

import numpy as np
import pytest
from hypothesis import given, strategies as st

from cubelab.cube.moves import FACE_MOVES, alg_state, apply_moves, move_state
from cubelab.cube.notation import format_moves, parse_moves, simplify
from cubelab.cube.random_states import random_state
from cubelab.cube.state import CubeState, permutation_parity, rotation_with_centres
from cubelab.solvers.cfop import lastlayer as ll
from cubelab.solvers.cfop.solver import CfopSolver

from helpers_solvers import prepared_solver


def seq_state(seq, start=None):
    s = CubeState.identity() if start is None else start
    for m in seq:
        s = s * move_state(FACE_MOVES[m])
    return s


def f2l_solved(s):
    return (list(s.cp[4:]) == [4, 5, 6, 7] and not s.co[4:].any()
            and list(s.ep[4:]) == list(range(4, 12)) and not s.eo[4:].any())


def last_layer(cp, co, ep, eo):
    return CubeState(list(cp) + [4, 5, 6, 7], list(co) + [0] * 4,
                     list(ep) + list(range(4, 12)), list(eo) + [0] * 8)


def orientations():
    """Every orientation of the U layer's pieces that twist and flip sums allow (216)."""
    for co in itertools.product(range(3), repeat=4):
        for eo in itertools.product(range(2), repeat=4):
            if sum(co) % 3 == 0 and sum(eo) % 2 == 0:
                yield co, eo


def permutations():
    """Every permutation of the U layer's pieces with matching parities (288)."""
    for cp in itertools.permutations(range(4)):
        for ep in itertools.permutations(range(4)):
            if permutation_parity(list(cp)) == permutation_parity(list(ep)):
                yield cp, ep


# ---- the book -----------------------------------------------------------------------------------

def test_the_book_names_57_oll_and_21_pll_cases_once_each():
    book = ll.book()
    assert sorted(int(a.case) for a in book.oll) == list(range(1, 58))
    assert sorted(a.case for a in book.pll) == sorted(
        "Aa Ab E F Ga Gb Gc Gd H Ja Jb Na Nb Ra Rb T Ua Ub V Y Z".split())


@pytest.mark.parametrize("alg", ll.book().oll + ll.book().pll, ids=lambda a: a.label)
def test_every_algorithm_keeps_the_first_two_layers_and_solves_its_case(alg):
    moves = seq_state(alg.moves)
    assert f2l_solved(moves)
    case = moves.inverse()
    after = case * moves
    assert after.is_identity()
    if alg.step == "oll":
        # an OLL algorithm orients its case's pieces whatever their order
        assert any(case.co[:4]) or any(case.eo[:4])
        for cp, ep in list(permutations())[::37]:
            s = last_layer(cp, case.co[:4], ep, case.eo[:4])
            assert not (s * moves).co.any() and not (s * moves).eo.any()
    else:
        assert not case.co.any() and not case.eo.any()


def test_every_oll_case_under_every_auf_is_recognised_once():
    """Each of the 57 algorithms is the only one for its case, and every orientation of the
    last layer (with any U turn before it) is one algorithm's case."""
    book = ll.book()
    assert sum(len(v) for v in book.oll_cases.values()) == 57 == len(book.oll_cases)
    for co, eo in orientations():
        if not any(co + eo):
            continue
        found = [k for k in range(4)
                 if ll.oll_key(last_layer(range(4), co, range(4), eo) * ll._u(k))
                 in book.oll_cases]
        assert found, (co, eo)


def test_the_oll_numbers_match_the_shapes_cubers_know():
    """The usual numbering, checked where the model can: how many edges each case has
    oriented (dots none, the cross cases all four) and which cases have all corners oriented."""
    book = ll.book()
    for a in book.oll:
        case = seq_state(a.moves).inverse()
        edges_up = 4 - int(case.eo[:4].sum())
        corners_up = int((case.co[:4] == 0).sum())
        n = int(a.case)
        if n in (1, 2, 3, 4, 17, 18, 19, 20):
            assert edges_up == 0, a.label
        elif 21 <= n <= 27:
            assert edges_up == 4 and corners_up < 4, a.label
        else:
            assert edges_up == 2, a.label
        assert (corners_up == 4) == (n in (20, 28, 57)), a.label
        if n in (26, 27):
            assert corners_up == 1, a.label


def test_the_pll_names_match_what_they_permute():
    """A perms and E move corners only; H, Z and the U perms edges only (up to a U turn)."""
    for a in ll.book().pll:
        case = seq_state(a.moves).inverse()
        keys = [ll.pll_key(case * ll._u(k)) for k in range(4)]
        corners_home = any(key[:4] == (0, 1, 2, 3) for key in keys)
        edges_home = any(key[4:] == (0, 1, 2, 3) for key in keys)
        assert corners_home == (a.case in ("H", "Z", "Ua", "Ub")), a.case
        # (H is both: a U2 takes its edges home, moving the corners instead)
        assert (edges_home and not corners_home) == (a.case in ("Aa", "Ab", "E")), a.case


def test_every_last_layer_is_solved():
    """All 216 orientations x 288 permutations / 16 (a spread sample of permutations for each
    orientation, every AUF): the book's steps solve it."""
    perms = list(permutations())
    for i, (co, eo) in enumerate(orientations()):
        for cp, ep in perms[i % 16::16]:
            s = last_layer(cp, co, ep, eo)
            steps = ll.solve_last_layer(s)
            assert [name.split()[0] for name, _ in steps] == ["oll", "pll", "auf"]
            assert seq_state([m for _, seq in steps for m in seq], s).is_identity()


@given(st.lists(st.sampled_from("R U F L D B r u f l d b M E S x y z".split()), max_size=12),
       st.lists(st.sampled_from(["", "'", "2"]), min_size=12, max_size=12))
def test_face_turns_do_what_the_algorithm_does(families, suffixes):
    text = " ".join(f + s for f, s in zip(families, suffixes))
    target = alg_state(text)
    turned = seq_state(ll.face_turns(text))
    assert turned == target * rotation_with_centres(target.cc).inverse()


# ---- the solver -----------------------------------------------------------------------------------

solver = prepared_solver(CfopSolver)


@pytest.mark.slow
def test_solutions_are_named_steps_that_add_up(solver):
    lengths = []
    for seed in range(40):
        s = random_state(seed)
        r = solver.solve(s)
        assert r.verified and r.status == "solved"
        steps = r.to_json()["steps"]
        names = [st["step"] for st in steps]
        assert names[0] == "cross" and names[-1].split()[0] in ("pll", "auf")
        assert any(n.startswith("oll") for n in names) and any(n.startswith("pll") for n in names)
        assert all(n.split()[0] in ("cross", "f2l", "oll", "pll", "auf") for n in names)
        # the solution: the rotation, then the steps with their joins cancelled
        rotation = parse_moves(r.detail["rotation"])
        assert r.moves[:len(rotation)] == rotation
        performed = [m for st in steps for m in parse_moves(st["moves"])]
        assert format_moves(simplify(performed)) == format_moves(r.moves[len(rotation):])
        assert all(st["length"] == len(parse_moves(st["moves"])) for st in steps)
        # (tests/test_cfop_milestones.py checks where each step ends)
        lengths.append(r.length["htm"])
    # the bar is a mean of at most 55 (the bench measures it on 1,000 states)
    assert np.mean(lengths) <= 55


@pytest.mark.slow
def test_one_face_cross_is_optimal_and_f2l_keeps_it(solver):
    one = CfopSolver(faces="D")
    one._tables, one._prepared = solver._tables, True
    s = alg_state("R U F' L2 D B' R2 U' F2 L D2 B R' U2 F")
    r = one.solve(s)
    steps = r.to_json()["steps"]
    cross = parse_moves(steps[0]["moves"])
    # no shorter sequence solves the D cross: compare with the exact table
    from cubelab.tables.cfop.coords import cross_of
    assert solver._tables.cross[cross_of(s.ep, s.eo)] == len(cross)
    done = apply_moves(s, cross)
    for st in steps[1:]:
        if not st["step"].startswith("f2l"):
            break
        done = apply_moves(done, parse_moves(st["moves"]))
        assert list(done.ep[4:8]) == [4, 5, 6, 7] and not done.eo[4:8].any()
