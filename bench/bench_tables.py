"""Benchmark the table store: build time, size on disk and load time of every registered table.

Each table is built in dependency order in a fresh data directory (a temporary one unless
--data-dir is given), so its build time is its own (dependencies are already in memory); the
load time is that of a fresh process-cache load (memory map plus checksum of the whole file,
with the file in the page cache). numba's compiled code is kept in the usual cache directory,
so run once before measuring to leave compilation out. Run:

    .venv/bin/python bench/bench_tables.py                      # every registered table
    .venv/bin/python bench/bench_tables.py --skip korf.phase    # leave out huge ones
    .venv/bin/python bench/bench_tables.py --only kociemba --json
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


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=[], metavar="NAME",
                        help="tables whose names start with or match these")
    parser.add_argument("--skip", nargs="*", default=[], metavar="NAME", help="tables to leave out")
    parser.add_argument("--data-dir", help="build here (kept) instead of a temporary directory")
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
        rows = bench_registered(args.only, args.skip, args.json)
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
