"""Pos(n) counting: the kernels against the model's symmetry, the counts against a plain BFS."""

import json

import numpy as np
import pytest
from hypothesis import given, strategies as st

from cubelab.cube.moves import FACE_MOVES, move_state
from cubelab.cube.random_states import random_state
from cubelab.cube.state import CubeState
from cubelab.cube.symmetry import conjugate, conjugate_all, morph
from cubelab.tables import classkeys, counting, cubies
from cubelab.tui.cli import main

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def _row(state):
    return cubies.state_row(state)


def _rows_of_conjugates(state):
    cp, co, ep, eo, _ = conjugate_all(state)
    return np.concatenate([cp, co, ep, eo], axis=1).astype(np.uint8)


@given(seeds)
def test_conjugate_kernel_matches_the_model(seed):
    state = random_state(seed)
    sym = cubies.symmetry_rows()
    out = np.empty(40, np.uint8)
    expected = _rows_of_conjugates(state)
    for k in range(48):
        cubies.conjugate_into(_row(state), sym, k, out)
        assert np.array_equal(out, expected[k]), k


@given(seeds, seeds)
def test_multiply_and_invert_match_the_model(s1, s2):
    a, b = random_state(s1), random_state(s2)
    out = np.empty(40, np.uint8)
    cubies.multiply(_row(a), _row(b), out)
    assert np.array_equal(out, _row(a * b))
    cubies.invert(_row(a), out)
    assert np.array_equal(out, _row(a.inverse()))


def _canonical(state):
    row, inv = _row(state), _row(state.inverse())
    best = np.empty(40, np.uint8)
    a, b = classkeys.canonicalize(row, inv, cubies.symmetry_rows(), best)
    return best, a, b


@given(seeds)
def test_canonical_form_is_the_least_image_and_counts_its_stabiliser(seed):
    state = random_state(seed)
    images = np.concatenate([_rows_of_conjugates(state), _rows_of_conjugates(state.inverse())])
    order = np.lexsort(images.T[::-1])
    least = images[order[0]]
    best, a, b = _canonical(state)
    assert np.array_equal(best, least)
    assert a == int((images[:48] == least).all(axis=1).sum())
    assert b == int((images[48:] == least).all(axis=1).sum())


@pytest.mark.parametrize("alg", ["", "R", "U2", "R U R' U'", "R2 L2 U2 D2 F2 B2",
                                 "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2"])
def test_class_sizes_agree_with_morph(alg):
    from cubelab.cube.moves import alg_state
    state = alg_state(alg)
    best, a, b = _canonical(state)
    bucket, key = classkeys.encode(best, a, b)
    positions, classes = classkeys.class_sizes(key)
    assert positions == morph(state)
    orbit48 = np.unique(_rows_of_conjugates(state), axis=0).shape[0]
    assert classes == positions // orbit48


@given(seeds)
def test_encode_decode_round_trip(seed):
    best, a, b = _canonical(random_state(seed))
    bucket, key = classkeys.encode(best, a, b)
    assert 0 <= bucket < classkeys.N_BUCKETS
    out = np.empty(40, np.uint8)
    classkeys.decode(bucket, key, out)
    assert np.array_equal(out, best)


# ---- the counts against a plain breadth-first search over positions -------------------------

def _plain_bfs(metric, depth):
    """Every position at each distance, as rows, by brute force over positions."""
    moves = [move_state(m) for m in FACE_MOVES if metric == "htm" or m.amount != 2]
    ident = CubeState.identity()
    seen = {_row(ident).tobytes()}
    frontier = _row(ident)[None, :]
    levels = [frontier]
    for _ in range(depth):
        out = []
        for m in moves:
            cp, co = frontier[:, 0:8], frontier[:, 8:16]
            ep, eo = frontier[:, 16:28], frontier[:, 28:40]
            mcp, mep = m.cp.astype(np.intp), m.ep.astype(np.intp)
            out.append(np.concatenate([cp[:, mcp], (co[:, mcp] + m.co) % 3,
                                       ep[:, mep], eo[:, mep] ^ m.eo], axis=1))
        cand = np.unique(np.concatenate(out), axis=0)
        fresh = [r for r in cand if r.tobytes() not in seen]
        seen.update(r.tobytes() for r in fresh)
        frontier = np.array(fresh, dtype=np.uint8)
        levels.append(frontier)
    return levels


def _state(row):
    return CubeState(row[0:8], row[8:16], row[16:28], row[28:40])


@pytest.mark.parametrize("metric,depth", [("qtm", 5), ("htm", 4)])
def test_counts_match_a_plain_bfs(metric, depth):
    counts = counting.count_positions(metric, depth)
    levels = _plain_bfs(metric, depth)
    assert [c.positions for c in counts] == [len(lv) for lv in levels]
    assert [c.positions for c in counts] == list(counting.PUBLISHED[metric][:depth + 1])
    # Classes: count distinct canonical forms over all positions of each level.
    sym = cubies.symmetry_rows()
    best, inv = np.empty(40, np.uint8), np.empty(40, np.uint8)
    for c, level in zip(counts, levels):
        forms96 = set()
        for row in level:
            cubies.invert(row, inv)
            classkeys.canonicalize(row, inv, sym, best)
            forms96.add(best.tobytes())
        assert c.classes_sym_inv == len(forms96)


@pytest.mark.parametrize("metric,depth", [("qtm", 3), ("htm", 2)])
def test_class_counts_match_the_model(metric, depth):
    """Classes as sums of 1/orbit size, with orbits from cubelab.cube.symmetry alone."""
    counts = counting.count_positions(metric, depth)
    for c, level in zip(counts, _plain_bfs(metric, depth)):
        sym48 = sym96 = 0.0
        for row in level:
            s = _state(row)
            sym48 += 1 / np.unique(_rows_of_conjugates(s), axis=0).shape[0]
            sym96 += 1 / morph(s)
        assert c.classes_sym == round(sym48)
        assert c.classes_sym_inv == round(sym96)


def test_one_thread_and_two_agree():
    one = counting.count_positions("htm", 4, threads=1)
    two = counting.count_positions("htm", 4, threads=2)
    assert [c.as_dict() | {"seconds": 0} for c in one] == [c.as_dict() | {"seconds": 0} for c in two]


def test_small_batches_give_the_same_counts():
    whole = counting.count_positions("qtm", 6)
    batched = counting.count_positions("qtm", 6, batch=7)
    assert [(c.positions, c.classes_sym, c.classes_sym_inv) for c in whole] == \
        [(c.positions, c.classes_sym, c.classes_sym_inv) for c in batched]


def test_merge_is_a_union():
    e = counting.Level.empty()
    one = counting.identity_level()
    level1, _ = counting.next_level(one, e, e, "htm", depth=1)
    both = counting.merge(level1, one, 2, np.zeros(1, np.int32))
    assert len(both) == len(level1) + 1
    assert len(counting.merge(both, level1, 2, np.zeros(1, np.int32))) == len(both)


def test_cancel_stops_the_count():
    cancel = np.ones(1, np.int32)
    with pytest.raises(counting.Cancelled):
        counting.count_positions("qtm", 7, cancel=cancel)


def test_estimates_grow_with_depth():
    est = [counting.estimated_bytes("htm", d) for d in range(1, 12)]
    assert est == sorted(est)
    assert est[7] < 2 * 2**30           # depth 8 fits easily in 8 GB


# ---- the command ---------------------------------------------------------------------------

def test_count_command_json(capsys):
    assert main(["count", "--metric", "qtm", "--depth", "4", "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["depth"] for r in records] == [0, 1, 2, 3, 4]
    assert [r["positions"] for r in records] == [1, 12, 114, 1068, 10011]
    assert [r["classes_sym"] for r in records] == [1, 1, 5, 25, 219]
    assert all(r["positions"] == r["published"] for r in records)


def test_count_command_text(capsys):
    assert main(["count", "--metric", "htm", "--depth", "3"]) == 0
    out = capsys.readouterr().out
    assert "3,240" in out and "= published" in out and "!=" not in out


@pytest.mark.parametrize("args", [["--depth", "-1"], ["--depth", "99"], ["--threads", "0"],
                                  ["--depth", "13", "--metric", "htm"]])
def test_count_command_rejects_bad_input(args, capsys):
    assert main(["count", *args]) == 2
    assert "cubelab:" in capsys.readouterr().err
