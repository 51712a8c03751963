"""The informed players' IDA* (the competition's): time, nodes and nodes per second per
heuristic, scramble by scramble.

IDA* with each heuristic (--heuristics) solves the same face-turn scrambles (-n of --length
moves); an admissible heuristic's answers are optimal, and every answer is verified. With
--checkout, this times the IDA* kernel against another tree's.

    .venv/bin/python bench/bench_informed.py -n 20 --length 9
    .venv/bin/python bench/bench_informed.py --heuristics pdb -n 30 --length 10 \\
        --checkout base=../base --checkout new=.
"""

from __future__ import annotations

from contenders import Solve
from harness import Bench, scrambles

bench = Bench(__file__, __doc__, count=20)
bench.parser.add_argument("--length", type=int, default=9, help="scramble length")
bench.parser.add_argument("--heuristics", default="pdb,manhattan",
                          help="misplaced, manhattan, manhattan-raw, pdb")


@bench.contender("idastar", variants=lambda args: [f"idastar:{h}"
                                                   for h in args.heuristics.split(",")])
def _idastar(args, name):
    from cubelab.solvers.informed.idastar import IDAStarSolver
    return Solve(name, lambda: IDAStarSolver(heuristic=name.partition(":")[2]),
                 warm_up="R U F' L2")


def main(argv=None) -> int:
    args = bench.parse(argv)
    bench.begin(args, length=args.length)
    bench.compare(args, scrambles(args.count, args.length, args.seed),
                  fields=("seconds", "nodes", "mnodes_per_s", "length"),
                  derive=lambda c, o: {"mnodes_per_s": o["nodes"] / max(o["seconds"], 1e-9)
                                       / 1e6},
                  show=lambda c, case, o: f"{o['length']} moves {o['nodes']:>12,} nodes")
    bench.finish(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
