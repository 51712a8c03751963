"""The algorithm search: the TIPE's last-layer search, harder ones, and the symmetry predicate,
each search a contender (rounds: -n); then the last-layer classes of at most 8 quarter turns.

Per search: seconds, first halves walked, sequences and classes found, the shortest length.
The classes (up to AUF) come one a line: the TIPE found they fall into a handful of families,
the shortest of 6 quarter turns. With --checkout, a tree without the symmetry predicate
reports it as an error and times the rest.

    .venv/bin/python bench/bench_algsearch.py [--quick] [-n 3]
    .venv/bin/python bench/bench_algsearch.py --only ll-10-qtm,corner-3cycle-8-htm -n 5 \\
        --checkout base=../base --checkout new=.
"""

from __future__ import annotations

from contenders import Function
from harness import Bench

SEARCHES = {
    "ll-8-qtm": ("last_layer", (), 8, "qtm"),
    "ll-10-qtm": ("last_layer", (), 10, "qtm"),
    "ll-12-qtm": ("last_layer", (), 12, "qtm"),
    "ll-10-htm": ("last_layer", (), 10, "htm"),
    "corner-3cycle-8-htm": ("corner_3cycle", (), 8, "htm"),
    "corner-3cycle-10-htm": ("corner_3cycle", (), 10, "htm"),
    "edge-3cycle-10-htm": ("edge_3cycle", (), 10, "htm"),
    "orient-12-htm": ("orients", (), 12, "htm"),
    "equals-12-htm": ("equals", ("R U2 F' L D B2 R' U F2 D' L2 B",), 12, "htm"),
    "symmetry-C4h-5-htm": ("symmetry", ("C4h",), 5, "htm"),
    "symmetry-Oh-6-htm": ("symmetry", ("Oh",), 6, "htm"),
}

bench = Bench(__file__, __doc__, count=1)
bench.parser.add_argument("--quick", action="store_true", help="searches of up to 10 moves")


def predicate(kind: str, extra: tuple):
    from cubelab.solvers import algsearch as A
    if kind == "symmetry":
        return A.parse_predicate(["symmetry", *extra])
    if kind == "equals":
        from cubelab.cube.moves import alg_state
        return A.equals(alg_state(extra[0]))
    return getattr(A, kind)()


def chosen(args) -> list[str]:
    return [name for name, (_, _, n, _) in SEARCHES.items() if not (args.quick and n > 10)]


@bench.contender("search", variants=chosen)
def _search(args, name):
    kind, extra, n, metric = SEARCHES[name]

    def prepare():
        from cubelab.solvers.algsearch import last_layer, search
        search(last_layer(), 4, "qtm")       # compile the kernels outside the timings
        return {"predicate": kind, "length": n, "metric": metric}

    def run(_round):
        from cubelab.solvers.algsearch import search
        from cubelab.solvers.protocol import NODES, new_counters
        counters = new_counters()
        res = search(predicate(kind, extra), n, metric, counters=counters)
        return {"first_halves": int(counters[NODES]), "sequences": res.sequences,
                "classes": len(res.classes),
                "shortest": min((c.length for c in res.classes), default=None)}

    return Function(name, run, prepare=prepare)


def last_layer_classes() -> list[dict]:
    from cubelab.solvers.algsearch import last_layer, search
    res = search(last_layer(), 8, "qtm", auf=True)
    print("\nlast-layer classes of at most 8 quarter turns, up to symmetry, inversion and AUF:")
    rows = []
    for c in res.classes:
        d = c.as_dict()
        rows.append(d)
        print(f"  {c.length}  {d['moves']:<26} corners {d['corners']:<16} edges "
              f"{d['edges']:<18} order {d['order']:<3} sequences {sum(c.sequences.values())}")
    print(f"  {len(res.classes)} classes, {res.sequences} sequences")
    return rows


def main(argv=None) -> int:
    args = bench.parse(argv)
    bench.begin(args)
    bench.compare(args, [{"id": r} for r in range(args.count)],
                  fields=("seconds", "first_halves", "sequences", "classes", "shortest"))
    bench.finish(args, last_layer_classes=last_layer_classes() if not args.checkout else None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
