"""Algorithm search: the meet in the middle against brute force, predicates, classes, the command."""

import json

import numpy as np
import pytest

from cubelab.cube.moves import FACE_MOVES, alg_state, move_state
from cubelab.cube.notation import format_moves, parse_moves
from cubelab.cube.state import CubeState
from cubelab.cube.symmetry import morph_class
from cubelab.solvers import algsearch as A
from cubelab.solvers.protocol import new_cancel
from cubelab.tui.cli import main

_AXIS_ORDER = "URFDLB"


def _may_follow(prev, move):
    """Canonical order, written out independently: never the same face twice in a row, and
    of two opposite faces (same axis) the one earlier in URFDLB first."""
    if prev is None:
        return True
    fp, fm = _AXIS_ORDER.index(prev.family), _AXIS_ORDER.index(move.family)
    return fp != fm and not (fp % 3 == fm % 3 and fm < fp)


def _brute_force(metric, max_cost):
    """Every canonical sequence of cost 1..max_cost with its effect, by cost, with numpy."""
    cost = {m: (2 if (metric == "qtm" and m.amount == 2) else 1) for m in FACE_MOVES}
    rows = {m: np.concatenate([move_state(m).cp, move_state(m).co, move_state(m).ep,
                               move_state(m).eo]).astype(np.intp) for m in FACE_MOVES}
    ident = np.concatenate([np.arange(8), np.zeros(8), np.arange(12), np.zeros(12)])
    # level c: (effects (n, 40), sequences as lists of moves)
    levels = {0: (ident[None, :].astype(np.intp), [[]])}
    for c in range(1, max_cost + 1):
        effects, seqs = [], []
        for m in FACE_MOVES:
            base = c - cost[m]
            if base < 0:
                continue
            eff, prev = levels[base]
            keep = [i for i, s in enumerate(prev) if _may_follow(s[-1] if s else None, m)]
            if not keep:
                continue
            e = eff[keep]
            r = rows[m]
            out = np.empty_like(e)
            out[:, 0:8] = e[:, r[0:8]]
            out[:, 8:16] = (e[:, 8 + r[0:8]] + r[8:16]) % 3
            out[:, 16:28] = e[:, 16 + r[16:28]]
            out[:, 28:40] = (e[:, 28 + r[16:28]] + r[28:40]) % 2
            effects.append(out)
            seqs.extend(prev[i] + [m] for i in keep)
        levels[c] = (np.concatenate(effects), seqs)
    return levels


def _row(state):
    return np.concatenate([state.cp, state.co, state.ep, state.eo]).astype(np.intp)


def _mask(effects, predicate):
    """The predicate on many effects at once, written with numpy from its fields."""
    t = _row(predicate.target)
    ok = np.ones(len(effects), bool)
    for i, how in enumerate(predicate.corners):
        if how:
            ok &= effects[:, i] == t[i]
        if how == 2:
            ok &= effects[:, 8 + i] == t[8 + i]
    for i, how in enumerate(predicate.edges):
        if how:
            ok &= effects[:, 16 + i] == t[16 + i]
        if how == 2:
            ok &= effects[:, 28 + i] == t[28 + i]
    for e in predicate.excluded:
        ok &= ~(effects == _row(e)).all(axis=1)
    for test, perm, ori, n in ((A.CORNER_3CYCLE, 0, 8, 8), (A.EDGE_3CYCLE, 16, 28, 12)):
        if predicate.test == test:
            moved = (effects[:, perm:perm + n] != np.arange(n)).sum(axis=1)
            ok &= (moved == 3) & (effects[:, ori:ori + n] == 0).all(axis=1)
    return ok


def _satisfying(levels, predicate):
    found = set()
    for c, (effects, seqs) in levels.items():
        if c == 0:
            continue
        for i in np.flatnonzero(_mask(effects, predicate)):
            found.add(format_moves(seqs[i]))
    return found


@pytest.fixture(scope="module")
def htm4():
    return _brute_force("htm", 4)


@pytest.fixture(scope="module")
def qtm6():
    return _brute_force("qtm", 6)


def test_brute_force_counts_are_the_canonical_counts(htm4, qtm6):
    assert [len(htm4[c][1]) for c in range(5)] == A.sequence_counts("htm", 4)
    assert [len(qtm6[c][1]) for c in range(7)] == A.sequence_counts("qtm", 6)
    assert A.sequence_counts("htm", 3) == [1, 18, 243, 3240]


PREDICATES_SMALL = [
    ("only", lambda: A.only_pieces(["UFR URB UBL ULF UF UR UB UL DFR DRB DR FR BR"])),
    ("equals-partial", lambda: A.equals(CubeState.identity(),
                                        ["UFR URB UBL ULF UF UR UB UL"])),
    ("equals", lambda: A.equals(alg_state("R U R' U'"))),
    ("equals-qtm-half", lambda: A.equals(alg_state("R U2 F"))),
    ("orient", A.orients),
    ("only-two-layers", lambda: A.only_pieces(["UFR URB UBL ULF UF UR UB UL",
                                               "DFR DLF DBL DRB DF DR DB DL"])),
]


def test_vectorised_predicate_agrees_with_accepts(qtm6):
    effects, _ = qtm6[4]
    sample = effects[::50]
    for _, make in PREDICATES_SMALL + [("ll", A.last_layer), ("c3", A.corner_3cycle)]:
        predicate = make()
        expected = [predicate.accepts(CubeState(r[0:8], r[8:16], r[16:28], r[28:40]))
                    for r in sample]
        assert _mask(sample, predicate).tolist() == expected


@pytest.mark.parametrize("name,make", PREDICATES_SMALL)
def test_htm_search_finds_exactly_what_brute_force_finds(name, make, htm4):
    predicate = make()
    res = A.search(predicate, 4, "htm", keep_sequences=True)
    found = [format_moves(s) for s in res.found]
    assert len(found) == len(set(found)), "a sequence was found twice"
    assert set(found) == _satisfying(htm4, predicate)
    assert res.sequences == len(found) and res.status == "done" and res.lengths_done == 4


@pytest.mark.parametrize("name,make", PREDICATES_SMALL + [("ll", A.last_layer)])
def test_qtm_search_finds_exactly_what_brute_force_finds(name, make, qtm6):
    predicate = make()
    res = A.search(predicate, 6, "qtm", keep_sequences=True)
    found = [format_moves(s) for s in res.found]
    assert len(found) == len(set(found))
    assert set(found) == _satisfying(qtm6, predicate)


def test_last_layer_in_six_quarter_turns_is_the_shortest(qtm6):
    res = A.search(A.last_layer(), 6, "qtm", keep_sequences=True)
    assert {c.length for c in res.classes} == {6}
    assert "F R U R' U' F'" in {format_moves(s) for s in res.found}
    assert all(c.corner_shape == "2+2, 2 twisted" and c.edge_shape == "3-cycle, 2 flipped"
               for c in res.classes)


def test_sequences_of_a_class_have_conjugate_or_inverse_effects():
    res = A.search(A.last_layer(), 7, "qtm", keep_sequences=True)
    classes = [set(s.key() for s in morph_class(c.effect)) for c in res.classes]
    for seq in res.found:
        effect = alg_state(format_moves(seq))
        assert sum(effect.key() in members for members in classes) == 1
    assert sum(sum(c.sequences.values()) for c in res.classes) == len(res.found)


def test_auf_merges_classes():
    plain = A.search(A.last_layer(), 8, "qtm")
    merged = A.search(A.last_layer(), 8, "qtm", auf=True)
    assert len(merged.classes) < len(plain.classes)
    assert merged.sequences == plain.sequences


def test_pure_three_cycles():
    corners = A.search(A.corner_3cycle(), 8, "htm")
    assert [c.length for c in corners.classes] == [8]
    c = corners.classes[0]
    assert c.corner_shape == "3-cycle" and c.edge_shape == "-" and c.effect.order() == 3
    edges = A.search(A.edge_3cycle(), 8, "htm")
    assert edges.classes[0].length == 6 and edges.classes[0].edge_shape == "3-cycle"
    assert all(c.corner_shape == "-" for c in edges.classes)


def test_predicate_accepts():
    ll = A.last_layer()
    assert ll.accepts(alg_state("R U R' U R U2 R'"))
    assert not ll.accepts(alg_state("U")) and not ll.accepts(CubeState.identity())
    assert not ll.accepts(alg_state("R U R'"))
    assert A.corner_3cycle().accepts(alg_state("U R2 U' L2 U R2 U' L2"))
    assert not A.corner_3cycle().accepts(alg_state("R U R' D R U' R' D'"))     # twists too
    superflip = CubeState(range(8), [0] * 8, range(12), [1] * 12)
    assert A.orients().accepts(superflip) and not A.orients().accepts(alg_state("R"))
    assert A.equals(alg_state("R U"), ["UFR"]).accepts(alg_state("R U"))


def test_cancel_stops_the_search():
    cancel = new_cancel()
    cancel[0] = 1
    res = A.search(A.last_layer(), 8, "qtm", cancel=cancel)
    assert res.status == "cancelled" and res.lengths_done == 0


@pytest.mark.parametrize("words,message", [
    ([], "name a predicate"), (["nonsense"], "unknown predicate"),
    (["only"], "at least one piece"), (["only", "UFX"], "no piece named"),
    (["equals", "R ("], "unclosed"), (["ll", "extra"], "unknown predicate"),
])
def test_parse_predicate_errors(words, message):
    with pytest.raises(ValueError, match=message):
        A.parse_predicate(words)


def test_parse_predicate_words():
    assert A.parse_predicate(["LL"]).name == "ll"
    assert A.parse_predicate(["only", "UFR,UF"]).name == "only"
    assert A.parse_predicate(["equals", "R", "U"], ["UFR"]).corners[0] == A.FREE


def test_too_big_a_search_is_refused():
    with pytest.raises(A.SearchTooBig):
        A.check_size("htm", 16)
    A.check_size("qtm", 14)


# ---- the command ---------------------------------------------------------------------------

def test_search_command_json(capsys):
    assert main(["search", "--metric", "qtm", "--max-length", "7", "--json", "ll"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    classes = [r for r in records if r["type"] == "class"]
    summary = records[-1]
    assert summary["type"] == "summary" and summary["classes"] == len(classes)
    assert classes[0]["length"]["qtm"] == 6 and summary["status"] == "done"
    assert sum(sum(d.values()) for d in summary["sequences_by_class"]) == summary["sequences"]


def test_search_command_text(capsys):
    assert main(["search", "-n", "8", "corner-3cycle"]) == 0
    out = capsys.readouterr().out
    assert "3-cycle" in out and "1 classes" in out


@pytest.mark.parametrize("args", [["-n", "0", "ll"], ["-n", "30", "ll"], ["-n", "5", "bogus"],
                                  ["-n", "5", "ll", "--ignore", "UF"], ["-n", "16", "ll"]])
def test_search_command_rejects_bad_input(args, capsys):
    assert main(["search", *args]) == 2
    assert "cubelab:" in capsys.readouterr().err
