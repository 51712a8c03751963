"""Goal searches beside twsearch: time to every optimal solution, and the counts, side by side.

The cases of issue 34: the T and U permutations in <R,U,F> (HTM and QTM), a random <R,U>
position, OLL 21 and OLL 45 in <R,U,F> (the goal: first two layers kept, last layer
oriented), the optimal cross on each of the six faces of 100 random scrambles, and the first
F2L pair (any slot) after the D cross of each. For each: cubelab's optimum and number of
optimal solutions, twsearch's, and the times.

twsearch (the C++ program, cubing/twsearch; built outside this repository) is given the
puzzle as cubelab defines it: its pieces, its six face turns, and a solved state in which the
pieces a goal ignores are identical and their orientation a wildcard (twsearch's own way of
writing a goal); positions are the scrambles, which twsearch applies to that solved state.
Each twsearch run is one process on one thread (-t 1) with -M megabytes of table; its time is
the process's, table filling included, and its CPU time is read from the children's usage.
cubelab runs in this process: "cold" builds its tables (a fresh data directory, shared by the
cases in their order: the pair after the cross reads the cross's tables, as a user's second
search does) and "warm" reads them from the store; numba compilation is excluded (a warm-up
first: twsearch too is compiled ahead).

    .venv/bin/python bench/bench_goals.py --twsearch /path/to/twsearch
    .venv/bin/python bench/bench_goals.py --only perms,oll          # cubelab alone
    .venv/bin/python bench/bench_goals.py --twsearch ... --scrambles 20 -M 2048

Medians of --repeat runs; ratios are cubelab / twsearch (below 1: cubelab faster).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

PERMS = {"T": "R U R' U' R' F R2 U' R' U' R U R' F'", "Ua": "R U' R U R U R U' R' U' R2"}
OLLS = {"OLL 21": "R U R' U R U' R' U R U2 R'", "OLL 45": "F U R U' R' F'"}
"""Positions by a sequence that makes them (any would do: the searches start from them)."""
SEED = 34


def tws(goal) -> str:
    """The cube as a twsearch puzzle, solved as `goal` (a TurnedGoal read as held) sees it:
    pieces the goal tells apart get their own number, those it groups share one, ignored
    pieces share one more; orientation is 0 where the goal reads it, '?' elsewhere."""
    from cubelab.cube.goal_codes import items_of
    from cubelab.cube.moves import move_state
    from cubelab.cube.alg import Move
    g = goal.goal
    lines = ["Name cubelab", "", "Set EDGE 12 2", "Set CORNER 8 3", "", "Solved"]
    # the goal reads Y T Y^-1: its piece p is the held piece q with Y.perm[q] == p
    y = goal.rotation
    held = {"c": {int(p): q for q, p in enumerate(y.cp)}, "e": {int(p): q for q, p in
                                                                 enumerate(y.ep)}}
    items = {(it.orbit, held[it.orbit][it.piece]): it for it in items_of(g)}
    for orbit, name, n in (("e", "EDGE", 12), ("c", "CORNER", 8)):
        ids, oris, groups = [], [], {}
        for slot in range(n):
            it = items.get((orbit, slot))
            key = ("ignored",) if it is None else (it.group,)
            ids.append(groups.setdefault(key, len(groups) + 1))
            oris.append("?" if it is None or it.kind == "slot" else "0")
        lines += [name, " ".join(map(str, ids)), " ".join(oris)]
    lines.append("End")
    for face in "URFDLB":
        s = move_state(Move(face, 1))
        lines += ["", f"Move {face}"]
        for perm, ori, name in ((s.ep, s.eo, "EDGE"), (s.cp, s.co, "CORNER")):
            by_cubie = [0] * len(perm)
            for slot, piece in enumerate(perm):
                by_cubie[int(piece)] = int(ori[slot])
            lines += [name, " ".join(str(int(p) + 1) for p in perm),
                      " ".join(map(str, by_cubie))]
        lines.append("End")
    return "\n".join(lines) + "\n"


def twsearch(binary, goal, scrambles, moves, qtm, memory, workdir) -> dict:
    """Run twsearch on the scrambles; its optima, counts, solutions, wall and CPU time."""
    path = os.path.join(workdir, f"goal{abs(hash(goal.name)) % 10**8}.tws")
    with open(path, "w") as f:
        f.write(tws(goal))
    args = [binary, "--moves", moves, "--alloptimal", "-t", "1", "--nowrite", "-M",
            str(memory)] + (["-q"] if qtm else []) + ["-s", path]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    out = subprocess.run(args, input="\n".join(scrambles) + "\n", capture_output=True,
                         text=True, check=True).stdout
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    runs, current = [], None
    for line in out.splitlines():
        if line.startswith("Solving"):
            current = []
            runs.append(current)
        elif line.startswith(" ") and current is not None:
            current.append(line.strip())
    return {"solutions": runs, "optima": [len(r[0].split()) if r else None for r in runs],
            "wall": wall, "cpu": cpu}


def cubelab(goal, states, moves, metric) -> dict:
    from cubelab.solvers.goals.search import find
    optima, counts, sols = [], [], []
    t, c = time.perf_counter(), time.process_time()
    for s in states:
        r = find(s, goal, moves, metric=metric, all=True, max_solutions=100_000)
        optima.append(r.optimum)
        counts.append(len(r.solutions))
        sols.append([x.text for x in r.solutions])
    return {"optima": optima, "counts": counts, "solutions": sols,
            "wall": time.perf_counter() - t, "cpu": time.process_time() - c}


def cases(args):
    """(label, goal TurnedGoal, positions [(scramble, state)], moves, metric)."""
    from cubelab.cube.goal_catalog import resolve_goal
    from cubelab.cube.moves import alg_state
    from cubelab.cube.notation import format_moves
    from cubelab.cube.random_states import face_scramble
    out = []
    solved = resolve_goal("solved")[0]
    if "perms" in args.only:
        for name, alg in PERMS.items():
            for metric in ("htm", "qtm"):
                out.append((f"{name}-perm <R,U,F> {metric}", solved,
                            [(alg, alg_state(alg))], "R,U,F", metric))
    if "2gen" in args.only:
        scr = format_moves(face_scramble(SEED, 30, "RU"))
        out.append(("random <R,U>", solved, [(scr, alg_state(scr))], "R,U", "htm"))
    if "oll" in args.only:
        oll = resolve_goal("oll")[0]
        for name, alg in OLLS.items():
            out.append((f"{name} <R,U,F>", oll, [(alg, alg_state(alg))], "R,U,F", "htm"))
    rng = np.random.default_rng(SEED)
    scrambles = [format_moves(face_scramble(rng, 25)) for _ in range(args.scrambles)]
    if "cross" in args.only:
        for g in resolve_goal("cross:any"):
            out.append((f"{g.label} x{len(scrambles)}", g,
                        [(s, alg_state(s)) for s in scrambles], "U,R,F,D,L,B", "htm"))
    if "pair" in args.only:
        from cubelab.solvers.goals.search import find
        after = []
        for s in scrambles:
            r = find(alg_state(s), "cross", "all")
            seq = s + " " + r.best.text
            after.append((seq, alg_state(seq)))
        for g in resolve_goal("f2l-pair:any"):
            out.append((f"{g.label} after cross x{len(after)}", g, after, "U,R,F,D,L,B",
                        "htm"))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--twsearch", default=None, help="path to the twsearch binary")
    ap.add_argument("--only", default="perms,2gen,oll,cross,pair")
    ap.add_argument("--scrambles", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("-M", type=int, default=4096, help="twsearch's table memory (MB)")
    args = ap.parse_args(argv)
    args.only = set(args.only.split(","))
    cold_dir = tempfile.mkdtemp(prefix="bench-goals-")
    warmup_dir = tempfile.mkdtemp(prefix="bench-goals-warmup-")
    os.environ["CUBELAB_DATA_DIR"] = warmup_dir
    from cubelab.cube.goal_catalog import resolve_goal
    from cubelab.cube.moves import alg_state
    from cubelab.solvers.goals.problem import forget_setups
    from cubelab.tables.store import forget_cache
    # compile every kernel on small problems whose tables are thrown away (HTM: the shared
    # BFS driver; QTM: the bucketed levels; a ball)
    cubelab(resolve_goal("f2l-pair:FR")[0], [alg_state("R U F")], "U,R,F,D,L,B", "htm")
    cubelab(resolve_goal("f2l-pair:FR")[0], [alg_state("R U F")], "U,R,F,D,L,B", "qtm")
    from cubelab.solvers.goals.search import problems_for
    from cubelab.cube.costs import CostModel
    for p in problems_for(alg_state("R U"), "solved", "R,U", CostModel("htm")):
        p.want_ball(1, 0)
    # the cases are made (the pair's positions need a cross solved) with the warm-up's
    # tables, so that "cold" means cold: the first cross builds the cross tables
    todo = cases(args)
    os.environ["CUBELAB_DATA_DIR"] = cold_dir
    forget_cache()
    forget_setups()
    print(f"{'case':34} {'opt':>5} {'count':>6} | {'cold s':>7} {'cold cpu':>8} {'warm s':>7} "
          f"{'warm cpu':>8} | {'tws opt':>7} {'tws n':>6} {'tws s':>7} {'tws cpu':>7} | "
          f"{'cold/tws':>8} {'warm/tws':>8}  (cpu ratios)")
    for label, goal, positions, moves, metric in todo:
        states = [p[1] for p in positions]
        cold = cubelab(goal, states, moves, metric)
        forget_cache()
        forget_setups()
        warm = [cubelab(goal, states, moves, metric) for _ in range(args.repeat)]
        w = statistics.median(x["wall"] for x in warm)
        wc = statistics.median(x["cpu"] for x in warm)
        opt = _summary(cold["optima"])
        count = sum(cold["counts"])
        row = (f"{label:34} {opt:>5} {count:>6} | {cold['wall']:7.3f} {cold['cpu']:8.3f} "
               f"{w:7.3f} {wc:8.3f} |")
        if args.twsearch:
            with tempfile.TemporaryDirectory() as work:
                runs = [twsearch(args.twsearch, goal, [p[0] for p in positions],
                                 moves.replace("U,R,F,D,L,B", "U,R,F,D,L,B"),
                                 metric == "qtm", args.M, work) for _ in range(args.repeat)]
            ts = statistics.median(r["wall"] for r in runs)
            tc = statistics.median(r["cpu"] for r in runs)
            tcount = sum(_distinct(x) for x in runs[0]["solutions"])
            topt = _summary(runs[0]["optima"] if metric != "qtm" else
                            [_qtm(r) for r in runs[0]["solutions"]])
            same = tcount == count and topt == opt
            row += (f" {topt:>7} {tcount:>6} {ts:7.3f} {tc:7.3f} | "
                    f"{cold['cpu'] / tc if tc else 0:8.2f} {wc / tc if tc else 0:8.2f}"
                    + ("" if same else "  COUNTS DIFFER"))
        print(row, flush=True)
    return 0


def _summary(optima) -> str:
    vals = [o for o in optima if o is not None]
    if len(vals) == 1:
        return f"{vals[0]:g}"
    return f"{statistics.mean(vals):.2f}" if vals else "-"


def _distinct(solutions) -> int:
    """twsearch's solutions counted as cubelab counts them: with -q it writes a half turn as
    two quarters (R R or R' R'), so merge them and count what differs."""
    from cubelab.cube.notation import format_moves, parse_moves, simplify
    return len({format_moves(simplify(parse_moves(s))) for s in solutions})


def _qtm(solutions) -> int | None:
    from cubelab.cube.notation import metric_lengths, parse_moves
    return metric_lengths(parse_moves(solutions[0]))["qtm"] if solutions else None


if __name__ == "__main__":
    sys.exit(main())
