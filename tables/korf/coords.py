"""Coordinates and symmetry tables of Korf's solver beyond the shared ones.

Coordinates of Korf's solver beyond the shared ones: six edges with their flips, edges as
cubies, the move tables it reads, and the UD-symmetry tables of the exact-slice phase coordinate.

Coordinates (all computed from cubie states, products left to right so `state * move`):
- twist, flip, corner permutation and sorted slice (which slots hold FR FL BL BR, and in what
  order, 11,880) are the shared ones of cubelab.tables.ranks and movetables;
- six edges: ordered positions of edges 0..5 (or 6..11), a placement of 6 out of 12, and their
  six flips (665,280 * 64).
"""

from __future__ import annotations

from dataclasses import dataclass
import numpy as np

from cubelab.cube.state import CubeState
from cubelab.tables.jit import kernel

from .. import movetables, udsym
from ..cubies import face_turn_arrays
from ..ranks import BINOM, N_PERM8, N_TWIST, flip_of, rank_perm, rank_placement, \
    slice_sorted_of, twist_of
from ..store import load_or_build

N_MOVES = 18
N_CPERM = N_PERM8
N_SSLICE = movetables.N_SLICE_SORTED
N_PLACE6 = 12 * 11 * 10 * 9 * 8 * 7
N_EDGE6 = N_PLACE6 * 64
N_CORNERS = N_CPERM * N_TWIST
SLICE_EDGES = (8, 9, 10, 11)
N_UD = udsym.N_SYM
PHASE_CLASSES = 788
"""Classes of the 11,880 sorted-slice values under the 16 UD symmetries (the phase table's
rows, slicephase.py; here so that a set's sizes are known without loading its builder)."""
PHASE_ROW = 2192
"""Twists a phase-table row holds: 2,187 rounded up so rows start on byte boundaries."""


@kernel
def edge6_of(ep, eo, first):
    """Index of the six edges first..first+5: their positions, then their flips."""
    pos = np.empty(6, np.int64)
    ori = 0
    for i in range(12):
        e = ep[i] - first
        if 0 <= e < 6:
            pos[e] = i
    for j in range(6):
        ori = 2 * ori + eo[pos[j]]
    return rank_placement(pos, 6, 12) * 64 + ori


# ---- move tables ----------------------------------------------------------------------------

@dataclass(frozen=True)
class MoveTables:
    """Move tables of the coordinates, each (n, 18) and indexed [coordinate, move]."""

    twist: np.ndarray
    flip: np.ndarray
    cperm: np.ndarray
    sslice: np.ndarray
    edge_cubie: np.ndarray
    """(18, 24): an edge at position q with flip o (value 2q + o) goes to this value."""


MOVE_SPECS = (movetables.TWIST, movetables.FLIP, movetables.CORNER_PERM, movetables.SLICE_SORTED)
"""The shared tables MoveTables reads."""


def edge_cubie_moves() -> np.ndarray:
    """(18, 24): where face turn m takes an edge at position q with flip o (value 2q + o)."""
    _, _, mep, meo = face_turn_arrays()
    out = np.empty((N_MOVES, 24), np.uint8)
    for m in range(N_MOVES):
        for i in range(12):
            q = int(mep[m, i])    # the edge at q goes to slot i
            for o in (0, 1):
                out[m, 2 * q + o] = 2 * i + (o ^ int(meo[m, i]))
    out.flags.writeable = False
    return out


def move_tables(load=load_or_build) -> MoveTables:
    """The move tables, loaded (or built) through `load` (a store BuildContext's load in a
    builder)."""
    twist, flip, cperm, sslice = (load(s) for s in MOVE_SPECS)
    return MoveTables(twist, flip, cperm, sslice, edge_cubie_moves())


# ---- symmetry tables for the exact-slice phase coordinate -----------------------------------

@dataclass(frozen=True)
class SymTables:
    """How the 16 UD symmetries act on the phase coordinates, and the slice classes.

    Conjugating X by symmetry k (S_k X S_k^-1) maps twist t to twist_conj[k, t], sorted slice s
    to sslice_conj[s, k] and flip f to flip_conj[k, f] ^ flip_mask[s, k]. Every sorted-slice
    value s has a class ss_cls[s] whose representative is conjugation by ss_sym[s] of it;
    ss_fmask[s] = flip_mask[s, ss_sym[s]]. stab[c, :n_stab[c]] are the symmetries that fix the
    representative of class c, and rep_fmask[c, k] its flip masks.
    """

    twist_conj: np.ndarray
    flip_conj: np.ndarray
    sslice_conj: np.ndarray
    flip_mask: np.ndarray
    ss_cls: np.ndarray
    ss_sym: np.ndarray
    ss_fmask: np.ndarray
    rep: np.ndarray
    stab: np.ndarray
    n_stab: np.ndarray
    rep_fmask: np.ndarray

    @property
    def n_classes(self) -> int:
        return len(self.rep)


_SYM_TABLES: list[SymTables] = []


def sym_tables(load=load_or_build) -> SymTables:
    """The tables (computed once per process; `load` fetches the shared twist conjugation)."""
    if not _SYM_TABLES:
        _SYM_TABLES.append(_sym_tables(load))
    return _SYM_TABLES[0]


def _sym_tables(load) -> SymTables:
    # the kernels read the conjugation of twist and flip row by symmetry: [k, t], [k, f]
    twist_conj = np.ascontiguousarray(np.asarray(load(udsym.TWIST_CONJ)).T)
    flip_conj = np.ascontiguousarray(udsym.flip_conjugation().T)
    sslice_conj, flip_mask = udsym.slice_conjugation()
    cls, rep, stab_bits = udsym.classes(sslice_conj)
    ss_cls = (cls >> 4).astype(np.int32)
    ss_sym = (cls & 15).astype(np.uint8)
    ss_fmask = flip_mask[np.arange(N_SSLICE), ss_sym].astype(np.uint16)
    stab = np.zeros((len(rep), N_UD), np.uint8)
    n_stab = np.zeros(len(rep), np.int32)
    for c, bits in enumerate(stab_bits):
        fixers = [k for k in range(N_UD) if int(bits) >> k & 1]
        stab[c, :len(fixers)] = fixers
        n_stab[c] = len(fixers)
    rep_fmask = flip_mask[rep].astype(np.uint16)
    tables = SymTables(twist_conj, flip_conj, sslice_conj, flip_mask, ss_cls, ss_sym, ss_fmask,
                       rep.astype(np.int32), stab, n_stab, rep_fmask)
    for a in vars(tables).values():
        a.flags.writeable = False
    return tables


@dataclass(frozen=True)
class CornerSymTables:
    """Corner permutations in classes under the 16 UD symmetries (cubelab.tables.udsym):
    cp_info[p] = class << 4 | k, conjugating by k takes permutation p to rep[class] (and twist
    t to twist_conj[k, t]), so the corner database needs only the representatives' rows."""

    cp_info: np.ndarray
    rep: np.ndarray

    @property
    def n_classes(self) -> int:
        return len(self.rep)


def corner_sym_tables(load=load_or_build) -> CornerSymTables:
    info = np.asarray(load(udsym.CORNER_CLASS)).view(np.int32)
    rep = np.ascontiguousarray(np.asarray(load(udsym.CORNER_REP))[:, 0]).astype(np.int32)
    return CornerSymTables(info, rep)


def axis_move_maps() -> np.ndarray:
    """(3, 18): the move that S_a m S_a^-1 is, for each axis symmetry a (udsym.axis_symmetries):
    the U-D phase table looked up through them gives three lower bounds."""
    from cubelab.cube.symmetry import move_conjugation
    mc = move_conjugation()
    out = np.array([mc[k] for k in udsym.axis_symmetries()], dtype=np.int64)
    out.flags.writeable = False
    return out


# ---- coordinates of a state -----------------------------------------------------------------

def _arr(x) -> np.ndarray:
    return np.asarray(x, dtype=np.int64)


def phase_coords(state: CubeState) -> tuple[int, int, int]:
    """(sorted slice, flip, twist) of a state."""
    return (int(slice_sorted_of(_arr(state.ep), BINOM)), int(flip_of(_arr(state.eo))),
            int(twist_of(_arr(state.co))))


def axis_phase_coords(state: CubeState) -> list[tuple[int, int, int]]:
    """phase_coords of S_a X S_a^-1 for the three axis symmetries."""
    from cubelab.cube.symmetry import conjugate
    return [phase_coords(state if k == 0 else conjugate(state, k))
            for k in udsym.axis_symmetries()]


def cperm_of(cp) -> int:
    return int(rank_perm(_arr(cp), 0, 8))


def corner_coord(state: CubeState) -> int:
    return cperm_of(state.cp) * N_TWIST + int(twist_of(_arr(state.co)))


def edge6_coord(state: CubeState, first: int) -> int:
    return int(edge6_of(_arr(state.ep), _arr(state.eo), first))


def edge_cubies(state: CubeState) -> np.ndarray:
    """(12,): for each edge, 2 * its position + its flip (what the korf1997 search carries)."""
    out = np.empty(12, np.int64)
    for i in range(12):
        out[int(state.ep[i])] = 2 * i + int(state.eo[i])
    return out


if __name__ == "__main__":
    from cubelab.cube.moves import alg_state
    s = alg_state("R U R' U'")
    print("phase coords per axis:", axis_phase_coords(s))
    print("corner coordinate:", corner_coord(s), "edges:", edge6_coord(s, 0), edge6_coord(s, 6))
    print("slice classes:", sym_tables().n_classes)
