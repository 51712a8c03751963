"""Insertions into skeletons beside insertionfinder: best final lengths and times.

insertionfinder (xuanyan0x7c7's C++ tool) is not on PyPI: build it from a checkout outside the
repository as its README says and give its program:

    .venv/bin/python bench/bench_insertions.py --insertionfinder PATH/TO/insertionfinder -n 20

The skeletons: for each WCA-style 25-move scramble from the harness, cubelab's default FMC
pipeline (keeping one candidate per step) gives a complete solution S; the skeleton is S with
one or two 3-cycle algs (a random one of the kind, from cubelab's set) put in at random places
and cancelled, so that it leaves a corner 3-cycle, an edge 3-cycle, one of each, two corner or
two edge 3-cycles (in turn, case by case). With `--shapes parity` the skeletons leave parity
instead: a parity alg (a corner 2-swap with an edge 2-swap, from cubelab's parity set) put in,
alone or with a corner or an edge 3-cycle; with `--shapes twists`, two corners twisted or two
edges flipped in place (alone or with a 3-cycle of the other kind; insertionfinder then gets its
CO and EO sets of pure twists and flips too). All of this is fixed before any clock.

Contenders, side by side on the same (scramble, skeleton):
- cubelab: `find_insertions` (algs: every sequence of up to 10 moves that is a corner or edge
  3-cycle, the table loaded before the clock), default beam and exhaustive (`--exhaustive`);
- insertionfinder with its 3CP and 3EP sets (its corner and edge 3-cycle algs, all of up to 10
  moves: a subset of cubelab's), and for parity skeletons its parity set too (its parity algs
  of up to 11 moves, and the quarter turns), in its optimal mode (-o) and its default greedy
  mode. Its time
  is the one it reports (the search, without its start-up and reading its alg files).
Every final solution of both is checked with cubelab. Exits 1 if cubelab (default beam) is
longer than the better of insertionfinder's two modes on any skeleton (its algs are a subset
of ours) or a solution does not solve.
"""

from __future__ import annotations

import json
import random
import subprocess

from contenders import Contender
from harness import Bench, describe, scrambles

bench = Bench(__file__, __doc__, count=20)
bench.parser.add_argument("--insertionfinder", metavar="PROGRAM",
                          help="insertionfinder's program (built outside the repository)")
bench.parser.add_argument("--length", type=int, default=25, help="scramble length (25)")
bench.parser.add_argument("--exhaustive", action="store_true",
                          help="also cubelab with every sequence kept (proven best)")
bench.parser.add_argument("--beams", default="", metavar="N,N",
                          help="also cubelab with these beams (sequences kept per insertion)")

bench.parser.add_argument("--shapes", choices=("cycles", "parity", "twists"),
                          default="cycles",
                          help="what the skeletons leave: 3-cycles (cycles), parity, or two "
                               "twisted corners or two flipped edges in place (twists)")

SHAPES = {"cycles": [("corners",), ("edges",), ("corners", "edges"), ("corners", "corners"),
                     ("edges", "edges")],
          "parity": [("parity",), ("parity", "corners"), ("parity", "edges")],
          "twists": [("twist",), ("flip",), ("twist", "edges"), ("flip", "corners")]}


def _in_place(kind: str, sets, rng) -> tuple[int, ...]:
    """Moves that twist two corners (flip two edges) in place, nothing else: the algs of two
    3-cycles from cubelab's set, c and c^-1 t, t being the twist (flip)."""
    import numpy as np
    from cubelab.tables.insertions.algs import three_cycle_rows
    from cubelab.tables.sequences import IDENTITY_ROW, inverses, products, sequence_elements
    n, p, o, mod, cycles = (8, 0, 8, 3, "corners") if kind == "twist" else \
        (12, 16, 28, 2, "edges")
    a, b = rng.sample(range(n), 2)
    target = IDENTITY_ROW.copy()
    t = rng.randrange(1, mod)
    target[o + a], target[o + b] = t, (mod - t) % mod
    rows = three_cycle_rows(cycles)
    moved = rows[:, p:p + n] != np.arange(n)
    while True:         # a pair of 3-cycles that both have algs of up to 10 moves
        c1 = rows[rng.choice(np.nonzero(moved[:, a] & moved[:, b])[0].tolist())]
        c2 = products(inverses(c1[None]), target[None])[0]
        found = [sets[cycles].algs_for(row.tobytes()) for row in (c1, c2)]
        if all(f is not None for f in found):
            break
    seq = ()
    for algs in found:
        seq += tuple(int(m) for m in algs[rng.randrange(len(algs))] if m >= 0)
    assert (sequence_elements([seq])[0] == target).all()
    return seq


def skeletons(cases: list[dict], seed: int, shapes: str = "cycles") -> list[dict]:
    """Each scramble with a skeleton leaving the shape of its turn (see the docstring)."""
    from cubelab.cube.moves import FACE_MOVES, alg_state
    from cubelab.cube.notation import parse_moves
    from cubelab.solvers.fmc.insertions import moves_text
    from cubelab.solvers.fmc.pipeline import run_pipeline
    from cubelab.tables.insertions.specs import load_alg_sets, load_parity_set
    from cubelab.tables.sequences import cancel
    sets = load_alg_sets()
    if shapes == "parity":
        sets["parity"] = load_parity_set()
    rng = random.Random(seed)
    out = []
    for i, case in enumerate(cases):
        res = run_pipeline(alg_state(case["scramble"]), ["eo", "dr", "htr", "fin"],
                           keep={"eo": 1, "dr": 1, "htr": 1, "fin": 1}, time_limit=20)
        seq = tuple(FACE_MOVES.index(m) for m in parse_moves(res.best.text))
        shape = SHAPES[shapes][i % len(SHAPES[shapes])]
        for kind in shape:
            if kind in ("twist", "flip"):
                alg = _in_place(kind, sets, rng)
                k = rng.randrange(len(seq) + 1)
                seq = cancel(seq[:k] + alg + seq[k:])
                continue
            keys = [k for k, _ in sets[kind].items()]
            algs = sets[kind].algs_for(rng.choice(keys))
            alg = tuple(int(m) for m in algs[rng.randrange(len(algs))] if m >= 0)
            k = rng.randrange(len(seq) + 1)
            seq = cancel(seq[:k] + alg + seq[k:])
        out.append({**case, "solution": res.best.text, "skeleton": moves_text(seq),
                    "shape": "+".join(shape)})
    return out


def solves(scramble: str, moves: str) -> bool:
    from cubelab.cube.moves import alg_state
    return (alg_state(scramble) * alg_state(moves)).is_solved() if moves.strip() else \
        alg_state(scramble).is_solved()


class Ours(Contender):
    def __init__(self, name: str, beam: int | None):
        self.name, self.beam = name, beam

    def prepare(self):
        from cubelab.cube.moves import FACE_MOVES
        from cubelab.cube.notation import parse_moves
        from cubelab.solvers.fmc.insertions import DEFAULT_BEAM, find_insertions
        from cubelab.tables.insertions.specs import load_alg_sets, load_parity_set
        self.sets = load_alg_sets()
        self.sets["parity"] = load_parity_set()
        self.find = find_insertions
        self.beam = self.beam or DEFAULT_BEAM
        self.ids = lambda text: tuple(FACE_MOVES.index(m) for m in parse_moves(text))
        # kernels compiled before the clock
        find_insertions(self.ids("R U R' D R U' R' D' U'"), self.ids("U"), sets=self.sets)
        return {"beam": self.beam}

    def setup(self, case):
        return case

    def run(self, case):
        res = self.find(self.ids(case["scramble"]), self.ids(case["skeleton"]), sets=self.sets,
                        beam=self.beam)
        best = res.best
        return {"length": best.length if best else None, "optimal": res.optimal,
                "insertions": len(best.insertions) if best else None,
                "solves": bool(best) and solves(case["scramble"], best.text)}


class InsertionFinder(Contender):
    measures_itself = True

    def __init__(self, name: str, program: str, optimal: bool, extra: tuple = ()):
        self.name, self.program, self.optimal, self.extra = name, program, optimal, extra

    def run(self, case):
        argv = [self.program, "-s", "--json", "-j", "1", "-a", "3CP", "-a", "3EP"]
        for name in self.extra:
            argv += ["-a", name]
        if self.optimal:
            argv.append("-o")
        r = subprocess.run(argv, input=f"{case['scramble']}\n{case['skeleton']}\n",
                           capture_output=True, text=True, check=True, timeout=600)
        got = json.loads(r.stdout)
        sols = got.get("solutions") or []
        best = sols[0]["final_solution"] if sols else None
        return {"length": got.get("fewest_moves") if sols else None,
                "seconds": got["duration"] / 1e9,
                "insertions": len(sols[0]["insertions"]) if sols else None,
                "solves": best is not None and solves(case["scramble"], best)}


def main(argv=None) -> int:
    args = bench.parse(argv)
    if not args.insertionfinder:
        raise SystemExit("--insertionfinder PROGRAM: insertionfinder's program")
    cases = skeletons(scrambles(args.count, args.length, args.seed), args.seed, args.shapes)
    extra = {"cycles": (), "parity": ("parity",), "twists": ("CO", "EO")}[args.shapes]
    bench.begin(args, scramble_length=args.length)
    contenders = [Ours("cubelab", None),
                  InsertionFinder("insertionfinder -o", args.insertionfinder, True, extra),
                  InsertionFinder("insertionfinder", args.insertionfinder, False, extra)]
    for b in [int(x) for x in args.beams.split(",") if x]:
        contenders.insert(1, Ours(f"cubelab beam {b}", b))
    if args.exhaustive:
        contenders.insert(1, Ours("cubelab exhaustive", 10 ** 9))
    results = bench.compare(args, cases, contenders=contenders, label="insertions",
                            fields=("seconds", "length"), lines=True,
                            show=lambda c, case, got: f"{case['shape']:<14} "
                                                      f"{got.get('length')} moves")
    ours = results["cubelab"]
    ok = all(o.get("solves") for outs in results.values() for o in outs)
    print("\nskeleton | shape | " + " | ".join(results) + " (final lengths)")
    worse = 0
    for i, case in enumerate(cases):
        lengths = [results[n][i].get("length") for n in results]
        print(f"{case['id']} ({len(case['skeleton'].split())}) | {case['shape']} | "
              + " | ".join(str(x) for x in lengths))
        found = [results[n][i].get("length") for n in results if n.startswith("insertionfinder")]
        theirs = min((x for x in found if x is not None), default=None)
        if theirs is not None and (ours[i].get("length") is None or ours[i]["length"] > theirs):
            worse += 1
    for name, outs in results.items():
        lens = describe(o["length"] for o in outs if o.get("length") is not None)
        secs = describe(o["seconds"] for o in outs if "seconds" in o)
        print(f"{name}: mean final length {lens.get('mean', float('nan')):.2f}, "
              f"median time {1e3 * secs.get('median', float('nan')):.2f} ms")
    print(f"cubelab longer than insertionfinder's best (of its two modes) on {worse} of "
          f"{len(cases)}; "
          f"all verified: {ok}")
    bench.finish(args, worse=worse, all_verified=ok,
                 skeletons=[{k: c[k] for k in ("id", "scramble", "skeleton", "shape")}
                            for c in cases])
    return 0 if ok and not worse else 1


if __name__ == "__main__":
    raise SystemExit(main())
