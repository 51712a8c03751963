"""The competition's players: admissible heuristics never overestimate, IDA* is optimal with
them (and says so only then), greedy best-first solves short scrambles, and the competition runs."""

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from cubelab.cube.moves import FACE_MOVES, alg_state, apply_moves
from cubelab.solvers.baselines import coordinates
from cubelab.solvers.informed.greedy import GreedySolver
from cubelab.solvers.informed.heuristics import ADMISSIBLE, HEURISTICS, KIND, piece_codes
from cubelab.solvers.informed.idastar import IDAStarSolver, _h

from helpers_solvers import prepared_solver

solver = prepared_solver(IDAStarSolver)


def h_value(solver, name, state):
    cc, ec = piece_codes(state)
    tw, fl, cp = coordinates(state)
    _, _, cdist, edist, _, _, _, twist_flip, cperm, n_flip = solver._args
    return int(_h(KIND[name], cc, ec, tw, fl, cp, cdist, edist, twist_flip, cperm, n_flip))


@settings(max_examples=60)
@given(st.lists(st.integers(0, 17), max_size=8))
def test_admissible_heuristics_never_exceed_the_moves_of_a_scramble(solver, seq):
    state = apply_moves(alg_state(""), [FACE_MOVES[m] for m in seq])
    for name in HEURISTICS:
        if ADMISSIBLE[name]:
            assert h_value(solver, name, state) <= len(seq), name
    if not seq or state.is_identity():
        assert all(h_value(solver, n, state) == 0 for n in ("misplaced", "manhattan"))


def test_the_raw_manhattan_sum_overestimates(solver):
    # one quarter turn moves eight pieces one step each: 8 (plus twists) for a one-move cube
    assert h_value(solver, "manhattan-raw", alg_state("R")) >= 8
    assert not ADMISSIBLE["manhattan-raw"]


def test_idastar_is_optimal_with_every_admissible_heuristic(solver):
    from cubelab.solvers.experiment import scramble
    for depth in (3, 5):
        state = apply_moves(alg_state(""), scramble(np.random.default_rng(depth), depth))
        lengths = {}
        for name in HEURISTICS:
            player = IDAStarSolver(heuristic=name)
            player._args, player._prepared = solver._args, True
            r = player.solve(state, time_limit=30)
            assert r.verified and r.optimal == ADMISSIBLE[name]
            lengths[name] = r.length["htm"]
            if ADMISSIBLE[name]:
                assert r.lower_bound == r.length["htm"]
        admissible = {lengths[n] for n in HEURISTICS if ADMISSIBLE[n]}
        assert len(admissible) == 1 and lengths["manhattan-raw"] >= admissible.pop()


greedy = prepared_solver(GreedySolver)


@pytest.mark.parametrize("name", HEURISTICS)
def test_greedy_solves_short_scrambles_and_never_claims_optimal(greedy, name):
    player = GreedySolver(heuristic=name)
    player.__dict__.update({k: v for k, v in greedy.__dict__.items() if k != "heuristic"})
    for alg in ("R", "R U", "F' D2 L"):
        r = player.solve(alg_state(alg), time_limit=20)
        assert r.found and r.verified and not r.optimal, (name, alg)
        assert apply_moves(alg_state(alg), r.moves).is_solved()


def test_the_competition_runs_the_players_on_the_same_scrambles(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "cubelab.tui.cli", "bench", "--competition", "--depths", "1-2",
         "-k", "1", "--time-limit", "5", "--no-chart", "--json", str(tmp_path / "c.json")],
        capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "reach" in out.stdout
    import json
    data = json.loads((tmp_path / "c.json").read_text())
    players = {t["solver"] for t in data["trials"]}
    assert {"idastar:misplaced", "idastar:pdb", "astar", "greedy:pdb"} <= players
    scrambles = {p: [t["scramble"] for t in data["trials"] if t["solver"] == p] for p in players}
    assert len({tuple(v) for v in scrambles.values()}) == 1
