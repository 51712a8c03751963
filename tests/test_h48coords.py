"""The 48-symmetric coset coordinate: a function of the position that moves and the 48
symmetries act on (checked against the cubies), and its affine edge tables."""

import numpy as np
import pytest

from cubelab.cube.random_states import random_state
from cubelab.cube.state import CubeState
from cubelab.tables.cubies import conjugate_into, move_rows, multiply, state_row, symmetry_rows
from cubelab.tables.korf import h48coords as H


def _raw(row):
    return (int(H.corner_raw(row, H._IN_TETRAD_A, H.RANK8)),
            int(H.edge_raw(row, H.SLICE_OF_PIECE, H.RANK12, H.RANK8)))


def _affine(mem, lut, m, j, f):
    return int(mem[m, j]) * 256 + int(lut[m, j, f & 15] ^ lut[m, j, 16 + (f >> 4)])


def test_corner_classes_are_the_known_count():
    ct = H.corner_tables()
    assert len(ct.rep) == H.N_CCLASS == 3393
    # every raw value reaches its representative by the recorded symmetry
    raw = np.arange(H.N_CRAW)
    assert (ct.conj[raw, ct.sym_of.astype(np.int64)] == ct.rep[ct.cls]).all()


@pytest.mark.parametrize("seed", range(40))
def test_moves_and_symmetries_act_on_the_coordinate(seed):
    ct, af = H.corner_tables(), H.edge_affine()
    row = state_row(random_state(seed))
    c, e = _raw(row)
    m, f = divmod(e, 256)
    out = np.zeros(40, np.uint8)
    for j, mrow in enumerate(move_rows("htm")):
        multiply(row, mrow, out)
        assert _raw(out) == (ct.move[c, j], _affine(af.mem_move, af.flip_move, m, j, f))
    sym = symmetry_rows()
    for k in range(H.N_SYM):
        conjugate_into(row, sym, k, out)
        assert _raw(out) == (ct.conj[c, k], _affine(af.mem_conj, af.flip_conj, m, k, f))


def test_half_turns_keep_the_solved_coordinate_and_quarter_turns_leave_it():
    solved = H.coords_of(CubeState.identity())
    row = state_row(CubeState.identity())
    out = np.zeros(40, np.uint8)
    for j, mrow in enumerate(move_rows("htm")):
        multiply(row, mrow, out)
        assert (_raw(out) == solved) == (j % 3 == 1)


def test_rows_round_trip():
    rng = np.random.default_rng(3)
    row = np.zeros(40, np.uint8)
    for c in rng.integers(0, H.N_CRAW, 300):
        H.corner_row(c, H.UNRANK8, row)
        assert H.corner_raw(row, H._IN_TETRAD_A, H.RANK8) == c
    for e in rng.integers(0, H.N_ERAW, 300):
        H.edge_row(e, H.UNRANK12, H.UNRANK8, row)
        assert H.edge_raw(row, H.SLICE_OF_PIECE, H.RANK12, H.RANK8) == e
        assert row[28:40].sum() % 2 == 0
