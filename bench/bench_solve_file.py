"""`cubelab solve --file` end to end: K uniformly random states ('facelets:' lines) solved by the
command in a new process, from its start to its last record, in input order.

Reported per run: the seconds, the states a second, the CPU seconds of the command's process
and of its workers (from the kernel's accounting of the finished process tree), and the sum of
the records' own solve seconds: what the solving itself took, the rest being start-up (imports,
tables, workers) and the parent's work per record (reading lines, pickles, JSON). Every record
is checked: in order, verified, at most --max-moves long. With --checkout, each tree in turn:

    CUBELAB_DATA_DIR=/work/data .venv/bin/python bench/bench_solve_file.py -k 2000 -n 3
    ... bench_solve_file.py -k 2000 -n 3 --checkout base=../base --checkout new=.

(the command timed: cubelab solve --solver kociemba --first --json --jobs 2 --file STATES)
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import time

from bench_cli_start import program
from contenders import Function
from harness import Bench, random_states

bench = Bench(__file__, __doc__, count=3)
bench.parser.add_argument("-k", "--states", type=int, default=2000)
bench.parser.add_argument("--jobs", type=int, default=2)
bench.parser.add_argument("--solver", default="kociemba")
bench.parser.add_argument("--options", default="--first",
                          help="the solver's flags (default --first)")
bench.parser.add_argument("--max-moves", type=int, default=20,
                          help="the longest answer accepted (default 20)")


@bench.contender("solve-file")
def _solve_file(args):
    folder = tempfile.mkdtemp(prefix="cubelab-solve-file-")
    states = os.path.join(folder, "states.txt")
    with open(states, "w") as f:
        f.writelines(f"facelets: {c['facelets']}\n" for c in random_states(args.states,
                                                                           args.seed))
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    argv = ["solve", "--solver", args.solver, *args.options.split(), "--json",
            "--jobs", str(args.jobs), "--file", states]

    def once(_case):
        t = time.perf_counter()
        proc = subprocess.Popen(program(argv), env=env, stdout=subprocess.PIPE,
                                stdin=subprocess.DEVNULL, text=True)
        out = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - t
        if status != 0:
            raise RuntimeError(f"exit status {status}")
        records = [json.loads(line) for line in out.splitlines()]
        assert [r["line"] for r in records] == list(range(1, args.states + 1)), "out of order"
        assert all(r.get("verified") and r["length"]["htm"] <= args.max_moves
                   for r in records), "an unverified or long answer"
        # the workers are reaped by the command, so their CPU is in its children's share:
        # ours is the command's own plus theirs (os.wait4 gives both together)
        return {"seconds": seconds, "per_second": args.states / seconds,
                "cpu_seconds": usage.ru_utime + usage.ru_stime,
                "solve_seconds": sum(r["seconds"] for r in records),
                "mean_length": sum(r["length"]["htm"] for r in records) / len(records)}

    return Function("solve-file", once)


def main(argv=None) -> int:
    args = bench.parse(argv)
    bench.begin(args, states=args.states, jobs=args.jobs)
    bench.compare(args, [{"id": r} for r in range(args.count)],
                  fields=("seconds", "per_second", "cpu_seconds", "solve_seconds",
                          "mean_length"))
    bench.finish(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
