"""Two-phase: cubelab beside the PyPI `kociemba` (C) and `RubikTwoPhase` (Kociemba's own Python),
state by state on the same uniformly random states.

Without --budget: the time to the first solution of at most 20 moves (median, p90; the CPU
columns are the solving process's, all threads: steadier on a shared machine). With --budget S:
each solver improves for S seconds and the length reached counts (cubelab and RubikTwoPhase stop
themselves; `kociemba` has no time limit, so a forked child asks it for ever shorter solutions
and what arrived within S counts). Tables load and kernels compile before the clock, reported
apart. The peers are optional (`pip install 'cubelab[bench]'`); RubikTwoPhase builds its tables
in <cache dir>/peers/RubikTwoPhase on first use (half an hour or more). --min2phase CLASSPATH
adds Chen Shuang's min2phase (Java) through a line driver built outside the repository, which
prints READY, then reads a facelet string a line and answers "OK <microseconds> <length>
<moves>" (the time of the solve alone, measured by the driver).

    .venv/bin/python bench/bench_kociemba.py                          # 100 states, all there are
    .venv/bin/python bench/bench_kociemba.py -n 20 --only cubelab,kociemba --budget 0.1
    .venv/bin/python bench/bench_kociemba.py --only cubelab --checkout base=../base --checkout new=.
    .venv/bin/python bench/bench_kociemba.py --only cubelab,min2phase \
        --min2phase /work/peers/src/min2phase/dist:/work/peers/drivers/min2phase/build
"""

from __future__ import annotations

import multiprocessing as mp
import os
import time

from contenders import Function, LineProgram, Solve
from harness import Bench, random_states

C_CAP = 60.0
"""Seconds: a kociemba (C) search still running then is stopped and counted as this."""

bench = Bench(__file__, __doc__, count=100)
bench.parser.add_argument("--threads", type=int, default=1, help="cubelab's search threads")
bench.parser.add_argument("--budget", type=float, metavar="S",
                          help="improve for S seconds; report the length reached")
bench.parser.add_argument("--min2phase", metavar="CLASSPATH",
                          help="min2phase and its line driver (Min2phaseDriver), built outside")


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
    if not args.min2phase:
        raise SystemExit("--min2phase CLASSPATH: where min2phase and its driver are built")
    argv = ["java", "-cp", args.min2phase, "Min2phaseDriver"]
    if args.budget:
        argv += ["--budget-ms", str(args.budget * 1000)]

    def decode(lines):
        word, micros, *rest = lines[-1].split(maxsplit=3)
        if word != "OK":
            raise RuntimeError(f"min2phase: {lines[-1]}")
        return {"seconds": int(micros) / 1e6, "length": int(rest[0])}

    return LineProgram("min2phase", argv, encode=str, done=lambda lines: True, decode=decode,
                       setup=lambda case: case["facelets"], ready=r"^READY")


def main(argv=None) -> int:
    args = bench.parse(argv)
    names = args.only.split(",") if args.only else [
        n for n, module in (("cubelab", None), ("kociemba", "kociemba"),
                            ("rubiktwophase", "twophase"))
        if module is None or _installed(module)] + (["min2phase"] if args.min2phase else [])
    bench.begin(args, budget=args.budget, threads=args.threads)
    results = bench.compare(args, random_states(args.count, args.seed),
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
