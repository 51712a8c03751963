"""CFOP in the front ends: the steps on their lines in `cubelab solve`, playback pausing
between steps and saying which is playing."""

from cubelab.cube.moves import alg_state
from cubelab.cube.notation import parse_moves
from cubelab.solvers.results import Parts, SolveResult, Step
from cubelab.tui.records import Playback
from cubelab.tui.result_text import format_result

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
