"""CFOP's milestones checked from the stickers, for the tests of its steps.

Written from the model alone (a state's 54 stickers and which face each sticker sits on), not
with the solver's coordinates or helpers: the cross; the cross and k F2L pairs; the first two
layers and the last layer's face one colour; solved up to a turn of the last layer; solved.
"""

from cubelab.cube.alg import Move
from cubelab.cube.facelets import state_colours
from cubelab.cube.moves import apply_moves
from cubelab.cube.notation import metric_lengths, parse_moves, simplify
from cubelab.cube.pieces import CENTRE_FACELETS, CORNER_FACELETS, EDGE_FACELETS, FACES, OPPOSITE

ISSUE_SCRAMBLE = "U' D B R L B R2 U2 R L2 D2 R2 U D' R F' L R2 D2 B2 U R' D U2 L'"
"""Issue 37's example: its cross is best on F, and two of its steps meet in a merge."""


def home(colours, facelets) -> bool:
    """Every sticker of a piece shows the colour of the centre of the face it is on."""
    return all(colours[f] == colours[CENTRE_FACELETS[f // 9]] for f in facelets)


def on(face, facelets) -> bool:
    return any(f // 9 == face for f in facelets)


def cross_face(colours, colour) -> int:
    """The face whose centre shows the cross colour."""
    return next(f for f in range(6) if colours[CENTRE_FACELETS[f]] == colour)


def cross_done(colours, face) -> bool:
    return all(home(colours, e) for e in EDGE_FACELETS if on(face, e))


def pairs_done(colours, face) -> int:
    """How many F2L pairs (a corner on the cross face and the edge between its two sides) are
    home."""
    n = 0
    for corner in CORNER_FACELETS:
        if not on(face, corner):
            continue
        sides = {f // 9 for f in corner} - {face}
        edge = next(e for e in EDGE_FACELETS if {f // 9 for f in e} == sides)
        n += home(colours, corner) and home(colours, edge)
    return n


def last_face_one_colour(colours, face) -> bool:
    last = OPPOSITE[face]
    return all(colours[9 * last + i] == colours[CENTRE_FACELETS[last]] for i in range(9))


def solved(state) -> bool:
    colours = state_colours(state)
    return all(home(colours, (f,)) for f in range(54))


def milestone_problem(state, name: str, colour: int) -> str | None:
    """What is wrong with `state` as the end of the step `name` (None: it is that step's
    milestone)."""
    colours = state_colours(state)
    face = cross_face(colours, colour)
    if not cross_done(colours, face):
        return "the cross is not solved"
    word = name.split()[0]
    pairs = pairs_done(colours, face)
    if word == "f2l":
        want = int(name.split()[1].split("-")[-1])
        return None if pairs == want else f"{pairs} pairs solved, not {want}"
    if word == "cross":
        return None
    if pairs != 4:
        return f"only {pairs} pairs solved"
    if word == "oll":
        return None if last_face_one_colour(colours, face) else "the last layer is not oriented"
    last = Move(FACES[OPPOSITE[face]], 1)
    if word == "pll":
        return None if any(solved(apply_moves(state, [last] * k)) for k in range(4)) else \
            "not solved up to a turn of the last layer"
    assert word == "auf", name
    return None if solved(state) else "not solved"


def check_record(start, record) -> list[str]:
    """Every way a solve record's steps miss their milestones or disagree with its solution."""
    problems = []
    colour = "URFDLB".index(record["cross_face"])
    state = apply_moves(start, parse_moves(record.get("rotation", "")))
    if cross_face(state_colours(state), colour) != FACES.index("D"):
        problems.append(f"the rotation {record.get('rotation')!r} does not hold the cross on D")
    performed = []
    for st in record["steps"]:
        moves = parse_moves(st["moves"])
        performed += moves
        state = apply_moves(state, moves)
        if st["length"] != metric_lengths(moves)["htm"]:
            problems.append(f"{st['step']}: length {st['length']} for {st['moves']!r}")
        problem = milestone_problem(state, st["step"], colour)
        if problem:
            problems.append(f"after {st['step']} ({st['moves']}): {problem}")
    if not solved(state):
        problems.append("the steps do not solve the cube")
    # the solution is the steps put end to end with the joins cancelled, after the rotation
    solution = parse_moves(record["solution"])
    rotation = parse_moves(record.get("rotation", ""))
    if solution[:len(rotation)] != rotation:
        problems.append("the solution does not start with the rotation")
    if simplify(solution[len(rotation):]) != simplify(performed):
        problems.append("the solution is not the steps with their joins cancelled")
    if not solved(apply_moves(start, solution)):
        problems.append("the solution does not solve the cube")
    saved = sum(st["merge"]["saved"] for st in record["steps"] if "merge" in st)
    if sum(st["length"] for st in record["steps"]) - saved != record["length"]["htm"]:
        problems.append("step lengths less the merges' savings are not the solution's length")
    return problems
