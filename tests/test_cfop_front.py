"""CFOP in the front ends: the steps on their lines in `cubelab solve` (the rotation that holds
the cross on D, the merges at the joins), the workbench's row detail, playback pausing at the
end of each step (at its milestone) and saying which is playing."""

from cubelab.cube.facelets import state_colours
from cubelab.cube.moves import alg_state
from cubelab.cube.notation import format_moves, parse_moves
from cubelab.cube.pieces import FACES
from cubelab.solvers.cfop.solver import CfopSolver
from cubelab.solvers import StandIn
from cubelab.solvers.results import Parts, SolveResult, Step
from cubelab.tui.records import Playback
from cubelab.tui.result_text import format_result

from helpers_apps import run_app
from helpers_cfop import ISSUE_SCRAMBLE, cross_face, milestone_problem
from helpers_solvers import prepared_solver

RESULT = SolveResult(
    "cfop", parse_moves("D R U R' U' R U2 R' U"), nodes=10, seconds=0.01, verified=True,
    detail={"cross_face": "D", "cross_colour": "yellow"},
    steps=Parts([Step("cross", "D", 1), Step("f2l 1", "R U R' U'", 4),
                 Step("oll 27 (Sune)", "R U2 R'", 3), Step("auf", "U", 1)]))
RECORD = RESULT.to_json()


def test_the_steps_keep_their_json():
    assert RECORD["steps"] == [{"step": "cross", "moves": "D", "length": 1},
                               {"step": "f2l 1", "moves": "R U R' U'", "length": 4},
                               {"step": "oll 27 (Sune)", "moves": "R U2 R'", "length": 3},
                               {"step": "auf", "moves": "U", "length": 1}]
    assert RECORD["length"] == {"htm": 9, "qtm": 10} and RECORD["cross_face"] == "D"


def test_solve_prints_each_step_on_its_line():
    text = format_result(RESULT)
    lines = text.splitlines()
    assert "cross on  D (yellow)" in lines
    step_lines = [ln.split() for ln in lines if ln.startswith("  ")]
    assert [ln[0] for ln in step_lines] == ["cross", "f2l", "oll", "auf"]
    assert "oll 27 (Sune)" in text and lines[0] == RECORD["solution"]


def playback():
    moves = parse_moves(RECORD["solution"])
    steps = tuple((st["step"], st["length"]) for st in RECORD["steps"])
    return Playback(alg_state("R"), list(moves), 0, "cfop solution", steps)


def test_playback_jumps_pause_at_the_end_of_each_step():
    pb = playback()
    stops = []
    while pb.step(10**6):
        stops.append(pb.index)
    assert stops == [1, 5, 8, 9]
    back = []
    while pb.step(-10**6):
        back.append(pb.index)
    assert back == [8, 5, 1, 0]


def test_playback_says_which_step_is_playing():
    pb = playback()
    assert pb.describe().startswith("[cross] 0/9")
    pb.step(1)
    assert pb.describe().startswith("[cross] 1/9")
    pb.step(1)
    assert pb.describe().startswith("[f2l 1] 2/9")
    pb.step(10**6)
    pb.step(1)
    assert pb.describe().startswith("[oll 27 (Sune)] 6/9")
    # single steps are not held at a boundary
    assert pb.step(1) and pb.step(1) and pb.step(1) and pb.index == 9


def test_a_playback_without_steps_is_unchanged():
    pb = Playback(alg_state("R"), parse_moves("R U R'"), 0, "x")
    assert pb.step(10**6) and pb.index == 3
    assert pb.describe().startswith("3/3")


def test_playing_a_cfop_row_carries_its_steps():
    from cubelab.tui.records import SolutionRow
    from cubelab.tui.session import Session
    session = Session()
    session.apply(parse_moves("U' R U' R' U R U' R' D'"))
    moves = parse_moves(RECORD["solution"])
    steps = tuple((st["step"], st["length"]) for st in RECORD["steps"])
    session.solutions = [SolutionRow("cfop", session.state, list(moves), steps=steps)]
    session.play_row(0, "solutions")
    pb = session.playback
    assert pb.steps == steps
    session.step(10**6)
    assert pb.index == 1 and pb.describe().startswith("[cross]")


# ---- the real solver in the front ends ----------------------------------------------------------

solver = prepared_solver(CfopSolver)


def test_solve_prints_the_rotation_and_the_merges(solver):
    result = solver.solve(alg_state(ISSUE_SCRAMBLE))
    record = result.to_json()
    text = format_result(result)
    assert f"hold with the cross on D: {record['rotation']}" in text and record["rotation"]
    assert text.splitlines()[0].startswith(record["rotation"] + " ")
    merges = [st for st in record["steps"] if "merge" in st]
    assert merges
    for st in merges:
        m = st["merge"]
        assert f"merged with {m['with']}: {m['tail']} + {m['head']} -> " in text


def test_a_cross_on_d_needs_no_rotation():
    result = SolveResult(RESULT.solver, RESULT.moves, detail=dict(RESULT.detail, rotation=""),
                         steps=RESULT.steps)
    assert "hold" not in format_result(result)


class CfopRegistry(StandIn):
    """The workbench's solver source with the one real CFOP solver, prepared."""

    def __init__(self, solver):
        super().__init__()
        self.cfop = solver

    def solver_names(self, puzzle: str = "3x3") -> list[str]:
        return ["cfop"] if puzzle == "3x3" else []

    def get_solver(self, name: str, puzzle: str = "3x3", **options):
        assert name == "cfop", "only CFOP is asked for"
        return self.cfop


def test_the_workbench_row_shows_every_step_and_plays_to_each_milestone(solver, tmp_path):
    async def body(app, pilot):
        await pilot.press(*ISSUE_SCRAMBLE)
        await pilot.press("enter")
        await pilot.press(*":solve")
        await pilot.press("enter")
        for _ in range(1200):
            await pilot.pause(0.05)
            if app.session.solutions and app.session.solutions[0].status == "solved":
                break
        row = app.session.solutions[0]
        record = solver.solve(alg_state(ISSUE_SCRAMBLE)).to_json()
        assert format_moves(row.moves) == record["solution"]
        # the row detail holds the rotation and every step (a merge under its step)
        detail = app.solver_panel.detail(0).plain
        assert f"hold with the cross on D: {record['rotation']}" in detail
        for st in record["steps"]:
            assert f"  {st['step']:<22} {st['length']:>2}  {st['moves'] or '-'}" in detail
            if "merge" in st:
                assert f"merged with {st['merge']['with']}" in detail
        # played step by step, each pause is where the step's name says
        await pilot.press(*":play")
        await pilot.press("enter")
        await pilot.pause()
        pb = app.session.playback
        colour = "URFDLB".index(record["cross_face"])
        names = []
        while app.session.step(10**6):
            name = pb.step_name()
            names.append(name)
            if name == "hold with the cross on D":
                assert cross_face(state_colours(pb.state), colour) == FACES.index("D")
            else:
                assert milestone_problem(pb.state, name, colour) is None, name
        assert names[0] == "hold with the cross on D" and names[-1] == record["steps"][-1]["step"]
        assert pb.state.is_solved()

    run_app(tmp_path, body, size=(160, 48), registry=CfopRegistry(solver))
