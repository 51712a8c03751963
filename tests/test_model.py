"""Plain tests of the cube model: moves, well-known facts, facelets and their validation."""

import itertools

import numpy as np
import pytest

from cubelab.cube.facelets import (
    SOLVED_FACELETS, FaceletError, parse_facelets, parse_singmaster, to_facelets, to_singmaster,
)
from cubelab.cube.facts import (
    corner_cycles, edge_cycles, facts, in_centre, invariant_failures, is_reachable, parity,
    three_cycles, trace,
)
from cubelab.cube.moves import FACE_MOVES, alg_state, move_state, rotations
from cubelab.cube.pieces import facelet_index
from cubelab.cube.random_states import random_assembly, random_state
from cubelab.cube.state import CubeState, permutation_cycles as _cycles

SUPERFLIP = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2"

# Kociemba's published cubie definitions of the six face turns, typed independently of the
# geometric derivation the model uses.
KOCIEMBA_MOVES = {
    "U": ([3, 0, 1, 2, 4, 5, 6, 7], [0] * 8, [3, 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11], [0] * 12),
    "R": ([4, 1, 2, 0, 7, 5, 6, 3], [2, 0, 0, 1, 1, 0, 0, 2],
          [8, 1, 2, 3, 11, 5, 6, 7, 4, 9, 10, 0], [0] * 12),
    "F": ([1, 5, 2, 3, 0, 4, 6, 7], [1, 2, 0, 0, 2, 1, 0, 0],
          [0, 9, 2, 3, 4, 8, 6, 7, 1, 5, 10, 11], [0, 1, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0]),
    "D": ([0, 1, 2, 3, 5, 6, 7, 4], [0] * 8, [0, 1, 2, 3, 5, 6, 7, 4, 8, 9, 10, 11], [0] * 12),
    "L": ([0, 2, 6, 3, 4, 1, 5, 7], [0, 1, 2, 0, 0, 2, 1, 0],
          [0, 1, 10, 3, 4, 5, 9, 7, 8, 2, 6, 11], [0] * 12),
    "B": ([0, 1, 3, 7, 4, 5, 2, 6], [0, 0, 1, 2, 0, 0, 2, 1],
          [0, 1, 2, 11, 4, 5, 6, 10, 8, 9, 3, 7], [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 1]),
}


@pytest.mark.parametrize("face", "URFDLB")
def test_face_turns_match_kociemba(face):
    assert alg_state(face) == CubeState(*KOCIEMBA_MOVES[face])


def test_well_known_orders():
    for m in FACE_MOVES:
        expected = 2 if m.amount == 2 else 4
        assert move_state(m).order() == expected
    assert alg_state("R U").order() == 105
    assert alg_state("R U R' U'").order() == 6
    assert alg_state("R U2 D' B D'").order() == 1260
    assert alg_state(SUPERFLIP).order() == 2


def test_superflip_and_identity_are_in_the_centre():
    assert in_centre(alg_state(SUPERFLIP))
    assert in_centre(CubeState.identity())
    assert not in_centre(alg_state("R"))
    assert not in_centre(alg_state("R2 L2 U2 D2 F2 B2"))  # checkerboard: order 2, not central
    assert edge_cycles(alg_state(SUPERFLIP)).count("+") == 12


def test_slices_wide_moves_and_rotations_are_what_they_should_be():
    assert alg_state("M") == alg_state("R L' x'")
    assert alg_state("E") == alg_state("U D' y'")
    assert alg_state("S") == alg_state("F' B z")
    assert alg_state("Rw") == alg_state("R M'") == alg_state("r") == alg_state("L x")
    assert alg_state("Uw") == alg_state("D y") and alg_state("Fw") == alg_state("B z")
    assert alg_state("3Rw") == alg_state("x")
    assert len(set(rotations())) == 24
    for r in rotations():
        assert r.is_solved() and r.order() in (1, 2, 3, 4)


def test_rotated_centres_are_solved_relative_to_them():
    s = alg_state("y R U")
    assert not s.centres_home()
    assert s.normalized() == alg_state("R U")
    assert to_facelets(alg_state("x"))[4] == "F"  # the F centre is now on top
    assert facts(alg_state("x2 y")).order == 1
    # a rotation first changes which colour the next move turns (after z, R turns white)...
    assert facts(alg_state("z R")).corner_cycles == corner_cycles(alg_state("U"))
    # ...while a rotation at the end changes no fact, on either cube (facts.py's convention)
    from cubelab.cube.puzzles import CUBE2, CUBE3
    for puzzle in (CUBE3, CUBE2):
        for alg in ("R U", "F R' D2", "R U R' F2 B"):
            plain = puzzle.facts(puzzle.from_alg(alg).state)
            for rotation in ("x", "y2", "z'", "x y", "Rv Fv'"):
                turned = puzzle.facts(puzzle.from_alg(f"{alg} {rotation}").state)
                assert turned["facelets"] != plain["facelets"]       # the net shows it held
                for key in ("order", "parity", "corner_cycles", "edge_cycles", "corner_3cycles"):
                    assert turned[key] == plain[key], (puzzle.name, alg, rotation, key)


def test_facelets_round_trip_and_colours():
    assert to_facelets(CubeState.identity()) == SOLVED_FACELETS
    s = alg_state("R U R' F' x y' M E2")
    assert parse_facelets(to_facelets(s)) == s
    assert parse_facelets(to_facelets(s, colours=True)) == s
    assert parse_facelets(to_facelets(s).lower()) == s
    colour = "".join({"U": "W", "R": "R", "F": "G", "D": "Y", "L": "O", "B": "B"}[c]
                     for c in SOLVED_FACELETS)
    assert parse_facelets(colour).is_identity()


def test_singmaster_strings():
    solved = "UF UR UB UL DF DR DB DL FR FL BR BL UFR URB UBL ULF DRF DFL DLB DBR"
    assert parse_singmaster(solved).is_identity()
    assert to_singmaster(CubeState.identity()) == solved
    s = random_state(7)
    assert parse_singmaster(to_singmaster(s)) == s
    flipped = solved.replace("UF ", "FU ", 1)
    assert edge_cycles(parse_singmaster(flipped)) == "(UF)+"


def _with(stickers: dict[str, str], base: str = SOLVED_FACELETS) -> str:
    chars = list(base)
    for name, colour in stickers.items():
        chars[facelet_index(name)] = colour
    return "".join(chars)


@pytest.mark.parametrize("text, message", [
    ("U" * 53, "expected 54 stickers, got 53"),
    (SOLVED_FACELETS[:-1] + "X", "unexpected character 'X' at position 54 (sticker B9)"),
    (_with({"B9": "U"}), "colour U (W) appears 10 times (expected 9)"),
    (_with({"U5": "R", "R5": "U"}), "are not opposite colours"),
    (_with({"U5": "D", "D5": "U"}), "mirror image"),
    (_with({"R1": "U", "U1": "R"}), "corner at U9 R1 F3 has colours U U F"),
    (_with({"U5": "R", "R1": "U"}), "centres RRFDLB are not six distinct colours"),
    (_with({"U8": "U", "F2": "U", "U2": "F"}), "edge at U8 F2 has colours U U"),
    (_with({"D1": "U", "L9": "R", "F7": "F", "U6": "D", "R2": "L"}),
     "corner UFR appears twice (at U9 R1 F3 and at D1 L9 F7)"),
])
def test_facelet_validation_messages(text, message):
    with pytest.raises(FaceletError) as err:
        parse_facelets(text)
    assert message in str(err.value)


def test_edge_appearing_twice_is_named():
    # the UF edge also where DR was, the DR edge where UR was, and an impossible FR edge later
    text = _with({"D6": "U", "R8": "F", "U6": "D", "F6": "R"})
    with pytest.raises(FaceletError, match=r"edge UF appears twice \(at U8 F2 and at D6 R8\)"):
        parse_facelets(text)


def test_unreachable_assemblies_load_and_name_the_invariant():
    twisted = _with({"U9": "F", "R1": "U", "F3": "R"})
    s = parse_facelets(twisted)
    assert trace(s) == (0, 0, 1) and not is_reachable(s)
    assert invariant_failures(s) == ["one corner twisted (twist sum 1 mod 3)"]
    flipped = parse_facelets(_with({"U8": "F", "F2": "U"}))
    assert invariant_failures(flipped) == ["an edge flipped (flip sum odd)"]
    swapped = parse_singmaster("UR UF UB UL DF DR DB DL FR FL BR BL UFR URB UBL ULF DRF DFL DLB DBR")
    assert invariant_failures(swapped) == ["two pieces swapped (corner and edge parities differ)"]
    f = facts(swapped)
    assert f.reachable is False and f.trace == (1, 0, 0)


def test_cycles_are_written_in_the_direction_pieces_travel():
    assert corner_cycles(alg_state("U")) == "(UFR ULF UBL URB)"
    assert edge_cycles(alg_state("U")) == "(UR UF UL UB)"
    assert corner_cycles(alg_state("R")) == "(UFR BUR DBR FDR)"
    # Sune-like twist-only positions show twisted pieces in place
    twist = alg_state("(R' D' R D)2 U (R' D' R D)4 U'")
    assert corner_cycles(twist) == "(UFR)- (URB)+"  # U sticker of UFR ends on F3
    assert edge_cycles(twist) == ""


def test_three_cycle_decomposition_reproduces_the_permutation():
    rng = np.random.default_rng(3)
    for n in (3, 8, 12):
        for _ in range(300):
            p = rng.permutation(n)
            cycles = three_cycles(p)
            if cycles is None:
                assert sum(len(c) - 1 for c in _cycles(p)) % 2 == 1
                continue
            moved = int((p != np.arange(n)).sum())
            assert len(cycles) <= moved // 2
            cur = list(range(n))
            for a, b, c in cycles:
                new = cur[:]
                new[b], new[c], new[a] = cur[a], cur[b], cur[c]
                cur = new
            assert cur == list(p)
    assert three_cycles([1, 0, 2]) is None


def test_parity_and_facts_of_random_states():
    for seed in range(20):
        s = random_state(seed)
        f = facts(s)
        assert f.reachable and f.trace == (0, 0, 0)
        assert 1 <= f.morph <= 96 and 96 % f.morph == 0
        assert s.power(f.order).is_identity()
    assert parity(alg_state("R")) == "odd" and parity(alg_state("R U")) == "even"


def test_all_morph_values_seen_divide_96():
    seen = set()
    for moves in itertools.product(["R", "U", "F", "R2", "U2", "L'"], repeat=3):
        seen.add(facts(alg_state(" ".join(moves))).morph)
    for seed in range(30):
        seen.add(facts(random_assembly(seed)).morph)
    assert all(96 % m == 0 for m in seen)
    assert {1, 6, 12, 96} <= seen | {1, 6, 12} and 96 in seen


def test_immutability_and_hashing():
    s = alg_state("R U")
    with pytest.raises(AttributeError):
        s.cp = None
    with pytest.raises(ValueError):
        s.cp[0] = 3
    assert hash(s) == hash(alg_state("R U")) and s == alg_state("R U")
    assert {s: 1}[alg_state("R U")] == 1
    import pickle
    assert pickle.loads(pickle.dumps(s)) == s
