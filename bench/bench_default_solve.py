"""A plain `cubelab solve` (Kociemba's improving budget with the optimality prover) beside the
first-solution mode (`--first`), position by position.

Positions: face-turn scrambles of 4, 8, 10, 11 and 12 moves (their optimum is at most the
scramble's length), and uniformly random states. Per group and mode: median and largest time,
mean length, the share of solutions marked optimal.

    CUBELAB_DATA_DIR=... .venv/bin/python bench/bench_default_solve.py     # 10 per length
    .venv/bin/python bench/bench_default_solve.py -n 4 --random 5
"""

from __future__ import annotations

from contenders import Solve
from harness import Bench, random_states, scrambles

bench = Bench(__file__, __doc__, count=10)
bench.parser.add_argument("--random", type=int, default=5, help="random states")


@bench.contender("default")
def _default(args):
    from cubelab.solvers.kociemba.solver import KociembaSolver
    return Solve("default", KociembaSolver)


@bench.contender("first")
def _first(args):
    from cubelab.solvers.kociemba.solver import KociembaSolver
    return Solve("first", lambda: KociembaSolver(budget=None))


def main(argv=None) -> int:
    args = bench.parse(argv)
    bench.begin(args)
    groups = {f"scramble {n}": scrambles(args.count, n, args.seed) for n in (4, 8, 10, 11, 12)}
    groups["random"] = random_states(args.random, args.seed)
    for label, cases in groups.items():
        if cases:
            bench.compare(args, cases, label=label, fields=("seconds", "length", "optimal"))
    bench.finish(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
