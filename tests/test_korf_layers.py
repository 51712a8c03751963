"""The layer coordinate and table of Korf's `layers` sets: coordinates, move, symmetry and
premove tables against the cubie model; the table (small variant, built a few moves deep)
against a plain breadth-first search of states."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubelab.cube.moves import FACE_MOVES, alg_state, move_state
from cubelab.cube.random_states import random_state
from cubelab.cube.state import CubeState
from cubelab.cube.symmetry import conjugate
from cubelab.tables import udsym
from cubelab.tables.korf import coords as kc
from cubelab.tables.korf import layercoords as lc
from cubelab.tables.korf import layertable as ltab
from helpers_model import move_ball

seeds = st.integers(0, 2**32 - 1)


@pytest.mark.parametrize("corners", [True, False])
def test_class_counts_match_the_layout(corners):
    assert lc.layer_tables(corners).n_classes == ltab.LAYER_CLASSES[corners]


@settings(max_examples=25, deadline=None)
@given(seeds, st.booleans())
def test_layer_move_table_follows_the_cubie_model(seed, corners):
    s = random_state(seed)
    lt, mt = lc.layer_tables(corners), kc.move_tables()
    v, f, t = lc.layer_coords(s, lt.n_csep)
    for m, move in enumerate(FACE_MOVES):
        assert lc.layer_coords(s * move_state(move), lt.n_csep) == (
            lt.layer_move[v, m], mt.flip[f, m], mt.twist[t, m])


@settings(max_examples=25, deadline=None)
@given(seeds, st.booleans())
def test_layer_symmetry_tables_follow_conjugation(seed, corners):
    s = random_state(seed)
    lt = lc.layer_tables(corners)
    v, f, t = lc.layer_coords(s, lt.n_csep)
    for k in range(udsym.N_SYM):
        assert lc.layer_coords(conjugate(s, k), lt.n_csep) == (
            lt.layer_conj[v, k], lt.flip_conj[k, f] ^ lt.flip_mask[v, k], lt.twist_conj[k, t])
    # the class representative is what the symmetry noted in info makes of the value
    x = int(lt.info[v])
    assert lt.layer_conj[v, (x >> 11) & 15] == lt.rep[x >> 15]


@settings(max_examples=10, deadline=None)
@given(seeds)
def test_premoved_u_and_d_turns_keep_the_coset(seed):
    # the table's distance is to the group of U, D and the piece shuffles within each layer: a
    # turn of U or D made before the position does not change how far it is from that group
    s = random_state(seed)
    for move in ("U", "U2", "U'", "D", "D2", "D'"):
        assert lc.layer_coords(alg_state(move) * s) == lc.layer_coords(s)


@settings(max_examples=25, deadline=None)
@given(seeds)
def test_the_inverse_is_carried_by_premoves_and_read_by_contributions(seed):
    s = random_state(seed)
    pre = lc.premove_tables()
    ccon, econ = lc.axis_contributions()
    srank, crank = lc.rank_luts()
    contents = lc.contents_of(s.inverse())
    for m, move in enumerate(FACE_MOVES):
        after = np.array([pre[m, c, int(i >= 8)] for i, c in enumerate(contents)])
        assert (after == lc.contents_of((s * move_state(move)).inverse())).all()
    for a, expected in enumerate(lc.axis_layer_coords(s.inverse())):
        cs = sum(int(ccon[a, j, contents[j]]) for j in range(8))
        es = sum(int(econ[a, j, contents[8 + j]]) for j in range(12))
        got = (lc.layer_from_sums(cs, es, srank, crank, lc.N_CSEP), es & 2047, cs & 4095)
        assert got == expected


# ---- the small table, built a few moves deep ------------------------------------------------

@pytest.fixture(scope="module")
def small4():
    return ltab.build_layers(None, 4, corners=False)


def _bound(table, s, base):
    lt = lc.layer_tables(False)
    cslot = ltab.conj_slots(lt.twist_conj)
    v, f, t = lc.layer_coords(s, 1)
    return int(ltab.lower_bound(table, ltab.entry_index(v, f, t, lt.info, lt.flip_conj, cslot),
                                base))


def test_small_layer_table_reads_back_the_coset_distances(small4):
    table, stats = small4
    base = ltab.table_base(4)
    assert base == 2 and stats.counts[:4] == [1, 1, 5, 51]
    first: dict[tuple, tuple[int, CubeState]] = {}
    for s, d in move_ball(3, FACE_MOVES).items():
        key = lc.layer_coords(s, 1)
        if key not in first or d < first[key][0]:
            first[key] = (d, s)
    for i, (d, s) in enumerate(first.values()):
        got = _bound(table, s, base)
        # beyond the base the entry is exact; up to it, the line's minimum (never more)
        assert got == d if d > base else got <= d
        if i % 20 == 0:
            assert all(_bound(table, conjugate(s, k), base) == got for k in range(udsym.N_SYM))
    # a coset not reached in 3 moves reads 4 (exact) or 5 (deeper than the build went)
    assert _bound(table, random_state(3), base) in (4, 5)


@pytest.mark.slow
def test_forward_and_backward_levels_make_the_same_table(monkeypatch):
    """The two ways of doing a level are separate kernels (forward: the frontier's neighbours,
    staged and set with their symmetric images; backward: each unknown entry's probes): the
    small variant built to its end, its last levels backward as the driver chooses, equals the
    same table built with every level forward, byte for byte, line minima included."""
    from cubelab.tables import bfs
    chosen, chosen_stats = ltab.build_layers(None, None, corners=False)
    assert "backward" in chosen_stats.modes
    monkeypatch.setattr(bfs, "_backward_is_cheaper", lambda *args: False)
    forward, forward_stats = ltab.build_layers(None, None, corners=False)
    assert set(forward_stats.modes[1:]) == {"forward"}
    assert forward_stats.counts == chosen_stats.counts
    assert np.array_equal(forward, chosen)


def test_the_table_base_keeps_a_truncated_table_admissible():
    assert ltab.table_base(None) == ltab.BASE
    assert ltab.table_base(5) == 3
    with pytest.raises(ValueError):
        ltab.table_base(1)


def test_narrowed_keeps_values_and_refuses_what_does_not_fit():
    from cubelab.tables.memory import narrowed
    a = np.array([[0, 7, 65535], [34649, 1, 2]], np.int32)
    n = narrowed(a)
    assert n.dtype == np.uint16 and not n.flags.writeable
    assert np.array_equal(n.astype(np.int64), a)
    for wide in (np.array([-1, 3], np.int32), np.array([65536, 0], np.int64)):
        assert narrowed(wide) is wide
