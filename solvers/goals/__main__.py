"""A developer's front end to the goal engine, until `cubelab solve --goal` and `cubelab gen`
take it over (notes: goals-engine.md):

    python -m cubelab.solvers.goals "R U F' L2 D" --goal cross:any --moves all --all
    python -m cubelab.solvers.goals --facelets 'UUUUUUUUU****...' --moves RUF --auf pre
    python -m cubelab.solvers.goals gen pll --moves RUF -n 3 --json

Errors in the goal, the move set or the weights print one line and exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys

from cubelab.cube.costs import CostError
from cubelab.cube.facelets import FaceletError
from cubelab.cube.goals import GoalError
from cubelab.cube.masked_facelets import read_masked
from cubelab.cube.moves import alg_state
from cubelab.cube.movesets import MoveSetError
from cubelab.cube.notation import NotationError

from .generate import generate
from .search import find


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--moves", default="all", help="move set: RUF, '<R,U>', 'R2,U', dr-ud...")
    p.add_argument("--metric", default="htm", help="htm, qtm, stm or etm")
    p.add_argument("--weights", default=None, help='per-move weights: "R=1,U=1,F=1.5"')
    p.add_argument("-n", type=int, default=None, help="the N best solutions")
    p.add_argument("--all", action="store_true", help="every optimal solution")
    p.add_argument("--within", type=float, default=None, help="every solution up to K more")
    p.add_argument("--max-length", type=float, default=None)
    p.add_argument("--time-limit", type=float, default=None)
    p.add_argument("--fold", action="store_true", help="mirrors and inverses in one class")
    p.add_argument("--json", action="store_true")


def main(argv: list[str]) -> int:
    if argv[:1] == ["gen"]:
        return _gen(argv[1:])
    p = argparse.ArgumentParser(prog="python -m cubelab.solvers.goals")
    p.add_argument("alg", nargs="?", default="", help="the position, as an alg from solved")
    p.add_argument("--facelets", default=None, help="54 stickers; * or ? for grey ones")
    p.add_argument("--goal", default=None, help="cross, cross:U, oll, eo:ud... or a piece list")
    p.add_argument("--auf", default="none", help="none, pre, post or both")
    _common(p)
    a = p.parse_args(argv)
    try:
        start = read_masked(a.facelets) if a.facelets else alg_state(a.alg)
        goal = a.goal if a.goal or a.facelets else "solved"
        result = find(start, goal, a.moves, metric=a.metric, weights=a.weights, auf=a.auf,
                      all=a.all, n=a.n, within=a.within, max_length=a.max_length,
                      time_limit=a.time_limit, fold=a.fold, log=_log)
    except (GoalError, MoveSetError, CostError, FaceletError, NotationError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if a.json:
        print(json.dumps(result.to_json()))
        return 0
    print(f"{result.goal} in {result.moveset} ({result.metric}): {result.status}, "
          f"{'optimal ' if result.optimal else ''}{result.optimum}, {len(result.solutions)} "
          f"solution(s), {result.nodes:,} nodes, {result.seconds:.3f} s")
    for s in result.solutions:
        auf = "".join(f" [{k} {v}]" for k, v in (("pre", s.pre), ("post", s.post)) if v)
        print(f"  {s.text:40} {s.cost:>5} ({s.ergonomics:.1f}){auf}  {s.goal}")
    return 0


def _gen(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m cubelab.solvers.goals gen")
    p.add_argument("set", help="oll, pll, coll, zbll, ocll")
    _common(p)
    a = p.parse_args(argv)
    try:
        def show(record):
            if a.json:
                print(json.dumps(record), flush=True)
            else:
                best = record["algs"][0]["solution"] if record["algs"] else "-"
                print(f"{record['case']:10} {best}", flush=True)
        generate(a.set, a.moves, metric=a.metric, weights=a.weights, n=a.n or 1, all=a.all,
                 within=a.within, max_length=a.max_length, time_limit=a.time_limit,
                 fold=a.fold, on_case=show, log=_log)
    except (GoalError, MoveSetError, CostError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
