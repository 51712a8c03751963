"""The session's command language and undo history, the shared input history, the keymap and
the fake solver: everything the workbench does that needs no terminal."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubelab.cube.facelets import to_facelets
from cubelab.cube.moves import FACE_MOVES, alg_state, apply_moves
from cubelab.cube.notation import parse_moves
from cubelab.cube.state import CubeState
from cubelab.solvers.fake import FakeSolver, shortest_solution
from cubelab.solvers.protocol import BEST, NODES, SolverError, new_cancel, new_counters
from cubelab.tui.commands import COMMANDS
from cubelab.tui.help_text import help_text
from cubelab.tui.history import InputHistory, read_entries
from cubelab.tui.keymap import KEY_MOVES, PAINT_KEYS, move_for_key
from cubelab.tui.records import HelpRequest, Painting, SolutionRow, SolveRequest
from cubelab.tui.session import Session, scramble_moves


@pytest.fixture
def session(tmp_path):
    return Session(solver_names=lambda puzzle: ["fake", "kociemba"] if puzzle == "3x3"
                   else REGISTRY.solver_names(puzzle), saves_dir=tmp_path / "saves")


def test_moves_apply_and_every_change_undoes(session):
    session.execute("R U")
    session.execute("[R, U]")
    session.execute(":invert")
    assert session.state == alg_state("R U [R, U]").inverse()
    assert session.moves == tuple(parse_moves("(R U [R, U])'"))
    for expected in ("R U [R, U]", "R U", ""):
        assert session.execute(":undo").changed
        assert session.state == alg_state(expected)
    assert session.execute(":undo").error
    session.execute(":redo")
    assert session.state == alg_state("R U")
    session.execute("F")                                 # a new change drops the redo branch
    assert session.execute(":redo").error


def test_notation_errors_carry_their_column(session):
    out = session.execute("R U (R'")
    assert out.error and out.column == 5
    preview = session.preview("R  X")
    assert preview.error and preview.column == 4
    assert session.state.is_identity()


def test_preview_does_not_change_the_position(session):
    preview = session.preview("R U R' U'")
    assert preview.state == alg_state("R U R' U'") and len(preview.moves) == 4
    assert session.state.is_identity()
    assert session.preview(":solve") is None


def test_scramble_random_facelets_reset(session):
    assert session.execute(":scramble 3").changed
    assert session.state == apply_moves(CubeState.identity(), scramble_moves(3))
    session.execute(":random 5")
    from cubelab.cube.random_states import random_state
    assert session.state == random_state(5)
    target = alg_state("R U2 F'")
    session.execute(":facelets " + to_facelets(target))
    assert session.state == target and session.moves == ()
    bad = session.execute(":facelets " + "U" * 54)
    assert bad.error and "appears 54 times" in bad.message
    session.execute(":reset")
    assert session.state.is_identity()
    assert session.execute(":scramble x").error


@given(st.integers(0, 10**6))
def test_scrambles_never_repeat_a_face_or_an_axis_three_times(seed):
    moves = scramble_moves(seed)
    assert len(moves) == 20
    axis = {f: i % 3 for i, f in enumerate("URFDLB")}
    for a, b in zip(moves, moves[1:]):
        assert a.family != b.family
    for a, b, c in zip(moves, moves[1:], moves[2:]):
        assert not axis[a.family] == axis[b.family] == axis[c.family]


def test_solve_and_compare_requests(session):
    out = session.execute(":solve")
    assert out.request == SolveRequest(("kociemba",), False)
    assert session.execute(":solve fake").request == SolveRequest(("fake",), False)
    assert session.execute(":compare").request == SolveRequest(("fake", "kociemba"), True)
    assert session.execute(":solve nope").error
    assert Session().execute(":solve").error               # no solver installed


def test_apply_and_play_rows(session):
    session.execute("R U")
    assert session.execute(":apply 1").error               # nothing solved yet
    session.solutions.append(SolutionRow("fake", session.state, parse_moves("U' R'")))
    session.solutions.append(SolutionRow("kociemba", session.state))
    assert session.execute(":apply 2").error               # that row found nothing
    assert session.execute(":play").changed
    assert session.playback is not None and session.shown_state() == session.state
    session.step(1)
    assert session.shown_state() == alg_state("R U U'")
    session.keep_playback()
    assert session.state == alg_state("R")
    assert session.execute(":apply 1").error               # found for another position
    session.execute(":undo")
    session.execute(":apply 1")
    assert session.state.is_solved()


def test_unknown_and_abbreviated_commands(session):
    assert session.execute(":frobnicate").error
    assert "did you mean" in session.execute(":s").message  # scramble, solve, save, saves
    assert session.execute(":inv").changed
    assert isinstance(session.execute(":help").request, HelpRequest)


def test_save_and_load_round_trip(session):
    session.execute("[R, U]3")
    assert not session.execute(":save trio").error
    session.execute(":reset")
    assert session.execute(":load trio").changed
    assert session.state == alg_state("[R, U]3") and len(session.moves) == 12
    assert session.execute(":load none").error
    assert session.execute(":save ../evil").error
    assert "trio" in session.execute(":saves").message


def test_completions(session):
    assert session.completions(":sc") == [":scramble", ":scheme", ":screenshot"]
    assert session.completions(":scra") == [":scramble"]
    assert session.completions(":solve k") == [":solve kociemba"]
    # the solvers not named yet, the metrics the session's solvers honour, their options
    assert session.completions(":compare fake ") == [":compare fake kociemba", ":compare fake htm",
                                                     ":compare fake --first"]
    from cubelab.solvers import REGISTRY
    assert Session(REGISTRY).completions(":solve idastar --heuristic m") == [
        ":solve idastar --heuristic misplaced", ":solve idastar --heuristic manhattan",
        ":solve idastar --heuristic manhattan-raw"]
    assert session.completions("R U") == []


def test_painting_verdicts():
    painting = Painting.of(CubeState.identity())
    assert painting.verdict() == (True, "valid position: Enter uses it")
    painting.paint(2)                                       # green on U1
    usable, text = painting.verdict()
    assert not usable and "expected 9" in text
    painting.clear()
    assert "48 stickers grey: every corner and edge sticker is grey" in painting.verdict()[1]
    twisted = Painting.of(CubeState(range(8), [1] + [0] * 7, range(12), [0] * 12))
    usable, text = twisted.verdict()
    assert usable and "unreachable" in text


def test_history_file_is_shared_with_prompt_toolkit(tmp_path):
    path = tmp_path / "history"
    history = InputHistory(path)
    for line in ("R U", "R U", "  ", ":scramble 4"):
        history.append(line)
    assert read_entries(path) == ["R U", ":scramble 4"]
    from prompt_toolkit.history import FileHistory
    assert list(FileHistory(str(path)).load_history_strings()) == [":scramble 4", "R U"]
    FileHistory(str(path)).store_string("F2")
    again = InputHistory(path)
    assert again.previous("draft") == "F2"
    assert again.previous("") == ":scramble 4"
    assert again.next() == "F2"
    assert again.next() == "draft"
    assert again.next() is None


def test_keymap_follows_the_qwerty_cube():
    assert [KEY_MOVES[k] for k in "ikjfhgdeslwo"] == \
        ["R", "R'", "U", "U'", "F", "F'", "L", "L'", "D", "D'", "B", "B'"]
    assert move_for_key("I") == "R" and move_for_key("1") is None
    for move in KEY_MOVES.values():
        parse_moves(move)
    assert sorted(set(PAINT_KEYS.values())) == list(range(6))


def test_fake_solver_finds_shortest_solutions_and_streams():
    state = alg_state("R U F' D2")
    assert len(shortest_solution(state)) == 4
    found = []
    counters = new_counters()
    result = FakeSolver(step_seconds=0.0).solve(state, on_solution=found.append,
                                                 counters=counters)
    assert [len(s.moves) for s in found] == [8, 6, 4]
    assert result.optimal and result.verified and result.status == "solved"
    assert counters[BEST] == 4 and counters[NODES] > 0
    with pytest.raises(SolverError):
        FakeSolver().solve(alg_state("R U F D L B R"))
    with pytest.raises(SolverError):
        FakeSolver().solve(CubeState(range(8), [0] * 8, range(12), [1] + [0] * 11))


def test_fake_solver_honours_cancel():
    cancel = new_cancel()
    cancel[0] = 1
    result = FakeSolver(step_seconds=10).solve(alg_state("R"), cancel=cancel)
    assert result.status == "cancelled" and result.moves is None


@settings(max_examples=25)
@given(st.lists(st.sampled_from(FACE_MOVES), max_size=6))
def test_fake_solutions_solve_and_are_no_longer_than_the_scramble(moves):
    state = apply_moves(CubeState.identity(), moves)
    solution = shortest_solution(state)
    assert solution is not None and len(solution) <= len(moves)
    assert apply_moves(state, solution).is_solved()


def test_fake_prepare_reports_progress():
    steps = []
    solver = FakeSolver(tables_built=False, build_steps=3, build_seconds=0)
    assert solver.missing_tables()
    solver.prepare(progress=lambda done, total: steps.append((done, total)))
    assert steps == [(1, 3), (2, 3), (3, 3)] and not solver.missing_tables()
    assert np.all(new_cancel() == 0)


def test_rows_opened_for_a_solve_keep_or_replace_the_others(session):
    session.execute("R U'")
    assert session.open_rows(["fake"], keep=True) == [0]
    session.solutions[0].moves = parse_moves("U R'")
    assert session.open_rows(["kociemba", "fake"], keep=True) == [1, 0]
    assert [r.solver for r in session.solutions] == ["fake", "kociemba"]
    assert session.solutions[0].moves is None              # a fresh row for a new run
    assert session.open_rows(["kociemba"], keep=False) == [0]
    assert [r.solver for r in session.solutions] == ["kociemba"]
    session.execute("F")                                    # rows for another position go
    assert session.open_rows(["fake"], keep=True) == [0] and len(session.solutions) == 1
    assert session.listing == "solutions"


def test_every_command_runs(session):
    for name in COMMANDS:
        out = session.execute(":" + name)
        assert isinstance(out.message, str), name


# ---- the 2x2x2 and the puzzle switch ---------------------------------------------------------

from cubelab.cube import pocket  # noqa: E402
from cubelab.solvers import REGISTRY  # noqa: E402
from cubelab.cube.puzzles import PUZZLES, Cube2  # noqa: E402
from cubelab.tui.records import SearchRequest  # noqa: E402


def test_switching_to_the_2x2_keeps_corners_and_is_one_undo_step(session):
    session.execute("R U R' U'")
    out = session.execute(":puzzle 2x2")
    assert out.changed and "corners and the sequence" in out.message
    assert session.puzzle.name == "2x2"
    assert session.state == pocket.from_alg("R U R' U'").state
    assert len(session.moves) == 4
    assert session.solver_names() == ["pocket-htm", "pocket-qtm"]
    assert session.execute(":solve").request == SolveRequest(("pocket-htm",), False)
    session.execute("F2")
    assert session.state == pocket.from_alg("R U R' U' F2").state
    session.execute(":undo")
    session.execute(":undo")                             # back across the switch
    assert session.puzzle.name == "3x3" and session.state == alg_state("R U R' U'")
    assert session.solver_names() == ["fake", "kociemba"]
    session.execute(":redo")
    assert session.puzzle.name == "2x2"


def test_switching_back_replays_the_sequence_or_starts_solved(session):
    session.execute(":puzzle 2")
    session.execute("R U2 y F")
    assert session.execute(":puzzle").changed            # no argument: the other cube
    assert session.puzzle.name == "3x3" and session.state == alg_state("R U2 y F")
    session.execute(":puzzle 2x2")
    session.execute(":random 3")                         # a position without a sequence
    out = session.execute(":puzzle 3x3")
    assert session.state.is_identity() and "solved" in out.message
    session.execute("Rw M")                              # wide turns and slices differ
    out = session.execute(":puzzle 2x2")
    assert session.state == pocket.PocketState.from_cube(alg_state("Rw M"))
    assert session.moves == () and "dropped" in out.message
    assert session.execute(":puzzle 2x2").message.startswith("already")
    assert session.execute(":puzzle 4x4").error


def test_2x2_commands(session):
    session.execute(":puzzle 2x2")
    bad = session.execute("R M")
    assert bad.error and "no middle layer" in bad.message
    assert session.preview("R M").error and session.state == pocket.PocketState.identity()
    session.execute(":scramble 5")
    moves = session.moves
    assert len(moves) == Cube2.scramble_length and {m.family for m in moves} <= set("URF")
    assert session.state == pocket.apply_moves(pocket.PocketState.identity(), moves)
    session.execute(":invert")
    assert session.state == pocket.apply_moves(pocket.PocketState.identity(), moves).inverse()
    target = pocket.from_alg("F R' U2").state
    assert session.execute(":facelets " + pocket.to_facelets(target)).changed
    assert session.state == target
    assert "appears" in session.execute(":facelets " + "U" * 24).message
    twisted = pocket.PocketState(range(8), [1] + [0] * 7)
    assert "unreachable" in session.execute(":facelets " + pocket.to_facelets(twisted)).message
    session.execute(":reset")
    assert session.state == pocket.PocketState.identity()
    assert session.execute(":search 4 ll").error         # the search is a 3x3x3 tool


@given(st.integers(0, 10**6))
def test_random_2x2_positions_are_reachable_and_held_dlb_home(seed):
    state = Cube2().random(seed)
    assert pocket.is_reachable(state)
    assert state.cp[pocket.DLB] == pocket.DLB and state.co[pocket.DLB] == 0
    assert sorted(state.cp.tolist()) == list(range(8))


def test_2x2_saves_load_onto_their_own_cube(session):
    session.execute(":puzzle 2x2")
    session.execute("R U F")
    session.execute(":save pocket1")
    session.execute(":puzzle 3x3")
    out = session.execute(":load pocket1")
    assert out.changed and "2x2x2" in out.message
    assert session.puzzle.name == "2x2" and session.state == pocket.from_alg("R U F").state
    assert len(session.moves) == 3


def test_painting_a_2x2():
    painting = Painting.of(pocket.from_alg("R").state)
    assert len(painting.colours) == 24 and painting.verdict()[0]
    painting.clear()
    assert painting.colours == [-1] * 24
    assert "24 stickers grey: the 2x2x2 is entered whole" in painting.verdict()[1]
    for face in pocket.state_colours(pocket.from_alg("U R").state):
        painting.paint(int(face))
    assert painting.verdict() == (True, "valid position: Enter uses it")
    assert painting.state() == pocket.from_alg("U R").state


def test_the_registry_names_one_2x2_solver_per_metric_and_keeps_puzzles_apart():
    assert REGISTRY.solver_names("2x2") == ["pocket-htm", "pocket-qtm"]
    assert REGISTRY.get_solver("pocket-qtm", "2x2").metric == "qtm"
    with pytest.raises(KeyError, match="solves the 3x3"):
        REGISTRY.get_solver("kociemba", "2x2")
    with pytest.raises(KeyError, match="solves the 2x2"):
        REGISTRY.get_solver("pocket-htm", "3x3")
    with pytest.raises(KeyError, match="unknown solver 'fake'"):
        REGISTRY.get_solver("fake", "3x3")
    assert "fake" not in REGISTRY.solver_names("3x3")
    assert set(PUZZLES) == {"3x3", "2x2"}


def test_help_says_how_undo_treats_a_switch():
    text = help_text(COMMANDS)
    assert ":puzzle" in text and ":search" in text and "undo goes back" in text


# ---- :search ------------------------------------------------------------------------------------

def test_search_requests_and_their_errors(session):
    request = session.execute(":search 6 qtm auf ll").request
    assert isinstance(request, SearchRequest)
    assert (request.max_length, request.metric, request.auf) == (6, "qtm", True)
    assert request.predicate.name == "ll"
    only = session.execute(":search 5 only UFR URB UBL").request
    assert only.predicate.name == "only" and only.metric == "htm"
    session.execute("R U")
    here = session.execute(":search 3 equals").request
    assert here.predicate.accepts(alg_state("R U"))
    partial = session.execute(":search 3 equals R U ignore UFR").request
    assert "ignoring UFR" in partial.predicate.description
    for line, words in ((":search", "usage"), (":search 5", "usage"), (":search 0 ll", "between"),
                        (":search 5 frob", "unknown predicate"), (":search 5 ll ignore UF", "ignore"),
                        (":search 16 ll", "fits"), (":search 5 only XYZ", "no piece")):
        out = session.execute(line)
        assert out.error and words in out.message, (line, out.message)


class _Found:
    """What the session needs of a search result: its moves."""

    def __init__(self, text):
        self.moves = parse_moves(text)


def test_apply_and_play_pick_from_the_list_shown_last(session):
    session.solutions.append(SolutionRow("fake", session.state, parse_moves("U'")))
    session.record_found([_Found("R U R' U'"), _Found("F2")])
    assert session.execute(":apply 3").error
    session.execute(":apply 2")
    assert session.state == alg_state("F2")              # a search result applies anywhere
    session.execute(":play")
    session.step(10)
    session.keep_playback()
    assert session.state == alg_state("F2 R U R' U'")
    session.listing = "solutions"
    assert "another position" in session.execute(":apply 1").message
