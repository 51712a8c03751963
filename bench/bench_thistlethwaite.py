"""Thistlethwaite's solver beside the textbook (one optimal solution per phase, walked down the
same tables), state by state on random states: lengths, time per cube, nodes.

    .venv/bin/python bench/bench_thistlethwaite.py -n 1000
"""

from __future__ import annotations

from contenders import Function, Solve
from harness import Bench, random_states, state_of

bench = Bench(__file__, __doc__, count=1000)


def textbook_lengths(tables, state) -> list[int]:
    """Per-phase optimal lengths, one phase after the other (the first optimal move each
    time)."""
    from cubelab.cube.moves import FACE_MOVES, move_state
    from cubelab.tables.thistlethwaite.coords import PHASE_MOVES, phase_coordinates
    lengths = []
    for k in range(4):
        n = 0
        size_b = tables.move_b[k].shape[0]
        while True:
            a, b = phase_coordinates(k, state.cp, state.co, state.ep, state.eo, tables.lookups)
            d = tables.dist[k][a * size_b + b]
            if d == 0:
                break
            col = next(c for c in range(len(PHASE_MOVES[k]))
                       if tables.dist[k][tables.move_a[k][a, c] * size_b
                                         + tables.move_b[k][b, c]] == d - 1)
            state = state * move_state(FACE_MOVES[PHASE_MOVES[k][col]])
            n += 1
        lengths.append(n)
    return lengths


def _make():
    from cubelab.solvers.thistlethwaite.solver import ThistlethwaiteSolver
    return ThistlethwaiteSolver()


@bench.contender("thistlethwaite")
def _ours(args):
    return Solve("thistlethwaite", _make, detail=lambda r: {
        f"phase{k + 1}": p["length"] for k, p in enumerate(r.to_json()["phases"])})


@bench.contender("textbook")
def _textbook(args):
    solver = _make()

    def run(state):
        lengths = textbook_lengths(solver._tables, state)
        return {"length": sum(lengths), **{f"phase{k + 1}": n for k, n in enumerate(lengths)}}

    return Function("textbook", run, setup=state_of, prepare=solver.prepare)


def main(argv=None) -> int:
    args = bench.parse(argv)
    bench.begin(args)
    bench.compare(args, random_states(args.count, args.seed),
                  fields=("length", "seconds", "phase1", "phase2", "phase3", "phase4"))
    bench.finish(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
