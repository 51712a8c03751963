"""What the order of the start nodes gains: each start node's exact cost at every bound, and
which start nodes hold a solution at the optimal bound, for uniformly random states.

The optimal solver splits a search three moves below the root and hands the start nodes out
a few at a time; a bound's search stops at its first solution. How soon that comes depends
on the order, and only at the last bound (the ones before are searched to the end). This
script searches every start node of every bound to the end, one kernel call per start node at
the optimal bound (so that none stops another), then replays the search in several orders:
the cost to the first solution is the full cost of the start nodes before the first one that
holds a solution, plus that one's cost up to its solution. One thread, no timing: the figures
are node counts, the machine's load does not touch them.

    CUBELAB_DATA_DIR=<built> .venv/bin/python bench/bench_task_order.py --tables layers -n 16

Orders compared: the fixed one (as expanded), by the cost at the bound before (the solver's),
by that cost per move allowed after the start node's last move (nissy's and vcube's weighting),
and by the cost two bounds before.
"""

from __future__ import annotations

import time

import numpy as np

from harness import Bench, random_states, state_of

bench = Bench(__file__, __doc__, count=10)
bench.parser.add_argument("--tables", default="layers")
bench.parser.add_argument("--first", type=int, default=0, help="skip this many random states")
bench.parser.add_argument("--depth", type=int, default=3, help="depth of the start nodes")


def log(*args):
    print(*args, flush=True)


def exact_costs(p, items, paths, depth: int, bound: int):
    """(costs, holds): the nodes below each start node (items, paths: `depth` moves deep) at
    `bound` (up to its first solution where it holds one), and whether it holds one."""
    from cubelab.solvers.korf.lanes import LANES
    n = len(items)
    live = np.zeros(1, np.int64)
    stop, cancel = np.zeros(1, np.int32), np.zeros(1, np.int32)
    sol = np.zeros(bound + 1, np.int64)
    costs, holds = np.zeros(n, np.int64), np.zeros(n, bool)
    for i0 in range(0, n, LANES):
        i1 = min(n, i0 + LANES)
        stop[0] = 0
        found, _ = p.kernel(items, paths, i0, i1, depth, bound, *p.args, live, 0, stop, cancel,
                            sol, costs)
        if found:   # which of these holds it, and what each costs alone
            costs[i0:i1] = 0
            for i in range(i0, i1):
                stop[0] = 0
                one, _ = p.kernel(items, paths, i, i + 1, depth, bound, *p.args, live, 0, stop,
                                  cancel, sol, costs)
                holds[i] = bool(one)
    return costs, holds


def to_first(order, costs, holds) -> int:
    """Nodes searched before the first solution when the start nodes go in this order."""
    total = 0
    for i in order:
        total += int(costs[i])
        if holds[i]:
            return total
    return total


def orders(paths, before, two_before) -> dict:
    from cubelab.solvers.korf.lanes import face_turn_order
    _, counts, rows = face_turn_order()
    after = counts[rows[paths[:, -2], paths[:, -1]]].astype(float)
    return {"fixed": np.arange(len(paths)),
            "past cost": np.argsort(-before, kind="stable"),
            "past cost per move after": np.argsort(-(before / after), kind="stable"),
            "cost two bounds before": np.argsort(-two_before, kind="stable")}


def main(argv=None) -> int:
    args = bench.parse(argv)
    bench.begin(args, tables=args.tables)
    from cubelab.solvers.korf.lanes import expand_items
    from cubelab.solvers.korf.solver import KorfSolver
    states = [state_of(c) for c in random_states(args.first + args.count, args.seed)]
    states = states[args.first:]
    solver = KorfSolver(args.tables, threads=1, fallback=False)
    solver.prepare()
    p = solver._prepared
    totals: dict[str, list[int]] = {}
    for k, state in enumerate(states, args.first):
        t0 = time.perf_counter()
        root = p.root(state)
        items, paths = expand_items(root, args.depth, p.child, p.order)
        per_bound, bound = {}, max(int(p.heuristic(root)), args.depth + 1)
        while True:
            costs, holds = exact_costs(p, items, paths, args.depth, bound)
            per_bound[bound] = costs
            if holds.any():
                break
            bound += 1
        earlier = sum(int(c.sum()) for b, c in per_bound.items() if b < bound)
        empty = np.zeros(len(costs))
        line = []
        for name, order in orders(paths.astype(np.int64),
                                  per_bound.get(bound - 1, empty).astype(float),
                                  per_bound.get(bound - 2, empty).astype(float)).items():
            last = to_first(order, costs, holds)
            totals.setdefault(name, []).append(earlier + last)
            line.append(f"{name} {last / max(int(costs.sum()), 1):.3f}")
        log(f"random state {k}: optimum {bound}, {int(holds.sum())} start nodes hold a solution,"
            f" the last bound {costs.sum() / 1e6:.1f} M nodes in all, the ones before "
            f"{earlier / 1e6:.1f} M; share of the last bound searched before its first "
            f"solution: {', '.join(line)} ({time.perf_counter() - t0:.0f} s)")
    fixed = np.array(totals["fixed"], float)
    for name, v in totals.items():
        v = np.array(v, float)
        log(f"{name}: mean {v.mean() / 1e6:.1f} M nodes a cube, {v.sum() / fixed.sum():.3f} of "
            f"the fixed order's total, median ratio per cube {np.median(v / fixed):.3f}")
    bench.finish(args, nodes_to_first_solution=totals)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
