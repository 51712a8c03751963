"""The table store: build time, size on disk and load time of every registered table (or those
--tables picks, with what they depend on).

Each table is built in dependency order in a fresh data directory (a temporary one unless
--data-dir is given), so its build time is its own (its dependencies are built already; they
load from their files); the load time is that of a fresh process-cache load (memory map and
checksum of the whole file, in the page cache). numba's compiled code stays in the usual
cache: the first run compiles, run again to leave that out. With --checkout, each tree builds
in a data directory of its own, table by table in turn.

    .venv/bin/python bench/bench_tables.py                          # every registered table
    .venv/bin/python bench/bench_tables.py --skip korf.h48 korf.phase
    .venv/bin/python bench/bench_tables.py --tables kociemba korf.layers \\
        --checkout base=../base --checkout new=.
"""

from __future__ import annotations

import fnmatch
import os
import shutil
import tempfile
import time

from contenders import Function
from harness import Bench

bench = Bench(__file__, __doc__, count=1)
bench.parser.add_argument("--tables", nargs="*", default=[], metavar="NAME",
                          help="tables whose names start with or match these (and their "
                               "dependencies)")
bench.parser.add_argument("--skip", nargs="*", default=[], metavar="NAME",
                          help="tables to leave out")
bench.parser.add_argument("--data-dir", help="build here (kept) instead of a temporary folder")


def chosen_tables(only, skip) -> list[str]:
    """The chosen tables and their dependencies, every dependency before its dependents."""
    from cubelab.tables import catalog
    specs = catalog.registered()
    order, seen = [], set()

    def matches(name, patterns):
        return any(fnmatch.fnmatch(name, p) or name.startswith(p) for p in patterns)

    def visit(name):
        if name in seen or name not in specs or matches(name, skip):
            return
        seen.add(name)
        for dep in specs[name].deps:
            visit(dep)
        order.append(name)

    for name in specs:
        if not only or matches(name, only):
            visit(name)
    return order


@bench.contender("store")
def _store(args):
    folder = {}

    def prepare():
        folder["path"] = args.data_dir or tempfile.mkdtemp(prefix="cubelab-bench-tables-")
        os.environ["CUBELAB_DATA_DIR"] = folder["path"]
        return {"data_dir": folder["path"]}

    def run(name):
        from cubelab.tables import catalog, store
        spec = catalog.registered()[name]
        wall, cpu = time.perf_counter(), time.process_time()
        store.load_or_build(spec)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        path = store.table_path(spec)
        store.forget_cache()
        load = time.perf_counter()
        store.load_or_build(spec)
        return {"seconds": wall, "cpu_seconds": cpu, "load_ms": (time.perf_counter() - load) * 1e3,
                "bytes": path.stat().st_size if path.exists() else None}

    def close():
        if not args.data_dir and folder.get("path"):
            shutil.rmtree(folder["path"], ignore_errors=True)

    return Function("store", run, setup=lambda case: case["id"], prepare=prepare, close=close)


def main(argv=None) -> int:
    args = bench.parse(argv)
    cases = [{"id": name} for name in chosen_tables(args.tables, args.skip)]
    bench.begin(args)
    results = bench.compare(args, cases, fields=("seconds", "cpu_seconds", "load_ms"),
                            show=lambda c, case, o: f"{(o['bytes'] or 0) / 1e6:9.2f} MB  "
                                                    f"load {o['load_ms']:8.1f} ms")
    for name, outcomes in results.items():
        good = [o for o in outcomes if "error" not in o]
        print(f"{name}: {len(good)} tables built, {len(outcomes) - len(good)} failed, "
              f"{sum(o['seconds'] for o in good):.1f} s wall "
              f"({sum(o['cpu_seconds'] for o in good):.1f} s cpu), "
              f"{sum(o['bytes'] or 0 for o in good) / 1e6:.1f} MB")
    bench.finish(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
