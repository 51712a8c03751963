"""Kociemba's coordinates, move tables and symmetry tables agree with the cube model."""

import numpy as np
import pytest

from cubelab.cube.moves import FACE_MOVES, apply_moves, move_state
from cubelab.cube.random_states import random_state
from cubelab.cube.symmetry import conjugate
from cubelab.cube.state import CubeState
from cubelab.tables.kociemba.specs import (
    PHASE2_MOVES, TABLE_SPECS, KociembaTables, phase1_coordinates, phase2_coordinates,
)
from cubelab.tables import udsym
from cubelab.tables.store import load_or_build

SPEC_OF = dict(zip(KociembaTables._fields, TABLE_SPECS), corner_rep=udsym.CORNER_REP)

STATES = [random_state(seed) for seed in range(12)]


def table(name):
    """A table by its KociembaTables field name (some are shared ones: moves.*, udsym.*)."""
    return load_or_build(SPEC_OF.get(name) or f"kociemba.{name}")


def phase2_state(seed):
    """A random element of <U, D, R2, L2, F2, B2>."""
    rng = np.random.default_rng(seed)
    return apply_moves(CubeState.identity(),
                       [FACE_MOVES[int(m)] for m in rng.choice(PHASE2_MOVES, 30)])


def test_solved_coordinates_are_zero():
    assert set(phase1_coordinates(CubeState.identity()).values()) == {0}
    assert set(phase2_coordinates(CubeState.identity()).values()) == {0}


@pytest.mark.parametrize("name,key", [("twist_move", "twist"), ("flip_move", "flip"),
                                      ("slice_move", "slice_sorted")])
def test_phase1_move_tables_follow_the_model(name, key):
    t = table(name)
    for s in STATES:
        for m, move in enumerate(FACE_MOVES):
            after = phase1_coordinates(s * move_state(move))[key]
            assert t[phase1_coordinates(s)[key], m] == after


def test_corner_and_edge8_move_tables_follow_the_model():
    cm, em = table("corner_move"), table("edge8_move")
    for seed in range(6):
        s = phase2_state(seed)
        c = phase2_coordinates(s)
        for k, m in enumerate(PHASE2_MOVES):
            after = phase2_coordinates(s * move_state(FACE_MOVES[m]))
            assert cm[c["corner_perm"], m] == after["corner_perm"]
            assert em[c["edge8"], k] == after["edge8"]
            assert after["slice_perm"] < 24


def test_conjugation_tables_follow_the_model():
    tc, ec = table("twist_conj"), table("edge8_conj")
    for s in STATES[:4]:
        for k in range(16):
            expected = phase1_coordinates(conjugate(s, k))["twist"]
            assert tc[phase1_coordinates(s)["twist"], k] == expected
    for seed in range(4):
        s = phase2_state(seed)
        for k in range(16):
            expected = phase2_coordinates(conjugate(s, k))["edge8"]
            assert ec[phase2_coordinates(s)["edge8"], k] == expected


def test_symmetry_classes_map_to_their_representatives():
    fs_cls, fs_rep = table("flipslice_class"), table("flipslice_rep")
    cp_cls, cp_rep = table("corner_class"), table("corner_rep")
    assert fs_rep.shape[0] == 64430 and cp_rep.shape[0] == 2768
    for s in STATES:
        v = int(fs_cls[phase1_coordinates(s)["flipslice"]])
        assert phase1_coordinates(conjugate(s, v & 15))["flipslice"] == fs_rep[v >> 4, 0]
        v = int(cp_cls[phase2_coordinates(s)["corner_perm"]])
        assert phase2_coordinates(conjugate(s, v & 15))["corner_perm"] == cp_rep[v >> 4, 0]
    for c in (0, 1, 100, 2000):
        rep = int(fs_rep[c, 0])
        rep_state = _flipslice_state(rep)
        for k in range(16):
            fixed = phase1_coordinates(conjugate(rep_state, k))["flipslice"] == rep
            assert fixed == bool((int(fs_rep[c, 1]) >> k) & 1)


def _flipslice_state(raw):
    from cubelab.tables.ranks import BINOM, set_flip, set_slice_sorted
    ep, eo = np.empty(12, np.int64), np.empty(12, np.int64)
    set_slice_sorted((raw // 2048) * 24, ep, BINOM)
    set_flip(raw % 2048, eo)
    return CubeState(range(8), [0] * 8, ep, eo)


def test_small_pruning_tables_are_exact_distances():
    cs = table("corner_slice_prune")
    es = table("edge_slice_prune")
    assert cs[0] == 0 and es[0] == 0
    assert 0 < cs.max() < 20 and 0 < es.max() < 20
    s = apply_moves(CubeState.identity(), [FACE_MOVES[4]])      # R2: one phase-2 move away
    c = phase2_coordinates(s)
    assert cs[c["corner_perm"] * 24 + c["slice_perm"]] == 1
    assert es[c["edge8"] * 24 + c["slice_perm"]] == 1
