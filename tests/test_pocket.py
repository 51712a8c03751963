"""The 2x2x2: model, facelets, facts, the distance tables against a plain BFS, the solver."""

import json

import numpy as np
import pytest
from hypothesis import given, strategies as st

from cubelab.cube import pocket as P
from cubelab.cube.facelets import FaceletError
from cubelab.cube.notation import parse_moves
from cubelab.cube.positions import PositionError
from cubelab.cube.puzzles import CUBE2
from cubelab.solvers.pocket import PocketSolver
from cubelab.solvers.protocol import SolverError
from cubelab.tables import pocket_tables as T
from cubelab.tui.cli import main

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def random_pocket(seed, reachable=True) -> P.PocketState:
    """Any assembly of the 8 corners (held any way), twist sum 0 when reachable."""
    g = np.random.default_rng(seed)
    co = g.integers(0, 3, 8)
    if reachable:
        co[7] = (-int(co[:7].sum())) % 3
    return P.PocketState(g.permutation(8), co)


# ---- the model ------------------------------------------------------------------------------

def test_face_turns_are_the_cube_corners_and_have_order_four():
    for m in P.FACE_TURNS:
        s = P.move_state(m)
        assert s.power(4) == P.PocketState.identity() and s.order() in (2, 4)


@pytest.mark.parametrize("a,b", [("D", "U"), ("L", "R"), ("B", "F"), ("D'", "U'"), ("L2", "R2")])
def test_opposite_faces_agree_up_to_rotation(a, b):
    sa, sb = P.from_alg(a).state, P.from_alg(b).state
    assert (sa * sb.inverse()).is_rotation() or (sb.inverse() * sa).is_rotation()
    assert sa.normalized() == sb.normalized()


@pytest.mark.parametrize("alg", ["x", "y2", "z'", "R L'", "U D'", "Rw", "3Fw2", "x y z"])
def test_rotations_and_wide_turns_leave_it_solved(alg):
    s = P.from_alg(alg).state
    assert s.is_rotation() and s.normalized() == P.PocketState.identity()


def test_slices_are_refused():
    with pytest.raises(P.PocketError, match="no middle layer"):
        P.from_alg("R M U")


@given(seeds)
def test_normalized_keeps_dlb_home_and_differs_by_a_rotation(seed):
    s = random_pocket(seed, reachable=False)
    n = s.normalized()
    assert n.cp[P.DLB] == P.DLB and n.co[P.DLB] == 0
    assert (n.inverse() * s).is_rotation()
    assert n == n.normalized()


@given(seeds)
def test_facelets_round_trip(seed):
    s = random_pocket(seed, reachable=False)
    text = P.to_facelets(s)
    assert len(text) == 24 and P.parse_facelets(text) == s
    assert P.parse_facelets(P.to_facelets(s, colours=True)) == s


def test_facelets_of_solved_and_of_u():
    assert P.to_facelets(P.PocketState.identity()) == P.SOLVED_FACELETS
    # U: the top row of F shows R's colour
    assert P.to_facelets(P.from_alg("U").state)[8:10] == "RR"


@pytest.mark.parametrize("text,message", [
    ("UUUURRRRFFFFDDDDLLLLBBB", "expected 24"),
    ("UUUURRRRFFFFDDDDLLLLBBBX", "unexpected character"),
    ("UUUUURRRFFFFDDDDLLLLBBBB", "appears 5 times"),
    ("UUUURRRRFFFFDDDDLLLLBBBB".replace("UUUUR", "UUUUR"), None),
])
def test_facelet_errors(text, message):
    if message is None:
        assert P.parse_facelets(text) == P.PocketState.identity()
    else:
        with pytest.raises(FaceletError, match=message):
            P.parse_facelets(text)


def test_a_mirrored_corner_is_refused():
    # swap two stickers of the URF corner: its colours now run anticlockwise
    stickers = list(P.SOLVED_FACELETS)
    a, b, _ = P.CORNER_STICKERS[0]
    stickers[a], stickers[b] = stickers[b], stickers[a]
    with pytest.raises(FaceletError, match="corner at"):
        P.parse_facelets("".join(stickers))


# ---- facts ----------------------------------------------------------------------------------

def facts_record(text: str) -> dict:
    """What `cubelab facts --puzzle 2x2 --json` prints for a line of input."""
    return CUBE2.facts_record(CUBE2.position(text))


def test_facts_record_has_the_contract_keys():
    record = facts_record("R U R' U'")
    for key in ("facelets", "order", "parity", "trace", "reachable", "morph", "corner_cycles",
                "edge_cycles", "in_centre", "alg", "length"):
        assert key in record
    assert record["puzzle"] == "2x2" and record["length"] == {"htm": 4, "qtm": 4}
    assert record["order"] == 6 and record["parity"] == "even" and record["reachable"]
    json.dumps(record)


def test_facts_of_a_rotated_position_are_those_of_the_position():
    plain = facts_record("R U2 F'")
    turned = facts_record("R U2 F' x y")
    for key in ("order", "parity", "morph", "corner_cycles", "normalized"):
        assert plain[key] == turned[key]


def test_facts_of_an_unreachable_assembly():
    s = P.PocketState(range(8), [1, 0, 0, 0, 0, 0, 0, 0])
    record = facts_record("facelets: " + P.to_facelets(s))
    assert not record["reachable"] and record["trace"] == [1] and record["invariants"]


def test_order_of_r_u_is_fifteen():
    assert facts_record("R U")["order"] == 15


def test_bad_input_raises_position_error():
    for text in ("R U (", "facelets: UUU", "R M"):
        with pytest.raises(PositionError):
            facts_record(text)


def test_net_renders_24_stickers():
    from rich.console import Console
    from cubelab.cube.net import Net
    console = Console(width=40, color_system=None, record=True)
    console.print(Net(P.from_alg("R").state))
    text = console.export_text()
    assert sum(ch in "URFDLB" for ch in text) == 24
    assert Net(P.PocketState.identity()).plain_text().splitlines()[0].strip() == "U U"


# ---- the tables against a plain breadth-first search ----------------------------------------

_MOVING = [0, 1, 2, 3, 4, 5, 7]     # every slot but DLB


def _index(cols):
    """The documented table index, computed with numpy alone: the Lehmer rank of the seven
    moving corners (DLB's number 7 read as 6) times 3^6, plus six twists in base 3. cols holds
    one state per column: cp in rows 0..7, co in rows 8..15."""
    cp = cols[_MOVING]
    cp = np.where(cp == 7, 6, cp)
    rank = np.zeros(cols.shape[1], np.int64)
    for i in range(7):
        smaller = np.zeros(cols.shape[1], np.int64)
        for j in range(i + 1, 7):
            smaller += cp[j] < cp[i]
        rank = rank * (7 - i) + smaller
    twist = np.zeros(cols.shape[1], np.int64)
    for i in range(6):
        twist = twist * 3 + cols[8 + i]
    return rank * 729 + twist


def _plain_bfs(metric):
    """Depth of every position by brute force over states stored as columns, numpy only."""
    moves = [P.move_state(m) for m in parse_moves("U U2 U' R R2 R' F F2 F'")
             if metric == "htm" or m.amount != 2]
    dist = np.full(P.N_POSITIONS, -1, np.int8)
    frontier = np.concatenate([np.arange(8), np.zeros(8, int)])[:, None].astype(np.uint8)
    dist[_index(frontier)] = 0
    depth = 0
    while frontier.shape[1]:
        depth += 1
        nxt = []
        for m in moves:
            mcp = m.cp.astype(np.intp)
            cand = np.concatenate([frontier[mcp], (frontier[8 + mcp] + m.co[:, None]) % 3])
            idx = _index(cand)
            fresh = np.flatnonzero(dist[idx] < 0)
            idx, first = np.unique(idx[fresh], return_index=True)
            dist[idx] = depth
            nxt.append(cand[:, fresh[first]])
        frontier = np.concatenate(nxt, axis=1)
    return dist


@pytest.mark.slow
@pytest.mark.parametrize("metric,gods", [("htm", 11), ("qtm", 14)])
def test_distance_table_matches_a_plain_bfs(metric, gods):
    table = T.distance_table(metric)
    dist = _plain_bfs(metric)
    assert (dist >= 0).all() and int(dist.max()) == gods
    assert np.array_equal(table, dist.astype(np.uint8))


def test_god_numbers_and_distributions():
    htm = [r["positions"] for r in T.distribution("htm")]
    qtm = [r["positions"] for r in T.distribution("qtm")]
    assert htm == [1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644]
    assert qtm == [1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852,
                   782536, 90280, 276]


@given(seeds)
def test_index_encoding_round_trips(seed):
    idx = int(np.random.default_rng(seed).integers(0, P.N_POSITIONS))
    cp, co = np.empty(8, np.int64), np.empty(8, np.int64)
    T.decode(idx, cp, co, np.empty(7, np.int64))
    assert sorted(cp) == list(range(8)) and cp[P.DLB] == P.DLB and co.sum() % 3 == 0
    assert T.corner_index(cp, co) == idx


@pytest.mark.parametrize("metric", ["htm", "qtm"])
def test_class_counts_match_the_model_near_solved(metric):
    """Classes as sums of 1/class size, with class sizes from the model's morph."""
    rows = T.distribution(metric)
    levels = _levels_near_solved(metric, 3)
    for depth, states in enumerate(levels):
        assert len(states) == rows[depth]["positions"]
        assert round(sum(1 / P.morph(s) for s in states)) == rows[depth]["classes_sym_inv"]


def _levels_near_solved(metric, depth):
    moves = [P.move_state(m) for m in parse_moves("U U2 U' R R2 R' F F2 F'")
             if metric == "htm" or m.amount != 2]
    seen = {P.PocketState.identity()}
    levels = [[P.PocketState.identity()]]
    for _ in range(depth):
        nxt = {s * m for s in levels[-1] for m in moves} - seen
        seen |= nxt
        levels.append(list(nxt))
    return levels


# ---- the solver -----------------------------------------------------------------------------

@pytest.mark.parametrize("metric", ["htm", "qtm"])
@given(seed=seeds)
def test_solver_solves_any_holding_optimally(metric, seed):
    s = random_pocket(seed)
    solver = PocketSolver(metric)
    result = solver.solve(s)
    assert result.verified and result.optimal and result.status == "solved"
    assert P.apply_moves(s, result.moves).is_rotation()
    assert result.length[metric] == solver.distance(s) == result.lower_bound
    assert result.length[metric] <= (11 if metric == "htm" else 14)


@pytest.mark.parametrize("metric", ["htm", "qtm"])
def test_solver_distance_is_at_most_the_scramble(metric):
    solver = PocketSolver(metric)
    for scramble in ["R", "D", "L2 B'", "R U R' U'", "F R U R' U' F'", "x R U2 y F D L"]:
        pos = P.from_alg(scramble)
        result = solver.solve(pos.state)
        assert result.verified
        assert result.length[metric] <= P.lengths(pos.moves)[metric]


def test_solver_refuses_a_3x3_state_and_unreachable():
    from cubelab.cube.moves import alg_state
    # a 3x3x3's corners solved is not the 3x3x3 solved: the solver must not pretend it is
    with pytest.raises(SolverError, match="solves the 2x2x2"):
        PocketSolver().solve(alg_state("R U R' U' M2"))
    with pytest.raises(SolverError, match="twist"):
        PocketSolver().solve(P.PocketState(range(8), [2, 0, 0, 0, 0, 0, 0, 0]))


def test_solver_max_length_and_counters():
    from cubelab.solvers.protocol import new_counters, NODES, BEST
    counters = new_counters()
    solver = PocketSolver("htm")
    scramble = P.from_alg("R U F R' U2 F'").state
    short = solver.solve(scramble, max_length=2)
    assert short.moves is None and short.status == "not found" and short.lower_bound > 2
    full = solver.solve(scramble, counters=counters)
    assert counters[NODES] > 0 and counters[BEST] == len(full.moves)


def test_solver_is_in_the_protocol_json_shape():
    record = PocketSolver("qtm").solve(P.from_alg("R U").state).to_json()
    assert record["solver"] == "pocket" and record["optimal"] and record["verified"]
    assert record["length"]["qtm"] == 2 and record["puzzle"] == "2x2"


# ---- the command ----------------------------------------------------------------------------

def test_count_command_for_the_pocket_cube(capsys):
    assert main(["count", "--puzzle", "2x2", "--metric", "htm", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(rows) == 12 and rows[-1]["positions"] == 2644
    assert sum(r["positions"] for r in rows) == 3_674_160
    assert main(["count", "--puzzle", "2x2", "--metric", "qtm"]) == 0
    assert "God's number 14 QTM" in capsys.readouterr().out
