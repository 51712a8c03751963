"""Two-phase: cubelab beside rob-twophase (C++), min2phase (Java), the PyPI `kociemba` (C) and
`RubikTwoPhase` (Kociemba's own Python), state by state on the same uniformly random states.

Without --budget: the time to the first solution of at most 20 moves (median, p90; the CPU
columns are the solving process's, all threads: steadier on a shared machine). With --budget S:
each solver improves for S seconds and the length reached counts (cubelab and RubikTwoPhase stop
themselves; `kociemba` has no time limit, so a forked child asks it for ever shorter solutions
and what arrived within S counts). Tables load and kernels compile before the clock, reported
apart. The peers are optional (`pip install 'cubelab[bench]'`); RubikTwoPhase builds its tables
in <cache dir>/peers/RubikTwoPhase on first use (half an hour or more). --min2phase CLASSPATH
adds Chen Shuang's min2phase (Java) through a line driver built outside the repository, which
prints READY, then reads a facelet string a line and answers "OK <microseconds> <length>
<moves>" (the time of the solve alone, measured by the driver). With PEERS_DIR set (a folder of
peers built outside the repository: src/rob-twophase/twophase, run in its own folder where its
table lives; src/min2phase/dist and drivers/min2phase/build for min2phase), rob-twophase and
min2phase join by themselves; without it, or where a peer is not built, they are left out. The
peers time their own solve call (parsing and the pipe excluded), as cubelab's is timed around
`solve` alone; every peer answer is checked with cubelab. --scramble-length N: N-move scrambles
instead of random states (easy positions: the fixed cost of a solve).

    .venv/bin/python bench/bench_kociemba.py                          # 100 states, all there are
    .venv/bin/python bench/bench_kociemba.py -n 20 --only cubelab,kociemba --budget 0.1
    .venv/bin/python bench/bench_kociemba.py --only cubelab --checkout base=../base --checkout new=.
    .venv/bin/python bench/bench_kociemba.py --only cubelab,min2phase \
        --min2phase /work/peers/src/min2phase/dist:/work/peers/drivers/min2phase/build
    PEERS_DIR=/work/peers .venv/bin/python bench/bench_kociemba.py -n 200 \
        --only cubelab,rob-twophase,min2phase                  # the first <= 20 moves
    PEERS_DIR=/work/peers .venv/bin/python bench/bench_kociemba.py -n 200 --scramble-length 4 \
        --only cubelab,rob-twophase,min2phase                  # easy positions: the fixed cost
"""

from __future__ import annotations

import multiprocessing as mp
import os
import time
from pathlib import Path

from contenders import Function, LineProgram, Solve
from harness import Bench, random_states, scrambles

C_CAP = 60.0
"""Seconds: a kociemba (C) search still running then is stopped and counted as this."""

bench = Bench(__file__, __doc__, count=100)
bench.parser.add_argument("--threads", type=int, default=1, help="cubelab's search threads")
bench.parser.add_argument("--budget", type=float, metavar="S",
                          help="improve for S seconds; report the length reached")
bench.parser.add_argument("--min2phase", metavar="CLASSPATH",
                          help="min2phase and its line driver (Min2phaseDriver), built outside "
                               "(default: under PEERS_DIR, when built there)")
bench.parser.add_argument("--scramble-length", type=int, metavar="N",
                          help="N-move scrambles instead of random states (easy positions)")


def _peers() -> Path | None:
    """The folder of peers built outside the repository (PEERS_DIR), if any."""
    folder = os.environ.get("PEERS_DIR")
    return Path(folder) if folder else None


def _min2phase_classpath(args) -> str | None:
    if args.min2phase:
        return args.min2phase
    peers = _peers()
    if peers is None:
        return None
    parts = [peers / "src" / "min2phase" / "dist", peers / "drivers" / "min2phase" / "build"]
    return ":".join(map(str, parts)) if all(p.is_dir() for p in parts) else None


def _rob_program() -> Path | None:
    peers = _peers()
    program = peers / "src" / "rob-twophase" / "twophase" if peers else None
    return program if program is not None and program.is_file() else None


class _Peer(LineProgram):
    """A peer's line program whose answers are checked with cubelab (a peer's wrong answer
    would make its time meaningless)."""

    def run(self, item):
        got = super().run(item)
        moves = got.pop("moves", None)
        if moves is not None:
            from cubelab.cube.facelets import parse_facelets
            from cubelab.cube.moves import apply_moves
            from cubelab.cube.notation import parse_moves
            if not apply_moves(parse_facelets(item), parse_moves(moves)).is_solved():
                raise AssertionError(f"{self.name}: {moves!r} does not solve {item}")
        return got


@bench.contender("cubelab")
def _cubelab(args):
    from cubelab.solvers.kociemba.solver import KociembaSolver
    if args.budget:
        return Solve("cubelab", lambda: KociembaSolver(threads=args.threads, budget=None),
                     time_limit=args.budget)
    return Solve("cubelab", lambda: KociembaSolver(threads=args.threads, budget=None))


# ---- kociemba (C) --------------------------------------------------------------------------

def _c_child(facelets, first_depth, queue):
    import kociemba
    start, cpu = time.perf_counter(), time.process_time()
    depth = first_depth
    while depth > 0:
        try:
            n = len(kociemba.solve(facelets, max_depth=depth).split())
        except ValueError:
            break
        queue.put((n, time.perf_counter() - start, time.process_time() - cpu))
        if first_depth == 20:
            break
        depth = n - 1
    queue.put(None)


def _c_run(facelets: str, first_depth: int, budget: float) -> list:
    """(length, seconds, cpu seconds) of what a forked child reported within the budget."""
    ctx = mp.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_c_child, args=(facelets, first_depth, queue), daemon=True)
    child.start()
    found, deadline = [], time.perf_counter() + budget + 0.2
    while True:
        try:
            item = queue.get(timeout=max(0.01, deadline - time.perf_counter()))
        except Exception:
            break
        if item is None or item[1] > budget:
            break
        found.append(item)
    child.kill()
    child.join()
    return found


@bench.contender("kociemba")
def _kociemba(args):
    def prepare():
        import kociemba
        kociemba.solve("DRLUUBFBRBLURRLRUBLRDDFDLFUFUFFDBRDUBRUFLLFDDBFLUBLRBD")   # its tables

    def run(facelets):
        if args.budget:
            found = [n for n, t, _ in _c_run(facelets, 24, args.budget) if t <= args.budget]
            return {"length": min(found) if found else None, "seconds": args.budget}
        found = _c_run(facelets, 20, C_CAP)
        if not found:
            return {"length": None, "seconds": C_CAP, "cpu_seconds": C_CAP, "capped": True}
        n, seconds, cpu = found[0]
        return {"length": n, "seconds": seconds, "cpu_seconds": cpu, "capped": False}

    return Function("kociemba", run, setup=lambda case: case["facelets"], prepare=prepare)


# ---- RubikTwoPhase -------------------------------------------------------------------------

@bench.contender("rubiktwophase")
def _rubiktwophase(args):
    holder = {}

    def prepare():
        from cubelab.cube.paths import cache_dir
        folder = cache_dir() / "peers" / "RubikTwoPhase"
        (folder / "twophase").mkdir(parents=True, exist_ok=True)
        here = os.getcwd()
        os.chdir(folder)    # it keeps its tables in ./twophase
        try:
            import twophase.solver as solver
        finally:
            os.chdir(here)
        holder["solver"] = solver
        return {"note": "CPython, its own six threads"}

    def run(facelets):
        if args.budget:
            out = holder["solver"].solve(facelets, 0, args.budget)
        else:
            out = holder["solver"].solve(facelets, 20, 1000)
        return {"length": int(out.strip().rsplit("(", 1)[1].rstrip("f)"))}

    return Function("rubiktwophase", run, setup=lambda case: case["facelets"], prepare=prepare)


# ---- min2phase (Java, through its line driver) -----------------------------------------------

@bench.contender("min2phase")
def _min2phase(args):
    classpath = _min2phase_classpath(args)
    if not classpath:
        raise SystemExit("--min2phase CLASSPATH (or PEERS_DIR): where min2phase and its driver "
                         "are built")
    argv = ["java", "-Xss16m", "-cp", classpath, "Min2phaseDriver"]
    if args.budget:
        argv += ["--budget-ms", str(args.budget * 1000)]

    def decode(lines):
        word, micros, *rest = lines[-1].split(maxsplit=3)
        if word != "OK":
            raise RuntimeError(f"min2phase: {lines[-1]}")
        return {"seconds": int(micros) / 1e6, "length": int(rest[0]),
                "moves": rest[1] if len(rest) > 1 else ""}

    return _Peer("min2phase", argv, encode=str, done=lambda lines: True, decode=decode,
                 setup=lambda case: case["facelets"], ready=r"^READY")


# ---- rob-twophase (C++, its interactive tool) ------------------------------------------------

class _RobTwophase(_Peer):
    def close(self):
        # at the end of its input the tool waits for ever on its own threads: end it
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@bench.contender("rob-twophase")
def _rob_twophase(args):
    program = _rob_program()
    if program is None:
        raise SystemExit("rob-twophase: set PEERS_DIR to where src/rob-twophase/twophase is built")
    # -t 1: one search thread; -w: its own random solves first, paging its 676 MB table in.
    # First <= 20: it stops at its first solution that short (-m only caps the time); with a
    # budget it searches the whole budget and prints the best.
    limits = ["-l", "-1", "-m", str(round(args.budget * 1000))] if args.budget else \
        ["-l", "20", "-m", "60000"]
    argv = [str(program), *limits, "-t", "1", "-w", "50"]

    def decode(lines):
        if not lines[0].endswith("ms"):
            raise RuntimeError(f"rob-twophase: {lines[0]}")
        if len(lines) < 3:
            raise RuntimeError("rob-twophase: no solution")
        moves, _, n = lines[1].rpartition("(")
        return {"seconds": float(lines[0][:-2]) / 1000, "length": int(n.rstrip(")")),
                "moves": moves.strip()}

    return _RobTwophase("rob-twophase", argv, encode=lambda f: f"solve {f}",
                        done=lambda lines: lines[-1] == "Ready!", decode=decode,
                        setup=lambda case: case["facelets"], ready=r"^Ready!",
                        cwd=str(program.parent))


def main(argv=None) -> int:
    args = bench.parse(argv)
    names = args.only.split(",") if args.only else [
        n for n, module in (("cubelab", None), ("kociemba", "kociemba"),
                            ("rubiktwophase", "twophase"))
        if module is None or _installed(module)] + \
        (["min2phase"] if _min2phase_classpath(args) else []) + \
        (["rob-twophase"] if _rob_program() else [])
    bench.begin(args, budget=args.budget, threads=args.threads,
                scramble_length=args.scramble_length)
    cases = scrambles(args.count, args.scramble_length, args.seed) if args.scramble_length \
        else random_states(args.count, args.seed)
    results = bench.compare(args, cases,
                            contenders=bench.contenders(args, names),
                            fields=("length",) if args.budget else ("seconds", "cpu_seconds",
                                                                    "length"),
                            show=lambda c, case, got: f"{got.get('length')} moves")
    for name, outcomes in results.items():
        long = [o for o in outcomes if not args.budget and (o.get("length") or 99) > 20]
        if long:
            print(f"{name}: {len(long)} solutions longer than 20 moves (or none)")
    bench.finish(args)
    return 0


def _installed(module: str) -> bool:
    import importlib.util
    return importlib.util.find_spec(module) is not None


if __name__ == "__main__":
    raise SystemExit(main())
