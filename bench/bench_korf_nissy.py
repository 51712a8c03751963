"""Korf's solver beside nissy's H48 optimal solver, state by state on the same random states.

nissy-core (Sebastiano Tronto's H48 solver, the fastest published optimal solver per table byte)
is not on PyPI: build its library from a checkout of https://github.com/sebastianotronto/nissy-core
outside the repository (under /work/peers, say) and generate its table with its own tool:

    THREADS=2 ./build.sh sharedlib && cc -shared -pthread -o libnissy.so nissy.o
    THREADS=2 ./build.sh tool gendata h48h7           # writes tables/h48h7 (3.8 GB)

then, from our project root:

    .venv/bin/python bench/bench_korf_nissy.py --nissy NISSY_DIR -n 20
    .venv/bin/python bench/bench_korf_nissy.py --nissy NISSY_DIR --solver h48h7 --set layers -n 100

The states are the harness's random states (the same seed as bench_korf.py's, so the figures
line up). nissy reads move sequences: each state is handed over as the inverse of our two-phase
solution (made before the clock), and both answers are checked on our model of the state. Both
solvers run --threads threads and look for one optimal solution, taking turns state by state.
Their tables load once, before the clock: nissy's into memory advised for huge pages, as ours
are, 64-byte aligned as its reader expects. Exits 1 if the lengths disagree.
"""

from __future__ import annotations

import ctypes
import time
from pathlib import Path

from contenders import Contender, Solve
from nissy_lib import load_nissy
from harness import Bench, random_states, scrambles, state_of

bench = Bench(__file__, __doc__, count=20)
bench.parser.add_argument("--nissy", metavar="DIR",
                          help="nissy-core checkout holding libnissy.so and tables/")
bench.parser.add_argument("--solver", default="h48h7", help="nissy's solver (h48h0 .. h48h11)")
bench.parser.add_argument("--set", default="layers", help="our table set")
bench.parser.add_argument("--threads", type=int, default=2)
bench.parser.add_argument("--first", type=int, default=0, help="skip this many random states")
bench.parser.add_argument("--scramble-length", type=int, default=0, metavar="N",
                          help="states made by N-move random scrambles instead of uniformly "
                               "random ones (for the small tables: h48h2 takes minutes a "
                               "random state)")

SOLVED = b"ABCDEFGH=ABCDEFGHIJKL=A"
"""nissy's solved cube in its own notation."""
NISSFLAG_NORMAL = 1
N_STATS = 10
SOLUTIONS_BYTES = 1 << 16


class Nissy(Contender):
    """nissy's library through ctypes, one solver and its table in memory."""

    def __init__(self, directory: Path, solver: str, threads: int):
        self.name, self.directory, self.solver_name, self.threads = "nissy", directory, \
            solver, threads

    def prepare(self):
        directory, solver, threads = self.directory, self.solver_name, self.threads
        from cubelab.tables.memory import zeroed
        self.lib = lib = load_nissy(directory, "build it as this script's docstring says")
        self.solver = solver.encode()
        self.threads = threads
        data_id = ctypes.create_string_buffer(256)
        size = lib.nissy_solverinfo(self.solver, data_id)
        if size <= 0:
            raise SystemExit(f"nissy does not know the solver {solver!r}")
        table = directory / "tables" / data_id.value.decode()
        if not table.exists() or table.stat().st_size != size:
            raise SystemExit(f"{table} is missing or incomplete: generate it with nissy's "
                             f"'./build.sh tool gendata {solver}'")
        t = time.perf_counter()
        # a mapping starts on a page boundary: 64-byte aligned, as nissy's reader requires
        self.data = zeroed(size, huge_pages=True)
        with open(table, "rb") as f:
            f.readinto(memoryview(self.data))
        if lib.nissy_checkdata(self.solver, size, self.data.ctypes.data) != 0:
            raise SystemExit(f"{table} fails nissy's own check")
        self.stats = (ctypes.c_longlong * N_STATS)()
        from cubelab.solvers import get_solver
        self.two_phase = get_solver("kociemba")
        self.two_phase.prepare()
        seconds = time.perf_counter() - t
        self.solve("R U2 F' L D B2 R' U F2 D' L2 B")     # its pages touched before the clock
        return {"load_seconds": seconds}

    def setup(self, case):
        """The case as a scramble nissy reads: the inverse of our two-phase solution."""
        from cubelab.cube.moves import apply_moves
        from cubelab.cube.notation import format_moves, invert_moves
        state = state_of(case)
        scramble = invert_moves(self.two_phase.solve(state).moves)
        if apply_moves(type(state).identity(), scramble) != state:
            raise AssertionError("the scramble handed to nissy is wrong")
        return state, format_moves(scramble)

    def run(self, item):
        from cubelab.cube.moves import apply_moves
        from cubelab.cube.notation import parse_moves
        state, scramble = item
        solution, nodes = self.solve(scramble)
        moves = parse_moves(solution)
        return {"length": len(moves), "nodes": nodes, "solution": solution,
                "solves": apply_moves(state, moves).is_solved()}

    def solve(self, scramble: str) -> tuple[str, int]:
        """One optimal solution of the position the scramble reaches, and the nodes visited."""
        cube = ctypes.create_string_buffer(32)
        if self.lib.nissy_applymoves(SOLVED, scramble.encode(), cube) != 0:
            raise ValueError(f"nissy rejects the scramble {scramble!r}")
        out = ctypes.create_string_buffer(SOLUTIONS_BYTES)
        found = self.lib.nissy_solve(cube.value, self.solver, NISSFLAG_NORMAL, 0, 20, 1, 0,
                                     self.threads, self.data.nbytes, self.data.ctypes.data,
                                     SOLUTIONS_BYTES, out, self.stats, None, None)
        if found < 1:
            raise RuntimeError(f"nissy found no solution (code {found}) for {scramble!r}")
        return out.value.decode().split("\n")[0], int(self.stats[0])


@bench.contender("korf")
def _korf(args):
    from cubelab.solvers.korf.solver import KorfSolver
    return Solve("korf", lambda: KorfSolver(args.set, threads=args.threads, fallback=False))


@bench.contender("nissy")
def _nissy(args):
    if not args.nissy:
        raise SystemExit("--nissy DIR: where nissy-core is built")
    return Nissy(Path(args.nissy), args.solver, args.threads)


def main(argv=None) -> int:
    args = bench.parse(argv)
    cases = scrambles(args.first + args.count, args.scramble_length, args.seed)[args.first:] \
        if args.scramble_length else random_states(args.first + args.count, args.seed)[args.first:]
    bench.begin(args, set=args.set, nissy_solver=args.solver,
                states=f"{args.scramble_length}-move scrambles" if args.scramble_length
                else "uniformly random")
    results = bench.compare(args, cases, fields=("seconds", "nodes", "length"),
                            show=lambda c, case, o: f"{o['length']} moves {o['nodes']:>14,} "
                                                    "nodes")
    agree = True
    if {"korf", "nissy"} <= set(results):
        for ours, theirs in zip(results["korf"], results["nissy"]):
            agree &= bool(ours.get("optimal") and theirs.get("solves")
                          and ours.get("length") == theirs.get("length"))
        print(f"all lengths agree: {agree}")
    bench.finish(args, all_agree=agree)
    return 0 if agree else 1


if __name__ == "__main__":
    raise SystemExit(main())
