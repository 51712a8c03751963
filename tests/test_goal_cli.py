"""The goal solver through the front ends: `cubelab solve --goal/--moves/--all...` (its flags
made from its declaration), the JSON records of a single and of a list solve, the metric of
the command reaching it, bad goals, move sets and weights refused in one line (exit 2), and
`:solve --goal` in the REPL/workbench session. Lists are checked against an independent
brute-force search on the model."""

from __future__ import annotations

import itertools
import json

import pytest

from cubelab.cube.alg import Move
from cubelab.cube.goal_catalog import resolve_goal
from cubelab.cube.moves import alg_state, apply_moves
from cubelab.cube.notation import metric_lengths, parse_moves
from cubelab.solvers import REGISTRY
from cubelab.tables.goals import plan
from cubelab.tui.cli import main
from cubelab.tui.session import Session

SCRAMBLE = "R U F'"


@pytest.fixture(autouse=True)
def small_tables(monkeypatch):
    monkeypatch.setattr(plan, "BALL_NODES", 150_000)


def _record(capsys, *argv) -> dict:
    assert main(["solve", "--json", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def _meets(goal: str, state, text: str) -> bool:
    after = apply_moves(state, parse_moves(text))
    return any(g.is_met(after) for g in resolve_goal(goal, state))


def brute_force(goal: str, state, faces: str, depth: int) -> tuple[int, set[str]]:
    """(optimal length, every optimal solution) in HTM over the faces' turns, by trying every
    sequence with no face turned twice running and opposite faces in one order (U before D,
    R before L, F before B): the canonical order the engine lists."""
    opposite = {"D": "U", "L": "R", "B": "F"}
    moves = [Move(f, p) for f in faces for p in (1, 2, 3)]
    for length in range(depth + 1):
        found = set()
        for seq in itertools.product(moves, repeat=length):
            if any(a.family == b.family or opposite.get(a.family) == b.family
                   for a, b in zip(seq, seq[1:])):
                continue
            text = " ".join(str(m) for m in seq)
            if _meets(goal, state, text):
                found.add(text)
        if found:
            return length, found
    raise AssertionError("nothing within the depth")


# ---- cubelab solve -------------------------------------------------------------------------

def test_the_goal_solver_is_a_solver_users_pick():
    assert "goal" in REGISTRY.solver_names("3x3")
    assert "goal" not in REGISTRY.preferred("3x3")[:1]        # never the default


def test_a_single_solve_keeps_the_usual_record_with_its_goal(capsys):
    record = _record(capsys, "--solver", "goal", "--goal", "cross", "--moves", "RUF",
                     "R U R' F'")
    assert record["solver"] == "goal" and record["optimal"] and record["verified"]
    assert record["goal"] == "cross:D" and record["moveset"] == "<R,U,F>"
    assert record["metric"] == "htm" and "solutions" not in record
    assert record["length"]["htm"] == record["lower_bound"]
    assert _meets("cross", alg_state("R U R' F'"), record["solution"])
    assert set(parse_moves(record["solution"])) <= {Move(f, p) for f in "RUF" for p in (1, 2, 3)}


def test_goal_alone_picks_the_goal_solver_and_all_lists_every_optimal_one(capsys):
    state = alg_state(SCRAMBLE)
    optimum, expected = brute_force("cross", state, "URFDLB", 3)
    record = _record(capsys, "--goal", "cross", "--all", SCRAMBLE)
    assert record["solver"] == "goal" and record["optimal"]
    listed = record["solutions"]
    assert {s["solution"] for s in listed} == expected
    for s in listed:
        assert set(s) >= {"solution", "length", "cost", "auf"}
        assert s["length"]["htm"] == optimum and set(s["length"]) == {"htm", "qtm", "stm", "etm"}
        assert s["auf"] == {"pre": None, "post": None}
    # sorted by length, then by the finger-trick cost
    assert [s["cost"] for s in listed] == sorted(s["cost"] for s in listed)
    assert record["solution"] == listed[0]["solution"] and record["complete"]


def test_n_best_and_within(capsys):
    n3 = _record(capsys, "--goal", "cross", "-n", "3", SCRAMBLE)["solutions"]
    assert len(n3) == 3
    within = _record(capsys, "--goal", "cross", "--within", "1", SCRAMBLE)["solutions"]
    lengths = [s["length"]["htm"] for s in within]
    assert lengths == sorted(lengths) and lengths[-1] == lengths[0] + 1
    assert {s["solution"] for s in n3} <= {s["solution"] for s in within}
    for s in within:
        assert _meets("cross", alg_state(SCRAMBLE), s["solution"])


def test_the_command_metric_reaches_the_goal_solver(capsys):
    qtm = _record(capsys, "--goal", "cross", "--metric", "qtm", "--all", "R2 F'")
    assert qtm["metric"] == "qtm" and qtm["optimal"]
    assert all(s["length"]["qtm"] == qtm["lower_bound"] for s in qtm["solutions"])
    # slice turns: no other solver counts in STM, so the goal solver takes it
    stm = _record(capsys, "--metric", "stm", "--moves", "M,U", "--goal", "solved", "M' U2 M")
    assert stm["solver"] == "goal" and stm["metric"] == "stm" and stm["optimal"]
    assert stm["length"]["stm"] == stm["lower_bound"] == 3


def test_auf_is_said_and_the_text_lists_the_solutions(capsys):
    record = _record(capsys, "--goal", "oll", "--moves", "RUF", "--auf", "pre", "--all",
                     "R U R' U R U2 R'")
    assert record["lower_bound"] == 7 and any(s["auf"]["pre"] for s in record["solutions"])
    assert main(["solve", "--goal", "oll", "--moves", "RUF", "--auf", "pre", "--all",
                 "R U R' U R U2 R'"]) == 0
    out = capsys.readouterr().out
    assert "goal      oll in <R,U,F>, HTM" in out and "[pre U" in out
    assert out.count("\n    ") == len(record["solutions"])


@pytest.mark.parametrize("argv, says", [
    (["--goal", "crss"], "--goal: unknown goal 'crss' (did you mean cross?)"),
    (["--goal", "UF UQ"], "unknown piece 'UQ' at column 4"),
    (["--goal", "cross:Q"], "'Q' is not a face"),
    (["--goal", "cross", "--moves", "R,Q"], "--moves: unexpected 'Q' at column 3"),
    (["--goal", "cross", "--weights", "R=0"], "weight 0 at column 3"),
    (["--goal", "cross", "--weights", "R=x"], "'x' at column 3 is not a number"),
    (["--goal", "cross", "--all", "--within", "1"], "give --all or --within, not both"),
    (["--goal", "cross", "-n", "0"], "-n"),
    (["--solver", "korf", "--goal", "cross"], "solver korf takes no --goal (goal does)"),
    (["--goal", "cross", "--moves", "RU"], "cannot be reached with <R,U>"),
    (["--goal", "cross", "--max-length", "4.5"],
     "--max-length 4.5: a decimal is a weighted cost (goal solver with --weights)"),
    (["--max-length", "x"], "argument --max-length: not a number: 'x'"),
    (["--max-length", "1e9"], "argument --max-length: 1e9 is outside 0-1000"),
])
def test_bad_goals_move_sets_and_weights_are_one_line_and_exit_2(capsys, argv, says):
    assert main(["solve", *argv, "R U F' L2 D B"]) == 2
    lines = capsys.readouterr().err.splitlines()
    # (a goal the position cannot reach is found once its tables are built: announced first)
    assert says in lines[-1] and lines[-1].startswith("cubelab: ")
    assert len(lines) == 1 or lines[0].startswith("cubelab: building the tables")


def test_a_weighted_max_length_takes_a_decimal(capsys):
    """`--max-length` with `--weights` is a cap on the weighted cost: a decimal one is taken.
    The cross of R U F L costs 3.5 at least with F at 1.5 (R U F L undone: L' F' U' R'),
    so a cap of 3.5 finds it and 3.4 does not."""
    weights = ["--goal", "cross", "--weights", "R=1,U=1,F=1.5,D=2,L=1,B=1"]
    record = _record(capsys, *weights, "--max-length", "3.5", "R U F L")
    assert record["cost_optimum"] == record["cost"] == 3.5
    assert _meets("cross", alg_state("R U F L"), record["solution"])
    # a cap under the least cost finds nothing (it was rounded up to 3.5 before)
    record = _record(capsys, *weights, "--max-length", "3.4", "R U F L")
    assert record["solution"] is None and record["status"] == "not found"


# ---- :solve in the REPL and the workbench ---------------------------------------------------

def test_solve_goal_in_the_session_picks_the_goal_solver_with_its_options():
    session = Session(REGISTRY)
    out = session.execute(":solve --goal cross -n 3")
    assert not out.error and out.request.solvers == ("goal",)
    assert out.request.options == {"goal": "cross", "n": "3"}
    out = session.execute(":solve goal qtm --goal cross:any --all")
    assert out.request.solvers == ("goal",) and out.request.options["metric"] == "qtm"
    assert session.solver_options("goal", out.request.options)["metric"] == "qtm"
    # a metric named picks korf-qtm for korf: it is no option of korf's
    assert "metric" not in session.solver_options("korf-qtm", {"metric": "qtm"})
    bad = session.execute(":solve --goal crss")
    assert bad.error and "did you mean cross" in bad.message
    assert ":solve --goal" in session.completions(":solve --go")
    assert "-n" in [o for o in REGISTRY.describe("goal").option("n").flags]


def test_a_solve_in_the_session_lists_the_solutions():
    from cubelab.tui.runner import Runner
    session = Session(REGISTRY)
    session.execute(SCRAMBLE)
    request = session.execute(":solve --goal cross --all").request
    run = Runner(REGISTRY).solve("goal", "3x3", session.state,
                                 options=session.solver_options("goal", request.options))
    assert run.done.wait(120)
    record = run.result.to_json()
    optimum, expected = brute_force("cross", alg_state(SCRAMBLE), "URFDLB", 3)
    assert {s["solution"] for s in record["solutions"]} == expected
    assert metric_lengths(run.result.moves)["htm"] == optimum


# ---- grey stickers ---------------------------------------------------------------------------

SUNE = "R U R' U R U2 R'"


def oll_view(alg: str) -> str:
    """The facelets of the case `alg` solves, the last layer greyed but for its U stickers."""
    from cubelab.cube.facelets import to_facelets
    f = to_facelets(alg_state(alg).inverse())
    return "".join(ch if i % 9 == 4 or i % 9 >= 3 and i >= 9 or ch == "U" else "*"
                   for i, ch in enumerate(f))


def test_grey_stickers_are_solved_as_shown(capsys):
    from cubelab.cube.masked_facelets import read_masked
    shown = oll_view(SUNE)
    assert "*" in shown
    record = _record(capsys, "--facelets", shown, "--moves", "RU", "--auf", "pre", "--all")
    assert record["solver"] == "goal" and record["goal"] == "shown stickers"
    assert record["optimal"] and record["lower_bound"] == 7
    # an independent search: every (pre-AUF, <R,U> sequence of 7 not starting with U) that
    # shows the U face solved
    masked = read_masked(shown)
    expected = set()
    for pre in ("", "U", "U2", "U'"):
        start = apply_moves(masked.state, parse_moves(pre))
        for seq in itertools.product([Move(f, p) for f in "RU" for p in (1, 2, 3)], repeat=7):
            if seq[0].family == "U" and pre or any(a.family == b.family
                                                   for a, b in zip(seq, seq[1:])):
                continue
            if masked.goal.is_met(apply_moves(start, seq)):
                expected.add(((pre or None), " ".join(map(str, seq))))
    assert {(s["auf"]["pre"], s["solution"]) for s in record["solutions"]} == expected


@pytest.mark.parametrize("argv, says", [
    (["--solver", "korf"], "solver korf solves whole positions: grey stickers"),
    (["--goal", "pll"], "goal pll needs the corner"),
    (["--target", "R U"], "--target takes a whole position"),
])
def test_grey_stickers_refused_where_they_cannot_be(capsys, argv, says):
    assert main(["solve", "--facelets", oll_view(SUNE), *argv]) == 2
    err = capsys.readouterr().err
    assert says in err.splitlines()[-1]
    assert "building" not in err            # refused before any table is made for it


def test_a_named_goal_reading_only_what_grey_stickers_show_is_solved(capsys):
    from cubelab.cube.facelets import to_facelets
    f = to_facelets(alg_state(SUNE).inverse())
    shown = "".join(ch if ch == "U" or i // 9 == 3 or i // 9 and i % 9 >= 3 else "*"
                    for i, ch in enumerate(f))     # an OLL diagram: U stickers and the F2L
    record = _record(capsys, "--facelets", shown, "--goal", "oll", "--moves", "RUF", "--all")
    assert record["goal"] == "oll"
    assert {s["solution"] for s in record["solutions"]} >= {SUNE}
    for s in record["solutions"]:
        assert _meets("oll", alg_state(SUNE).inverse(), s["solution"])


@pytest.mark.parametrize("change, says", [
    (lambda f: f[:53] + "X", "unexpected character 'X' at position 54"),
    (lambda f: f[:53] + "U", "colour U appears 10 times"),
    (lambda f: f[:-1], "expected 54 stickers"),
])
def test_bad_grey_facelets_are_one_line(capsys, change, says):
    assert main(["solve", "--facelets", change(oll_view(SUNE))]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1 and err.startswith("cubelab: --facelets: ")


def test_an_interrupted_goal_solve_keeps_its_best_so_far():
    from cubelab.solvers.goals.solver import GoalSolver
    from cubelab.solvers.protocol import Solution
    from cubelab.tui.solve_cmd import _best_so_far
    solver = GoalSolver(goal="cross")
    state = alg_state("R U F'")
    crossed = Solution(parse_moves("F U' R'"), 0.1, 10)       # a cross, not a solved cube
    result = _best_so_far(solver, state, None, [crossed])
    assert result is not None and result.status == "interrupted" and result.moves == crossed.moves
    assert _best_so_far(solver, state, None, [Solution(parse_moves("U"), 0.1, 1)]) is None


def test_grey_lines_of_a_file(tmp_path, capsys):
    shown = oll_view(SUNE)
    positions = tmp_path / "positions.txt"
    positions.write_text(f"facelets: {shown}\nR U\nfacelets: {shown[:53]}X\n")
    assert main(["solve", "--moves", "RU", "--auf", "pre", "--json", "--file",
                 str(positions)]) == 2          # (a bad line: its error record, exit 2)
    records = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert records[0]["goal"] == "shown stickers" and records[0]["lower_bound"] == 7
    assert records[1]["goal"] == "solved" and records[1]["solution"] == "U' R'"
    assert "unexpected character 'X'" in records[2]["error"]
    # a solver of whole positions: the grey lines are error records saying who takes them
    assert main(["solve", "--solver", "bfs", "--json", "--file", str(positions)]) == 2
    records = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert "grey stickers (* or ?) are solved by goal" in records[0]["error"]
