"""The JSON every command prints, on fixed inputs: captured once from main, compared ever after.

`CASES` is the list of commands (and a few solves through the API, where the command line would
build gigabytes of tables); `run_case` runs one and returns its records with what varies from
run to run (timings, the node counts of searches on two threads, the paths of this run's data
directory) taken out. `python tests/helpers_json_records.py OUT` writes every case's records to
OUT; tests/data/json_records.json holds those of main just before the solver descriptions
landed (b1d4b6c, with CFOP's rotation and merges and the tables' checkpoints; the facts' memo
added with the 3-D view's merge, nothing else changed), and tests/test_json_records.py compares
today's with them.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import tempfile

VOLATILE = {"seconds", "nodes_per_second", "path"}
"""Keys whose values change from run to run wherever they appear (timings, this run's paths)."""

FILE_3X3 = "R U R' U'\n# a comment\nfacelets: nonsense\nF2 L\nR U)\n"
FILE_2X2 = "R U F'\nM\nfacelets: UUUURRRRFFFFDDDDLLLLBBBB\n"


def _cli(*argv, stdin=None, volatile=()):
    return {"kind": "cli", "argv": list(argv), "stdin": stdin, "volatile": list(volatile)}


def _api(solver, options, alg, volatile=()):
    return {"kind": "api", "solver": solver, "options": options, "alg": alg,
            "volatile": list(volatile)}


CASES = {
    # ---- facts
    "facts alg": _cli("facts", "--json", "R U R' U'"),
    "facts empty": _cli("facts", "--json"),
    "facts class": _cli("facts", "--json", "--class", "R2 U2"),
    "facts facelets": _cli("facts", "--json", "--facelets",
                           "UUFUUFUUFRRRRRRRRRFFDFFDFFDDDBDDBDDBLLLLLLLLLUBBUBBUBB"),
    "facts cycles": _cli("facts", "--json", "--cycles", "(UF UR UB) (UFR URB DRF)"),
    "facts cycles refused": _cli("facts", "--json", "--cycles", "(UF UR UB) (UFR URB DRF)+"),
    "facts unreachable cycles": _cli("facts", "--json", "--unreachable", "--cycles", "(UF)+"),
    "facts pocket": _cli("facts", "--json", "--puzzle", "2x2", "R U F'"),
    "facts pocket class": _cli("facts", "--json", "--puzzle", "2x2", "--class", "R U"),
    "facts file": _cli("facts", "--json", "--file", "-", stdin=FILE_3X3),
    "facts pocket file": _cli("facts", "--json", "--puzzle", "2x2", "--file", "-",
                              stdin=FILE_2X2),
    # ---- solve: every solver on the command line
    "kociemba first": _cli("solve", "--json", "--first", "R U R' U' F2 D L'"),
    "kociemba max length": _cli("solve", "--json", "--max-length", "20", "F R U B2 L D'"),
    "kociemba solved": _cli("solve", "--json", "--first"),
    # the improving default: which thread finds the proven optimum (and so the phases, the
    # direction, the nodes) varies from run to run
    "kociemba default": _cli("solve", "--json", "R U", volatile=(
        "nodes", "solution", "phases", "direction", "found_by", "stopped")),
    "kociemba target": _cli("solve", "--json", "--first", "--target", "R U", "R U R' U'"),
    "thistlethwaite": _cli("solve", "--json", "--solver", "thistlethwaite",
                           "R U F' L2 D B R2 U'"),
    "thistlethwaite solved": _cli("solve", "--json", "--solver", "thistlethwaite"),
    "threecycle": _cli("solve", "--json", "--solver", "threecycle", "R U F' L2 D B"),
    "threecycle solved": _cli("solve", "--json", "--solver", "threecycle"),
    "threecycle too long": _cli("solve", "--json", "--solver", "threecycle", "--max-length",
                                "5", "R U F' L2 D B"),
    "cfop": _cli("solve", "--json", "--solver", "cfop", "R U F' L2 D B R2 U' F L"),
    "cfop solved": _cli("solve", "--json", "--solver", "cfop"),
    "bfs": _cli("solve", "--json", "--solver", "bfs", "R U F'"),
    "bfs too deep": _cli("solve", "--json", "--solver", "bfs", "R U F L D B"),
    "bfs max length": _cli("solve", "--json", "--solver", "bfs", "--max-length", "2",
                           "R U F'"),
    "astar": _cli("solve", "--json", "--solver", "astar", "R U F' L2"),
    "idastar pdb": _cli("solve", "--json", "--solver", "idastar", "R U F' L2"),
    "idastar manhattan-raw": _cli("solve", "--json", "--solver", "idastar", "--heuristic",
                                  "manhattan-raw", "R U F'"),
    "greedy": _cli("solve", "--json", "--solver", "greedy", "--heuristic", "manhattan",
                   "R U F'"),
    "pocket htm": _cli("solve", "--json", "--puzzle", "2x2", "R U F' R2 U'"),
    "pocket qtm": _cli("solve", "--json", "--puzzle", "2x2", "--metric", "qtm",
                       "R U F' R2 U'"),
    "pocket solved": _cli("solve", "--json", "--puzzle", "2x2", "x y"),
    "pocket not found": _cli("solve", "--json", "--puzzle", "2x2", "--max-length", "2",
                             "R U F'"),
    "solve file": _cli("solve", "--json", "--first", "--jobs", "1", "--file", "-",
                       stdin=FILE_3X3),
    "solve pocket file": _cli("solve", "--json", "--puzzle", "2x2", "--file", "-",
                              stdin=FILE_2X2),
    # ---- korf through the API, on tables built five moves deep (two search threads: the
    # node counts vary)
    "korf strong": _api("korf", {"tables": "strong", "table_depth": 5, "fallback": False,
                                 "split_from": 4}, "R U F' L2 D", volatile=("nodes",)),
    "korf korf1997": _api("korf", {"tables": "korf1997", "table_depth": 5, "fallback": False,
                                   "split_from": 4}, "R U F' L2", volatile=("nodes",)),
    "korf solved": _api("korf", {"tables": "strong", "table_depth": 5, "fallback": False},
                        "", volatile=("nodes",)),
    "korf-qtm": _api("korf-qtm", {"table_depth": 5, "fallback": False, "split_from": 4},
                     "R U2 F'", volatile=("nodes",)),
    # ---- count, search, the REPL, tables
    "count qtm": _cli("count", "--json", "--depth", "3"),
    "count htm": _cli("count", "--json", "--metric", "htm", "--depth", "3"),
    "count pocket": _cli("count", "--json", "--puzzle", "2x2", "--depth", "4"),
    "count pocket htm": _cli("count", "--json", "--puzzle", "2x2", "--metric", "htm"),
    "search": _cli("search", "--json", "--max-length", "8", "--metric", "qtm", "edge-3cycle"),
    "repl": _cli("repl", "--json", stdin="R U F\n:solve bfs\n:compare bfs astar\n"
                 ":puzzle\n:solve\n:solve qtm\nR U)\n"),
    "tables status": _cli("tables", "status", "--json",
                          volatile=("bytes", "built", "in_memory", "problem")),
}


def _strip(value, volatile: set):
    """The value with the volatile keys (at any depth) taken out."""
    if isinstance(value, dict):
        return {k: _strip(v, volatile) for k, v in value.items() if k not in volatile}
    if isinstance(value, list):
        return [_strip(v, volatile) for v in value]
    return value


def run_case(case: dict) -> dict:
    """{"status": exit status (cli), "records": [parsed JSON lines, volatile keys out]}."""
    volatile = VOLATILE | set(case["volatile"])
    if case["kind"] == "api":
        from cubelab.cube.moves import alg_state
        from cubelab.solvers import get_solver
        solver = get_solver(case["solver"], **case["options"])
        solver.prepare()
        return {"records": [_strip(solver.solve(alg_state(case["alg"])).to_json(), volatile)]}
    from cubelab.tui.cli import main
    out = io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(case["stdin"] or "")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            status = main(case["argv"])
    finally:
        sys.stdin = old_stdin
    records = [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]
    return {"status": status, "records": _strip(records, volatile)}


if __name__ == "__main__":
    target = os.path.abspath(sys.argv[1])
    if "CUBELAB_DATA_DIR" not in os.environ:
        base = tempfile.mkdtemp(prefix="cubelab-json-")
        for name in ("DATA", "CACHE", "STATE"):
            os.environ[f"CUBELAB_{name}_DIR"] = os.path.join(base, name.lower())
    captured = {}
    for name, case in CASES.items():
        print(name, file=sys.stderr, flush=True)
        captured[name] = run_case(case)
    with open(target, "w", encoding="utf-8") as f:
        json.dump(captured, f, indent=1, sort_keys=True)
        f.write("\n")
