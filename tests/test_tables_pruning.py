"""Breadth-first distance tables and symmetry classes, checked against a plain Python BFS.

The reference BFS walks small "keys" (where the tracked pieces are and how they are turned)
with the model's move arrays, independently of the numba kernels; the kernels' encoders only
name each key's entry in the table."""

from collections import deque

import numpy as np
import pytest

from cubelab.cube import symmetry
from cubelab.cube.moves import FACE_MOVES, move_state
from cubelab.cube.state import CubeState
from cubelab.tables import coords as C
from cubelab.tables.movetables import (PHASE2_MOVES, move_indices, move_table,
                                       orientation_add_table, orientation_delta_table)
from cubelab.tables.packed import unpack2, unpack4
from cubelab.tables.pruning import Cancelled, Factor, depth_histogram, distance_table
from cubelab.tables.symclasses import (check_conjugation, conj_table, reduced_index,
                                       sym_classes, symmetric_distance_table)

# ---- the reference ---------------------------------------------------------------------------


def _moves(names=None):
    """For each move: where each corner slot's piece goes and the twist it picks up there,
    the same for edges. The piece in slot j goes to the slot i with move.cp[i] == j."""
    out = []
    for i in move_indices(names):
        mv = move_state(FACE_MOVES[i])
        cdest = [0] * 8
        edest = [0] * 12
        for slot, src in enumerate(mv.cp):
            cdest[int(src)] = slot
        for slot, src in enumerate(mv.ep):
            edest[int(src)] = slot
        out.append((cdest, [int(mv.co[cdest[j]]) for j in range(8)],
                    edest, [int(mv.eo[edest[j]]) for j in range(12)]))
    return out


def _act(key, move, orient):
    """Apply a move to a key: ((corner (slot, twist) ...), (edge (slot, flip) ...)) for the
    tracked pieces; orientations stay 0 unless `orient`."""
    cdest, ctw, edest, efl = move
    corners, edges = key
    if not orient:
        return (tuple((cdest[s], 0) for s, _ in corners), tuple((edest[s], 0) for s, _ in edges))
    return (tuple((cdest[s], (o + ctw[s]) % 3) for s, o in corners),
            tuple((edest[s], (o + efl[s]) % 2) for s, o in edges))


def reference_bfs(corners, edges, moves, orient=True, canon=lambda k: k):
    """Depth of every key reachable from solved, tracking the given pieces (and their
    orientations if `orient`). `canon` forgets what the coordinate ignores (sorting the slots of
    pieces tracked as a set); moves commute with it, so the walk stays small."""
    start = canon((tuple((p, 0) for p in corners), tuple((p, 0) for p in edges)))
    depth = {start: 0}
    queue = deque([start])
    while queue:
        key = queue.popleft()
        d = depth[key] + 1
        for mv in moves:
            nxt = canon(_act(key, mv, orient))
            if nxt not in depth:
                depth[nxt] = d
                queue.append(nxt)
    return depth


def as_sets(key):
    return tuple(sorted(key[0])), tuple(sorted(key[1]))


def state_of(key, corners, edges):
    """A cubie state with the tracked pieces as the key says, the others in order."""
    cp, co = [-1] * 8, [0] * 8
    ep, eo = [-1] * 12, [0] * 12
    for piece, (slot, o) in zip(corners, key[0]):
        cp[slot], co[slot] = piece, o
    for piece, (slot, o) in zip(edges, key[1]):
        ep[slot], eo[slot] = piece, o
    for perm, n in ((cp, 8), (ep, 12)):
        rest = iter(p for p in range(n) if p not in perm)
        for i in range(n):
            if perm[i] < 0:
                perm[i] = next(rest)
    return CubeState(cp, co, ep, eo)


def _values(table, n, bits):
    return unpack4(table, n) if bits == 4 else unpack2(table, n)


def check_against_reference(table, bits, product, corners, edges, moves, orient=True):
    """Every reachable key's entry holds its depth (mod 3 with 2 bits); every entry is some
    key's (the product is onto the reachable keys)."""
    depth = reference_bfs(corners, edges, moves, orient)
    values = _values(table, product.size, bits)
    covered = set()
    for key in depth:
        i = product.encode(state_of(key, corners, edges))
        d = depth[key]
        want = (min(d, 15) if bits == 4 else d % 3)
        assert values[i] == want, (key, d, values[i])
        covered.add(i)
    assert len(covered) == product.size
    return max(depth.values())


# ---- plain products ---------------------------------------------------------------------------

@pytest.mark.parametrize("bits", [4, 2])
def test_sorted_slice_table(bits):
    coord = C.SLICE_SORTED
    table = distance_table([Factor.of(coord)], bits=bits)
    check_against_reference(table, bits, C.Product((coord,)), (), C.SLICE_EDGES, _moves(),
                            orient=False)


@pytest.mark.parametrize("bits", [4, 2])
def test_corner_pair_with_twists_as_dependent_product(bits):
    pieces = (2, 6)
    pos, tw = C.corner_positions(pieces), C.corner_twists(pieces)
    factors = [Factor.of(pos), Factor.dependent(tw, pos, on=0)]
    table = distance_table(factors, bits=bits)
    check_against_reference(table, bits, C.Product((pos, tw)), pieces, (), _moves())


def test_three_edges_with_flips_as_dependent_product():
    pieces = (0, 5, 10)
    pos, fl = C.edge_positions(pieces), C.edge_flips(pieces)
    factors = [Factor.of(pos), Factor(fl.size, orientation_delta_table(fl, pos), depends_on=0,
                                      add=orientation_add_table(fl), solved=fl.solved())]
    table = distance_table(factors, bits=4)
    check_against_reference(table, 4, C.Product((pos, fl)), (), pieces, _moves())


@pytest.mark.parametrize("bits", [4, 2])
def test_phase2_product_of_two_coordinates(bits):
    corners = (0, 4)
    cpos = C.corner_positions(corners)
    factors = [Factor.of(C.SLICE_PERM, PHASE2_MOVES), Factor.of(cpos, PHASE2_MOVES)]
    table = distance_table(factors, bits=bits)
    product = C.Product((C.SLICE_PERM, cpos))
    check_against_reference(table, bits, product, corners, C.SLICE_EDGES, _moves(PHASE2_MOVES),
                            orient=False)


def test_twist_table_by_orientations():
    """Twist (all slots) needs a reference over orientations by slot, not tracked pieces."""
    table = distance_table([Factor.of(C.TWIST)])
    moves = [move_state(m) for m in FACE_MOVES]
    start = (0,) * 8
    depth = {start: 0}
    queue = deque([start])
    while queue:
        k = queue.popleft()
        for mv in moves:
            n = tuple((k[int(mv.cp[i])] + int(mv.co[i])) % 3 for i in range(8))
            if n not in depth:
                depth[n] = depth[k] + 1
                queue.append(n)
    values = unpack4(table, C.TWIST.size)
    assert len(depth) == C.TWIST.size
    for k, d in depth.items():
        assert values[C.TWIST.encode(CubeState(range(8), k, range(12), [0] * 12))] == d


def test_depth_cap_leaves_lower_bounds():
    coord = C.SLICE_SORTED
    capped = distance_table([Factor.of(coord)], max_depth=3)
    full = distance_table([Factor.of(coord)])
    a, b = unpack4(capped, coord.size), unpack4(full, coord.size)
    assert ((a == b) | ((a == 15) & (b > 3))).all()
    assert (a == 15).any()


def test_several_starts():
    coord = C.UD_SLICE
    table = distance_table([Factor(coord.size, move_table(coord))], starts=[0, 494])
    values = unpack4(table, coord.size)
    assert values[0] == 0 and values[494] == 0


def test_bad_products_are_refused():
    mt = move_table(C.UD_SLICE)
    with pytest.raises(ValueError):
        distance_table([Factor(C.UD_SLICE.size, mt), Factor(24, move_table(C.SLICE_PERM,
                                                                           PHASE2_MOVES))])
    with pytest.raises(ValueError):
        distance_table([Factor(C.UD_SLICE.size, mt)], starts=[495])
    with pytest.raises(ValueError):
        distance_table([Factor(C.UD_SLICE.size, mt)], bits=3)


def test_cancel_stops_a_build():
    cancel = np.ones(1, np.int32)
    with pytest.raises(Cancelled):
        distance_table([Factor(C.SLICE_SORTED.size, move_table(C.SLICE_SORTED))],
                       cancel=cancel)


def test_counters_report_progress():
    counters = np.zeros(4, np.int64)
    table = distance_table([Factor.of(C.SLICE_SORTED)], counters=counters)
    assert counters[0] == counters[1] == C.SLICE_SORTED.size
    assert counters[2] == max(depth_histogram(table, C.SLICE_SORTED.size))


def test_histogram():
    table = distance_table([Factor(C.UD_SLICE.size, move_table(C.UD_SLICE))])
    h = depth_histogram(table, C.UD_SLICE.size)
    assert sum(h.values()) == 495 and h[0] == 1 and max(h) == 5


# ---- symmetry classes and reduced tables ------------------------------------------------------

def test_known_class_counts():
    """Kociemba's figures: 64430 flip-slice classes and 2768 corner permutation classes under
    the 16 symmetries that keep the U-D axis."""
    assert sym_classes(C.Product((C.UD_SLICE, C.FLIP)), 16).nclasses == 64430
    assert sym_classes(C.Product((C.CORNER_PERM,)), 16).nclasses == 2768


def test_class_tables_are_consistent():
    coord = C.Product((C.CORNER_PERM,))
    cl = sym_classes(coord, 48)
    conj = conj_table(coord, 48)
    rng = np.random.default_rng(0)
    for x in rng.integers(0, coord.size, 2000):
        c, s = cl.lookup(int(x))
        assert conj[x, s] == cl.rep[c]
        assert cl.rep[c] <= x
    for c in rng.integers(0, cl.nclasses, 300):
        for s in cl.stabiliser(int(c)):
            assert conj[cl.rep[c], s] == cl.rep[c]
        assert 0 in cl.stabiliser(int(c))


def test_pack_round_trip():
    cl = sym_classes(C.Product((C.UD_SLICE,)), 16)
    back = type(cl).unpack(cl.pack())
    for a, b in ((cl.class_of, back.class_of), (cl.sym_of, back.sym_of), (cl.rep, back.rep),
                 (cl.stab, back.stab)):
        assert (a == b).all()
    assert back.nsym == 16
    with pytest.raises(ValueError):
        type(cl).unpack(cl.pack()[:-1])


def test_conjugation_checks():
    assert check_conjugation(C.TWIST, 16, samples=6) is None
    assert check_conjugation(C.Product((C.UD_SLICE, C.FLIP)), 16, samples=6) is None
    assert check_conjugation(C.CORNER_PERM, 48, samples=4) is None
    assert check_conjugation(C.EDGE8_PERM, 16, samples=6, moves=PHASE2_MOVES) is None
    # flip alone is not well defined under the U-D symmetries, nor twist under all 48
    assert check_conjugation(C.FLIP, 16, samples=6) is not None
    assert check_conjugation(C.TWIST, 48, samples=6) is not None


def test_conjugation_matches_the_model():
    coord = C.Product((C.CORNER_PERM, C.TWIST))
    table = conj_table(C.CORNER_PERM, 48)
    s0 = CubeState.identity()
    for mv in FACE_MOVES[:6]:
        s0 = s0 * move_state(mv)
    for s in range(48):
        assert table[C.CORNER_PERM.encode(s0), s] == C.CORNER_PERM.encode(
            symmetry.conjugate(s0, s))
    assert coord.size == 40320 * 2187


def test_reduced_table_against_reference():
    """Slice-edge slots (classified by the 16 U-D symmetries) x U-corner slots; the 2-bit
    table holds the 4-bit one mod 3."""
    a = C.UD_SLICE
    b = C.Coord("ucorners", "corner", (0, 1, 2, 3), positions="set")
    assert check_conjugation(b, 16, samples=6) is None
    cl = sym_classes(C.Product((a,)), 16)
    bconj = conj_table(b, 16)
    args = (cl, [move_table(a)], [move_table(b)], [bconj])
    n = cl.nclasses * b.size
    values = unpack4(symmetric_distance_table(*args, starts=[(a.solved(), b.solved())]), n)
    mod3 = unpack2(symmetric_distance_table(*args, starts=[(a.solved(), b.solved())], bits=2), n)
    assert (mod3 == values % 3).all()
    corners, edges = (0, 1, 2, 3), C.SLICE_EDGES
    depth = reference_bfs(corners, edges, _moves(), orient=False, canon=as_sets)
    covered = set()
    for key, d in depth.items():
        s = state_of(key, corners, edges)
        i = reduced_index(cl, [bconj], [b.size], a.encode(s), b.encode(s))
        assert values[i] == d
        covered.add(i)
    assert len(covered) == n


def test_reduced_table_over_classes_alone_with_48_symmetries():
    tetrad = C.Coord("tetrad", "corner", (0, 2, 5, 7), positions="set")
    assert check_conjugation(tetrad, 48, samples=20) is None
    cl = sym_classes(C.Product((tetrad,)), 48)
    table = symmetric_distance_table(cl, [move_table(tetrad)], [], [],
                                     starts=[(tetrad.solved(), 0)])
    values = unpack4(table, cl.nclasses)
    depth = reference_bfs((0, 2, 5, 7), (), _moves(), orient=False, canon=as_sets)
    for key, d in depth.items():
        x = tetrad.encode(state_of(key, (0, 2, 5, 7), ()))
        assert values[cl.class_of[x]] == d
    assert len(depth) == 70


def test_phase2_reduced_matches_plain_product():
    """Slice permutation x corner pair under phase-2 moves: the reduced table (by the 16 U-D
    symmetries of the slice permutation) agrees with the plain product table."""
    corners = C.Coord("dcorners", "corner", (4, 5, 6, 7), positions="set")
    sp = C.SLICE_PERM
    assert check_conjugation(sp, 16, samples=20, moves=PHASE2_MOVES) is None
    msp, mc = move_table(sp, PHASE2_MOVES), move_table(corners, PHASE2_MOVES)
    full = unpack4(distance_table([Factor(sp.size, msp, solved=sp.solved()),
                                   Factor(corners.size, mc, solved=corners.solved())]),
                   sp.size * corners.size)
    cl = sym_classes(C.Product((sp,)), 16)
    cc = conj_table(corners, 16)
    red = unpack4(symmetric_distance_table(cl, [msp], [mc], [cc],
                                           starts=[(sp.solved(), corners.solved())]),
                  cl.nclasses * corners.size)
    for x in range(sp.size):
        for y in range(corners.size):
            assert red[reduced_index(cl, [cc], [corners.size], x, y)] == full[x * corners.size + y]


def test_reduced_cancel():
    cl = sym_classes(C.Product((C.UD_SLICE,)), 16)
    with pytest.raises(Cancelled):
        symmetric_distance_table(cl, [move_table(C.UD_SLICE)], [move_table(C.TWIST)],
                                 [conj_table(C.TWIST, 16)], starts=[(0, 0)],
                                 cancel=np.ones(1, np.int32))
