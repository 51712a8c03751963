"""Solving to a target: the relative position's law, the one helper, `cubelab solve --target`,
`:solve --to` in the session, the REPL and the workbench."""

from __future__ import annotations

import asyncio
import io
import json

import pytest
from hypothesis import given, strategies as st

from cubelab.cube.moves import FACE_MOVES, alg_state, apply_moves
from cubelab.cube.notation import invert_moves
from cubelab.cube.pocket import PocketState
from cubelab.cube.state import CubeState
from cubelab.solvers import StandIn
from cubelab.solvers.fake import FakeSolver
from cubelab.solvers.protocol import SolverError
from cubelab.solvers.target import reaches, relative_state, solve_to
from cubelab.tui.app import CubeLabApp
from cubelab.tui.cli import main
from cubelab.tui.history import InputHistory
from cubelab.tui.records import SolveRequest
from cubelab.tui.session import Session

sequences = st.lists(st.sampled_from(FACE_MOVES), max_size=12)


@given(sequences, sequences)
def test_what_solves_the_relative_position_takes_start_to_target(a, b):
    start, target = apply_moves(CubeState.identity(), a), apply_moves(CubeState.identity(), b)
    joining = invert_moves(a) + list(b)           # A^-1 B takes A to B
    assert apply_moves(relative_state(start, target), joining).is_solved()
    assert reaches(start, joining, target)


def test_solve_to_with_a_solver_and_its_refusals():
    solver = FakeSolver(step_seconds=0)
    result = solve_to(solver, alg_state("R"), alg_state("R U"))
    assert [str(m) for m in result.moves] == ["U"] and result.verified
    with pytest.raises(SolverError, match="an edge flipped"):
        solve_to(solver, CubeState.identity(),
                 CubeState(range(8), [0] * 8, range(12), [1] + [0] * 11))
    with pytest.raises(SolverError, match="different cubes"):
        relative_state(CubeState.identity(), PocketState.identity())


def test_a_rotation_between_them_is_no_move():
    assert relative_state(alg_state("R x"), alg_state("R")).is_solved()
    assert relative_state(alg_state("x"), CubeState.identity()).is_solved()
    assert reaches(alg_state("R y"), [FACE_MOVES[0]], alg_state("R U y"))


def test_solve_command_with_a_target(capsys, tmp_path, monkeypatch):
    assert main(["solve", "--json", "--solver", "bfs", "--target", "R U", "R"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["solution"] == "U" and record["verified"] and record["target_input"] == "R U"
    assert record["target"] == "UUUUUUFFFUBBRRRRRRRRRFFDFFDDDBDDBDDBFFDLLLLLLLLLUBBUBB"
    # a pattern by name, and a position by cycles
    assert main(["solve", "--json", "--solver", "bfs", "--target", "pattern: checkerboard",
                 "R2 L2 U2 D2 F2"]) == 0
    assert json.loads(capsys.readouterr().out)["solution"] == "B2"
    assert main(["solve", "--solver", "bfs", "--target", "cycles: (UF UR)", "--unreachable",
                 "--cycles", "(UFR)+ (UF UR)"]) == 2
    assert "between them" in capsys.readouterr().err
    assert main(["solve", "--solver", "bfs", "--target", "nonsense", "R"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nor is it a saved position or a pattern" in err


def test_solve_command_target_from_a_save(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("CUBELAB_STATE_DIR", str(tmp_path))
    session = Session()
    session.execute("F R")
    assert not session.execute(":save goal").error
    assert main(["solve", "--json", "--solver", "bfs", "--target", "goal", "F"]) == 0
    assert json.loads(capsys.readouterr().out)["solution"] == "R"


def test_session_solve_to(tmp_path):
    session = Session(solver_names=lambda puzzle: ["fake"], saves_dir=tmp_path)
    session.execute("R")
    out = session.execute(":solve --to R U")
    assert isinstance(out.request, SolveRequest) and out.request.target == alg_state("R U")
    assert out.message == "solving with fake to R U"
    assert session.execute(":solve fake --to superflip").request.target.eo.all()
    assert "unreachable: an edge flipped" in session.execute(":solve --to cycles: (UF)+").message
    session.execute(":cycles --unreachable (UF)+")
    assert "an edge flipped (flip sum odd) between them" in session.execute(":solve --to R").message
    assert session.execute(":compare --to nonsense").error


def test_repl_solves_to_a_target(capsys):
    from cubelab.tui.repl import Repl
    from rich.console import Console
    repl = Repl(Console(file=io.StringIO()), registry=StandIn(step_seconds=0),
                json_mode=True)
    repl.handle(1, "R")
    record = repl.handle(2, ":solve --to R U")
    assert record["solutions"][0]["solution"] == "U"
    assert record["solutions"][0]["target"].startswith("UUUUUUFFF")
    repl.handle(3, ":apply 1")
    assert repl.session.state == alg_state("R U")


def test_workbench_solves_to_a_target(tmp_path):
    async def body():
        app = CubeLabApp(solvers=StandIn(step_seconds=0.01), compare_time_limit=None,
                         history=InputHistory(tmp_path / "history"))
        async with app.run_test(size=(80, 24)) as pilot:
            for line in ("R U", ":solve --to R U F"):
                await pilot.press(*line)
                await pilot.press("enter")
                await pilot.pause()
            for _ in range(100):
                await pilot.pause(0.05)
                if not app.solver_panel.running:
                    break
            row = app.session.solutions[0]
            assert row.status == "solved" and [str(m) for m in row.moves] == ["F"]
            await pilot.press(*":apply 1")
            await pilot.press("enter")
            await pilot.pause()
            assert app.session.state == alg_state("R U F")
    asyncio.run(body())
