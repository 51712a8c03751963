"""The two-phase search's one-probe tables agree with the mod-3 tables they are made from.

phase1_moves: per phase-1 entry, which face turns bring the distance one closer or one further;
phase2_exact: the exact phase-2 distance in 4 bits. Both are checked against the exact
distances the mod-3 tables give by walking to the subgroup, on random entries and on positions
seen through every UD symmetry (the search reads an entry in its representative's frame).
"""

import numpy as np
import pytest

from cubelab.cube.moves import FACE_MOVES, alg_state, apply_moves
from cubelab.cube.random_states import random_state
from cubelab.cube.state import CubeState
from cubelab.solvers.kociemba import search as ks
from cubelab.solvers.kociemba.solver import _ud_move_conjugation
from cubelab.tables.kociemba import pruning
from cubelab.tables.kociemba.specs import PHASE2_MOVES, load_tables, phase1_coordinates, \
    phase2_coordinates
from cubelab.tables.packed import get4
from cubelab.tables.store import load_or_build
from cubelab.tables.ranks import N_PERM8, N_TWIST


@pytest.fixture(scope="module")
def t():
    return load_tables()


def _rep(name):
    rep = load_or_build(name)
    return np.ascontiguousarray(rep[:, 0])


def _phase1_positions():
    """(flip, twist, slice) of random positions and of a few short and symmetric ones."""
    states = [random_state(seed) for seed in range(40)]
    states += [alg_state(a) for a in ("R", "R U F", "F2 R' B L2", "U2 D2 F2 B2 L2 R2",
                                      "R U R' U' F' L2 B D'")]
    states.append(CubeState(range(8), [0] * 8, range(12), [1] * 12))     # all edges flipped
    out = []
    for s in states:
        c = phase1_coordinates(s)
        out.append((c["flip"], c["twist"], c["slice_sorted"]))
    return out


def _depth(t, f, tw, s):
    return ks.phase1_depth(f, tw, s, t.flip_move, t.twist_move, t.slice_move,
                           t.flipslice_class, t.twist_conj, t.phase1_prune)


def test_move_words_give_every_neighbours_exact_distance(t):
    mconj = _ud_move_conjugation()
    for f, tw, s in _phase1_positions():
        d = _depth(t, f, tw, s)
        j, sym = ks._entry(f, tw, s, t.flipslice_class, t.twist_conj)
        word = pruning.move_word(t.phase1_moves, j)
        for m in range(18):
            child = (t.flip_move[f, m], t.twist_move[tw, m], t.slice_move[s, m])
            expected = _depth(t, *child)
            assert d + pruning.move_change(word, mconj[sym, m]) == expected, (f, tw, s, m)
        assert ks.phase1_depth_words(f, tw, s, t.flip_move, t.twist_move, t.slice_move,
                                     t.flipslice_class, t.twist_conj, t.phase1_moves,
                                     mconj) == d


def test_move_words_of_random_entries(t):
    """Entries drawn uniformly over the table, read in their own frame (a representative's)."""
    reps = _rep("kociemba.flipslice_rep")
    rng = np.random.default_rng(7)
    for _ in range(150):
        c = int(rng.integers(len(reps)))
        x = int(rng.integers(N_TWIST))
        f, s = int(reps[c]) % 2048, (int(reps[c]) // 2048) * 24
        j, sym = ks._entry(f, x, s, t.flipslice_class, t.twist_conj)
        assert sym == 0 and j == c * N_TWIST + x
        word = pruning.move_word(t.phase1_moves, j)
        d = _depth(t, f, x, s)
        for m in range(18):
            child = (t.flip_move[f, m], t.twist_move[x, m], t.slice_move[s, m])
            assert d + pruning.move_change(word, m) == _depth(t, *child)


def _walk(t, cp, e8):
    return ks.phase2_depth(cp, e8, t.corner_move, t.edge8_move, t.corner_class, t.edge8_conj,
                           t.phase2_prune, PHASE2_MOVES)


def test_phase2_exact_equals_the_mod3_walk(t):
    reps = _rep("udsym.corner_rep")
    rng = np.random.default_rng(11)
    seen = set()
    for _ in range(300):
        c = int(rng.integers(len(reps)))
        x = int(rng.integers(N_PERM8))
        d = _walk(t, int(reps[c]), x)
        assert get4(t.phase2_exact, c * N_PERM8 + x) == min(d, pruning.P2_EXACT_MAX)
        seen.add(d)
    assert len(seen) >= 4           # the samples span several depths
    # positions of the subgroup, read through their class's symmetry as the search does
    for seed in range(30):
        rng = np.random.default_rng(seed)
        s = apply_moves(CubeState.identity(),
                        [FACE_MOVES[int(m)] for m in rng.choice(PHASE2_MOVES, seed % 15)])
        c = phase2_coordinates(s)
        cp, e8 = c["corner_perm"], c["edge8"]
        got = ks._p2_exact(cp, e8, t.corner_class, t.edge8_conj, t.phase2_exact)
        assert got == min(_walk(t, cp, e8), pruning.P2_EXACT_MAX)
    assert ks._p2_exact(0, 0, t.corner_class, t.edge8_conj, t.phase2_exact) == 0

