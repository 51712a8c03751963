"""The 3-cycle solver on random states: HTM and QTM lengths (goal: a mean of at most 130 HTM;
the TIPE averaged 324 QTM), commutators used, time per cube.

    .venv/bin/python bench/bench_threecycle.py -n 1000
"""

from __future__ import annotations

from contenders import Solve
from harness import Bench, random_states

bench = Bench(__file__, __doc__, count=1000)


@bench.contender("threecycle")
def _threecycle(args):
    from cubelab.solvers.threecycle.solver import ThreeCycleSolver
    return Solve("threecycle", ThreeCycleSolver, detail=lambda r: {
        "qtm": r.length["qtm"], "steps": len(r.steps or ())})


def main(argv=None) -> int:
    args = bench.parse(argv)
    bench.begin(args)
    bench.compare(args, random_states(args.count, args.seed), fields=("length", "qtm", "steps",
                                                                      "seconds"))
    bench.finish(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
