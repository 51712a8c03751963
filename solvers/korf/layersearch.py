"""The IDA* kernel of the layer table sets: six lookups a node (seven with the H48 table), the
inverse carried by premoves.

A node holds the corner permutation, the layer coordinate (tables/korf/layercoords.py) of the
position seen along each of the three axes, and the inverse position as 20 slot contents. A
child is checked in four interleaved stages (lanes.py says why and how), each fetching what the
next one reads, so that a table probe (a cache miss and, in a 2.7 GB table, a TLB miss: the cost
of a node) is paid only for the children the checks before it let through:
(select) the corner database and the position's U-D entry are prefetched;
(probed) those are read, the survivors' R-L and F-B entries prefetched (about half the
children survive the U-D entry; the corner database, cache resident, rarely prunes here);
(axes) those are read, the survivors' inverse premoved and two of its three entries
prefetched (the third is the parent's: a turn of the axis's own faces does not change the
inverse's coset along that axis); (sides) the inverse entries are read. A stage computes all
its indices before it prefetches them, together (tables.memory.prefetch_all says why).

With the H48 table (the `layers-h48` set) a node also carries the 48-symmetric coordinate and
its exact distance, and the inverse's premove waits for it: (axes) moves the survivors' H48
coordinates and fetches the conjugation lines their entries need (60 MB of maps: a miss each
otherwise); (conj) computes the entries and fetches them; (whole) reads them, decodes the
distance from the parent's, and premoves only what survives. Set beside the six
lookups it halves the nodes (random states 1 and 2: 132 M and 123 M with `layers`, 66 M and
72 M with both); the order of the two stages against the inverse's measured the same.

The layer table's coset group holds the U and D turns, so an entry x along an axis also says
that no solution of exactly x moves ends (position) or starts (inverse) with a turn of that
axis. Hence: a node whose three entries all reach the moves left has no solution of that exact
length (Rokicki's rule; shorter ones were excluded by the bounds before); and the axes whose
inverse entry reaches the moves left are not turned next (`MASK`: the branching factor drops
where the bound is tight). A node at depth `bound` is a solution only if it is solved: an entry
read as 0 gives its line's minimum, not an exact distance.
"""

from __future__ import annotations

import numpy as np

from cubelab.tables.jit import inline_kernel, kernel
from cubelab.tables.korf.h48probe import entry_index as h48_index, moved as h48_moved, \
    neighbour_distance, stand_ins as h48_stand_ins
from cubelab.tables.korf.layercoords import layer_from_sums
from cubelab.tables.korf.layertable import entry_index, lower_bound
from cubelab.tables.memory import narrowed, prefetch, prefetch_all
from cubelab.tables.packed import UNKNOWN4, get2, get4
from cubelab.tables.ranks import N_TWIST

from .lanes import (
    IDLE, LANES, NEED_START, PUBLISH_EVERY, SELECT, advance, axis_step, begin, descend,
    last_face, load_start, new_lanes, solved,
)

PROBED, AXES, SIDES, CONJ, WHOLE = 1, 2, 3, 4, 5
N_CP = 0
N_AXIS = 1          # axis a: layer, flip, twist, bound at N_AXIS + 4a .. + 3
N_INV = 13          # 8 corner contents, then 12 edge contents, of the inverse position
N_INV_LB = 33       # the inverse's bound along each axis
N_MASK = 36         # bit a: a turn of axis a may come next
N_H48 = 37          # with the H48 table: raw corners, membership, flip class, exact distance
N_LEN = 41
ALL_AXES = 7
_ROW = np.zeros(1, np.int32)
"""The kernel's node rows are 32-bit (every value fits): half the bytes its lanes keep in L1/L2."""


@inline_kernel
def _inverse_index(node, a, ccon, econ, slice_rank, csep_rank, n_csep, info, flip_conj, cslot):
    """The layer entry of the inverse position seen along axis a."""
    cs = 0
    for j in range(8):
        cs += ccon[a, j, node[N_INV + j]]
    es = 0
    for j in range(12):
        es += econ[a, j, node[N_INV + 8 + j]]
    v = layer_from_sums(cs, es, slice_rank, csep_rank, n_csep)
    return entry_index(v, es & 2047, cs & 4095, info, flip_conj, cslot)


@inline_kernel
def _is_solved(node):
    for j in range(8):
        if node[N_INV + j] != 3 * j:
            return False
    for j in range(12):
        if node[N_INV + 8 + j] != 2 * j:
            return False
    return True


@kernel
def node_bound(node, csym, cp_info, twist_conj, corner_unknown):
    """The lower bound of a node whose entries are filled in (root and start nodes)."""
    x = cp_info[node[N_CP]]
    h = get4(csym, np.int64(x >> 4) * N_TWIST + twist_conj[x & 15, node[N_AXIS + 2]])
    if h == UNKNOWN4:
        h = corner_unknown
    for base in (N_AXIS + 3, N_INV_LB):
        step = 4 if base == N_AXIS + 3 else 1
        lo = 99
        for a in range(3):
            v = node[base + step * a]
            h = max(h, v)
            lo = min(lo, v)
        if lo > 0:
            h = max(h, lo + 1)   # no solution of exactly lo moves ends (starts) on any axis
    return max(h, node[N_H48 + 3])


@kernel
def fill_node(node, ltab, base, info, flip_conj, cslot, ccon, econ, slice_rank, csep_rank,
              n_csep):
    """Look up the six entries of a node whose coordinates and contents are set."""
    for a in range(3):
        b = N_AXIS + 4 * a
        node[b + 3] = lower_bound(ltab, entry_index(node[b], node[b + 1], node[b + 2], info,
                                                    flip_conj, cslot), base)
        node[N_INV_LB + a] = lower_bound(ltab, _inverse_index(
            node, a, ccon, econ, slice_rank, csep_rank, n_csep, info, flip_conj, cslot), base)
    node[N_MASK] = ALL_AXES


@inline_kernel
def _h48_coords(node, m, out, h48):
    """out's H48 coordinate: node's after move m."""
    cmove, _, _, mem_move, fmove, _, _, _, _ = h48
    c2, m2, f2 = h48_moved(node[N_H48], node[N_H48 + 1], node[N_H48 + 2], m, cmove, mem_move,
                           fmove)
    out[N_H48] = c2
    out[N_H48 + 1] = m2
    out[N_H48 + 2] = f2


@inline_kernel
def _h48_child(node, m, out, htab, h48):
    """The H48 coordinate and exact distance of node's child by move m (zeros without the
    table: htab of one byte)."""
    if htab.size <= 1:
        out[N_H48: N_H48 + 4] = 0
        return
    _h48_coords(node, m, out, h48)
    _, cls, sym_of, _, _, mem_conj, fconj, _, unknown = h48
    out[N_H48 + 3] = neighbour_distance(node[N_H48 + 3], get2(htab, h48_index(
        out[N_H48], out[N_H48 + 1], out[N_H48 + 2], cls, sym_of, mem_conj, fconj)), unknown)


@kernel
def layer_child(node, m, out, cperm_move, layer_move, flip_move, twist_move, axmove, pre, ltab,
                base, info, flip_conj, cslot, ccon, econ, slice_rank, csep_rank, n_csep, htab,
                h48):
    """The child after move m, every coordinate and entry computed (no pruning)."""
    _h48_child(node, m, out, htab, h48)
    out[N_CP] = cperm_move[node[N_CP], m]
    for a in range(3):
        b = N_AXIS + 4 * a
        ma = axmove[a, m]
        out[b] = layer_move[node[b], ma]
        out[b + 1] = flip_move[node[b + 1], ma]
        out[b + 2] = twist_move[node[b + 2], ma]
    for j in range(8):
        out[N_INV + j] = pre[m, node[N_INV + j], 0]
    for j in range(12):
        out[N_INV + 8 + j] = pre[m, node[N_INV + 8 + j], 1]
    fill_node(out, ltab, base, info, flip_conj, cslot, ccon, econ, slice_rank, csep_rank, n_csep)


@inline_kernel
def _premove_and_fetch(D, sc, l, g, j, r, dmove, pre, axis_of, ccon, econ, slice_rank, csep_rank,
                       n_csep, info, flip_conj, cslot, ltab):
    """The children sc[l, 6, :r] of node j (lane l, depth g): their inverse premoved, and
    the two of its entries that differ from the parent's computed (sc[l, 4 + axis]) and
    fetched; the children move to sc[l, 7, :r]."""
    for ii in range(r):
        i = sc[l, 6, ii]
        sc[l, 7, ii] = i
        m = dmove[l, g + 1, i]
        for k in range(8):
            D[l, g + 1, i, N_INV + k] = pre[m, D[l, g, j, N_INV + k], 0]
        for k in range(12):
            D[l, g + 1, i, N_INV + 8 + k] = pre[m, D[l, g, j, N_INV + 8 + k], 1]
        own = axis_of[m]
        for a in range(3):
            if a == own:
                D[l, g + 1, i, N_INV_LB + a] = D[l, g, j, N_INV_LB + a]
                continue
            sc[l, 4 + a, ii] = _inverse_index(D[l, g + 1, i], a, ccon, econ, slice_rank,
                                              csep_rank, n_csep, info, flip_conj, cslot)
    for ii in range(r):
        own = axis_of[dmove[l, g + 1, sc[l, 7, ii]]]
        for a in range(3):
            if a != own:
                prefetch(ltab, sc[l, 4 + a, ii] >> 2)


@kernel
def layer_search(items, paths, i0, i1, g0, bound, move_lists, n_moves, axis_of, cperm_move,
                 twist_move, layer_move, flip_move, axmove, pre, csym, cp_info, twist_conj,
                 corner_unknown, ltab, base, info, flip_conj, cslot, ccon, econ, slice_rank,
                 csep_rank, n_csep, htab, h48, live, slot, stop, cancel, sol, costs):
    """Search below items[i0:i1] (nodes at depth g0) for a solution of exactly `bound` moves.
    Returns (found, nodes)."""
    _, hcls, hsym_of, _, _, hmem_conj, hfconj, _, hunknown = h48
    with_h48 = htab.size > 1
    hmem_conj_flat = hmem_conj.reshape(hmem_conj.size)
    hfconj_flat = hfconj.reshape(hfconj.size)
    nl = LANES
    D, dmove, kidx, nk, ki, path, depth, cur, stage, cnt, owner = new_lanes(N_LEN, g0, _ROW)
    sc = np.empty((nl, 8, 18), np.int64)
    next_item = i0
    active = nl
    nodes = 0
    published = 0
    while active > 0:
        for l in range(nl):
            st = stage[l]
            if st == IDLE:
                continue
            if st == SELECT:
                while True:
                    g, j = advance(l, g0, depth, nk, ki, kidx, path, dmove)
                    if g == NEED_START:
                        if next_item >= i1:
                            stage[l] = IDLE
                            active -= 1
                            break
                        load_start(l, next_item, items, paths, D, path, g0, N_LEN, owner)
                        next_item += 1
                        if g0 + node_bound(D[l, g0, 0], csym, cp_info, twist_conj,
                                           corner_unknown) <= bound:
                            begin(l, g0, depth, nk, ki, kidx)
                        continue
                    if g == bound:
                        if _is_solved(D[l, g, j]):
                            solved(l, bound, path, sol, stop)
                            live[slot] += nodes - published
                            return 1, nodes
                        continue
                    cur[l] = j
                    last = last_face(l, g, path)
                    mask = D[l, g, j, N_MASK]
                    pcp = D[l, g, j, N_CP]
                    pv = D[l, g, j, N_AXIS]
                    pf = D[l, g, j, N_AXIS + 1]
                    pt = D[l, g, j, N_AXIS + 2]
                    c = 0
                    for i in range(n_moves[last]):
                        m = move_lists[last, i]
                        if not (mask >> axis_of[m]) & 1:
                            continue
                        cp1 = cperm_move[pcp, m]
                        x = layer_move[pv, m]
                        y = flip_move[pf, m]
                        z = twist_move[pt, m]
                        D[l, g + 1, c, N_CP] = cp1
                        D[l, g + 1, c, N_AXIS] = x
                        D[l, g + 1, c, N_AXIS + 1] = y
                        D[l, g + 1, c, N_AXIS + 2] = z
                        dmove[l, g + 1, c] = m
                        sc[l, 0, c] = entry_index(x, y, z, info, flip_conj, cslot)
                        xc = cp_info[cp1]
                        sc[l, 3, c] = np.int64(xc >> 4) * N_TWIST + twist_conj[xc & 15, z]
                        c += 1
                    prefetch_all(ltab, sc[l, 0], c, 2)
                    prefetch_all(csym, sc[l, 3], c, 1)
                    cnt[l] = c
                    nodes += c
                    costs[owner[l]] += c
                    stage[l] = PROBED
                    break
            else:
                g = depth[l]
                j = cur[l]
                togo = bound - g - 1
                if st == PROBED:
                    # the corners and the U-D entry; the survivors' R-L and F-B entries fetched
                    r = 0
                    for i in range(cnt[l]):
                        hc = get4(csym, sc[l, 3, i])
                        if hc == UNKNOWN4:
                            hc = corner_unknown
                        d0 = lower_bound(ltab, sc[l, 0, i], base)
                        sc[l, 7, r] = i
                        D[l, g + 1, i, N_AXIS + 3] = d0
                        r += (hc <= togo) & (d0 <= togo)
                    for ii in range(r):
                        i = sc[l, 7, ii]
                        m = dmove[l, g + 1, i]
                        for a in range(1, 3):
                            x, y, z = axis_step(D, l, g, j, i, N_AXIS + 4 * a, axmove[a, m],
                                                layer_move, flip_move, twist_move)
                            sc[l, a, ii] = entry_index(x, y, z, info, flip_conj, cslot)
                    prefetch_all(ltab, sc[l, 1], r, 2)
                    prefetch_all(ltab, sc[l, 2], r, 2)
                    cnt[l] = r
                    stage[l] = AXES if r > 0 else SELECT
                elif st == AXES:
                    # R-L and F-B; the survivors' inverse premoved, its entries fetched
                    r = 0
                    for ii in range(cnt[l]):
                        i = sc[l, 7, ii]
                        d0 = D[l, g + 1, i, N_AXIS + 3]
                        d1 = lower_bound(ltab, sc[l, 1, ii], base)
                        d2 = lower_bound(ltab, sc[l, 2, ii], base)
                        D[l, g + 1, i, N_AXIS + 7] = d1
                        D[l, g + 1, i, N_AXIS + 11] = d2
                        sc[l, 6, r] = i
                        r += (d1 <= togo) & (d2 <= togo) & ((togo == 0) | (d0 < togo) |
                                                            (d1 < togo) | (d2 < togo))
                    cnt[l] = r
                    if r == 0:
                        stage[l] = SELECT
                    elif with_h48:
                        # the survivors' H48 coordinates, and the conjugation lines their
                        # entries need fetched (a miss each in 60 MB of maps, paid here once)
                        for ii in range(r):
                            i = sc[l, 6, ii]
                            sc[l, 7, ii] = i
                            _h48_coords(D[l, g, j], dmove[l, g + 1, i], D[l, g + 1, i], h48)
                            sc[l, 1, ii] = (D[l, g + 1, i, N_H48 + 1] * 48 +
                                            hsym_of[D[l, g + 1, i, N_H48]])
                        prefetch_all(hmem_conj_flat, sc[l, 1], r, 0)
                        for ii in range(r):
                            prefetch(hfconj_flat, sc[l, 1, ii] * 32)
                        stage[l] = CONJ
                    else:
                        _premove_and_fetch(D, sc, l, g, j, r, dmove, pre, axis_of, ccon, econ,
                                           slice_rank, csep_rank, n_csep, info, flip_conj, cslot,
                                           ltab)
                        stage[l] = SIDES
                elif st == CONJ:
                    # the survivors' H48 entries fetched (one probe sees all 48 symmetries)
                    for ii in range(cnt[l]):
                        i = sc[l, 7, ii]
                        sc[l, 0, ii] = h48_index(D[l, g + 1, i, N_H48], D[l, g + 1, i, N_H48 + 1],
                                                 D[l, g + 1, i, N_H48 + 2], hcls, hsym_of,
                                                 hmem_conj, hfconj)
                    prefetch_all(htab, sc[l, 0], cnt[l], 2)
                    stage[l] = WHOLE
                elif st == WHOLE:
                    # the H48 distances, exact from the parent's and the residues read; the
                    # survivors' inverse premoved, its entries fetched
                    w = 0
                    h = D[l, g, j, N_H48 + 3]
                    for ii in range(cnt[l]):
                        i = sc[l, 7, ii]
                        d = neighbour_distance(h, get2(htab, sc[l, 0, ii]), hunknown)
                        D[l, g + 1, i, N_H48 + 3] = d
                        sc[l, 6, w] = i
                        w += d <= togo
                    cnt[l] = w
                    _premove_and_fetch(D, sc, l, g, j, w, dmove, pre, axis_of, ccon, econ,
                                       slice_rank, csep_rank, n_csep, info, flip_conj, cslot,
                                       ltab)
                    stage[l] = SIDES if w > 0 else SELECT
                elif st == SIDES:
                    # the inverse's entries: none above the moves left, not all three at
                    # them; the axes at them are not turned next (the mask); descend
                    w = 0
                    for ii in range(cnt[l]):
                        i = sc[l, 7, ii]
                        own = axis_of[dmove[l, g + 1, i]]
                        mask = 0
                        low = 0
                        keep = True
                        for a in range(3):
                            if a == own:
                                v = D[l, g + 1, i, N_INV_LB + a]
                            else:
                                v = lower_bound(ltab, sc[l, 4 + a, ii], base)
                                D[l, g + 1, i, N_INV_LB + a] = v
                            if v > togo:
                                keep = False
                            elif v < togo:
                                mask |= 1 << a
                            else:
                                low += 1
                        if togo > 0 and low == 3:
                            keep = False
                        D[l, g + 1, i, N_MASK] = mask if togo > 0 else ALL_AXES
                        kidx[l, g + 1, w] = i
                        w += keep
                    descend(l, g, w, depth, nk, ki)
                    stage[l] = SELECT
        if nodes - published >= PUBLISH_EVERY:
            live[slot] += nodes - published
            published = nodes
            if stop[0] or cancel[0]:
                return 0, nodes
    live[slot] += nodes - published
    return 0, nodes


def prepare_layers(arrays, max_depth, corners: bool, h48_depth: int | None = -1):
    """What the solver needs to search with a layer set: (kernel, kernel arguments after the
    start nodes and bound, root(state) -> node, child(node, m, out), bound(node), the largest
    bound the tables can give). arrays = (layer table, corner table[, H48 table]); the H48
    table was built h48_depth deep (None: in full; by default as deep as the others)."""
    from cubelab.tables.cubies import canonical_successors
    from cubelab.tables.korf.coords import (
        axis_move_maps, corner_sym_tables, cperm_of, move_tables,
    )
    from cubelab.tables.korf.layercoords import (
        axis_contributions, axis_layer_coords, contents_of, layer_tables, premove_tables,
        rank_luts,
    )
    from cubelab.tables.korf.layertable import conj_slots, table_base
    from cubelab.tables.korf.pdb import reduce_corners
    from cubelab.tables.memory import resident
    ltab, ctab = resident(arrays[0]), arrays[1]
    csym = reduce_corners(ctab)
    mt, lt, cst = move_tables(), layer_tables(corners), corner_sym_tables()
    # the maps read at every node, 16 bits wide where they fit (memory.narrowed says why)
    layer_move, cp_info, twist_conj, flip_conj = (
        narrowed(a) for a in (lt.layer_move, cst.cp_info, lt.twist_conj, lt.flip_conj))
    base = table_base(max_depth)
    corner_unknown = 99 if max_depth is None else max_depth + 1
    axmove = axis_move_maps()
    axis_of = np.array([next(a for a in range(3) if axmove[a, m] // 3 in (0, 3))
                        for m in range(18)], np.int64)
    pre = premove_tables()
    ccon, econ = axis_contributions()
    slice_rank, csep_rank = rank_luts()
    cslot = narrowed(conj_slots(lt.twist_conj))
    lists, counts = canonical_successors()
    n_csep = lt.n_csep
    look = (ltab, base, lt.info, flip_conj, cslot, ccon, econ, slice_rank, csep_rank, n_csep)
    with_h48 = len(arrays) > 2
    if with_h48:
        # imported only here: a `layers` search compiles the H48 probes in but never runs them
        from cubelab.tables.korf import h48coords, h48table
        htab = resident(arrays[2])
        h48 = h48table.lookup_arrays(max_depth=max_depth if h48_depth == -1 else h48_depth)
    else:
        htab = np.zeros(1, np.uint8)   # no H48 table: the kernel skips its stage
        htab.flags.writeable = False
        h48 = h48_stand_ins()
    args = (lists, counts, axis_of, mt.cperm, mt.twist, layer_move, mt.flip, axmove, pre,
            csym, cp_info, twist_conj, corner_unknown) + look + (htab, h48)

    def root(state) -> np.ndarray:
        node = np.zeros(N_LEN, np.int64)
        node[N_CP] = cperm_of(state.cp)
        for a, (v, f, t) in enumerate(axis_layer_coords(state, n_csep)):
            node[N_AXIS + 4 * a: N_AXIS + 4 * a + 3] = (v, f, t)
        node[N_INV:N_INV + 20] = contents_of(state.inverse())
        fill_node(node, *look)
        if with_h48:
            c_raw, e_raw = h48coords.coords_of(state)
            node[N_H48: N_H48 + 3] = (c_raw, e_raw // 256, e_raw % 256)
            node[N_H48 + 3] = h48table.distance(htab, c_raw, e_raw // 256, e_raw % 256, h48)
        return node

    def child(node, m, out):
        layer_child(node, m, out, mt.cperm, layer_move, mt.flip, mt.twist, axmove, pre, *look,
                    htab, h48)

    def bound(node) -> int:
        return node_bound(node, csym, cp_info, twist_conj, corner_unknown)

    return layer_search, args, root, child, bound, max(base + 4, h48[-1])
