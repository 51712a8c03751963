"""Block steps (2x2x2, 2x2x3, F2L-1) and leave-slice finishes as FMC steps (issue 35): the
blocks' pieces and how each keeps the one before, optimal lengths against a brute force over
move sequences on the model, the pipeline chaining them, and the command line."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from cubelab.cube.goals import turned_back
from cubelab.cube.moves import alg_state, move_state
from cubelab.cube.notation import parse_moves
from cubelab.solvers.fmc.blocks import (_checked_pieces, block_goal, block_pieces, block_places,
                                        only_slice_unsolved, solve_leave_slice)
from cubelab.solvers.fmc.niss import solve_step
from cubelab.solvers.fmc.pipeline import run_pipeline
from cubelab.solvers.fmc.steps import StepError, check_steps
from cubelab.tui.cli import main

ALL = parse_moves("U U' U2 D D' D2 R R' R2 L L' L2 F F' F2 B B' B2")
HALF = parse_moves("U2 D2 R2 L2 F2 B2")


def _home(state, pieces) -> bool:
    """The pieces (Kociemba names) are home and oriented, read straight from the cubies."""
    from cubelab.cube.pieces import CORNER_KOCIEMBA, EDGE_NAMES
    s = turned_back(state)
    for i, n in enumerate(CORNER_KOCIEMBA):
        if n in pieces and (int(s.cp[i]) != i or int(s.co[i])):
            return False
    for i, n in enumerate(EDGE_NAMES):
        if n in pieces and (int(s.ep[i]) != i or int(s.eo[i])):
            return False
    return True


def _brute(state, moves, met, depth):
    """The fewest moves (no two turns of one face in a row) after which `met` holds."""
    if met(state):
        return 0
    frontier = [(state, None)]
    for d in range(1, depth + 1):
        nxt = []
        for s, last in frontier:
            for m in moves:
                if last is not None and m.family == last:
                    continue
                t = s * move_state(m)
                if met(t):
                    return d
                nxt.append((t, m.family))
        frontier = nxt
    return None


def test_block_places_keep_the_block_before():
    for corner in block_places("2x2x2", None):
        for edge in block_places("2x2x3", corner):
            assert block_pieces("2x2x2", corner) < block_pieces("2x2x3", edge)
            places = block_places("f2l-1", edge)
            assert len(places) == 4
            for f in places:
                assert block_pieces("2x2x3", edge) < block_pieces("f2l-1", f)
                assert len(block_pieces("f2l-1", f)) == 10
    assert len(block_places("f2l-1", None)) == 24


def test_turned_f2l1_goals_check_their_pieces():
    for where in block_places("f2l-1", None):
        assert _checked_pieces(block_goal("f2l-1", where)) == block_pieces("f2l-1", where)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_block_steps_against_brute_force(seed):
    rng = random.Random(seed)
    state = alg_state(" ".join(str(rng.choice(ALL)) for _ in range(3)))
    found = [_brute(state, ALL, lambda s, w=w: _home(s, block_pieces("2x2x2", w)), 3)
             for w in block_places("2x2x2", None)]
    best = min(d for d in found if d is not None)
    got = min(solve_step(state, block_goal("2x2x2", w), "all", "never").optimum
              for w in block_places("2x2x2", None))
    assert got == best
    # a 2x2x3 around the DLB corner from a position that has it
    start = alg_state("R U F' " + " ".join(str(rng.choice(ALL)) for _ in range(2)))
    for edge in block_places("2x2x3", "DLB"):
        want = _brute(start, ALL, lambda s: _home(s, block_pieces("2x2x3", edge)), 4)
        got = solve_step(start, block_goal("2x2x3", edge), "all", "never").optimum
        assert got == want, edge


@pytest.mark.parametrize("seed", [4, 5])
def test_leave_slice_against_brute_force(seed):
    rng = random.Random(seed)
    state = alg_state(" ".join(str(rng.choice(HALF)) for _ in range(5)))
    for axis in ("ud", "fb", "rl"):
        res = solve_leave_slice(state, axis, "htr", "never", n=3)
        want = _brute(state, HALF, lambda s: only_slice_unsolved(s, axis), 5)
        assert res.optimum == want and res.optimal
        for sol in res.solutions:
            assert only_slice_unsolved(sol.after(state), axis)


def test_leave_slice_from_dr_keeps_the_dr_slice():
    state = alg_state("U R2 D' F2 U' L2")
    res = solve_leave_slice(state, "ud", "dr-ud", "never", n=2)
    want = _brute(state, parse_moves("U U' U2 D D' D2 R2 L2 F2 B2"),
                  lambda s: only_slice_unsolved(s, "ud"), 6)
    assert res.optimum == want


def test_steps_chain_blocks_and_leave_slice():
    assert check_steps(["2x2x2", "2x2x3", "f2l-1"]) == ["2x2x2", "2x2x3", "f2l-1"]
    assert check_steps(["eo", "dr", "htr", "leave-slice"]) == ["eo", "dr", "htr", "ls"]
    for bad in (["eo", "2x2x3"], ["2x2x3", "2x2x2"], ["fin", "ls"], ["htr", "ls", "fin"]):
        with pytest.raises(StepError):
            check_steps(bad)


def test_pipeline_chains_blocks_keeping_each():
    scramble = alg_state("R U2 F' L D B2 R' U")
    res = run_pipeline(scramble, ["2x2x2", "2x2x3"], keep={"2x2x2": 2, "2x2x3": 2}, count=3)
    assert res.solutions and res.complete
    for sol in res.solutions:
        corner, edge = (s.choice.axis for s in sol.chain.steps)
        assert block_pieces("2x2x2", corner) < block_pieces("2x2x3", edge)
        normal, inverse = sol.chain.normal, sol.chain.inverse
        from cubelab.solvers.fmc.niss import StepSolution
        assert _home(StepSolution(normal, inverse).after(scramble), block_pieces("2x2x3", edge))


def test_pipeline_leave_slice_from_htr():
    scramble = alg_state("R2 U2 F2 L2 U2 D2 B2 R2 L2 F2 U2 B2 R2 F2 U2 L2")
    res = run_pipeline(scramble, ["ls"], count=2, insert=False)
    assert res.solutions
    sol = res.solutions[0]
    assert not sol.solves and sol.insertion is None
    assert only_slice_unsolved(scramble * alg_state(sol.text), sol.chain.steps[0].choice.axis)


def test_a_leave_slice_is_finished_with_insertions():
    """By default the slice a leave slice leaves is solved by insertions of edge 3-cycle algs:
    the solution is the skeleton with them, cancelled, and solves the scramble."""
    scramble = alg_state("R2 U2 F2 L2 U2 D2 B2 R2 L2 F2 U2 B2 R2 F2 U2 L2")
    skeletons = {s.text: s for s in run_pipeline(scramble, ["ls"], count=5,
                                                 insert=False).solutions}
    res = run_pipeline(scramble, ["ls"], count=5)
    assert res.solutions
    for sol in res.solutions:
        assert sol.solves and sol.insertion is not None
        assert (scramble * alg_state(sol.text)).is_solved()
        assert sol.skeleton_text in skeletons
        assert sol.insertion.insertions and all(i.kind == "edges"
                                                for i in sol.insertion.insertions)
        assert sol.length == len(sol.insertion.moves)
        record = sol.to_json()
        assert record["skeleton"] == sol.skeleton_text and record["insertions"]
    assert [s.length for s in res.solutions] == sorted(s.length for s in res.solutions)


def test_cli_htr_then_leave_slice_prints_the_insertions(capsys):
    dr = "R2 U F2 D' L2 U R2 U' B2 D2 L2 U'"
    assert main(["fmc", *dr.split(), "--steps", "htr,ls", "--keep", "2", "-n", "1"]) == 0
    out = capsys.readouterr().out
    assert "  skeleton (" in out and "[1] = " in out and "edge 3-cycle" in out
    assert "#1 solution (" in out and "left for insertions" not in out
    assert main(["fmc", *dr.split(), "--steps", "htr,ls", "--keep", "2", "-n", "1",
                 "--no-insert", "--json"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert "insertions" not in rec["solutions"][0]


def test_cli_block_steps_json(capsys):
    assert main(["fmc", "R", "U2", "F'", "L", "D", "B2", "--steps", "2x2x2,2x2x3",
                 "--keep", "2", "--json"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert [s["step"].split()[0] for s in rec["solutions"][0]["steps"]] == ["2x2x2", "2x2x3"]


def test_cli_refuses_mixed_chains(capsys):
    assert main(["fmc", "R", "U", "--steps", "eo,2x2x3"]) == 2
    assert "2x2x2 -> 2x2x3 -> f2l-1" in capsys.readouterr().err


def test_the_step_panel_chains_blocks_and_a_leave_slice():
    """`:fmc 2x2x2`, then `:fmc 2x2x3` keeping it, in the REPL (the workbench's commands); and
    `:fmc ls` from an HTR position leaves only a slice."""
    import io
    from rich.console import Console
    from cubelab.solvers import StandIn
    from cubelab.tui.repl import Repl
    repl = Repl(Console(file=io.StringIO(), width=100), json_mode=True, registry=StandIn(),
                show_net=False)
    records = [repl.handle(i, line) for i, line in enumerate(
        ["R U2 F' L D B2", ":fmc 2x2x2 -n 2", ":fmc apply 1", ":fmc 2x2x3 -n 1",
         ":fmc apply 1"], 1)]
    assert all("error" not in r for r in records), records
    fmc = repl.session.fmc
    corner, edge = (s.choice.axis for s in fmc.chain.steps)
    assert block_pieces("2x2x2", corner) < block_pieces("2x2x3", edge)
    assert _home(repl.session.state, block_pieces("2x2x3", edge))
    repl2 = Repl(Console(file=io.StringIO(), width=100), json_mode=True, registry=StandIn(),
                 show_net=False)
    records = [repl2.handle(i, line) for i, line in enumerate(
        ["R2 U2 F2 L2 U2 D2 B2 R2 L2 F2 U2 B2", ":fmc ls -n 1", ":fmc apply 1"], 1)]
    assert all("error" not in r for r in records), records
    step = repl2.session.fmc.chain.steps[0]
    assert only_slice_unsolved(repl2.session.state, step.choice.axis)
    # the leave slice is a skeleton: :fmc insert finishes it with edge 3-cycle insertions (the
    # workbench does not build the alg table itself: it says how, so it is built here)
    from cubelab.tables.insertions.specs import load_alg_sets
    load_alg_sets()
    out = repl2.handle(4, ":fmc insert")
    assert "error" not in out and "[1] = " in out["message"], out
    solution = out["message"].rsplit("): ", 1)[1]
    assert (alg_state("R2 U2 F2 L2 U2 D2 B2 R2 L2 F2 U2 B2") * alg_state(solution)).is_solved()
    fresh = Repl(Console(file=io.StringIO(), width=100), json_mode=True, registry=StandIn(),
                 show_net=False)
    fresh.handle(1, ":fmc start")
    assert "no steps yet" in fresh.handle(2, ":fmc insert")["error"]


@pytest.mark.parametrize("niss", ["never", "always"])
def test_a_leave_slice_streams_each_solution_as_it_is_found(niss):
    """on_solution hears the solutions one by one (the step panel lists them so); every one
    leaves only the slice, and the result's are among them."""
    scramble = alg_state("R2 U2 F2 L2 U2 D2 B2 R2 L2 F2 U2 B2 R2 F2 U2 L2")
    heard = []
    res = solve_leave_slice(scramble, "rl", "htr", niss, n=3, on_solution=heard.append)
    assert heard and res.solutions
    assert len({s.text for s in heard}) == len(heard)
    for sol in heard:
        assert only_slice_unsolved(sol.after(scramble), "rl")
    assert {s.text for s in res.solutions} <= {s.text for s in heard}
