"""The cube model: parse + apply a 20-move alg, all facts of a position, morph; median and 90th
percentile over random algs and states.

    .venv/bin/python bench/bench_model.py -n 500
"""

from __future__ import annotations

from contenders import Function
from harness import Bench, random_states, state_of

bench = Bench(__file__, __doc__, count=500)


def random_alg(rng, n: int = 20) -> str:
    faces, out, last = "URFDLB", [], None
    while len(out) < n:
        f = faces[rng.integers(6)]
        if f != last:
            last = f
            out.append(f + ["", "2", "'"][rng.integers(3)])
    return " ".join(out)


def _operation(name, run, read):
    def factory(args):
        def prepare():
            from cubelab.cube.facts import facts
            from cubelab.cube.state import CubeState
            facts(CubeState.identity())     # warm the model's caches (moves, symmetries)
        return Function(name, run, setup=read, prepare=prepare)
    bench.contender(name)(factory)


def _alg_state(alg):
    from cubelab.cube.moves import alg_state
    return alg_state(alg)


def _facts(state):
    from cubelab.cube.facts import facts
    return facts(state) and {}


def _morph(state):
    from cubelab.cube.symmetry import morph
    return morph(state) and {}


_operation("parse+apply", lambda alg: _alg_state(alg) and {}, lambda case: case["alg"])
_operation("facts", _facts, state_of)
_operation("facts of an alg", lambda alg: _facts(_alg_state(alg)), lambda case: case["alg"])
_operation("morph", _morph, state_of)


def main(argv=None) -> int:
    import numpy as np
    args = bench.parse(argv)
    rng = np.random.default_rng(args.seed)
    cases = [dict(case, alg=random_alg(rng)) for case in random_states(args.count, args.seed)]
    bench.begin(args)
    bench.compare(args, cases, fields=("seconds",), lines=False)
    bench.finish(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
