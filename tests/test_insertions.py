"""Insertions into an FMC skeleton (issue 35): the alg sets, the finder, `cubelab insert`.

The alg sets are checked against brute force (the meet in the middle finds exactly the
sequences an enumeration finds; every stored sequence performs its 3-cycle); a single
insertion against every (place, alg) pair tried on whole sequences; several insertions for
verified solutions and an exhaustive search never worse than a narrow beam; bad skeletons exit 2.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from cubelab.cube.moves import FACE_MOVES
from cubelab.solvers.fmc.insertions import (
    InsertionError, _places, moves_text, check_skeleton, find_insertions, leftover_of,
)
from cubelab.tables.insertions.algs import (
    KINDS, PARITY, TARGET_COUNTS, _Levels, kind_of, parity_rows, three_cycle_rows,
)
from cubelab.tables.insertions.specs import AlgSet, encode, load_alg_sets
from cubelab.tables.sequences import (
    IDENTITY_ROW, cancel, canonical_levels, invert_seq, products, sequence_elements,
)
from cubelab.tui.cli import main


@pytest.fixture(scope="module")
def sets():
    return load_alg_sets()


def _ids(text: str) -> tuple[int, ...]:
    from cubelab.cube.notation import parse_moves
    return tuple(FACE_MOVES.index(m) for m in parse_moves(text))


def _random_seq(rng, n):
    out: tuple[int, ...] = ()
    while len(out) < n:
        c = cancel(out + (rng.randrange(18),))
        if len(c) == len(out) + 1:
            out = c
    return out


def _an_alg(sets, kind, rng):
    keys = [k for k, _ in sets[kind].items()]
    algs = sets[kind].algs_for(rng.choice(keys))
    return tuple(int(m) for m in algs[rng.randrange(len(algs))] if m >= 0)


# ---- the alg sets ---------------------------------------------------------------------------------

def test_meet_in_the_middle_finds_what_enumeration_finds():
    """For effects of random short sequences, the sequences found by meeting in the middle are
    exactly the canonical sequences of up to 5 moves with that effect (every level enumerated)."""
    levels = _Levels(3, None)       # halves up to 3: whole sequences up to 5 (and 6)
    enum = canonical_levels(range(18), 5)
    rng = random.Random(7)
    for length in (2, 3, 4, 5, 5):
        g = sequence_elements([_random_seq(rng, length)])[0]
        found = {tuple(int(m) for m in s) for level in levels.sequences_of(g, 5) for s in level}
        brute = {tuple(int(m) for m in s) for seqs, elems in enum
                 for s in seqs[(elems == g[None]).all(1)]}
        assert found == brute and found


def test_every_stored_sequence_is_its_3_cycle(sets):
    """All 74k sequences: canonical, distinct, of up to max_len moves, performing the 3-cycle
    they are filed under, of the right kind; every 3-cycle with one is a real target."""
    from cubelab.tables.cubies import follows_table
    follows = follows_table()
    for kind in KINDS:
        s = sets[kind]
        assert 0 < s.covers() <= TARGET_COUNTS[kind] and s.max_len == 10
        seqs, rows = [], []
        for key, algs in s.items():
            row = np.frombuffer(key, np.uint8)
            assert kind_of(row) == kind
            for a in algs:
                seq = tuple(int(m) for m in a if m >= 0)
                assert 1 <= len(seq) <= s.max_len
                assert all(follows[x, y] for x, y in zip(seq, seq[1:]))
                seqs.append(seq)
                rows.append(row)
        assert len(set(seqs)) == len(seqs)
        assert (sequence_elements(seqs) == np.array(rows)).all()


def test_symmetry_carries_the_same_sequences_a_direct_search_finds(sets):
    """For random 3-cycles, the stored set (carried from its class's searched target by a
    symmetry) equals a direct meet-in-the-middle search for it."""
    levels = _Levels(5, None)
    rng = random.Random(3)
    for kind in KINDS:
        keys = [k for k, _ in sets[kind].items()]
        for key in rng.sample(keys, 3):
            direct = {tuple(int(m) for m in s)
                      for level in levels.sequences_of(np.frombuffer(key, np.uint8), 10)
                      for s in level}
            stored = {tuple(int(m) for m in a if m >= 0) for a in sets[kind].algs_for(key)}
            assert stored == direct


# ---- one insertion against brute force ----------------------------------------------------------

def _brute_single(scramble, skeleton, sets, kinds=KINDS):
    """The shortest result of inserting any alg of the sets at any place (commuting pairs
    both ways), each whole sequence's effect computed and checked: no conjugation, no lookup,
    no kernel."""
    skeleton = cancel(skeleton)
    algs = [tuple(int(m) for m in a if m >= 0)
            for kind in kinds for _, block in sets[kind].items() for a in block]
    goal = sequence_elements([invert_seq(scramble)])[0]
    best = None
    bases, splits, _ = _places(skeleton)
    for base, split in zip(bases, splits):
        base = tuple(int(m) for m in base)
        whole = [base[:split] + a + base[split:] for a in algs]
        ok = (sequence_elements(whole) == goal[None]).all(1)
        for i in np.nonzero(ok)[0]:
            n = len(cancel(whole[i]))
            best = n if best is None else min(best, n)
    return best


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_one_insertion_is_the_best_of_every_place_and_alg(sets, seed):
    rng = random.Random(seed)
    skeleton = _random_seq(rng, 9)
    kind = KINDS[seed % 2]
    scramble = invert_seq(skeleton + _an_alg(sets, kind, rng))
    res = find_insertions(scramble, skeleton, sets=sets)
    assert res.needed == 1 and res.optimal and res.status == "solved"
    assert res.best.length == _brute_single(scramble, skeleton, sets)
    for sol in res.solutions:
        (ins,) = sol.insertions
        assert sol.moves == ins.after == cancel(ins.shown_into()[:ins.place] + ins.alg
                                                + ins.shown_into()[ins.place:])
        assert kind_of(sequence_elements([ins.alg])[0]) == ins.kind
        assert ins.cancelled == len(skeleton) + len(ins.alg) - sol.length


def test_a_place_between_commuting_moves_counts_both_orders(sets):
    """U D: inserting between them as D ^ U is a place of its own (conjugated by U, not D)."""
    bases, splits, swapped = _places(_ids("R U D F"))
    assert [(tuple(b), s) for b, s, sw in zip(bases, splits, swapped) if sw] == \
        [(_ids("R D U F"), 2)]
    assert len(splits) == 6 and list(splits[:5]) == [0, 1, 2, 3, 4]


# ---- several insertions -------------------------------------------------------------------------

@pytest.mark.parametrize("spec", [("corners", "edges"), ("edges", "edges"),
                                  ("corners", "corners")])
def test_several_insertions_solve_and_exhaustive_is_never_worse(sets, spec):
    rng = random.Random(hash(spec) % 1000)
    skeleton = _random_seq(rng, 10)
    extra = tuple(m for kind in spec for m in _an_alg(sets, kind, rng))
    scramble = invert_seq(skeleton + extra)
    need, _ = check_skeleton(leftover_of(scramble, skeleton), KINDS, 4)
    greedy = find_insertions(scramble, skeleton, sets=sets, beam=1)
    full = find_insertions(scramble, skeleton, sets=sets, beam=10 ** 9)
    assert full.optimal and full.needed == need == len(full.best.insertions)
    assert full.best.length <= greedy.best.length
    for res in (greedy, full):
        for sol in res.solutions:
            state = sequence_elements([scramble + sol.moves])[0]
            assert (state == sequence_elements([()])[0]).all()
            seq = cancel(skeleton)
            for ins in sol.insertions:          # each insertion goes into the one before it
                assert ins.into == seq
                seq = ins.after
            assert seq == sol.moves


def test_a_solved_skeleton_needs_nothing(sets):
    res = find_insertions(_ids("R U"), _ids("U' R'"), sets=sets)
    assert res.needed == 0 and res.best.length == 2 and res.optimal and not res.best.insertions


def test_the_3_cycles_a_leftover_needs():
    """Counted over cycle classes: one 3-cycle 1, a Sune's three twisted corners 2 (and its
    edge 3-cycle 1), two twisted corners 2, a corner 5-cycle 2, a product of k 3-cycles at
    most k."""
    def need(text):
        return check_skeleton(leftover_of(_ids(text), ()), KINDS, 4)[1]
    assert need("R U R' D R U' R' D'") == {"corners": 1, "edges": 0, PARITY: 0}
    assert need("R U R' U R U2 R' U2") == {"corners": 2, "edges": 1, PARITY: 0}
    assert need("R2 U R U R' U' R' U' R' U R'") == {"corners": 0, "edges": 1, PARITY: 0}
    rng = random.Random(11)
    rows = {k: three_cycle_rows(k) for k in KINDS}
    for _ in range(30):
        k = rng.randrange(1, 4)
        left = IDENTITY_ROW
        for _ in range(k):
            kind = rng.choice(KINDS)
            left = products(left, rows[kind][rng.randrange(len(rows[kind]))])[0]
        total, _ = check_skeleton(left, KINDS, 4)
        assert total <= k and (k > 1 or total == 1)


# ---- bad skeletons --------------------------------------------------------------------------------

def test_parity_and_kinds_are_refused():
    with pytest.raises(InsertionError, match="odd permutation"):
        check_skeleton(leftover_of(_ids("R"), ()), KINDS, 4)
    corner = _ids("R U R' D R U' R' D'")
    with pytest.raises(InsertionError, match="only edge 3-cycles"):
        check_skeleton(leftover_of(corner, ()), ("edges",), 4)
    with pytest.raises(InsertionError, match="it needs more than 4 insertions"):
        check_skeleton(leftover_of(_ids("R U F2 D' L B2 U R2 F' D B"), ()), KINDS, 4)


SCRAMBLE = "R' U' F D2 L2 F R2 U2 R2 B D2 L B2 D' B' L2 U' R' D' F' U2 R' U' F"
SOLUTION = "D L' B' U' D F2 L' U' L F2 L F2 B2 L' B2 L2 D2 F2 D2 R2 U2 D2 F2 R2 U"


def test_cli_finds_the_insertion_that_cancels_back(capsys):
    """A 25-move solution with a pure 3-cycle appended: the insertion cancels 18 moves."""
    skeleton = SOLUTION + " R U R' D R U' R' D'"
    assert main(["insert", "--json", "-n", "2", "--skeleton", skeleton, *SCRAMBLE.split()]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["optimal"] and record["verified"] and record["insertions_needed"] == 1
    assert record["length"] == 25 and len(record["solutions"]) == 2
    (ins,) = record["insertions"]
    assert "[1]" in ins["marked"] and ins["cancelled"] == 18
    moves = _ids(record["solution"])
    assert len(moves) == 25
    assert (sequence_elements([_ids(SCRAMBLE) + moves]) == sequence_elements([()])).all()


def test_cli_text_and_niss_skeleton(capsys):
    """A skeleton in FMC notation: the ^( ) part is on the inverse (premoves, inverted)."""
    skeleton = SOLUTION.rsplit(" ", 1)[0] + " R U R' D R U' R' D' ^(U')"
    assert main(["insert", "--skeleton", skeleton, *SCRAMBLE.split()]) == 0
    out = capsys.readouterr().out
    assert "[1] = " in out and "optimal: 25 moves" in out and "solution (25)" in out


@pytest.mark.parametrize("argv, message", [
    (["--skeleton", "R", "--algs", "corners,edges"],
     "3-cycle insertions cannot solve parity; allow parity algs (--algs corners,edges,parity)"),
    (["--skeleton", "R U R' D R U' R' D'", "--algs", "edges"], "only edge 3-cycles"),
    (["--skeleton", "R U F2 D' L B2 U R2 F' D B"], "more than 4 insertions (the most searched"),
    (["--skeleton", "R Q"], "--skeleton: unknown move 'Q' at column 3"),
    (["--skeleton", "R M"], "face turns"),
    (["--skeleton", "R", "--algs", "corners,wings"], "--algs: unknown alg set 'wings'"),
    (["--skeleton", "R", "--beam", "5", "--exhaustive"], "--exhaustive keeps every"),
    (["--skeleton", ""], "--skeleton: no moves"),
])
def test_cli_bad_input_exits_2(capsys, argv, message):
    assert main(["insert", *argv, "R", "U"]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_the_insert_command_works_from_the_session_position(sets):
    """:insert in the workbench and the REPL: the session's position is the scramble."""
    from cubelab.solvers import REGISTRY
    from cubelab.tui.session import Session
    s = Session(REGISTRY)
    s.execute(SCRAMBLE)
    out = s.execute(":insert " + SOLUTION + " R U R' D R U' R' D'")
    assert not out.error and "[1] = " in out.message
    assert "solution (25, optimal among insertions): " + SOLUTION in out.message
    bad = s.execute(":insert " + SOLUTION + " R U")
    assert bad.error and "it needs 6 insertions, more than 4" in bad.message
    assert s.execute(":insert R Q").error
    assert "insert" in s.execute(":help").message


def _one_cycle_left(rows: np.ndarray) -> np.ndarray:
    """Rows that are a single 3-cycle of corners or of edges (vectorised kind_of)."""
    c_moved = ((rows[:, 0:8] != np.arange(8)) | (rows[:, 8:16] != 0)).sum(1)
    e_moved = ((rows[:, 16:28] != np.arange(12)) | (rows[:, 28:40] != 0)).sum(1)
    c_cycled = (rows[:, 0:8] != np.arange(8)).sum(1)
    e_cycled = (rows[:, 16:28] != np.arange(12)).sum(1)
    return ((e_moved == 0) & (c_moved == 3) & (c_cycled == 3)) | \
        ((c_moved == 0) & (e_moved == 3) & (e_cycled == 3))


def test_two_insertions_exhaustive_is_the_best_over_every_first_insertion(sets):
    """Brute force for the first insertion (every alg of both sets at every place, each whole
    sequence's effect computed, kept when one 3-cycle is left), then the best single insertion
    (itself checked against brute force above) into each: the exhaustive search's best equals
    the best of all of them."""
    rng = random.Random(21)
    skeleton = _random_seq(rng, 3)
    scramble = invert_seq(skeleton + _an_alg(sets, "corners", rng) + _an_alg(sets, "edges", rng))
    full = find_insertions(scramble, skeleton, sets=sets, beam=10 ** 9)
    assert full.optimal and full.needed == 2
    algs = [tuple(int(m) for m in a if m >= 0)
            for kind in KINDS for _, block in sets[kind].items() for a in block]
    start = sequence_elements([scramble])[0]
    firsts = set()
    bases, splits, _ = _places(cancel(skeleton))
    for base, split in zip(bases, splits):
        base = tuple(int(m) for m in base)
        whole = [base[:split] + a + base[split:] for a in algs]
        left = products(start, sequence_elements(whole))
        for i in np.nonzero(_one_cycle_left(left))[0]:
            firsts.add(cancel(whole[i]))
    best = min(find_insertions(scramble, seq, sets=sets).best.length for seq in firsts)
    assert full.best.length == best


SUNE = SOLUTION + " R U R' U R U2 R' U2"       # three twisted corners and an edge 3-cycle


def test_cli_time_limit_answers_with_the_greedy_solution(capsys):
    assert main(["insert", "--json", "--exhaustive", "--time-limit", "0.5", "--skeleton", SUNE,
                 *SCRAMBLE.split()]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "time limit" and not record["optimal"]
    assert record["insertions_needed"] == 3
    if record["solution"] is not None:
        assert len(record["insertions"]) == 3
        moves = _ids(record["solution"])
        assert (sequence_elements([_ids(SCRAMBLE) + moves]) == sequence_elements([()])).all()


def test_ctrl_c_stops_the_command_at_once():
    import signal
    from tests.reliability.helpers import stop_cubelab
    run = stop_cubelab(["insert", "--exhaustive", "--skeleton", SUNE, *SCRAMBLE.split()],
                       after=4.0)
    if run.returncode == 0:
        pytest.skip("the search ended before the signal")
    assert run.returncode in (130, -signal.SIGINT), run.stderr
    assert "Traceback" not in run.stderr
    if run.returncode == 130:
        assert run.stderr.strip().splitlines()[-1] == "cubelab: interrupted"
        assert run.seconds < 3.0


# ---- parity: a corner 2-swap with an edge 2-swap ------------------------------------------------

T_PERM = "R U R' U' R' F R2 U' R' U' R U R' F'"
J_PERM = "R U2 R' U' R U2 L' U R' U' L"
TEN = "U R U2 B2 D L D' B2 U R'"


def _parity_set(texts) -> AlgSet:
    """A small parity alg set of the given algs and their inverses (the real one has every
    sequence of up to 11 moves; its search takes a minute)."""
    found: dict[bytes, list] = {}
    for t in texts:
        for seq in (_ids(t), invert_seq(_ids(t))):
            found.setdefault(sequence_elements([seq])[0].tobytes(), []).append(seq)
    width = max(len(seq) for seqs in found.values() for seq in seqs)
    table = {k: np.array([list(q) + [-1] * (width - len(q)) for q in v], np.int8)
             for k, v in found.items()}
    return AlgSet(PARITY, encode({PARITY: table}, width), width)


def test_parity_counts_one_insertion_and_the_3_cycles_left_after_it():
    """An odd leftover needs one parity alg, then for each kind the fewest 3-cycles left after
    the best 2-swap: a quarter turn's 4-cycles are a swap and a 3-cycle each."""
    kinds = KINDS + (PARITY,)

    def need(text):
        return check_skeleton(leftover_of(_ids(text), ()), kinds, 4)
    assert need(T_PERM) == (1, {PARITY: 1, "corners": 0, "edges": 0})
    assert need("R") == (3, {PARITY: 1, "corners": 1, "edges": 1})
    assert need(T_PERM + " R U R' D R U' R' D'") == (2, {PARITY: 1, "corners": 1, "edges": 0})
    rng = random.Random(5)
    swaps, cycles = parity_rows(), {k: three_cycle_rows(k) for k in KINDS}
    for _ in range(30):
        k = rng.randrange(0, 3)
        left = swaps[rng.randrange(len(swaps))]
        for _ in range(k):
            kind = rng.choice(KINDS)
            left = products(left, cycles[kind][rng.randrange(len(cycles[kind]))])[0]
        total, per = check_skeleton(left, kinds, 4)
        assert per[PARITY] == 1 and 1 <= total <= k + 1


def test_every_parity_row_is_a_corner_and_an_edge_2_swap():
    rows = parity_rows()
    assert len(rows) == TARGET_COUNTS[PARITY] == len({r.tobytes() for r in rows})
    assert all(kind_of(r) == PARITY for r in rows[::97])
    assert kind_of(sequence_elements([_ids(T_PERM)])[0]) == PARITY
    assert kind_of(sequence_elements([_ids("R")])[0]) is None


@pytest.mark.parametrize("seed", [1, 2])
def test_one_parity_insertion_is_the_best_of_every_place_and_alg(sets, seed):
    rng = random.Random(seed)
    parity = _parity_set([T_PERM, J_PERM, TEN])
    with_parity = dict(sets, **{PARITY: parity})
    skeleton = _random_seq(rng, 9)
    scramble = invert_seq(skeleton + _an_alg(with_parity, PARITY, rng))
    res = find_insertions(scramble, skeleton, sets=with_parity)
    assert res.needed == 1 and res.optimal and res.leftover[PARITY] == 1
    assert res.best.length == _brute_single(scramble, skeleton, with_parity, (PARITY,))
    (ins,) = res.best.insertions
    assert ins.kind == PARITY and ins.what().startswith("parity: corners (")


def test_parity_with_3_cycles_solves_and_each_insertion_is_one_of_the_kinds(sets):
    rng = random.Random(8)
    parity = _parity_set([T_PERM, J_PERM, TEN])
    with_parity = dict(sets, **{PARITY: parity})
    skeleton = _random_seq(rng, 8)
    extra = _an_alg(with_parity, PARITY, rng) + _an_alg(sets, "edges", rng)
    scramble = invert_seq(skeleton + extra)
    res = find_insertions(scramble, skeleton, sets=with_parity, beam=10 ** 9)
    assert res.needed == 2 and res.optimal
    assert res.best.length <= len(cancel(skeleton + extra))
    for sol in res.solutions:
        assert sorted(i.kind for i in sol.insertions) == ["edges", PARITY]
        state = sequence_elements([scramble + sol.moves])[0]
        assert (state == sequence_elements([()])[0]).all()
    with pytest.raises(InsertionError, match="allow parity algs"):
        find_insertions(scramble, skeleton, sets=with_parity, kinds=KINDS)


@pytest.mark.slow
def test_the_parity_table_and_a_parity_skeleton_from_the_command_line(capsys):
    """The real parity set (searched once): every sequence canonical, of up to 11 moves, a
    parity element; then `cubelab insert` on a skeleton ending a quarter turn short (parity
    and a 3-cycle of each kind) and on one leaving a T-perm."""
    from cubelab.tables.cubies import follows_table
    from cubelab.tables.insertions.specs import load_parity_set
    parity = load_parity_set()
    assert parity.max_len == 11 and 0 < parity.covers() <= TARGET_COUNTS[PARITY]
    follows = follows_table()
    rng = random.Random(4)
    items = list(parity.items())
    for key, block in rng.sample(items, 40):
        seqs = [tuple(int(m) for m in a if m >= 0) for a in block]
        assert all(10 <= len(q) <= 11 for q in seqs)
        assert all(follows[a, b] for q in seqs for a, b in zip(q, q[1:]))
        assert (sequence_elements(seqs) == np.frombuffer(key, np.uint8)[None]).all()
        assert kind_of(np.frombuffer(key, np.uint8)) == PARITY
    # a J-perm's element has sequences, the J-perm among them
    j = _ids(J_PERM)
    assert any(tuple(int(m) for m in a if m >= 0) == j
               for a in parity.algs_for(sequence_elements([j])[0].tobytes()))
    for skeleton, needed in ((SOLUTION + " " + T_PERM, 1), (SOLUTION.rsplit(" ", 1)[0], 3)):
        assert main(["insert", "--json", "--skeleton", skeleton, *SCRAMBLE.split()]) == 0
        record = json.loads(capsys.readouterr().out)
        assert record["verified"] and record["insertions_needed"] == needed
        assert record["leftover"]["parity"] == 1
        assert PARITY in [i["kind"] for i in record["insertions"]]
        moves = _ids(record["solution"])
        assert (sequence_elements([_ids(SCRAMBLE) + moves]) == sequence_elements([()])).all()
