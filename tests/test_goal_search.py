"""Goal searches against an independent brute force: optimal costs and every optimal solution.

The brute force walks every sequence of the move set (no family twice in a row) with the
model's own states, stops a sequence where it first meets the goal, and reduces what it finds
to a normal form (each run of commuting moves sorted, runs repeating a family dropped as
redundant); the search's solutions, in the same normal form, must be exactly those. Small
tables (a shallow ball) keep the suite quick; the bounds stay admissible, so the answers are
the same as with the full-size tables.
"""

from __future__ import annotations

import pytest

from cubelab.cube.alg import Move
from cubelab.cube.costs import CostModel
from cubelab.cube.goal_catalog import resolve_goal, resolve_moveset
from cubelab.cube.goals import GoalError
from cubelab.cube.moves import alg_state, move_state
from cubelab.cube.notation import parse_moves
from cubelab.solvers.goals.problem import Unreachable, forget_setups
from cubelab.solvers.goals.search import find, problems_for
from cubelab.tables.goals import plan
from cubelab.tables.store import forget_cache

ORDER = "URFDLBMESxyzurfdlb"


@pytest.fixture(autouse=True)
def small_tables(monkeypatch):
    monkeypatch.setattr(plan, "BALL_NODES", 150_000)
    monkeypatch.setattr(plan, "COMPONENT_CAP", 1 << 17)


def _commute(a: Move, b: Move) -> bool:
    sa, sb = move_state(a), move_state(b)
    return sa * sb == sb * sa


def normal(seq, repeat=()) -> tuple | None:
    """Runs of pairwise commuting moves sorted by family; None when a run repeats a family
    (other than those in `repeat`: a family allowing one quarter turn may follow itself)."""
    out, run = [], []
    for m in seq:
        if run and all(_commute(m, r) for r in run):
            run.append(m)
            continue
        out.append(run)
        run = [m]
    out.append(run)
    flat = []
    for r in out:
        if len({m.family for m in r if m.family not in repeat}) != \
                len([m for m in r if m.family not in repeat]):
            return None
        flat += sorted(r, key=lambda m: (ORDER.index(m.family[0]), m.family, m.amount))
    return tuple(str(m) for m in flat)


def brute(start, met, moves, max_cost, cost=lambda m: 1, repeat=()):
    """(optimum, set of normal forms of the optimal sequences) within max_cost."""
    steps = [(m, move_state(m), cost(m)) for m in moves]
    found: dict[float, set] = {}
    if met(start):
        return 0, {()}

    def dfs(state, seq, spent):
        for m, ms, mc in steps:
            if seq and seq[-1].family == m.family and m.family not in repeat:
                continue
            c = spent + mc
            if c > max_cost:
                continue
            s = state * ms
            if met(s):
                form = normal(seq + [m], repeat)
                if form is not None:
                    found.setdefault(c, set()).add(form)
                continue
            dfs(s, seq + [m], c)

    dfs(start, [], 0)
    if not found:
        return None, set()
    best = min(found)
    return best, found[best]


def engine_forms(result, repeat=()) -> set:
    return {normal(s.moves, repeat) for s in result.solutions}


@pytest.mark.parametrize("scramble", ["R U F", "F2 L D'", "B R' U2", "L F' R"])
def test_every_optimal_cross(scramble):
    s = alg_state(scramble)
    (goal,) = resolve_goal("cross")
    r = find(s, "cross", "all", all=True)
    best, forms = brute(s, goal.is_met, resolve_moveset("all").moves, 3)
    assert r.optimal and r.optimum == best
    assert engine_forms(r) == forms
    for sol in r.solutions:
        assert goal.is_met(s * alg_state(sol.text))


def test_every_cross_within_one_of_the_optimum():
    s = alg_state("R U F")
    (goal,) = resolve_goal("cross")
    r = find(s, "cross", "all", within=1)
    moves = resolve_moveset("all").moves
    best, _ = brute(s, goal.is_met, moves, 3)
    all_forms = set()
    for limit in (best, best + 1):
        _, forms = brute(s, goal.is_met, moves, limit)
        all_forms |= {f for f in forms}
    got = {normal(x.moves) for x in r.solutions}
    one_more = {f for f in _all_within(s, goal.is_met, moves, best + 1)}
    assert got == one_more and len(got) > len(brute(s, goal.is_met, moves, best)[1])


def _all_within(start, met, moves, max_cost) -> set:
    out = set()
    steps = [(m, move_state(m)) for m in moves]

    def dfs(state, seq):
        for m, ms in steps:
            if seq and seq[-1].family == m.family:
                continue
            if len(seq) + 1 > max_cost:
                continue
            s = state * ms
            if met(s):
                f = normal(seq + [m])
                if f is not None:
                    out.add(f)
                continue
            dfs(s, seq + [m])
    dfs(start, [])
    return out


def test_every_optimal_solve_in_ruf():
    s = alg_state("R U F' R2 U'")
    r = find(s, "solved", "RUF", all=True)
    best, forms = brute(s, lambda x: x.is_solved(), resolve_moveset("RUF").moves, 5)
    assert r.optimal and r.optimum == best == 5 and engine_forms(r) == forms


def test_two_gen_in_quarter_turns():
    s = alg_state("R U R' U R U2 R'")
    moves = resolve_moveset("2gen").moves
    qtm = CostModel("qtm")
    r = find(s, "solved", "2gen", metric="qtm", all=True)
    best, forms = brute(s, lambda x: x.is_solved(), moves, 8, cost=qtm.units)
    assert r.optimum == best == 8 and engine_forms(r) == forms
    assert all(x.lengths["qtm"] == 8 for x in r.solutions)


def test_slice_moves_turn_the_centres_and_the_goal_reads_them():
    s = alg_state("M' U M U2")
    moves = resolve_moveset("R,U,M").moves
    r = find(s, "solved", "R,U,M", metric="stm", all=True)
    best, forms = brute(s, lambda x: x.is_solved(), moves, 4)
    assert r.optimum == best == 4 and engine_forms(r) == forms


def test_weights_change_the_optimum():
    s = alg_state("R U F")
    moves = resolve_moveset("RUF").moves
    c = CostModel("htm", "F=2.5,U=1.5")
    r = find(s, "solved", "RUF", weights="F=2.5,U=1.5", all=True)
    best, forms = brute(s, lambda x: x.is_solved(), moves, 6, cost=lambda m: float(c.cost(m)))
    assert r.optimum == best and engine_forms(r) == forms


def test_a_family_allowing_one_quarter_may_repeat():
    s = alg_state("R2 U")
    moves = resolve_moveset("R',U").moves
    r = find(s, "solved", "R',U", all=True)
    best, forms = brute(s, lambda x: x.is_solved(), moves, 4, repeat=("R",))
    assert r.optimum == best == 3 and engine_forms(r, ("R",)) == forms


def _auf_met(goal, face="U"):
    turns = [alg_state(f"{face}{p}") for p in ("", "'", "2")]

    def met(x):
        return goal.is_met(x) or any(goal.is_met(x * t) for t in turns)
    return met


@pytest.mark.parametrize("auf", ["pre", "post", "both"])
def test_up_to_auf(auf):
    (goal,) = resolve_goal("oll")
    s = alg_state("R U R' U")
    r = find(s, "oll", "RUF", auf=auf, all=True)
    moves = resolve_moveset("RUF").moves
    starts = [s] if auf == "post" else [s * alg_state(a) for a in ("", "U", "U2", "U'")]
    met = _auf_met(goal) if auf != "pre" else goal.is_met
    results = [brute(x, met, moves, 4) for x in starts]
    best = min(b for b, _ in results if b is not None)
    forms = set().union(*(f for b, f in results if b == best))
    forms = {f for f in forms if not (auf != "post" and f and f[0][0] == "U")}
    forms = {f for f in forms if not (auf != "pre" and f and f[-1][0] == "U")}
    assert r.optimum == best and engine_forms(r) == forms
    for sol in r.solutions:
        assert goal.is_met(s * alg_state(" ".join(map(str, sol.full()))))


def test_any_keeps_the_best_face():
    s = alg_state("R U F' L2 D B R2 U' F D2")
    r = find(s, "cross:any", "all")
    each = {g.label: find(s, g, "all").optimum for g in resolve_goal("cross:any")}
    assert r.optimum == min(each.values()) and each[r.best.goal] == r.optimum


def test_the_n_best_are_ranked_by_finger_tricks():
    s = alg_state("R U R' U'")
    r = find(s, "solved", "RUF", n=5)
    assert len(r.solutions) == 5
    keys = [(x.cost, x.ergonomics) for x in r.solutions]
    assert keys == sorted(keys) and r.solutions[0].text == "U R U' R'"


def test_a_held_rotation_is_searched_as_held():
    s = alg_state("x R U F")
    r = find(s, "cross", "all", all=True)
    (goal,) = resolve_goal("cross", s)
    best, forms = brute(s, goal.is_met, resolve_moveset("all").moves, 3)
    assert r.optimum == best and engine_forms(r) == forms


def test_htr_from_domino_reduction():
    s = alg_state("R2 U F2 D' B2")
    (goal,) = resolve_goal("htr")
    r = find(s, "htr", "dr-ud", all=True)
    best, forms = brute(s, goal.is_met, resolve_moveset("dr-ud").moves, 4)
    assert r.optimum == best and engine_forms(r) == forms


def test_unreachable_goals_are_refused():
    with pytest.raises(Unreachable, match="cannot be reached with <U,D,R,L,F2,B2>"):
        find(alg_state("F"), "eo", "eo-fb")
    with pytest.raises(GoalError, match="no AUF face"):
        find(alg_state("F"), "cross", "all", auf="pre")


def test_max_length_and_not_found():
    r = find(alg_state("R U F' R2 U'"), "solved", "RUF", max_length=3)
    assert r.status == "not found" and not r.solutions and r.lower_bound >= 4


def test_fold_gathers_mirrors_and_inverses():
    # the H permutation of the edges: its optimal solutions come in mirror/inverse families
    s = alg_state("M2 U M2 U2 M2 U M2")
    r = find(s, "solved", "R,U,M", metric="stm", all=True, fold=True)
    assert r.solutions and all(x.variants is not None for x in r.solutions)
    plain = find(s, "solved", "R,U,M", metric="stm", all=True)
    assert len(r.solutions) < len(plain.solutions)
    named = {x.text for x in r.solutions} | {t for x in r.solutions for _, t in x.variants}
    assert named == {x.text for x in plain.solutions}


def test_solutions_stream_as_found():
    seen = []
    r = find(alg_state("R U F"), "cross", "all", all=True, on_solution=seen.append)
    assert {x.text for x in seen} == {x.text for x in r.solutions}


def test_parse_moves_of_solutions_read_back():
    r = find(alg_state("R U r' M"), "solved", "r,U,M,R", metric="stm")
    s = alg_state("R U r' M")
    assert (s * alg_state(r.best.text)).is_solved()
    assert parse_moves(r.best.text) == list(r.best.moves)


@pytest.mark.parametrize("scramble", ["R U R'", "F' U' F U", "R U2 R' D"])
def test_every_optimal_f2l_pair_on_shallow_then_full_pair_tables(scramble, monkeypatch,
                                                                 fresh_dirs):
    """An F2L pair's search starts on shallow pair tables (only as deep as short searches
    read them) and later changes to the full ones: both give every optimal solution."""
    monkeypatch.setattr(plan, "SHALLOW_FROM", 1 << 10)
    forget_setups()
    forget_cache()
    s = alg_state(scramble)
    (goal,) = resolve_goal("f2l-pair:FR")
    best, forms = brute(s, goal.is_met, resolve_moveset("all").moves, 4)
    (p,) = problems_for(s, goal, "all", CostModel("htm"))
    assert p.shallow_pairs
    r = find(s, goal, "all", all=True, problems=[p])
    assert r.optimal and r.optimum == best and engine_forms(r) == forms
    p.want_ball(10 ** 9, 0)
    assert not p.shallow_pairs
    r = find(s, goal, "all", all=True, problems=[p])
    assert r.optimal and r.optimum == best and engine_forms(r) == forms
