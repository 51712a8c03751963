"""Korf's tables: coordinates and their move and symmetry tables against the cubie model, and
the databases (built only a few moves deep) against a plain breadth-first search of states."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubelab.cube.moves import FACE_MOVES, alg_state, move_state
from cubelab.cube.random_states import random_state
from cubelab.cube.state import CubeState
from cubelab.cube.symmetry import conjugate
from cubelab.tables.korf import coords as kc
from cubelab.tables.korf import specs as kt
from cubelab.tables import udsym
from cubelab.tables.packed import get2, get4, unpack4
from helpers_model import move_ball

random_states = st.integers(0, 2**32 - 1).map(random_state)


@pytest.fixture(scope="module")
def ball3():
    return move_ball(3, FACE_MOVES)


# ---- coordinates ---------------------------------------------------------------------------

def test_sizes_spelt_out_in_the_registry_module_match_the_coordinates():
    assert kt.N_CORNERS == kc.N_CORNERS == 88_179_840
    assert kt.N_EDGE6 == kc.N_EDGE6 == 42_577_920
    assert kt.PHASE_CLASSES == kc.sym_tables().n_classes
    from cubelab.tables.korf.slicephase import n_bytes
    assert kt.PHASE_BYTES == n_bytes()


@settings(max_examples=30)
@given(random_states)
def test_move_tables_follow_the_cubie_model(s):
    mt = kc.move_tables()
    ss, f, t = kc.phase_coords(s)
    corner = kc.corner_coord(s)
    cubies = kc.edge_cubies(s)
    for m, move in enumerate(FACE_MOVES):
        after = s * move_state(move)
        assert kc.phase_coords(after) == (mt.sslice[ss, m], mt.flip[f, m], mt.twist[t, m])
        expected = int(mt.cperm[corner // 2187, m]) * 2187 + int(mt.twist[t, m])
        assert kc.corner_coord(after) == expected
        assert (mt.edge_cubie[m, cubies] == kc.edge_cubies(after)).all()


@settings(max_examples=30)
@given(random_states)
def test_symmetry_tables_follow_conjugation(s):
    sym = kc.sym_tables()
    ss, f, t = kc.phase_coords(s)
    for k in range(16):
        expected = kc.phase_coords(conjugate(s, k))
        assert expected == (sym.sslice_conj[ss, k], sym.flip_conj[k, f] ^ sym.flip_mask[ss, k],
                            sym.twist_conj[k, t])
    # the class representative is what the chosen symmetry makes of the state
    k = sym.ss_sym[ss]
    assert sym.sslice_conj[ss, k] == sym.rep[sym.ss_cls[ss]]


def test_stabilisers_fix_their_representative():
    sym = kc.sym_tables()
    for c, r in enumerate(sym.rep):
        fixers = sym.stab[c, :sym.n_stab[c]]
        assert 0 in fixers
        assert all(sym.sslice_conj[r, k] == r for k in fixers)
    solved_ss = kc.phase_coords(CubeState.identity())[0]
    assert sym.n_stab[sym.ss_cls[solved_ss]] == 16


def test_axis_symmetries_carry_each_axis_onto_ud():
    maps = kc.axis_move_maps()
    assert (maps[0] == np.arange(18)).all()
    for axis, face in ((1, 1), (2, 2)):   # R and F
        for amount in range(3):
            assert maps[axis, 3 * face + amount] // 3 in (0, 3)
    # the axis coordinates are those of the conjugated state
    s = alg_state("R U F' L2 D B'")
    for k, coords in zip(udsym.axis_symmetries(), kc.axis_phase_coords(s)):
        assert coords == kc.phase_coords(conjugate(s, k))


# ---- databases built a few moves deep ------------------------------------------------------

def _first_reached(states: dict[CubeState, int], coord) -> dict[int, int]:
    best: dict[int, int] = {}
    for s, d in states.items():
        c = coord(s)
        best[c] = min(best.get(c, 99), d)
    return best


def test_corner_database_matches_breadth_first_search(ball3):
    table, stats = _build("corners", 3)
    expected = _first_reached(ball3, kc.corner_coord)
    for c, d in expected.items():
        assert get4(table, c) == d
    assert stats.counts == [1, 18, 243, 2874]
    values = unpack4(table, kc.N_CORNERS)
    assert (values <= 3).sum() == len(expected)
    assert set(np.unique(values).tolist()) == {0, 1, 2, 3, 15}


@pytest.mark.parametrize("first", [0, 6])
def test_edge_databases_match_breadth_first_search(ball3, first):
    table, stats = _build("edges", 3, first)
    expected = _first_reached(ball3, lambda s: kc.edge6_coord(s, first))
    for c, d in expected.items():
        assert get4(table, c) == d
    assert sum(stats.counts) == len(expected)


def _build(kind, depth, first=0):
    from cubelab.tables.korf import pdb as korf_pdb
    if kind == "corners":
        return korf_pdb.build_corners(None, depth)
    return korf_pdb.build_edges(first, None, depth)


@pytest.fixture(scope="module")
def phase4():
    from cubelab.tables.korf.slicephase import build_phase
    return build_phase(None, 4)


def _phase_value(table, s):
    from cubelab.tables.korf.slicephase import phase_entry
    sym = kc.sym_tables()
    ss, f, t = kc.phase_coords(s)
    return get2(table, phase_entry(ss, f, t, sym.ss_cls, sym.ss_sym, sym.ss_fmask, sym.flip_conj,
                                   sym.twist_conj))


def test_phase_table_matches_breadth_first_search(phase4, ball3):
    table, stats = phase4
    assert stats.counts[:4] == [1, 2, 12, 119]
    best = _first_reached(ball3, kc.phase_coords)
    by_coord = {}
    for s in ball3:
        by_coord.setdefault(kc.phase_coords(s), s)
    for i, (coords, d) in enumerate(best.items()):
        s = by_coord[coords]
        assert _phase_value(table, s) == d % 3
        if i % 50 == 0:
            # symmetric images read entries that were filled as the same class
            for k in range(16):
                assert _phase_value(table, conjugate(s, k)) == d % 3


def test_exact_distances_are_read_back_from_the_mod_3_table(phase4, ball3):
    from cubelab.solvers.korf.strong import phase_distance
    from cubelab.tables.korf.slicephase import solved_coords
    table, _ = phase4
    sym, mt = kc.sym_tables(), kc.move_tables()
    best = _first_reached(ball3, kc.phase_coords)
    for i, ((ss, f, t), d) in enumerate(best.items()):
        if i % 7:
            continue
        got = phase_distance(table, ss, f, t, 5, sym.ss_cls, sym.ss_sym, sym.ss_fmask,
                             sym.flip_conj, sym.twist_conj, mt.sslice, mt.flip, mt.twist,
                             solved_coords()[0])
        assert got == d
    # beyond the depth the table was built to, the walk reports depth + 1
    far = kc.phase_coords(random_state(3))
    assert phase_distance(table, *far, 5, sym.ss_cls, sym.ss_sym, sym.ss_fmask, sym.flip_conj,
                          sym.twist_conj, mt.sslice, mt.flip, mt.twist, solved_coords()[0]) == 5


def test_backward_levels_agree_with_forward_levels():
    """Each kernel pair, one level deeper than a forward-built table, on a few rows."""
    from cubelab.tables.korf import pdb as korf_pdb
    mt = kc.move_tables()
    cancel = np.zeros(1, np.int32)
    table, _ = korf_pdb.build_edges(0, None, 4)
    p = kc.edge6_coord(alg_state("R U F L"), 0) // 64
    lo, hi = max(0, p - 500), p + 500
    saved = table[lo * 32:hi * 32].copy()
    korf_pdb.edge_backward(table, 4, lo, hi, mt.edge_cubie, cancel)
    backward = table[lo * 32:hi * 32].copy()
    table[lo * 32:hi * 32] = saved
    korf_pdb.edge_forward(table, 4, 0, kc.N_PLACE6, mt.edge_cubie, cancel)
    assert (table[lo * 32:hi * 32] == backward).all()
    assert (backward != saved).any()

    table, _ = korf_pdb.build_corners(None, 4)
    c = kc.corner_coord(alg_state("R U F L")) // 2187
    lo, hi = c - c % 2, c - c % 2 + 64
    a, b = lo * 2187 // 2, hi * 2187 // 2
    saved = table[a:b].copy()
    korf_pdb.corner_sweep(table, 4, lo, hi, mt.cperm, mt.twist, True, cancel)
    backward = table[a:b].copy()
    table[a:b] = saved
    korf_pdb.corner_sweep(table, 4, 0, kc.N_CPERM, mt.cperm, mt.twist, False, cancel)
    assert (table[a:b] == backward).all()
    assert (backward != saved).any()


def test_phase_backward_level_agrees_with_forward_level(phase4):
    from cubelab.tables.korf import slicephase as kp
    table, _ = phase4
    table = table.copy()
    sym, mt = kc.sym_tables(), kc.move_tables()
    cancel = np.zeros(1, np.int32)
    s = alg_state("R U F L B")
    ss, f, t = kc.phase_coords(s)
    row = kp.phase_entry(ss, f, t, sym.ss_cls, sym.ss_sym, sym.ss_fmask, sym.flip_conj,
                         sym.twist_conj) // kp.ROW
    lo, hi = row - row % 64, row - row % 64 + 64
    a, b = lo * kp.ROW_BYTES, hi * kp.ROW_BYTES
    saved = table[a:b].copy()
    kp.phase_backward(table, 4, lo, hi, sym.rep, sym.ss_cls, sym.ss_sym, sym.ss_fmask,
                      sym.flip_conj, sym.twist_conj, mt.sslice, mt.flip, mt.twist, cancel)
    backward = table[a:b].copy()
    table[a:b] = saved
    kp.phase_forward(table, 4, 0, kp.n_rows(), 0, kt.PHASE_CLASSES, sym.rep, sym.stab,
                     sym.n_stab, sym.rep_fmask,
                     sym.ss_cls, sym.ss_sym, sym.ss_fmask, sym.flip_conj, sym.twist_conj,
                     mt.sslice, mt.flip, mt.twist, cancel)
    assert (table[a:b] == backward).all()
    assert (backward != saved).any()


def test_table_sets_name_their_tables():
    from cubelab.solvers.korf.sets import korf_set
    assert [s.name for s in korf_set("korf1997").tables().specs] == [
        "korf.corners", "korf.edges-a", "korf.edges-b"]
    assert [s.name for s in korf_set("strong").tables().specs] == ["korf.phase", "korf.corners"]
    assert korf_set("strong").tables(5).specs[0].name == "korf.phase-d5"
    with pytest.raises(ValueError):
        korf_set("huge")
    from cubelab.tables.catalog import registered
    assert {"korf.phase", "korf.corners", "korf.edges-a", "korf.edges-b"} <= set(registered())


def test_corner_database_on_symmetry_representatives_reads_the_same(ball3):
    from cubelab.tables.korf.pdb import build_corners, reduce_corners
    raw, _ = build_corners(None, 4)
    reduced = reduce_corners(raw)
    cst, sym = kc.corner_sym_tables(), kc.sym_tables()
    conj = udsym.corner_perm_conjugation()
    assert cst.n_classes == 2768
    states = list(ball3)[::5] + [random_state(seed) for seed in range(50)]
    for s in states:
        c = kc.corner_coord(s)
        p, t = divmod(c, 2187)
        cls, k = divmod(int(cst.cp_info[p]), 16)
        entry = cls * 2187 + int(sym.twist_conj[k, t])
        assert get4(reduced, entry) == get4(raw, c)
        assert conj[p, k] == cst.rep[cls]
