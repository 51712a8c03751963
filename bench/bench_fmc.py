"""The FMC steps beside nissy-core's step solvers: optimal EO, DR from EO and HTR from DR.

nissy-core (Sebastiano Tronto's solver library, https://github.com/sebastianotronto/nissy-core)
is not on PyPI: build its shared library from a checkout outside the repository, as its own
README says; its step tables (EO, DREO, HTR, a few hundred kB) are made by the library and kept
in the checkout's tables/ folder. Then, from our project root:

    .venv/bin/python bench/bench_fmc.py --nissy NISSY_DIR -n 20

The cases are WCA-style face-turn scrambles from the harness. For each scramble the positions
of the later steps are fixed before any clock, with cubelab: the first optimal EO fb on the
normal scramble, then the first optimal DR ud from it, so both contenders search the same
positions (handed to nissy as one move sequence: the inverse moves first, inverted, then the
scramble, then the normal moves). One section per step and NISS mode; each run is one search
for the optimal length (nissy: one solution; cubelab: `solve_step`, first solution), timed in
CPU seconds of this process (both run in it: nissy through ctypes, one thread). Exits 1 if an
optimal length differs.

`--pipeline S` runs cubelab fmc's pipeline (EO -> DR -> HTR -> finish) with a time limit of S
seconds a scramble; with `--nissy-pipeline` the same steps through nissy-core beside it, scramble
by scramble in one section (`NissyPipeline` says how its chain follows ours). nissy's side of each
scramble runs in a forked child process, so a crash in the library costs that scramble only:

    CUBELAB_DATA_DIR=/work/data .venv/bin/python bench/bench_fmc.py --nissy NISSY_DIR -n 10 \
        --no-steps --pipeline 60 --pipeline-keep eo=20,dr=20,htr=6,fin=2 --nissy-pipeline
"""

from __future__ import annotations

import ctypes
from pathlib import Path

from contenders import Contender
from nissy_lib import load_nissy
from harness import Bench, scrambles

bench = Bench(__file__, __doc__, count=20)
bench.parser.add_argument("--nissy", metavar="DIR",
                          help="nissy-core checkout holding libnissy.so and tables/")
bench.parser.add_argument("--length", type=int, default=25, help="scramble length (25)")
bench.parser.add_argument("--pipeline", type=float, default=None, metavar="S",
                          help="also run cubelab's default pipeline (cubelab fmc) on the "
                               "scrambles with this time limit and report its final lengths")
bench.parser.add_argument("--pipeline-keep", default="", metavar="K",
                          help="the pipeline's candidates per step, as cubelab fmc --keep "
                               "takes them (eo=6,dr=6,htr=3; default: its defaults)")
bench.parser.add_argument("--nissy-pipeline", action="store_true",
                          help="with --pipeline: also run the same steps through nissy-core "
                               "(EO, DR from EO, HTR, then its finish from DR), the same "
                               "candidates kept per step, and report its final lengths")
bench.parser.add_argument("--nissy-keep", default="", metavar="K",
                          help="the nissy pipeline's candidates per step (default: as "
                               "--pipeline-keep); it runs with --pipeline's time limit too "
                               "(nissy's own stop, polled), the best found by then counted")
bench.parser.add_argument("--nissy-hard-limit", type=float, default=900.0, metavar="S",
                          help="a nissy pipeline scramble still running after S seconds is "
                               "killed and recorded as hung, with the best it had reported "
                               "(900); its time limit is soft: a step call under way runs on")
bench.parser.add_argument("--kociemba", type=float, default=None, metavar="S",
                          help="also run our two-phase solver with this time limit, for scale")
bench.parser.add_argument("--no-steps", action="store_true",
                          help="skip the step sections (with --pipeline)")

SOLVED = b"ABCDEFGH=ABCDEFGHIJKL=A"
NISSFLAG = {"never": 1, "before": 2, "always": 7}
"""nissy's flags: normal, inverse, and all (normal, inverse or switching)."""
SECTIONS = [
    # label, cubelab goal, cubelab move set, nissy solver, position (after which step), niss
    ("EO fb", "eo:fb", "all", "eofb", "scramble", "never"),
    ("EO ud", "eo:ud", "all", "eoud", "scramble", "never"),
    ("EO rl", "eo:rl", "all", "eorl", "scramble", "never"),
    ("EO fb NISS", "eo:fb", "all", "eofb", "scramble", "always"),
    ("EO fb inverse", "eo:fb", "all", "eofb", "scramble", "before"),
    ("DR ud from EO fb", "dr:ud", "eo-fb", "drud-eofb", "eo", "never"),
    ("DR rl from EO fb", "dr:rl", "eo-fb", "drrl-eofb", "eo", "never"),
    ("DR ud from EO fb NISS", "dr:ud", "eo-fb", "drud-eofb", "eo", "always"),
    ("HTR from DR ud", "htr", "dr-ud", "htr-drud", "dr", "never"),
    ("HTR from DR ud NISS", "htr", "dr-ud", "htr-drud", "dr", "always"),
]


WARM_UP = {"scramble": "R U F D L B R2 F'", "eo": "R U F2 L D B2 R'", "dr": "R2 U F2 D' L2 B2 U'"}


def positions(cases: list[dict]) -> list[dict]:
    """Each scramble with the EO fb and DR ud the later sections start from (cubelab's first
    optimal ones), as move texts for both contenders."""
    from cubelab.cube.moves import alg_state
    from cubelab.solvers.fmc.niss import solve_step
    out = []
    for case in cases:
        s = alg_state(case["scramble"])
        eo = solve_step(s, "eo:fb", "all", "never").best
        after_eo = eo.after(s)
        dr = solve_step(after_eo, "dr:ud", "eo-fb", "never").best
        out.append({**case, "eo": eo.text, "dr": f"{eo.text} {dr.text}".strip()})
    return out


def sequence(case: dict, where: str) -> str:
    """The position as one plain move sequence (the steps here have no inverse moves)."""
    if where == "scramble":
        return case["scramble"]
    return f"{case['scramble']} {case[where]}"


class Ours(Contender):
    def __init__(self, goal, moves, niss, where):
        self.name = "cubelab"
        self.goal, self.moves, self.niss, self.where = goal, moves, niss, where

    def prepare(self):
        from cubelab.cube.moves import alg_state
        from cubelab.solvers.fmc.niss import solve_step
        self.alg_state, self.solve_step = alg_state, solve_step
        # tables built or loaded and kernels compiled before the clock, on a position where
        # the step can start
        solve_step(alg_state(WARM_UP[self.where]), self.goal, self.moves, self.niss)
        return None

    def setup(self, case):
        return self.alg_state(sequence(case, self.where))

    def run(self, state):
        res = self.solve_step(state, self.goal, self.moves, self.niss)
        return {"length": res.optimum, "optimal": res.optimal}


class Pipeline(Contender):
    """cubelab fmc's default pipeline with a time limit: the final, cancelled length."""

    def __init__(self, seconds: float, keep: str):
        self.name, self.seconds = "cubelab fmc", seconds
        self.keep = {k: int(v) for k, v in (p.split("=") for p in keep.split(",") if p)}

    def prepare(self):
        from cubelab.cube.moves import alg_state
        from cubelab.solvers.fmc.pipeline import run_pipeline
        self.alg_state, self.run_pipeline = alg_state, run_pipeline
        run_pipeline(alg_state("R U F D L B R2 F' U2 D"), ["eo", "dr", "htr", "fin"])
        return None

    def setup(self, case):
        return self.alg_state(case["scramble"])

    def run(self, state):
        res = self.run_pipeline(state, ["eo", "dr", "htr", "fin"], time_limit=self.seconds,
                                keep=self.keep)
        best = res.best
        return {"length": best.length if best else None, "complete": res.complete,
                "solves": bool(best) and (state * self.alg_state(best.text)).is_solved()}


_NISSY_DR = {"fb": {"ud": "drud-eofb", "rl": "drrl-eofb"},
             "rl": {"ud": "drud-eorl", "fb": "drfb-eorl"},
             "ud": {"rl": "drrl-eoud", "fb": "drfb-eoud"}}


class NissyPipeline(Contender):
    """The default pipeline's steps through nissy-core's step solvers, explored as
    `run_pipeline` explores them: EO on each axis, DR from it on the two other axes, HTR, then
    the finish, the best K of each step per parent (the same keeps), depth first, best first,
    children ranked by the running total with each side cancelled; NISS as our defaults (EO and
    DR switching, HTR normal). nissy-core has no half-turn finish: the finish is its `drXXfin`
    (the DR's move set, a superset of <U2,D2,R2,L2,F2,B2>, normal scramble only), so its
    finish can only be as short as ours or shorter. The final lengths are cancelled by our
    model and each final solution is checked to solve the scramble. With a time limit: once it
    has passed, the chain under way is finished with one candidate per step (so every scramble
    gets a solution, as ours does) and nothing else is started; the time is reported as it
    was.

    Each scramble runs in a child process of its own (forked, so the library and its tables
    are already loaded): a crash inside the library ends that scramble only, recorded as an
    error with the best solution the child had reported by then, and the run carries on. The
    child times itself (wall and its CPU)."""

    measures_itself = True

    def __init__(self, directory: Path, keep: str, seconds: float | None = None,
                 hard_limit: float = 900.0):
        """`hard_limit`: seconds after which a scramble's child still running is killed and
        the scramble recorded as hung (nissy's step calls cannot be stopped, so `seconds`,
        the time limit, is soft)."""
        from cubelab.solvers.fmc.pipeline import DEFAULT_KEEP
        self.name, self.directory, self.seconds = "nissy pipeline", directory, seconds
        self.hard_limit = hard_limit
        self.keep = {**DEFAULT_KEEP,
                     **{k: int(v) for k, v in (p.split("=") for p in keep.split(",") if p)}}
        if max(self.keep.values()) > 255:
            # nissy_solve narrows its solution count to 8 bits
            raise SystemExit("nissy keeps at most 255 candidates a step")

    def prepare(self):
        from cubelab.cube.moves import alg_state
        from cubelab.cube.notation import format_moves, invert_moves, parse_moves, simplify
        self.alg_state, self.fmt, self.inv, self.parse, self.simplify = \
            alg_state, format_moves, invert_moves, parse_moves, simplify
        self.lib = load_nissy(self.directory, "build nissy-core as its README says")
        self.data, tables = {}, {}
        names = ["eofb", "eoud", "eorl"] + [n for d in _NISSY_DR.values() for n in d.values()] \
            + [f"htr-dr{a}" for a in ("ud", "fb", "rl")] + [f"dr{a}fin" for a in ("ud", "fb", "rl")]
        for name in names:
            data_id = ctypes.create_string_buffer(256)
            size = self.lib.nissy_solverinfo(name.encode(), data_id)
            key = (data_id.value, size)
            if key not in tables:       # solvers that share a table share one copy (DR: 75 MB)
                table = self.directory / "tables" / data_id.value.decode()
                buf = ctypes.create_string_buffer(size)
                if table.exists() and table.stat().st_size == size:
                    ctypes.memmove(buf, table.read_bytes(), size)
                elif self.lib.nissy_gendata(name.encode(), size, buf) != size:
                    raise SystemExit(f"nissy could not make the table of {name}")
                tables[key] = (buf, size)
            self.data[name] = tables[key]
        self.stats = (ctypes.c_longlong * 10)()
        self.out = ctypes.create_string_buffer(1 << 20)
        # the time limit, as ours, checked before each step call and between the depths of a
        # step: nissy-core's coordinate solvers take a poll callback but never call it, so a
        # call under way runs to its end
        self.deadline = None
        self.crashes = 0
        return None

    def late(self) -> bool:
        import time
        return self.deadline is not None and time.perf_counter() > self.deadline

    def setup(self, case):
        return case["scramble"]

    def _solve(self, solver, normal, inverse, scramble, flag, k):
        """The first `k` solutions of a step, shortest first, as (normal, inverse) moves.

        Asked one length at a time (minmoves = maxmoves = d, d rising), never in one call over
        several lengths: nissy-core's duplicate check (`last_solution_is_duplicate`, in
        src/solvers/solutions.h) walks back from each new solution through the buffer and,
        when the buffer's first solution is a proper suffix of the new one ("L D F" then
        "U L D F"), steps before the buffer's start and reads on backwards until it faults
        (SIGSEGV, seen with EO and 5 or more solutions). Solutions of one length cannot be
        suffixes of each other, so a call that returns one length only never gets there.
        Past the time limit, deeper lengths are not asked once there is a solution."""
        text = " ".join(filter(None, [self.fmt(self.inv(inverse)), scramble,
                                      self.fmt(normal)]))
        cube = ctypes.create_string_buffer(32)
        if self.lib.nissy_applymoves(SOLVED, text.encode(), cube) != 0:
            raise ValueError(f"nissy rejects {text!r}")
        buf, size = self.data[solver]
        out = []
        for depth in range(21):         # nissy's solutions are at most 20 moves
            if len(out) >= k or (out and self.late()):
                break
            found = self.lib.nissy_solve(cube.value, solver.encode(), flag, depth, depth,
                                         k - len(out), 20, 1, size, buf, len(self.out),
                                         self.out, self.stats, None, None)
            if found < 0:
                raise RuntimeError(f"nissy {solver} failed (code {found})")
            for line in self.out.value.decode().split("\n")[:found]:
                if "(" in line:
                    head, _, rest = line.partition("(")
                    body, _, tail = rest.partition(")")
                    n, i = self.parse(head + " " + tail), self.parse(body)
                else:
                    n, i = self.parse(line), []
                out.append((n, i))
        return out

    def _chain(self, scramble, report):
        """The pipeline on one scramble; `report(length, text)` on each better final solution.
        Returns the best final solution (moves) or None."""
        import time
        self.deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        keep, best = self.keep, [None]
        flags = {"eo": NISSFLAG["always"], "dr": NISSFLAG["always"], "htr": NISSFLAG["never"],
                 "fin": NISSFLAG["never"]}

        def children(kind, solvers, normal, inverse):
            got = []
            late = self.late()
            if late:            # past the limit: finish this chain, first choice, one each
                solvers = solvers[:1]
            for solver, axis in solvers:
                for n, i in self._solve(solver, normal, inverse, scramble, flags[kind],
                                        1 if late else keep[kind]):
                    nn = tuple(self.simplify(normal + tuple(n)))
                    ii = tuple(self.simplify(inverse + tuple(i)))
                    got.append((len(nn) + len(ii), nn, ii, axis))
            got.sort(key=lambda c: c[0])
            return got[:1 if late else keep[kind]]

        def expand(i, normal, inverse, eo, dr):
            if self.late() and best[0] is not None:
                return
            if i == 0:
                for _, n, iv, axis in children("eo", [(f"eo{a}", a) for a in ("fb", "ud", "rl")],
                                               normal, inverse):
                    expand(1, n, iv, axis, None)
            elif i == 1:
                for _, n, iv, axis in children("dr", [(s, a) for a, s in _NISSY_DR[eo].items()],
                                               normal, inverse):
                    expand(2, n, iv, eo, axis)
            elif i == 2:
                for _, n, iv, _a in children("htr", [(f"htr-dr{dr}", dr)], normal, inverse):
                    expand(3, n, iv, eo, dr)
            else:
                for _, n, iv, _a in children("fin", [(f"dr{dr}fin", dr)], normal, inverse):
                    final = self.simplify(list(n) + self.inv(iv))
                    if best[0] is None or len(final) < len(best[0]):
                        best[0] = final
                        report(len(final), self.fmt(final))

        expand(0, (), (), None, None)
        return best[0]

    def _child(self, scramble, conn):
        """In the child process: run the chain, send each better solution, then the end."""
        import time
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            final = self._chain(scramble, lambda n, text: conn.send(("best", n, text)))
            conn.send(("done", None if final is None else self.fmt(final), not self.late(),
                       time.perf_counter() - wall, time.process_time() - cpu))
        except Exception as e:          # a Python error: the parent records it
            conn.send(("error", f"{type(e).__name__}: {e}", None, None, None))
        finally:
            conn.close()

    def run(self, scramble):
        import multiprocessing
        import time
        ctx = multiprocessing.get_context("fork")    # inherits the loaded library and tables
        ours, theirs = ctx.Pipe(duplex=False)
        wall = time.perf_counter()
        child = ctx.Process(target=self._child, args=(scramble, theirs), daemon=True)
        child.start()
        theirs.close()
        best, end, hung = None, None, False
        while end is None:
            left = self.hard_limit - (time.perf_counter() - wall)
            if left <= 0:
                hung = True
                break
            if not ours.poll(min(left, 1.0)):
                if not child.is_alive() and not ours.poll(0):
                    break
                continue
            try:
                msg = ours.recv()
            except EOFError:            # the child ended without its last word: it crashed
                break
            if msg[0] == "best":
                best = msg[2]
            else:
                end = msg
        if hung:
            child.kill()
        child.join()
        ours.close()
        seconds = time.perf_counter() - wall
        if end is None or end[0] == "error":
            self.crashes += end is None and not hung
            why = (end[1] if end is not None else
                   f"hung past {self.hard_limit:g} s, killed" if hung else
                   f"crashed (signal {-child.exitcode})" if (child.exitcode or 0) < 0 else
                   f"crashed (exit {child.exitcode})")
            return {"error": why, "seconds": seconds,
                    "partial_length": None if best is None else len(self.parse(best)),
                    "partial": best}
        _, text, complete, child_wall, child_cpu = end
        moves = self.parse(text) if text is not None else None
        solves = moves is not None and (self.alg_state(scramble)
                                        * self.alg_state(text)).is_solved()
        return {"length": len(moves) if moves is not None else None, "solves": solves,
                "complete": complete, "solution": text, "seconds": child_wall,
                "cpu_seconds": child_cpu}


class Nissy(Contender):
    """nissy-core's library through ctypes, one step solver and its table in memory."""

    def __init__(self, directory: Path, solver: str, niss: str, where: str):
        self.name = "nissy"
        self.directory, self.solver_name, self.flag, self.where = \
            directory, solver, NISSFLAG[niss], where

    def prepare(self):
        self.lib = lib = load_nissy(self.directory, "build nissy-core as its README says")
        self.solver = self.solver_name.encode()
        data_id = ctypes.create_string_buffer(256)
        size = lib.nissy_solverinfo(self.solver, data_id)
        if size <= 0:
            raise SystemExit(f"nissy does not know the solver {self.solver_name!r}")
        table = self.directory / "tables" / data_id.value.decode()
        self.data = ctypes.create_string_buffer(size)
        if table.exists() and table.stat().st_size == size:
            ctypes.memmove(self.data, table.read_bytes(), size)
        elif lib.nissy_gendata(self.solver, size, self.data) != size:
            raise SystemExit(f"nissy could not make the table of {self.solver_name}")
        self.size = size
        self.stats = (ctypes.c_longlong * 10)()
        self.out = ctypes.create_string_buffer(1 << 16)
        return None

    def setup(self, case):
        cube = ctypes.create_string_buffer(32)
        text = sequence(case, self.where).encode()
        if self.lib.nissy_applymoves(SOLVED, text, cube) != 0:
            raise ValueError(f"nissy rejects {text!r}")
        return cube.value

    def run(self, cube):
        found = self.lib.nissy_solve(cube, self.solver, self.flag, 0, 20, 1, 20, 1, self.size,
                                     self.data, len(self.out), self.out, self.stats, None,
                                     None)
        if found < 1:
            raise RuntimeError(f"nissy found nothing (code {found})")
        first = self.out.value.decode().split("\n")[0]
        moves = first.replace("(", " ").replace(")", " ").split()
        return {"length": len(moves), "solution": first}


def main(argv=None) -> int:
    args = bench.parse(argv)
    if not args.nissy:
        raise SystemExit("--nissy DIR: where nissy-core is built")
    cases = positions(scrambles(args.count, args.length, args.seed))
    bench.begin(args, scramble_length=args.length)
    agree = True
    rows = []
    for label, goal, moves, solver, where, niss in ([] if args.no_steps else SECTIONS):
        contenders = [Ours(goal, moves, niss, where),
                      Nissy(Path(args.nissy), solver, niss, where)]
        results = bench.compare(args, cases, contenders=contenders, label=label,
                                fields=("cpu_seconds", "length"), lines=False)
        ours, theirs = results.get("cubelab", []), results.get("nissy", [])
        same = all("error" not in a and "error" not in b and a["length"] == b["length"]
                   for a, b in zip(ours, theirs)) and len(ours) == len(theirs) == len(cases)
        agree &= same
        from harness import describe, paired_ratios
        ratio = describe(paired_ratios(theirs, ours, "cpu_seconds")).get("median")
        mean = describe(o["length"] for o in ours if "length" in o).get("mean")
        rows.append((label, mean, same, ratio))
        for c in contenders:
            c.close()
    if args.pipeline is not None:
        # ours and nissy's side by side, scramble by scramble, in one section
        contenders = [Pipeline(args.pipeline, args.pipeline_keep)]
        if args.nissy_pipeline:
            contenders.append(NissyPipeline(Path(args.nissy),
                                            args.nissy_keep or args.pipeline_keep, args.pipeline,
                                            args.nissy_hard_limit))
        got = bench.compare(args, cases, contenders=contenders,
                            label=f"pipeline at {args.pipeline:g} s",
                            fields=("seconds", "length", "solves", "complete"), lines=True,
                            show=lambda c, case, o: f"length {o.get('length')} ")
        for c in contenders:
            outcomes = got.get(c.name, [])
            print(f"{c.name} final lengths:", [o.get("length") for o in outcomes])
            failed = [(o["case"], o["error"], o.get("partial_length")) for o in outcomes
                      if "error" in o]
            if failed:
                print(f"{c.name} failed (case, why, best length reported before):", failed)
            agree &= len(outcomes) == len(cases) and all(o.get("solves") for o in outcomes)
    if args.kociemba is not None:
        from contenders import Solve
        from cubelab.solvers.kociemba.solver import KociembaSolver
        got = bench.compare(args, cases, contenders=[Solve("cubelab kociemba", KociembaSolver,
                                                           time_limit=args.kociemba)],
                            label=f"two-phase at {args.kociemba:g} s",
                            fields=("seconds", "length"), lines=False)["cubelab kociemba"]
        print("two-phase lengths:", [o.get("length") for o in got])
    print("\nstep | mean optimal length | lengths equal | cubelab/nissy CPU (median per case)")
    for label, mean, same, ratio in rows:
        print(f"{label} | {mean:.2f} | {'yes' if same else 'NO'} | "
              f"{ratio:.2f}" if ratio is not None else f"{label} | - | - | -")
    bench.finish(args, all_agree=agree, rows=rows)
    return 0 if agree else 1


if __name__ == "__main__":
    raise SystemExit(main())
