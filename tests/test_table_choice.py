"""Choosing the optimal solver's table set from the workbench and the REPL (`:tables`): the
listing, the choice reaching the solver, the refusals, and the listing of `cubelab tables
status` agreeing with it."""

from __future__ import annotations

import asyncio

import pytest

from cubelab.solvers import StandIn
from cubelab.solvers.fake import FakeSolver
from cubelab.solvers.korf.sets import LAYERS, SETS
from cubelab.tui.app import CubeLabApp
from cubelab.tui.commands import completions
from cubelab.tui.history import InputHistory
from cubelab.tui.runner import Runner
from cubelab.tui.session import Session
from cubelab.tui.table_sets import set_rows


DEFAULT_SET = LAYERS.name
TABLE_SET_NAMES = [s.name for s in SETS["htm"]]


class KorfStandIn(StandIn):
    """The fake solver offered as "korf" (and "korf-qtm") too, with korf's declaration (its
    table sets), remembering the options each one is made with."""

    def __init__(self):
        super().__init__()
        self.made: list[dict] = []

    def solver_names(self, puzzle: str = "3x3") -> list[str]:
        return ["fake", "korf", "korf-qtm"] if puzzle == "3x3" else super().solver_names(puzzle)

    def get_solver(self, name: str, puzzle: str = "3x3", **options):
        if name != "korf" or puzzle != "3x3":
            return super().get_solver(name, puzzle, **options)
        self.made.append(options)
        solver = FakeSolver()
        solver.description = self.describe("korf")
        return solver


def session_with(registry) -> Session:
    return Session(registry)


def test_alone_it_lists_every_set_with_the_default_in_use(fresh_dirs):
    out = session_with(KorfStandIn()).execute(":tables")
    assert not out.error
    korf_line = next(line for line in out.message.splitlines() if line.startswith("korf:"))
    for name in TABLE_SET_NAMES:
        assert name in korf_line
    assert f"{DEFAULT_SET} " in korf_line and korf_line.count("(in use)") == 1
    in_use = korf_line.split("(in use)")[0].rsplit(" · ", 1)[-1]
    assert in_use.startswith(DEFAULT_SET + " ")
    assert "not built" in korf_line                     # a fresh data directory
    assert any(line.startswith("korf-qtm:") for line in out.message.splitlines())


def test_a_chosen_set_is_what_the_solver_is_made_with(fresh_dirs):
    session = session_with(KorfStandIn())
    out = session.execute(":tables layers-small")
    assert not out.error and "korf solves with the layers-small tables" in out.message
    assert "not built" in out.message
    assert session.solver_options("korf") == {"tables": "layers-small"}
    assert session.solver_options("korf-qtm") == {}
    listing = session.execute(":tables").message
    assert "layers-small 99" in listing and "layers-small" in listing.split("(in use)")[0]
    # the default again: the solver is made with no option, as from the shell
    assert not session.execute(f":tables {DEFAULT_SET}").error
    assert session.solver_options("korf") == {}


def test_quarter_turn_sets_are_chosen_for_the_quarter_turn_solver(fresh_dirs):
    session = session_with(KorfStandIn())
    session.table_sets["korf-qtm"] = "somewhere-else"
    out = session.execute(":tables strong-qtm")
    assert out.message.startswith("korf-qtm solves with the strong-qtm tables")
    assert session.solver_options("korf-qtm") == {}    # strong-qtm is its default
    assert session.solver_options("korf") == {}


@pytest.mark.parametrize("line, says", [
    (":tables nonsense", "unknown table set 'nonsense' (choose from strong, layers"),
    (":tables layers strong", "give one table set"),
])
def test_bad_names_are_refused_and_nothing_changes(fresh_dirs, line, says):
    session = session_with(KorfStandIn())
    out = session.execute(line)
    assert out.error and says in out.message
    assert session.table_sets == {}


def test_a_set_larger_than_the_free_memory_is_refused(fresh_dirs, monkeypatch):
    monkeypatch.setattr("cubelab.tables.memory.available_bytes", lambda: 4 * 10**9)
    session = session_with(KorfStandIn())
    out = session.execute(":tables layers-h48")
    assert out.error
    assert "the layers-h48 tables need 10.3 GB of memory and 4.0 GB is available" in out.message
    assert ":tables" in out.message and "cubelab tables status" not in out.message
    assert session.table_sets == {}
    assert not session.execute(":tables layers").error  # 2.8 GB fits


def test_completion_offers_the_set_names(fresh_dirs):
    session = session_with(KorfStandIn())
    assert completions(session, ":tables layers-") == [":tables layers-small",
                                                       ":tables layers-h48"]
    assert ":tables" in completions(session, ":tab")


def test_the_runner_lets_go_of_a_solver_made_with_other_tables():
    registry = KorfStandIn()
    runner = Runner(registry)
    first = runner.solver("korf", "3x3")
    assert runner.solver("korf", "3x3", {}) is first
    chosen = runner.solver("korf", "3x3", {"tables": "strong"})
    assert chosen is not first and runner.solver("korf", "3x3", {"tables": "strong"}) is chosen
    assert registry.made == [{}, {"tables": "strong"}]
    assert len([k for k in runner._solvers if k[1] == "korf"]) == 1
    assert runner.solver("fake", "3x3") is registry.solver


def test_in_the_workbench_the_next_solve_reads_the_chosen_set(tmp_path, fresh_dirs):
    from test_tui_app import message, type_line, wait_solvers

    registry = KorfStandIn()

    async def main():
        app = CubeLabApp(solvers=registry, history=InputHistory(tmp_path / "h"),
                         compare_time_limit=None)
        async with app.run_test(size=(80, 24)) as pilot:
            await type_line(pilot, ":tables strong")
            assert "korf solves with the strong tables" in message(app)
            await type_line(pilot, "R U")
            await type_line(pilot, ":solve korf")
            await wait_solvers(pilot, app)
            assert app.session.solutions[0].solver == "korf"
            assert app.session.solutions[0].moves is not None
            await type_line(pilot, f":tables {DEFAULT_SET}")
            await type_line(pilot, ":solve korf")
            await wait_solvers(pilot, app)
    asyncio.run(main())
    assert registry.made == [{"tables": "strong"}, {}]


def test_the_status_listing_says_the_same(fresh_dirs, capsys):
    from cubelab.tui.cli import main
    assert main(["tables", "status"]) == 0
    out = capsys.readouterr().out
    from cubelab.solvers import REGISTRY
    for row in set_rows(REGISTRY):
        line = next(x for x in out.splitlines() if x.split()[:2] == [row.solver, row.name])
        assert ("not built" in line) == (not row.built)
        assert line.endswith("(default)") == row.default


# ---- choosing at launch: cubelab --tables, cubelab repl --tables --------------------------

def test_the_workbench_starts_with_the_set_given_on_the_command_line(fresh_dirs, monkeypatch):
    from cubelab.tui import app, cli
    started = {}
    monkeypatch.setattr(app, "run_app", lambda **kw: started.update(kw) or 0)
    assert cli.main(["--tables", "layers-small"]) == 0
    assert started["tables"] == {"korf": "layers-small"}
    assert cli.main(["--tables", DEFAULT_SET]) == 0      # the default: nothing to choose
    assert started["tables"] == {}
    assert cli.main([]) == 0
    assert started["tables"] == {}
    # the app's session holds the choice, as :tables would leave it
    assert CubeLabApp(KorfStandIn(), tables={"korf": "strong"}).session.table_sets == \
        {"korf": "strong"}


@pytest.mark.parametrize("argv, says", [
    (["--tables", "nope"], "unknown table set 'nope' (choose from"),
    (["--tables", "strong", "solve", "R"], "give it after the command (cubelab solve --tables"),
    (["repl", "--tables", "nope"], "unknown table set 'nope'"),
])
def test_a_bad_launch_choice_is_one_line_and_exit_2(fresh_dirs, monkeypatch, capsys, argv, says):
    from cubelab.tui import app, cli
    monkeypatch.setattr(app, "run_app", lambda **kw: pytest.fail("the workbench started"))
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1


def test_a_launch_choice_the_memory_cannot_hold_is_refused(fresh_dirs, monkeypatch, capsys):
    from cubelab.tui import app, cli
    monkeypatch.setattr("cubelab.tables.memory.available_bytes", lambda: 4 * 10**9)
    monkeypatch.setattr(app, "run_app", lambda **kw: pytest.fail("the workbench started"))
    assert cli.main(["--tables", "layers-h48"]) == 2
    err = capsys.readouterr().err
    assert "the layers-h48 tables need 10.3 GB" in err and "'cubelab tables status'" in err


def test_the_repl_starts_with_the_set_given(fresh_dirs, monkeypatch, capsys):
    import io
    from cubelab.tui import cli
    monkeypatch.setattr("sys.stdin", io.StringIO(":tables\n"))
    assert cli.main(["repl", "--no-net", "--tables", "layers-small"]) == 0
    out = capsys.readouterr().out
    assert "layers-small 99.5 MB not built (in use)" in " ".join(out.split())


def test_a_served_workbench_passes_the_choice_on():
    pytest.importorskip("textual_serve")
    from cubelab.tui.serve import make_server
    server = make_server(8765, "3x3", {"korf": "layers-h48"})
    assert server.command.endswith("--puzzle 3x3 --tables layers-h48")
    assert make_server(8765).command.endswith("--puzzle 3x3")
