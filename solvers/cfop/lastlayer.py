"""CFOP's last layer: the OLL and PLL algorithms (data), recognised from the pieces.

The algorithms live in lastlayer.json as cubers write them (wide turns, slices, rotations); they
are turned here into the face turns that do the same to the cube. A case is recognised from the
pieces, never from typed-in sticker patterns: an OLL case by the orientations of the four U
corners and edges (an OLL algorithm orients them whatever their order), a PLL case by the
permutation of the U layer. Each algorithm's case is computed from the algorithm itself (the
state its inverse makes), under every turn of U before it (and for PLL after it), so every AUF
is covered by construction; tests/test_cfop.py checks that the algorithms cover all 57 + 21
cases and keep the first two layers.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from cubelab.cube.moves import FACE_MOVES, alg_state, move_state
from cubelab.cube.notation import parse_moves
from cubelab.cube.state import CubeState, rotation_with_centres
from cubelab.tables.sequences import cancel, invert_seq

DATA = Path(__file__).with_name("lastlayer.json")
U_TURNS = (0, 1, 2)
"""U, U2, U' as indices into FACE_MOVES."""


@lru_cache(maxsize=1)
def _short_products() -> dict[CubeState, tuple[int, ...]]:
    """Every product of at most one turn of each of two opposite faces, by its state."""
    out: dict[CubeState, tuple[int, ...]] = {CubeState.identity(): ()}
    for m in range(18):
        out[move_state(FACE_MOVES[m])] = (m,)
    for axis in range(3):
        for a in range(3):
            for b in range(3):
                seq = (axis * 3 + a, (axis + 3) * 3 + b)
                out[move_state(FACE_MOVES[seq[0]]) * move_state(FACE_MOVES[seq[1]])] = seq
    return out


def face_turns(text: str) -> tuple[int, ...]:
    """The face turns (indices into FACE_MOVES) that do what an algorithm in any notation
    (wide turns, slices, rotations) does to the pieces: each move, seen from the cube's
    original orientation, is one or two face turns, and rotations only relabel the faces."""
    short = _short_products()
    state = CubeState.identity()
    here = state          # the moves so far, with the rotation undone
    out: list[int] = []
    for m in parse_moves(text):
        state = state * move_state(m)
        there = state * rotation_with_centres(state.cc).inverse()
        out.extend(short[here.inverse() * there])
        here = there
    return cancel(out)


def _state(seq) -> CubeState:
    s = CubeState.identity()
    for m in seq:
        s = s * move_state(FACE_MOVES[m])
    return s


def oll_key(s: CubeState) -> tuple[int, ...]:
    """The orientations of the U layer's corners and edges (what OLL reads)."""
    return tuple(int(v) for v in s.co[:4]) + tuple(int(v) for v in s.eo[:4])


def pll_key(s: CubeState) -> tuple[int, ...]:
    """The permutation of the U layer's corners and edges (what PLL reads)."""
    return tuple(int(v) for v in s.cp[:4]) + tuple(int(v) for v in s.ep[:4])


@dataclass(frozen=True)
class Algorithm:
    """One last-layer algorithm: its case (OLL number or PLL name), name, text and face turns."""

    step: str           # "oll" or "pll"
    case: str
    name: str
    text: str
    moves: tuple[int, ...]

    @property
    def label(self) -> str:
        """How a step is named in a solution: "oll 27 (Sune)", "pll T"."""
        if self.step == "oll":
            return f"oll {self.case} ({self.name})"
        return f"pll {self.case}"


@dataclass
class LastLayerBook:
    """The algorithms, and the cases they solve: OLL by orientation key, PLL by the
    permutation key of the case a U turn before it gives (with the U turn after it)."""

    oll: list[Algorithm]
    pll: list[Algorithm]
    oll_cases: dict[tuple, list[Algorithm]]
    pll_cases: dict[tuple, list[tuple[Algorithm | None, int]]]


@lru_cache(maxsize=1)
def book() -> LastLayerBook:
    data = json.loads(DATA.read_text())
    oll = [Algorithm("oll", str(a["case"]), a["name"], a["alg"], face_turns(a["alg"]))
           for a in data["oll"]]
    pll = [Algorithm("pll", a["case"], a["case"], a["alg"], face_turns(a["alg"]))
           for a in data["pll"]]
    oll_cases: dict[tuple, list[Algorithm]] = {}
    for a in oll:
        # the U turn before the algorithm is tried at solve time: one key per algorithm
        oll_cases.setdefault(oll_key(_state(invert_seq(a.moves))), []).append(a)
    pll_cases: dict[tuple, list[tuple[Algorithm | None, int]]] = {}
    for a in [None] + pll:
        inverse = CubeState.identity() if a is None else _state(invert_seq(a.moves))
        for j in range(4):
            # the case state X with X * alg * U^j solved is U^-j * alg^-1
            key = pll_key(_u(j).inverse() * inverse)
            pll_cases.setdefault(key, []).append((a, j))
    return LastLayerBook(oll, pll, oll_cases, pll_cases)


@lru_cache(maxsize=4)
def _u(k: int) -> CubeState:
    return _state((U_TURNS[k - 1],)) if k else CubeState.identity()


def _auf(k: int) -> tuple[int, ...]:
    return (U_TURNS[k - 1],) if k else ()


def best_pll(s: CubeState):
    """(pre-AUF turns, algorithm or None for a skip, AUF after) solving an oriented last
    layer with the fewest moves, or None if the state is no PLL case."""
    best = None
    lib = book()
    for k in range(4):
        for alg, j in lib.pll_cases.get(pll_key(s * _u(k)), ()):
            seq = _auf(k) + (alg.moves if alg else ()) + _auf(j)
            n = len(cancel(seq))
            if best is None or n < best[0]:
                best = (n, _auf(k), alg, _auf(j))
    return None if best is None else best[1:]


def solve_last_layer(s: CubeState, before=()) -> list[tuple[str, tuple[int, ...]]]:
    """The OLL, PLL and AUF steps (name, face turns) that solve a cube whose first two layers
    are solved, choosing the U turn before OLL and the OLL algorithm that make the whole last
    layer shortest, counted after the turns `before` it (the steps so far), with which it may
    cancel. ValueError if the last layer is no case of the book."""
    lib = book()
    before = cancel(before)
    options = []
    for k in range(4):
        turned = s * _u(k)
        key = oll_key(turned)
        if not any(key):
            algs = [None]
        else:
            algs = lib.oll_cases.get(key, [])
        for alg in algs:
            oll_moves = _auf(k) + (alg.moves if alg else ())
            after = turned * (_state(alg.moves) if alg else CubeState.identity())
            p = best_pll(after)
            if p is None:
                continue
            pre, palg, post = p
            total = len(cancel(before + oll_moves + pre + (palg.moves if palg else ()) + post))
            options.append((total, k, alg, oll_moves, pre, palg, post))
    if not options:
        raise ValueError("the last layer is not a case of the OLL/PLL book")
    total, k, alg, oll_moves, pre, palg, post = min(options, key=lambda o: o[0])
    if alg is None:
        # oriented already: a U turn alone is no OLL, it moves to the PLL step
        pre = cancel(_auf(k) + pre)
        oll_moves = ()
    return [(alg.label if alg else "oll skip", oll_moves),
            (palg.label if palg else "pll skip", pre + (palg.moves if palg else ())),
            ("auf", post)]
