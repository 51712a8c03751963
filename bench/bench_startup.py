"""What a solver's first solve costs in a fresh process: imports, tables, and numba's kernels
compiled (cold: an empty numba cache) or loaded from the cache (warm).

Each run is a new process: it imports the solver, prepares it and solves a short scramble;
reported are the seconds of each step. Cold runs compile into an empty cache folder of their
own; warm runs read the user's cache (filled by an untimed run first). With --checkout, this
compares what two trees' kernels cost to compile and to load.

    .venv/bin/python bench/bench_startup.py --solvers kociemba,korf -n 3
    .venv/bin/python bench/bench_startup.py --solvers korf --kinds cold -n 3 \\
        --checkout base=../base --checkout new=.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time

from contenders import Function
from harness import Bench

bench = Bench(__file__, __doc__, count=3)
bench.parser.add_argument("--solvers", default="kociemba,korf,cfop,thistlethwaite")
bench.parser.add_argument("--kinds", default="cold,warm", help="cold, warm")


def _names(args):
    return [f"{kind}:{solver}" for kind in args.kinds.split(",")
            for solver in args.solvers.split(",")]


@bench.contender("start", fresh=True, variants=_names)
def _start(args, name):
    kind, _, solver = name.partition(":")

    def run(_round):
        if kind == "cold":
            os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="cubelab-cold-")
        t0 = time.perf_counter()
        from cubelab.cube.moves import alg_state
        from cubelab.solvers import get_solver
        s = get_solver(solver)
        t1 = time.perf_counter()
        s.prepare()
        t2 = time.perf_counter()
        s.solve(alg_state("R U F' L2 D"))
        t3 = time.perf_counter()
        if kind == "cold":
            shutil.rmtree(os.environ["NUMBA_CACHE_DIR"], ignore_errors=True)
        return {"seconds": t3 - t0, "import_s": t1 - t0, "prepare_s": t2 - t1,
                "first_solve_s": t3 - t2}

    return Function(name, run)


def main(argv=None) -> int:
    args = bench.parse(argv)
    bench.begin(args)
    warm = [n for n in _names(args) if n.startswith("warm:")]
    if warm:
        bench.compare(args, [{"id": "fill"}], label="filling the cache (untimed)",
                      contenders=bench.contenders(args, warm))
    bench.compare(args, [{"id": r} for r in range(args.count)],
                  contenders=bench.contenders(args, _names(args)),
                  fields=("seconds", "import_s", "prepare_s", "first_solve_s"))
    bench.finish(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
