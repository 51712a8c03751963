"""The goal tables: component walks, exact distances, the ball's admissible bound, the store
(made on demand, listed, registered again from their files, rebuilt when damaged), and the
compiled verification against the model's own goal test."""

from __future__ import annotations

import numpy as np
import pytest

from cubelab.cube.costs import CostModel
from cubelab.cube.goal_catalog import resolve_goal, resolve_moveset
from cubelab.cube.goal_codes import code_map, items_of, targets
from cubelab.cube.move_actions import actions
from cubelab.cube.moves import alg_state, apply_moves
from cubelab.cube.notation import parse_moves
from cubelab.cube.random_states import face_scramble
from cubelab.solvers.goals import problem as problem_module
from cubelab.solvers.goals.problem import SolutionBuffer
from cubelab.solvers.goals.search import find, problems_for
from cubelab.tables import catalog, spec as spec_register, store
from cubelab.tables.goals import plan, specs
from cubelab.tables.goals.components import enumerate_component, table_keys
from cubelab.tables.goals.distances import single_distances

CROSS_DEPTHS = [1, 15, 158, 1394, 9809, 46381, 97254, 34966, 102]
"""How many of the 190,080 crosses need 0..8 face turns (a well-known count)."""


def _component(goal_name, moves, orbit):
    (goal,) = resolve_goal(goal_name)
    act = actions(resolve_moveset(moves))
    items = [it for it in items_of(goal.goal) if it.orbit == orbit]
    full = np.array([code_map(orbit, "full", e) for e in act.elements])
    slot = np.array([code_map(orbit, "slot", e) for e in act.elements])
    seeds = targets(goal.goal, items, [goal.goal.rotations[0]])
    table = enumerate_component([0 if i.kind == "full" else 1 for i in items],
                                [i.group for i in items], full, slot, seeds)
    inverse = [act.elements.index(e.inverse()) for e in act.elements]
    return table, inverse, len(act.elements)


def test_the_cross_component_and_its_exact_distances():
    table, inverse, n = _component("cross", "all", "e")
    assert table.shape == (190080, 2 + 18)
    dist = single_distances(table, inverse, [1] * n, [0])
    assert np.bincount(dist).tolist() == CROSS_DEPTHS


def test_components_hold_only_what_the_moves_reach():
    # the six <R,U> corners: 120 permutations of 720, 243 orientations of 729
    table, _, _ = _component("solved", "R,U", "c")
    assert table.shape[0] == 120 * 243
    keys = table_keys(table)
    assert len(np.unique(keys)) == len(keys)


def test_the_ball_never_overestimates():
    tg = resolve_goal("solved")[0]
    for seed in range(6):
        s = apply_moves(alg_state(""), face_scramble(seed, 9, "RUF"))
        (p,) = problems_for(s, tg, "R,U,F", CostModel("htm"))
        p.want_ball(10**9, 0)
        if p.plan.ball is None:
            continue
        r = find(s, tg, "R,U,F")
        h = p.lower_bound()
        assert h <= r.optimum


def test_goal_tables_are_registered_listed_and_found_again(fresh_dirs):
    problem_module.forget_setups()
    store.forget_cache()
    find(alg_state("R U F"), "cross", "all")
    (p,) = problems_for(alg_state("R U F"), "cross", "all", CostModel("htm"))
    names = [s.name for s in p.plan.specs()]
    assert names and all(n.startswith("goal-") for n in names)
    assert set(names) <= set(catalog.registered())
    for n in names:
        assert store.table_status(n)["built"]
    saved = {n: spec_register.known_specs()[n] for n in names}
    for n in names:
        spec_register.unregister(n)
    assert set(specs.register_stored()) >= set(names)
    for n in names:
        assert spec_register.known_specs()[n].params_key == saved[n].params_key
    assert not any(name.startswith("goal-") for name in catalog.clear_stray_files())


def test_a_damaged_goal_table_is_rebuilt(fresh_dirs):
    problem_module.forget_setups()
    store.forget_cache()
    find(alg_state("R U F"), "cross", "all")
    (p,) = problems_for(alg_state("R U F"), "cross", "all", CostModel("htm"))
    name = next(s.name for s in p.plan.specs() if s.name.startswith("goal-single-"))
    path = store.table_path(name)
    data = bytearray(path.read_bytes())
    data[-10] ^= 0xFF
    path.write_bytes(bytes(data))
    store.forget_cache()
    problem_module.forget_setups()
    messages = []
    r = find(alg_state("R U F"), "cross", "all", log=messages.append)
    assert any("rebuilding" in m and name in m for m in messages)
    assert r.optimal and resolve_goal("cross")[0].is_met(alg_state("R U F " + r.best.text))


@pytest.mark.parametrize("goal, moves, auf", [
    ("cross", "all", "none"), ("oll", "R,U,F", "post"), ("roux-fb", "R,U,M,r", "none"),
    ("htr", "dr-ud", "none"), ("eo:ud", "all", "none"), ("cross:U", "R,U,M,y", "none"),
])
def test_the_compiled_check_agrees_with_the_model(goal, moves, auf, monkeypatch):
    monkeypatch.setattr(plan, "BALL_NODES", 50_000)
    rng = np.random.default_rng(7)
    moveset = resolve_moveset(moves)
    start = apply_moves(alg_state(""), [moveset.moves[int(i)]
                                        for i in rng.integers(len(moveset.moves), size=7)])
    (tg,) = resolve_goal(goal, start)
    (p,) = problems_for(start, tg, moveset, CostModel("etm"), auf)
    buf = SolutionBuffer(64)
    seqs = []
    for i in range(64):
        n = int(rng.integers(0, 8))
        seq = [int(rng.integers(len(p.moves))) for _ in range(n)]
        seqs.append(seq)
        buf.moves[i, :n] = seq
        buf.length[i] = n
        buf.start[i] = 0
    buf.count[0] = 64
    for (met, post), seq in zip(p.check(buf, 0, 64), seqs):
        s = apply_moves(start, [p.moves[m] for m in seq])
        want = tg.is_met(s)
        if not want and auf == "post":
            turns = [x for x in parse_moves("U U2 U'") if tg.is_met(s * alg_state(str(x)))]
            want = bool(turns)
        assert met == want
        if met and post is not None:
            assert tg.is_met(apply_moves(s, [post]))


def test_a_shallow_pair_table_is_a_full_one_cut_at_its_depth(fresh_dirs):
    """The shallow pair table of an F2L pair (cross edges with the slot's edge, and with its
    corner) against the full table of the same pair: equal up to the depth it reached, that
    depth + 1 beyond, never above the distance, and far from full depth."""
    problem_module.forget_setups()
    store.forget_cache()
    (p,) = problems_for(alg_state("R U F"), "f2l-pair:FR", "all", CostModel("htm"))
    assert p.shallow_pairs and any(s is not None for s in p.plan.shallow)
    checked = 0
    for (_, _, full_spec), shallow_spec in zip(p.plan.pairs, p.plan.shallow):
        if shallow_spec is None:
            continue
        full = store.load_or_build(full_spec)
        shallow = store.load_or_build(shallow_spec)
        reached = full != 255
        depth = int(shallow[reached].max()) - 1
        assert 0 < depth < int(full[reached].max()) - 1
        near = reached & (full <= depth)
        assert np.array_equal(shallow[near], full[near])
        assert np.all(shallow[reached & (full > depth)] == depth + 1)
        assert np.all(shallow[reached] <= full[reached])
        assert store.table_status(shallow_spec)["built"]
        checked += 1
    assert checked == 2


def test_an_f2l_pair_reads_the_cross_tables(fresh_dirs):
    """The cross's four edges are one component of every goal that contains the cross: an F2L
    pair after a cross builds no edge table of its own."""
    problem_module.forget_setups()
    store.forget_cache()
    (cross,) = problems_for(alg_state("R U F"), "cross", "all", CostModel("htm"))
    (pair,) = problems_for(alg_state("R U F"), "f2l-pair:FR", "all", CostModel("htm"))
    big = [c.spec.name for c in pair.plan.components if c.estimate > 1000]
    assert big == [cross.plan.components[0].spec.name]
    assert cross.plan.singles[0].name in {s.name for s in pair.plan.singles}


@pytest.mark.parametrize("goal_name, moves, orbit", [
    ("cross", "all", "e"), ("roux-fb", "all", "e"), ("roux-fb", "R,U,M,r", "c"),
    ("eo:ud", "all", "e"),
])
def test_the_plain_index_walk_numbers_as_the_hash_walk(goal_name, moves, orbit, monkeypatch):
    """Components with few code tuples are walked with a plain index instead of the hash
    table: the walk, and so the table (every coordinate and move column), is the same."""
    from cubelab.tables.goals import components
    dense, _, _ = _component(goal_name, moves, orbit)
    monkeypatch.setattr(components, "DENSE_MAX", 0)
    hashed, _, _ = _component(goal_name, moves, orbit)
    assert np.array_equal(dense, hashed)
