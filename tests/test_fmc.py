"""FMC steps (issue 35): optimal step lengths and every optimal NISS pair against a brute force
on the model, the pipeline's final solutions solving their scrambles, the case names, and the
command line (records, one-step lists, precise refusals)."""

from __future__ import annotations

import itertools
import json
import random
import re

import pytest

from cubelab.cube.goal_catalog import resolve_goal, resolve_moveset
from cubelab.cube.moves import alg_state, move_state
from cubelab.cube.notation import format_moves, invert_moves, parse_moves
from cubelab.cube.state import CubeState
from cubelab.solvers.fmc.cases import AXES, bad_corners, dr_case, eo_case, slice_edges_out
from cubelab.solvers.fmc.niss import StepSolution, solve_step
from cubelab.solvers.fmc.prefixes import follows as _follows
from cubelab.solvers.fmc.pipeline import run_pipeline
from cubelab.tui.cli import main

FACE_SEQ = "U R F D L B".split()


# ---- an independent search: every pair (A, B) of sequences, no tables, no canonical order ----

def _ids(moves):
    return [move_state(m) for m in moves]


def _seqs(moves, length):
    """Every sequence of `length` moves (no two turns of one face in a row: those are
    shorter sequences, which the brute force meets earlier)."""
    out = []
    for seq in itertools.product(moves, repeat=length):
        if all(a.family != b.family for a, b in zip(seq, seq[1:])):
            out.append(seq)
    return out


def _state(moves) -> CubeState:
    s = CubeState.identity()
    for m in moves:
        s = s * move_state(m)
    return s


def brute_pairs(position, met, moves, max_total, niss):
    """(optimum, every optimal pair (A, B) with B' P A meeting `met`), found by trying every
    split of every total length on the model."""
    seqs = {k: [(q, _state(q)) for q in _seqs(moves, k)] for k in range(max_total + 1)}
    for n in range(max_total + 1):
        splits = {"never": [(n, 0)], "before": [(0, n)],
                  "always": [(a, n - a) for a in range(n + 1)]}[niss]
        found = set()
        for a, b in splits:
            rights = [(q, position * s) for q, s in seqs[a]]
            for qb, sb in seqs[b]:
                left = sb.inverse()
                for qa, r in rights:
                    if met(left * r):
                        found.add((qa, qb))
        if found:
            return n, found
    return None, set()


def _canonical(seq) -> bool:
    return all(_follows(a, b) for a, b in zip(seq, seq[1:]))


def _eo_fb(s: CubeState) -> bool:
    # Kociemba's edge orientation is the fb axis's, straight from the model
    return not any(s.eo.tolist())


def _dr_ud(s: CubeState) -> bool:
    return (not any(s.co.tolist()) and not any(s.eo.tolist())
            and all(int(s.ep[slot]) >= 8 for slot in range(8, 12)))


def _subgroup_element(moves, length, rng) -> CubeState:
    return _state(rng.choice(moves) for _ in range(length))


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("niss", ["never", "before", "always"])
def test_eo_step_against_brute_force(seed, niss):
    """A position built as B0 g A0' (g keeping EO): the NISS optimum and every optimal pair
    equal the brute force's (after the canonical order both sides keep)."""
    rng = random.Random(seed)
    all_moves = list(resolve_moveset("all").moves)
    keep = list(resolve_moveset("eo-fb").moves)
    a0 = [rng.choice(all_moves) for _ in range(rng.choice([1, 2]))]
    b0 = [rng.choice(all_moves) for _ in range(3 - len(a0))]
    position = _state(b0) * _subgroup_element(keep, 12, rng) * _state(a0).inverse()
    limit = 3 if niss == "always" else 4
    optimum, pairs = brute_pairs(position, _eo_fb, all_moves, limit, niss)
    res = solve_step(position, "eo:fb", "all", niss, all=True)
    if optimum is None:
        assert res.optimum is None or res.optimum > limit
        return
    assert res.optimal and res.optimum == optimum
    want = {(format_moves(a), format_moves(b)) for a, b in pairs
            if _canonical(a) and _canonical(b)}
    got = {(format_moves(s.normal), format_moves(s.inverse)) for s in res.solutions}
    assert got == want
    for s in res.solutions:
        assert _eo_fb(s.after(position))


def test_niss_beats_both_sides_and_matches_brute_force():
    """F on the normal side and R on the inverse: neither side alone does it in 2."""
    position = alg_state("R") * alg_state("U2 D R2 F2 L") * alg_state("F").inverse()
    moves = list(resolve_moveset("all").moves)
    for niss in ("never", "before", "always"):
        optimum, _ = brute_pairs(position, _eo_fb, moves, 3, niss)
        assert solve_step(position, "eo:fb", "all", niss).optimum == optimum
    assert solve_step(position, "eo:fb", "all", "always").optimum <= 2


@pytest.mark.parametrize("seed", [4, 5])
def test_dr_from_eo_against_brute_force(seed):
    """DR ud in <U,D,R,L,F2,B2> from an EO: the optimum with and without NISS."""
    rng = random.Random(seed)
    keep = list(resolve_moveset("eo-fb").moves)
    dr = list(resolve_moveset("dr-ud").moves)
    a0 = [rng.choice(keep)]
    b0 = [rng.choice(keep) for _ in range(2)]
    position = _state(b0) * _subgroup_element(dr, 10, rng) * _state(a0).inverse()
    for niss in ("never", "always"):
        optimum, pairs = brute_pairs(position, _dr_ud, keep, 3, niss)
        res = solve_step(position, "dr:ud", "eo-fb", niss, all=True)
        if optimum is None:             # only NISS is sure to find the 3 moves built in
            assert niss == "never" and res.optimum > 3
            continue
        assert res.optimal and res.optimum == optimum
        want = {(format_moves(a), format_moves(b)) for a, b in pairs
                if _canonical(a) and _canonical(b)}
        assert {(format_moves(s.normal), format_moves(s.inverse))
                for s in res.solutions} == want


def test_htr_and_finish_against_brute_force():
    htr = resolve_goal("htr", CubeState.identity())[0]
    half = list(resolve_moveset("htr").moves)
    dr_moves = list(resolve_moveset("dr-ud").moves)
    position = alg_state("R2 F2 U2 L2 B2") * alg_state("U R2 D").inverse()
    optimum, pairs = brute_pairs(position, htr.is_met, dr_moves, 3, "never")
    res = solve_step(position, "htr", "dr-ud", "never", all=True)
    assert res.optimal and res.optimum == optimum
    assert {format_moves(s.normal) for s in res.solutions} == \
        {format_moves(a) for a, _ in pairs if _canonical(a)}
    position = alg_state("R2 U2 F2 L2")
    optimum, pairs = brute_pairs(position, lambda s: s.is_solved(), half, 4, "never")
    res = solve_step(position, "solved", "htr", "never", all=True)
    assert res.optimum == optimum == 4
    assert {format_moves(s.normal) for s in res.solutions} == \
        {format_moves(a) for a, _ in pairs if _canonical(a)}


def test_n_best_are_ranked_and_minimal():
    position = alg_state("R' U' F D2 L2 F R2 U2 R2 B D2 L B2 D' B' L2 U' R' D' F' U2 R' U' F")
    res = solve_step(position, "eo:fb", "all", "always", n=12)
    lengths = [s.length for s in res.solutions]
    assert len(res.solutions) == 12 and lengths == sorted(lengths)
    goal = resolve_goal("eo:fb", position)[0]
    for s in res.solutions:
        assert goal.is_met(s.after(position))
        # minimal: no shorter pair of its prefixes is already an EO
        for i in range(len(s.normal) + 1):
            for j in range(len(s.inverse) + 1):
                if (i, j) != (len(s.normal), len(s.inverse)):
                    shorter = StepSolution(s.normal[:i], s.inverse[:j])
                    assert not goal.is_met(shorter.after(position))


@pytest.mark.parametrize("seed", [11, 12])
def test_pipeline_solutions_solve_the_scramble(seed):
    rng = random.Random(seed)
    moves = list(resolve_moveset("all").moves)
    scramble = []
    while len(scramble) < 20:
        m = rng.choice(moves)
        if not scramble or scramble[-1].family != m.family:
            scramble.append(m)
    state = _state(scramble)
    res = run_pipeline(state, ["eo", "dr", "htr", "fin"],
                       keep={"eo": 2, "dr": 1, "htr": 1, "fin": 1}, count=3)
    assert res.solutions and res.complete and res.status == "solved"
    for sol in res.solutions:
        assert (state * _state(sol.moves)).is_solved()
        # the labelled steps, read back with cubelab's notation (^( ) groups at the end,
        # inverted), solve it too
        assert (state * _state(parse_moves(sol.chain.niss_text))).is_solved()
        kinds = [s.choice.kind for s in sol.chain.steps]
        assert kinds == ["eo", "dr", "htr", "fin"]
        eo, dr = sol.chain.steps[0].choice.axis, sol.chain.steps[1].choice.axis
        assert eo != dr
        assert sol.length <= sol.chain.total
    lengths = [s.length for s in res.solutions]
    assert lengths == sorted(lengths)


def test_cases_count_what_the_goals_miss():
    rng = random.Random(7)
    moves = list(resolve_moveset("all").moves)
    for _ in range(20):
        state = _state(rng.choice(moves) for _ in range(15))
        for axis in AXES:
            goal = resolve_goal(f"eo:{axis}", state)[0]
            count, *slots = eo_case(state, axis).split()
            assert count == f"{len(goal.unmet(state))}e" and len(slots) == len(goal.unmet(state))
    assert dr_case(alg_state("F"), "ud") == "4c2e"
    assert dr_case(alg_state("F"), "fb") == "0c0e"
    assert dr_case(alg_state("U R2 F2 D'"), "ud") == "0c0e"
    assert dr_case(alg_state("U"), "rl") == "4c2e"
    assert "+" not in dr_case(alg_state("U R2 F2 D'"), "rl")    # fb EO kept: DR rl needs no flip
    assert re.fullmatch(r"\dc\de\+\d+f", dr_case(alg_state("F U"), "rl"))
    state = alg_state("R U R' F")
    assert len(bad_corners(state, "ud")) == sum(1 for t in state.co.tolist() if t)
    assert slice_edges_out(alg_state("F B"), "ud") == 4


# ---- the command line -------------------------------------------------------------------------

SCRAMBLE = "R' U' F D2 L2 F R2 U2 R2 B D2 L B2 D' B' L2 U' R' D' F' U2 R' U' F"


def test_cli_pipeline_json(capsys):
    assert main(["fmc", "--json", "--keep", "1", "-n", "2", *SCRAMBLE.split()]) == 0
    record = json.loads(capsys.readouterr().out)
    state = alg_state(SCRAMBLE)
    assert (state * _state(parse_moves(record["solution"]))).is_solved()
    assert [s["kind"] for s in record["steps"]] == ["eo", "dr", "htr", "fin"]
    assert record["length"] == len(parse_moves(record["solution"]))
    assert record["steps"][-1]["total"] >= record["length"]
    assert record["status"] == "solved" and len(record["solutions"]) >= 1


def test_cli_pipeline_text(capsys):
    assert main(["fmc", "--keep", "1", "-n", "1", *SCRAMBLE.split()]) == 0
    out = capsys.readouterr().out
    assert "// EO" in out and "// DR" in out and "// HTR" in out and "// finish" in out
    final = [line for line in out.splitlines() if line.startswith("#1 solution")][0]
    moves = parse_moves(final.split(":", 1)[1])
    assert (alg_state(SCRAMBLE) * _state(moves)).is_solved()


def test_cli_one_step_lists_every_optimal(capsys):
    assert main(["fmc", "--steps", "dr", "--after", "D L' B", "--dr-axes", "ud", "--all",
                 "--json", *SCRAMBLE.split()]) == 0
    record = json.loads(capsys.readouterr().out)
    res = solve_step(StepSolution(tuple(parse_moves("D L' B"))).after(alg_state(SCRAMBLE)),
                     "dr:ud", "eo-fb", "always", all=True)
    assert record["optimal"] and record["optimum"] == res.optimum
    assert {s["text"] for s in record["solutions"]} == {s.text for s in res.solutions}


def test_cli_after_with_niss_continues_there(capsys):
    """An EO found on the inverse, given in --after: the DR continues from B' S A."""
    eo = solve_step(alg_state(SCRAMBLE), "eo:fb", "all", "before").best
    assert eo.inverse and not eo.normal
    assert main(["fmc", "--steps", "dr,htr,fin", "--after", eo.text, "--keep", "1",
                 "--json", *SCRAMBLE.split()]) == 0
    record = json.loads(capsys.readouterr().out)
    moves = parse_moves(record["solution"])
    assert (alg_state(SCRAMBLE) * _state(moves)).is_solved()


@pytest.mark.parametrize("argv, message", [
    (["R", "Q"], "scramble: unknown move 'Q' at column 3"),
    (["x", "R"], "fmc works with face turns (U R F D L B), not x"),
    (["R", "^(U)"], "the scramble takes no ^( )"),
    (["--steps", "dr,eo", "R"], "steps go in the order eo -> dr -> htr -> fin"),
    (["--steps", "eo,xx", "R"], "unknown step 'xx'"),
    (["--niss", "sometimes", "R"], "--niss: unknown mode 'sometimes'"),
    (["--niss", "eo=always,zz=never", "R"], "'zz=never' is not STEP=VALUE"),
    (["--keep", "0", "R"], "--keep: '0' is not a whole number from 1 to 100"),
    (["--eo-axes", "fb,xy", "R"], "--eo-axes: unknown axis 'xy'"),
    (["--steps", "htr", "R U F"], "HTR follows a DR, and the position is not there"),
    (["--all", "R U"], "--all lists one step's optimal solutions"),
    (["--after", "R (U", "R"], "--after: unclosed '(' opened at column 3"),
    (["--eo-axes", "fb", "--dr-axes", "fb", "R"], "DR on fb cannot follow an EO on fb"),
    (["--steps", "dr", "--dr-axes", "fb", "U"], "cannot follow the EO on fb"),
])
def test_cli_bad_input_exits_2(capsys, argv, message):
    assert main(["fmc", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_dr_on_the_eo_axis_is_not_offered():
    from cubelab.solvers.fmc.steps import choices
    assert [c.axis for c in choices("dr", {"eo": "fb"}, AXES)] == ["ud", "rl"]
    assert [c.moveset for c in choices("dr", {"eo": "ud"}, AXES)] == ["eo-ud", "eo-ud"]
    assert choices("fin", {"dr": "ud"}, AXES)[0].moveset == "dr-ud"
    assert choices("fin", {"dr": "ud", "htr": "ud"}, AXES)[0].moveset == "htr"


def test_inverse_moves_are_inverted_premoves():
    """The convention: A ^(B) leaves B' P A, and the solution is A + B' (cubelab's notation
    reads "A ^(B)" as A B')."""
    p = alg_state("R U F")
    s = StepSolution(tuple(parse_moves("L")), tuple(parse_moves("D B")))
    assert s.after(p) == _state(invert_moves(parse_moves("D B"))) * p * alg_state("L")
    assert parse_moves(s.text) == parse_moves("L") + invert_moves(parse_moves("D B"))


@pytest.mark.parametrize("goal, moves", [("eo:fb", "all"), ("eo:ud", "all"), ("eo:rl", "all"),
                                         ("dr:fb", "eo-ud"), ("dr:rl", "eo-fb"),
                                         ("htr", "dr-ud")])
def test_batched_prefix_coordinates_equal_the_engines(goal, moves):
    """The numpy level of prefixes reads (X C)' as the goal engine's own start does."""
    from cubelab.cube.costs import CostModel
    from cubelab.cube.goal_codes import start_codes
    from cubelab.solvers.fmc.prefixes import Side
    from cubelab.solvers.goals.problem import Problem
    base = {"eo:fb": "R U F' D2 L B", "eo:ud": "R U F' D2 L B", "eo:rl": "R U F' D2 L B",
            "dr:fb": "F R U2 B L' D2 R", "dr:rl": "R U2 L D' R2 U F2",
            "htr": "R2 U F2 D' L2 B2 U"}[goal]
    position = alg_state(base)
    goal_ = resolve_goal(goal, position)[0]
    problem = Problem(position, goal_, resolve_moveset(moves), CostModel("htm"))
    side = Side(position, problem)
    level = side.level(2, [0])
    assert len(level) > 20
    for i in range(0, len(level), 7):
        seq = side.sequence(2, i)
        state = (position * _state(seq)).inverse()
        want = problem._coords_of([start_codes(problem.items, goal_.read(state))])[0]
        assert level.coords[i].tolist() == want.tolist()


def test_a_stopped_pipeline_keeps_what_it_found():
    """Cancelled once its first complete solution is heard: that solution comes back,
    verified, marked incomplete."""
    from cubelab.solvers.protocol import new_cancel
    cancel = new_cancel()
    state = alg_state(SCRAMBLE)
    heard = []

    def stop(solution):
        heard.append(solution)
        cancel[0] = 1

    res = run_pipeline(state, ["eo", "dr", "htr", "fin"], keep={"eo": 5, "dr": 5},
                       cancel=cancel, on_solution=stop)
    assert res.status == "cancelled" and not res.complete
    assert res.solutions and res.solutions[0].text == heard[0].text
    assert (state * _state(res.solutions[0].moves)).is_solved()


def test_cli_time_limit(capsys):
    assert main(["fmc", "--time-limit", "0.3", "--keep", "eo=9,dr=9,htr=5", "--json",
                 *SCRAMBLE.split()]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "time limit" and not record["complete"]
    if record["solution"] is not None:
        assert (alg_state(SCRAMBLE) * _state(parse_moves(record["solution"]))).is_solved()


def test_ctrl_c_stops_the_command_at_once():
    import signal
    from tests.reliability.helpers import stop_cubelab
    run = stop_cubelab(["fmc", "--keep", "eo=9,dr=9,htr=5", *SCRAMBLE.split()], after=4.0)
    if run.returncode == 0:
        pytest.skip("the pipeline ended before the signal")
    assert run.returncode in (130, -signal.SIGINT), run.stderr
    assert "Traceback" not in run.stderr
    if run.returncode == 130:
        assert run.stderr.strip().splitlines()[-1] == "cubelab: interrupted"
        assert run.seconds < 3.0
