"""Masked facelets (grey stickers) as a position and a goal, and completing partly known
positions: what is shown is what must end solved; what cannot be is refused with its sticker."""

from __future__ import annotations

import numpy as np
import pytest

from cubelab.cube.completion import Impossible, complete, free
from cubelab.cube.facelets import FaceletError, to_facelets
from cubelab.cube.facts import unreachable_reason
from cubelab.cube.goal_catalog import resolve_goal
from cubelab.cube.goals import GoalError
from cubelab.cube.masked_facelets import is_masked, read_masked, require_known
from cubelab.cube.moves import alg_state
from cubelab.cube.pieces import FACES

SUNE = "R U R' U R U2 R'"


def masked(state, keep) -> str:
    """The state's facelets with the stickers `keep(index, letter)` refuses greyed."""
    f = to_facelets(state)
    return "".join(ch if keep(i, ch) else "*" for i, ch in enumerate(f))


def oll_view(i, ch) -> bool:
    """An OLL diagram: every U-coloured sticker, and the first two layers."""
    face, k = divmod(i, 9)
    return ch == "U" or FACES[face] == "D" or (FACES[face] != "U" and k >= 3)


def test_an_oll_view_reads_as_the_oll_goal():
    case = alg_state(SUNE).inverse()
    m = read_masked(masked(case, oll_view))
    assert unreachable_reason(m.state) is None
    assert not m.goal.is_met(m.state)
    assert m.goal.is_met(m.state * alg_state(SUNE))
    assert m.goal.is_met(m.state * alg_state(SUNE + " U"))      # permutation is not shown
    oll = resolve_goal("oll")[0]
    for extra in ("", "U", "R U R' U' R' F R2 U' R' U' R U R' F'"):
        after = m.state * alg_state(SUNE + " " + extra)
        assert m.goal.is_met(after) == oll.is_met(after)


def test_whole_facelets_read_as_the_solved_goal():
    s = alg_state("R U F")
    m = read_masked(to_facelets(s))
    assert m.state == s and m.goal.is_met(alg_state("")) and not m.goal.is_met(s)


def test_two_visible_stickers_pin_a_corner():
    s = alg_state("R U")
    # keep two stickers of every corner and everything of the edges
    corner_third = {f for f in range(54) if f % 9 in (0, 2, 6, 8) and f // 9 == 2}
    m = read_masked(masked(s, lambda i, ch: i not in corner_third))
    assert not is_masked(to_facelets(s)) and m.goal.is_met(alg_state(""))
    assert not m.goal.is_met(s)


def test_grey_centres_leave_the_goal_up_to_a_rotation():
    m = read_masked(masked(alg_state(""), lambda i, ch: i % 9 != 4))
    assert m.goal.centres == frozenset()
    assert m.goal.is_met(alg_state("x y")) and not m.goal.is_met(alg_state("R"))


@pytest.mark.parametrize("text, words", [
    ("U" * 54, "appears 54 times"),
    ("UUUUUUUUU" + "?" * 44 + "X", "unexpected character 'X'"),
    ("*" * 53, "expected 54 stickers"),
    ("*" * 54, "nothing to solve"),
])
def test_stickers_no_cube_shows(text, words):
    with pytest.raises(FaceletError, match=words):
        read_masked(text)


def _solved_list():
    return list(to_facelets(alg_state("")))


def test_a_corner_no_cube_has():
    f = _solved_list()
    f[0], f[8], f[9] = "*", "U", "U"        # the UFR corner shows U twice
    with pytest.raises(FaceletError, match="corner at U9 R1 F3 shows .*no corner"):
        read_masked("".join(f))


def test_the_same_piece_twice():
    f = ["*"] * 54
    for i in (4, 13, 22, 31, 40, 49):
        f[i] = "URFDLB"[i // 9]
    f[8], f[9], f[20] = "U", "R", "F"        # UFR at its place
    f[6], f[18], f[38] = "U", "R", "F"       # and UFR again at UFL's
    with pytest.raises(FaceletError):
        read_masked("".join(f))


def test_more_pieces_showing_a_colour_than_have_it():
    f = ["*"] * 54
    for i in (4, 13, 22, 31, 40, 49):
        f[i] = "URFDLB"[i // 9]
    for i in (0, 2, 6, 8):       # four U corners show U on top
        f[i] = "U"
    f[29] = "U"                  # D3 (the DFR corner's D sticker) shows U: a fifth
    with pytest.raises(FaceletError, match="5 corners .* only 4 corners"):
        read_masked("".join(f))


def test_a_twist_nothing_can_absorb():
    f = list(to_facelets(alg_state("")))
    f[8], f[9], f[20] = "F", "U", "R"        # UFR twisted, everything else shown
    with pytest.raises(FaceletError, match="twisted"):
        read_masked("".join(f))


def test_a_twist_a_grey_corner_absorbs():
    f = list(to_facelets(alg_state("")))
    f[8], f[9], f[20] = "F", "U", "R"        # UFR twisted...
    for i in (0, 36, 47):                    # ...and ULB grey
        f[i] = "*"
    m = read_masked("".join(f))
    assert unreachable_reason(m.state) is None


def test_a_goal_needing_a_greyed_piece_contradicts_the_stickers():
    m = read_masked(masked(alg_state("R U"), lambda i, ch: i not in (28, 25)))   # D2 F8 grey
    with pytest.raises(GoalError, match="needs the edge DF"):
        require_known(resolve_goal("cross")[0], m)
    require_known(resolve_goal("cross:U")[0], m)


def test_completion_reports_hall_violations():
    c = free(8, 3)
    c[:5, 4:, :] = False        # five corners allowed only in the four U slots
    with pytest.raises(Impossible) as e:
        complete(c, free(12, 2))
    assert e.value.kind == "hall" and len(e.value.slots) > len(e.value.pieces)


def test_completion_fixes_parity_with_free_pieces():
    c = np.zeros((8, 8, 3), bool)
    for p in range(8):
        c[p, p, 0] = True
    c[0, 0, 0] = c[1, 1, 0] = False
    c[0, 1, 0] = c[1, 0, 0] = True          # two corners swapped
    s = complete(c, free(12, 2))
    assert unreachable_reason(s) is None and s.cp[0] == 1


@pytest.mark.parametrize("name", ["cross", "oll", "f2l-pair:BL", "cross:U", "roux-fb"])
def test_a_goal_greys_what_it_ignores_and_reads_back_as_itself(name):
    from cubelab.cube.random_states import random_state
    start = alg_state("R U2 F' L D B2")
    (goal,) = resolve_goal(name)
    keep = set(goal.stickers(start))
    m = read_masked(masked(start, lambda i, ch: i in keep))
    for seed in range(40):
        s = random_state(seed)
        for probe in (s, start, start * alg_state("U"), alg_state("")):
            assert m.goal.is_met(probe) == goal.is_met(probe)
    for alg in ("U", "D", "R U R' U R U2 R'", "F R U R' U' F'", "M2 U M2", "L' U L"):
        probe = alg_state(alg)
        assert m.goal.is_met(probe) == goal.is_met(probe)


LL_ALGS = [SUNE, "F R U R' U' F'", "R U R' U' R' F R2 U' R' U' R U R' F'", "U", "U2",
           "R U2 R' U' R U' R'", "F R U R' U' R U R' U' F'"]


def random_last_layer(seed: int):
    """A position with the first two layers solved and a last layer made of random algs."""
    rng = np.random.default_rng(seed)
    return alg_state(" ".join(LL_ALGS[int(k)] for k in rng.integers(0, len(LL_ALGS), 6)))


@pytest.mark.parametrize("seed", range(6))
def test_a_named_goal_asking_only_what_is_shown_is_accepted(seed):
    case = random_last_layer(seed)
    m = read_masked(masked(case, oll_view))
    for name in ("oll", "f2l", "cross"):        # U stickers' faces, F2L pieces: all shown
        require_known(resolve_goal(name)[0], m)
    for name, kind in (("pll", "corner"), ("coll", "corner")):
        with pytest.raises(GoalError, match=f"needs the {kind} U"):
            require_known(resolve_goal(name)[0], m)


@pytest.mark.parametrize("seed", range(4))
def test_a_named_goal_on_grey_stickers_serves_the_cube_they_hide(seed):
    """Solved on whatever completion the picture reads as, `--goal oll` solutions must
    orient the real last layer, whichever U pieces sit where."""
    from cubelab.solvers.goals.search import find
    case = random_last_layer(100 + seed)
    m = read_masked(masked(case, oll_view))
    result = find(m, "oll", "RUF", all=True)
    assert result.solutions
    oll = resolve_goal("oll")[0]
    for solution in result.solutions:
        after = case
        for move in solution.full():
            after = after * alg_state(str(move))
        assert oll.is_met(after), solution.text


def _count_completions(state, grey_corners, grey_edges) -> int:
    """Positions the picture of `state` with these pieces wholly grey shows, by brute force:
    the grey pieces in any order and turn in their slots, kept when the whole is a position."""
    from itertools import permutations, product

    from cubelab.cube.state import CubeState
    count = 0
    for cperm in permutations(grey_corners):
        for cori in product(range(3), repeat=len(grey_corners)):
            cp, co = state.cp.copy(), state.co.copy()
            for slot, piece, turn in zip(grey_corners, cperm, cori):
                cp[slot], co[slot] = state.cp[piece], turn
            for eperm in permutations(grey_edges):
                for eori in product(range(2), repeat=len(grey_edges)):
                    ep, eo = state.ep.copy(), state.eo.copy()
                    for slot, piece, turn in zip(grey_edges, eperm, eori):
                        ep[slot], eo[slot] = state.ep[piece], turn
                    s = CubeState(cp, co, ep, eo, state.cc)
                    count += unreachable_reason(s) is None
    return count


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("n_corners, n_edges", [(0, 0), (1, 0), (0, 1), (1, 1), (2, 0), (0, 2),
                                                (2, 1), (1, 2), (3, 0)])
def test_one_completion_is_said_exactly_when_brute_force_finds_one(seed, n_corners, n_edges):
    from cubelab.cube.masked_facelets import one_completion
    from cubelab.cube.pieces import CORNER_FACELETS, EDGE_FACELETS
    from cubelab.cube.random_states import random_state
    rng = np.random.default_rng(seed)
    state = random_state(rng)
    corners = sorted(int(c) for c in rng.choice(8, n_corners, replace=False))
    edges = sorted(int(e) for e in rng.choice(12, n_edges, replace=False))
    hidden = {f for s in corners for f in CORNER_FACELETS[s]} | \
        {f for s in edges for f in EDGE_FACELETS[s]}
    # and one sticker of a corner whose others show it: that never hides anything
    shown_corners = [s for s in range(8) if s not in corners]
    hidden.add(CORNER_FACELETS[shown_corners[seed % len(shown_corners)]][seed % 3])
    m = read_masked(masked(state, lambda i, ch: i not in hidden))
    n = _count_completions(state, corners, edges)
    assert n >= 1
    assert one_completion(m) == (n == 1), (corners, edges, n)


def test_a_grey_centre_leaves_more_than_one_completion():
    from cubelab.cube.masked_facelets import one_completion
    m = read_masked(masked(alg_state("R U"), lambda i, ch: i != 4))
    assert not one_completion(m)
