"""A plain solve answers as a cuber expects: positions of 12 moves or fewer come back optimal.

The reference is Korf's optimal solver on small tables (shallow pattern databases: slower, but
still exact), run on face-turn scrambles of up to 12 moves; the two-phase solver's
default (its short improving budget with the optimality prover beside it) must give the same
length and mark it optimal. The fast first-solution mode stays available.
"""

import json

import pytest

from cubelab.cube.moves import apply_moves
from cubelab.cube.notation import parse_moves
from cubelab.cube.random_states import face_scramble
from cubelab.cube.state import CubeState
from cubelab.solvers import get_solver
from cubelab.solvers.korf.solver import KorfSolver
from cubelab.tui.cli import main

pytestmark = pytest.mark.slow

KORF_TABLE_DEPTH = 6
"""Deep enough that a 12-move position takes Korf about a second, shallow enough to build fast."""


def scrambled(seed: int, length: int) -> CubeState:
    """`length` face turns from the one scramble generator (no face twice in a row)."""
    return apply_moves(CubeState.identity(), face_scramble(seed, length))


@pytest.fixture(scope="module")
def kociemba():
    s = get_solver("kociemba")
    s.prepare()
    return s


@pytest.fixture(scope="module")
def korf():
    s = KorfSolver("korf1997", table_depth=KORF_TABLE_DEPTH, fallback=False)
    s.prepare()
    return s


@pytest.mark.parametrize("seed,length", [(s, 6 + s % 7) for s in range(14)])
def test_short_positions_come_back_optimal_by_default(kociemba, korf, seed, length):
    state = scrambled(seed, length)
    result = kociemba.solve(state)
    reference = korf.solve(state, time_limit=120)
    assert reference.optimal, "the reference did not finish"
    assert result.verified and result.optimal
    assert len(result.moves) == len(reference.moves)
    assert result.lower_bound == len(result.moves)


def test_a_deep_position_stops_at_the_budget_with_its_lower_bound(kociemba):
    state = scrambled(99, 30)
    result = kociemba.solve(state)
    assert result.verified and len(result.moves) <= 20
    assert result.detail["stopped"] in ("time limit", "proven")
    if not result.optimal:
        assert result.lower_bound < len(result.moves)
        assert result.seconds < 5          # the budget is about a second, plus settling


def test_the_first_solution_mode_stays_available(kociemba):
    from cubelab.solvers.kociemba.solver import KociembaSolver
    fast = KociembaSolver(budget=None)
    state = scrambled(5, 12)
    result = fast.solve(state)
    assert result.verified and len(result.moves) <= 20
    assert result.detail["stopped"] in ("target", "proven", "exhausted")


def test_plain_solve_on_the_command_line_is_optimal(kociemba, capsys):
    assert main(["solve", "--json", "R U R' U' F2"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["optimal"] is True and record["length"]["htm"] == 5
    assert main(["solve", "--json", "--first", "R U"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["verified"] and record["length"]["htm"] <= 20
    assert len(parse_moves(record["solution"])) == record["length"]["htm"]


def test_first_is_refused_for_other_solvers(capsys):
    assert main(["solve", "--first", "--solver", "korf", "R U"]) == 2
    assert "--first" in capsys.readouterr().err


def test_repl_solve_is_optimal_on_a_short_position(kociemba):
    import io
    from rich.console import Console
    from cubelab.tui.repl import Repl
    repl = Repl(Console(file=io.StringIO()), json_mode=False)
    repl.handle(1, "R U R' U' F2 D L")
    sol = repl.handle(2, ":solve")["solutions"][0]
    assert sol["solver"] == "kociemba" and sol["optimal"] and sol["length"]["htm"] == 7


def test_f5_in_the_workbench_is_optimal_on_a_short_position(kociemba, tmp_path):
    import asyncio
    from cubelab.tui.app import CubeLabApp
    from cubelab.tui.history import InputHistory

    async def run() -> None:
        app = CubeLabApp(history=InputHistory(tmp_path / "history"))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press(*"R U F' L2", "enter", "f5")
            for _ in range(400):
                await pilot.pause(0.05)
                panel = app.solver_panel
                if panel.runs and not panel.running and panel.settled:
                    break
            row = app.session.solutions[0]
            assert row.solver == "kociemba" and row.optimal and len(row.moves) == 4
    asyncio.run(run())
