"""Benchmark the table store: build time, size on disk and load time of every registered table,
and the generic builders of cubelab.tables on tables of a solver's size.

Each table is built in dependency order in a fresh data directory (a temporary one unless
--data-dir is given), so its build time is its own (dependencies are already in memory); the
load time is that of a fresh process-cache load (memory map plus checksum of the whole file,
with the file in the page cache). numba's compiled code is kept in the usual cache directory,
so run once before measuring to leave compilation out. Run:

    /work/venv/bin/python bench/bench_tables.py                      # every registered table
    /work/venv/bin/python bench/bench_tables.py --skip korf.phase    # leave out huge ones
    /work/venv/bin/python bench/bench_tables.py --only kociemba --json
    /work/venv/bin/python bench/bench_tables.py --generic            # the generic builders
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import shutil
import sys
import tempfile
import time


def _clock():
    return time.perf_counter(), time.process_time()


def _since(start):
    wall, cpu = _clock()
    return wall - start[0], cpu - start[1]


def dependency_order(specs: dict) -> list:
    """Specs with every dependency before its dependents (registration order otherwise)."""
    order, seen = [], set()

    def visit(name):
        if name in seen or name not in specs:
            return
        seen.add(name)
        for dep in specs[name].deps:
            visit(dep)
        order.append(specs[name])

    for name in specs:
        visit(name)
    return order


def _selected(name: str, only, skip) -> bool:
    if only and not any(fnmatch.fnmatch(name, p) or name.startswith(p) for p in only):
        return False
    return not any(fnmatch.fnmatch(name, p) or name == p for p in skip)


def bench_registered(only, skip, as_json: bool) -> list[dict]:
    from cubelab.tables import catalog, store
    specs = catalog.registered()
    rows = []
    for spec in dependency_order(specs):
        if not _selected(spec.name, only, skip):
            continue
        start = _clock()
        try:
            store.load_or_build(spec)
        except Exception as e:      # a broken table must not hide the others' figures
            rows.append({"name": spec.name, "solver": spec.solver, "error": repr(e)})
            print(json.dumps(rows[-1]) if as_json else f"{spec.name}: FAILED {e!r}", flush=True)
            continue
        build_wall, build_cpu = _since(start)
        path = store.table_path(spec)
        size = path.stat().st_size if path.exists() else None
        store.forget_cache()
        start = _clock()
        store.load_or_build(spec)
        load_wall, _ = _since(start)
        row = {"name": spec.name, "solver": spec.solver, "build_s": round(build_wall, 3),
               "build_cpu_s": round(build_cpu, 3), "bytes": size,
               "load_ms": round(1000 * load_wall, 2)}
        rows.append(row)
        if as_json:
            print(json.dumps(row), flush=True)
        else:
            mb = "-" if size is None else f"{size / 1e6:9.2f}"
            print(f"{spec.name:34} {spec.solver:15} build {build_wall:8.2f} s "
                  f"(cpu {build_cpu:8.2f} s)  {mb} MB  load {1000 * load_wall:8.1f} ms",
                  flush=True)
    return rows


def bench_generic(as_json: bool) -> list[dict]:
    """The generic blocks on Kociemba-sized inputs: move tables, classes, reduced BFS."""
    from cubelab.tables import coords as C
    from cubelab.tables.movetables import PHASE2_MOVES, move_table
    from cubelab.tables.pruning import Factor, distance_table
    from cubelab.tables.symclasses import conj_table, sym_classes, symmetric_distance_table

    rows = []

    def timed(label, fn):
        start = _clock()
        result = fn()
        wall, cpu = _since(start)
        nbytes = getattr(result, "nbytes", None)
        if nbytes is None and hasattr(result, "pack"):
            nbytes = result.pack().nbytes
        row = {"name": label, "build_s": round(wall, 3), "build_cpu_s": round(cpu, 3),
               "bytes": nbytes}
        rows.append(row)
        print(json.dumps(row) if as_json else
              f"{label:46} {wall:8.2f} s (cpu {cpu:8.2f} s)  {(nbytes or 0) / 1e6:9.2f} MB",
              flush=True)
        return result

    mts = {c.name: timed(f"move table {c.name} ({c.size})", lambda c=c: move_table(c))
           for c in (C.TWIST, C.FLIP, C.UD_SLICE, C.SLICE_SORTED, C.CORNER_PERM)}
    e8 = timed("move table edge8_perm (phase 2)", lambda: move_table(C.EDGE8_PERM, PHASE2_MOVES))
    cp2 = timed("move table corner_perm (phase 2)",
                lambda: move_table(C.CORNER_PERM, PHASE2_MOVES))
    sp2 = timed("move table slice_perm (phase 2)", lambda: move_table(C.SLICE_PERM, PHASE2_MOVES))
    pos6 = C.edge_positions(range(6))
    timed("move table 6 edges' positions (665280)", lambda: move_table(pos6))
    fs = timed("classes flip x slice (16 syms)",
               lambda: sym_classes(C.Product((C.UD_SLICE, C.FLIP)), 16))
    cc = timed("classes corner perm (16 syms)", lambda: sym_classes(C.Product((C.CORNER_PERM,)), 16))
    tc = timed("conj table twist (16)", lambda: conj_table(C.TWIST, 16))
    ec = timed("conj table edge8 perm (16)", lambda: conj_table(C.EDGE8_PERM, 16))
    timed("BFS slice x twist (4 bit)", lambda: distance_table(
        [Factor.of(C.UD_SLICE), Factor.of(C.TWIST)]))
    timed("BFS corner perm x slice perm, phase 2 (4 bit)", lambda: distance_table(
        [Factor(40320, cp2), Factor(24, sp2)]))
    timed("reduced BFS flipslice class x twist (2 bit)", lambda: symmetric_distance_table(
        fs, [mts["slice"], mts["flip"]], [mts["twist"]], [tc], starts=[(0, 0)], bits=2))
    timed("reduced BFS corner class x edge8, phase 2 (2 bit)", lambda: symmetric_distance_table(
        cc, [cp2], [e8], [ec], starts=[(0, 0)], bits=2))
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=[], metavar="NAME",
                        help="tables whose names start with or match these")
    parser.add_argument("--skip", nargs="*", default=[], metavar="NAME", help="tables to leave out")
    parser.add_argument("--data-dir", help="build here (kept) instead of a temporary directory")
    parser.add_argument("--generic", action="store_true", help="benchmark the generic builders")
    parser.add_argument("--json", action="store_true", help="JSON Lines")
    args = parser.parse_args(argv)

    temp = None
    if args.data_dir:
        os.environ["CUBELAB_DATA_DIR"] = args.data_dir
    else:
        temp = tempfile.mkdtemp(prefix="cubelab-bench-tables-")
        os.environ["CUBELAB_DATA_DIR"] = temp
    try:
        start = _clock()
        rows = bench_generic(args.json) if args.generic else bench_registered(
            args.only, args.skip, args.json)
        wall, cpu = _since(start)
        built = [r for r in rows if "error" not in r]
        total = sum(r.get("bytes") or 0 for r in built)
        summary = {"tables": len(built), "failed": len(rows) - len(built),
                   "total_s": round(wall, 2), "total_cpu_s": round(cpu, 2), "bytes": total,
                   "slowest_load_ms": max((r.get("load_ms", 0) for r in built), default=0)}
        if args.json:
            print(json.dumps({"summary": summary}))
        else:
            print(f"{summary['tables']} tables, {summary['failed']} failed, "
                  f"{wall:.1f} s wall ({cpu:.1f} s cpu), {total / 1e6:.1f} MB, "
                  f"slowest load {summary['slowest_load_ms']:.1f} ms")
    finally:
        if temp:
            shutil.rmtree(temp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
