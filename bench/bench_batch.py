"""Batch solving: --jobs N worker processes beside a Dask LocalCluster of N workers.

Each mode (--modes) solves the same positions in a process of its own (a Dask client's threads
in the parent would keep --jobs from forking), a fresh one every round (-n rounds), the modes
taking turns; only the solving is timed (tables loaded and kernels compiled first, as a long
batch would amortise them). Per mode: the median seconds, positions a second, and the summed
proportional memory (PSS) of its worker processes at their peak. Exits 1 if two modes disagree
on a solution length with an optimal solver.

    .venv/bin/python bench/bench_batch.py [--solver kociemba] [--random 200 | --depth 14 -k 20]
        [--modes jobs1,jobs2,local2] [-n 3]
    .venv/bin/python bench/bench_batch.py --overhead      # a Dask task's cost on local:2
"""

from __future__ import annotations

import os
import threading
import time

from contenders import Function
from harness import Bench

bench = Bench(__file__, __doc__, count=3)
p = bench.parser
p.add_argument("--solver", default="kociemba")
p.add_argument("--random", type=int, default=0, help="K uniformly random states")
p.add_argument("--depth", type=int, default=0, help="scrambles of this many face turns")
p.add_argument("-k", type=int, default=20, help="how many scrambles with --depth")
p.add_argument("--max-length", type=int, default=None,
               help="stop each solve at its first solution this short (CPU-bound solves; by "
                    "default two-phase improves for about a second of wall time)")
p.add_argument("--modes", default="jobs1,jobs2,local2")
p.add_argument("--overhead", action="store_true",
               help="instead, measure a Dask task's cost on local:2 (round trip, and per task "
                    "when many are in flight)")


def _pss_of_descendants() -> tuple[int, int]:
    """(summed PSS, largest RSS) in bytes of this process's descendants, read from /proc."""
    me = os.getpid()
    parents: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as f:
                    parents[int(name)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                pass
    mine, grew = {me}, True
    while grew:
        grew = False
        for pid, ppid in parents.items():
            if ppid in mine and pid not in mine:
                mine.add(pid)
                grew = True
    pss = rss = 0
    for pid in mine - {me}:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as f:
                fields = {line.split(":")[0]: int(line.split()[1]) * 1024
                          for line in f if line.split(":")[0] in ("Pss", "Rss")}
            pss += fields.get("Pss", 0)
            rss = max(rss, fields.get("Rss", 0))
        except (OSError, ValueError):
            pass
    return pss, rss


class _Sampler:
    """Samples the descendants' memory every half second while a mode runs (started once the
    workers exist: a thread in the parent would make --jobs spawn its workers, not fork them)."""

    def __init__(self):
        self.pss = self.rss = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        while not self.stop.wait(0.5):
            pss, rss = _pss_of_descendants()
            self.pss, self.rss = max(self.pss, pss), max(self.rss, rss)

    def start(self):
        self.thread.start()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop.set()
        if self.thread.is_alive():
            self.thread.join()


def run_mode(args, mode: str) -> dict:
    """One mode in this process: prepare (untimed), then time the solving."""
    from cubelab.solvers import get_solver
    from cubelab.solvers.batch import BatchSettings, solve_many, solve_one
    from cubelab.solvers.experiment import Positions
    from cubelab.tables.memory import share_mappings
    positions = (Positions.random_states(args.random, args.seed) if args.random
                 else Positions.by_depth([args.depth or 14], args.k, args.seed))
    states = [item[3] for item in positions.items]
    settings = BatchSettings(args.solver, max_length=args.max_length)
    if mode != "jobs1":
        share_mappings()
    if mode.startswith("local"):
        from cubelab.solvers import cluster
        from cubelab.tables.cluster import connect
        with connect(f"local:{mode[5:]}") as client:
            cluster.prepare_everywhere(client, settings, warm_up=states[0])
            with _Sampler() as sampler:
                sampler.start()
                t = time.perf_counter()
                records = list(cluster.solve_many(client, settings, states, total=len(states)))
                seconds = time.perf_counter() - t
    else:
        solver = get_solver(args.solver)
        solver.prepare()
        solve_one(solver, states[0], None, None)      # kernels compiled before the clock
        with _Sampler() as sampler:
            t = time.perf_counter()
            if mode == "jobs1":
                sampler.start()
                records = [solve_one(solver, s, args.max_length, None) for s in states]
            else:
                solved = solve_many(settings, states, jobs=int(mode[4:]), solver=solver)
                records = [next(solved)]
                sampler.start()
                records += list(solved)
            seconds = time.perf_counter() - t
    records = [r if isinstance(r, dict) else r.to_json() for r in records]
    return {"seconds": seconds, "pss_mib": sampler.pss / 2**20, "rss_mib": sampler.rss / 2**20,
            "count": len(states),
            "solving": sum(rec.get("seconds", 0.0) for rec in records),
            "lengths": [rec.get("length", {}).get("htm") for rec in records]}


def _nothing(x):
    return x


def task_overhead() -> None:
    """Print what an empty task costs on local:2: alone (a round trip) and 1000 at once."""
    from cubelab.tables.cluster import connect
    with connect("local:2") as client:
        client.submit(_nothing, 0, pure=False).result()
        t = time.perf_counter()
        for i in range(50):
            client.submit(_nothing, i, pure=False).result()
        trip = (time.perf_counter() - t) / 50
        t = time.perf_counter()
        client.gather(client.map(_nothing, range(1000), pure=False))
        many = (time.perf_counter() - t) / 1000
    print(f"an empty task: {trip * 1e3:.1f} ms a round trip, {many * 1e3:.2f} ms each of 1000 "
          f"in flight")


@bench.contender("mode", fresh=True, variants=lambda args: args.modes.split(","))
def _mode(args, mode):
    return Function(mode, lambda _round: run_mode(args, mode))


def main(argv=None) -> int:
    args = bench.parse(argv)
    if args.overhead:
        task_overhead()
        return 0
    what = (f"{args.random} random states" if args.random
            else f"{args.k} depth-{args.depth or 14} scrambles")
    bench.begin(args, solver=args.solver, positions=what)
    runs = bench.compare(args, [{"id": r} for r in range(args.count)],
                         fields=("seconds", "pss_mib", "rss_mib"),
                         show=lambda c, case, o: f"({o['solving']:.2f} s inside the solves)")
    modes = list(runs)
    for mode in modes:
        good = [o for o in runs[mode] if "error" not in o]
        if good:
            median = sorted(o["seconds"] for o in good)[len(good) // 2]
            print(f"{mode:>8}: {good[0]['count'] / median:8.2f} positions a second")
    lengths = {m: next((o["lengths"] for o in runs[m] if "lengths" in o), None) for m in modes}
    differ = args.solver == "korf" and any(lengths[m] != lengths[modes[0]] for m in modes)
    if differ:
        print("solution lengths differ between modes")
    bench.finish(args)
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
