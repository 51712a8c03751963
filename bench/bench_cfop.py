"""CFOP on random states, state by state: best of six crosses beside one face (yellow cross
only) and, if installed, pycuber's CFOP: length per step (cross, F2L and each pair in the order
solved, OLL, PLL with its pre-AUF, final AUF) and in total, time per cube.

pycuber (`pip install pycuber`) runs on the first --pycuber states (it is slow); it takes a
scramble (our two-phase solution's inverse, made untimed), and its lengths count in HTM after
cancelling its moves the way cubelab counts.

    CUBELAB_DATA_DIR=... .venv/bin/python bench/bench_cfop.py              # 1,000 states
    .venv/bin/python bench/bench_cfop.py -n 200 --pycuber 50
"""

from __future__ import annotations

from contenders import Function, Solve
from harness import Bench, random_states, state_of

STEPS = ("cross", "f2l", "oll", "pll", "auf")

bench = Bench(__file__, __doc__, count=1000)
bench.parser.add_argument("--pycuber", type=int, default=0, metavar="K",
                          help="also run pycuber's CFOP on the first K states")


def steps(result) -> dict:
    """HTM per step kind, and per F2L pair in the order solved (f2l_1 .. f2l_4)."""
    out = dict.fromkeys(STEPS, 0)
    pairs = 0
    for st in result.to_json()["steps"]:
        kind = st["step"].split()[0]
        out[kind] = out.get(kind, 0) + st["length"]
        if kind == "f2l":
            pairs += 1
            out[f"f2l_{min(pairs, 4)}"] = st["length"]
    return out


def _cfop(faces):
    def make():
        from cubelab.solvers.cfop.solver import CfopSolver
        return CfopSolver(faces=faces)
    return make


@bench.contender("cfop")
def _six(args):
    return Solve("cfop", _cfop("DULRFB"), detail=steps)


@bench.contender("cfop-yellow")
def _yellow(args):
    return Solve("cfop-yellow", _cfop("D"), detail=steps)


@bench.contender("pycuber")
def _pycuber(args):
    from cubelab.solvers import get_solver
    two_phase = get_solver("kociemba")

    def setup(case):
        return case, two_phase.solve(state_of(case).inverse(), time_limit=0.05).text()

    def run(item):
        import pycuber
        from pycuber.solver import CFOPSolver

        from cubelab.cube.moves import apply_moves
        from cubelab.cube.notation import metric_lengths, parse_moves, simplify
        case, scramble = item
        if case["id"] >= args.pycuber:
            return {}
        cube = pycuber.Cube()
        cube(scramble)
        moves = simplify(parse_moves(" ".join(
            str(m) for m in CFOPSolver(cube).solve(suppress_progress_messages=True))))
        if not apply_moves(state_of(case), moves).is_solved():
            raise AssertionError("pycuber's solution does not solve the cube")
        return {"length": metric_lengths(moves)["htm"]}

    return Function("pycuber", run, setup=setup, prepare=two_phase.prepare)


def main(argv=None) -> int:
    args = bench.parse(argv)
    bench.begin(args)
    names = ["cfop", "cfop-yellow"] + (["pycuber"] if args.pycuber else [])
    fields = ("length", "seconds") + STEPS + tuple(f"f2l_{k}" for k in range(1, 5))
    bench.compare(args, random_states(args.count, args.seed),
                  contenders=bench.contenders(args, names), fields=fields)
    bench.finish(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
