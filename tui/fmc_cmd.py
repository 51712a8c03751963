"""`cubelab fmc SCRAMBLE`: the fewest-moves steps (EO, DR, HTR, finish) with NISS.

Two modes. With several steps (by default eo,dr,htr,fin) the pipeline runs and the shortest
complete solutions are printed, each step labelled in FMC notation (`^( )` for moves on the
inverse scramble) with its length, the running total (cancellations applied) and the case it
leaves, then the final cancelled solution. With one step (`--steps dr`), that step's N best
(`-n`) or every optimal (`--all`) solutions are listed. `--after MOVES` starts from the
position the scramble and those moves leave (FMC notation: `D L' B ^(R)`), so a step can be
searched after steps found earlier. `--json` writes one record.
"""

from __future__ import annotations

import json
import sys
import threading

from cubelab.tui.argtypes import count, seconds
from cubelab.tui.errors import InputError
from cubelab.tui.interrupts import GRACE, Interrupted, run_interruptible

_KINDS = ("eo", "dr", "htr", "fin", "ls", "2x2x2", "2x2x3", "f2l-1")


def register(sub) -> None:
    p = sub.add_parser(
        "fmc", help="fewest-moves steps: EO, DR, HTR, finish, with NISS",
        description="Runs EO -> DR -> HTR -> finish (or the steps given), each optimal, "
                    "keeping the best K candidates of each step, and prints the shortest "
                    "complete solutions with the steps labelled (^( ) marks moves found on the "
                    "inverse scramble) and the final cancelled solution. With one step, lists "
                    "that step's best solutions.")
    p.add_argument("scramble", nargs="+", metavar="SCRAMBLE", help="the scramble (face turns)")
    p.add_argument("--steps", default="eo,dr,htr,fin", metavar="LIST",
                   help="steps to run, in order: eo,dr,htr then fin or ls (leave slice: all "
                        "but one slice's edges, for insertions), or the blocks "
                        "2x2x2,2x2x3,f2l-1 (default: %(default)s)")
    p.add_argument("--after", default="", metavar="MOVES",
                   help="moves already done after the scramble, FMC notation (A ^(B))")
    p.add_argument("--eo-axes", default="fb,ud,rl", metavar="AXES",
                   help="axes the EO may take: fb, ud, rl (default: %(default)s)")
    p.add_argument("--dr-axes", default="ud,fb,rl", metavar="AXES",
                   help="axes the DR may take (default: %(default)s; never the EO's own)")
    p.add_argument("--niss", default="", metavar="MODE",
                   help="never (normal scramble), before (inverse scramble) or always "
                        "(switching); one mode for every step or per step: eo=always,dr=never "
                        "(default: eo=always,dr=always,htr=never,fin=never)")
    p.add_argument("--keep", default="", metavar="K",
                   help="candidates of each step kept for each of the step before: one number "
                        "or per step, eo=5,dr=5 (default: eo=3,dr=3,htr=2,fin=1)")
    p.add_argument("-n", "--count", type=count(1, 1000), default=None, metavar="N",
                   help="solutions to print (default: 3 complete solutions; 5 for one step)")
    p.add_argument("--all", action="store_true",
                   help="with one step: every optimal solution")
    p.add_argument("--time-limit", type=seconds, default=None, metavar="S",
                   help="stop after S seconds with the best found so far")
    p.add_argument("--no-insert", action="store_true",
                   help="after a leave slice (ls), print the skeletons without finishing "
                        "them with insertions")
    p.add_argument("--json", action="store_true", help="one JSON record")
    p.set_defaults(func=run)


# ---- reading the input ------------------------------------------------------------------------

def _split_niss(text: str) -> tuple[str, list[str]]:
    """(the normal part, the bodies of the ^( ) groups) of FMC notation (already parsed once,
    so brackets balance)."""
    normal, inverse, i = [], [], 0
    while i < len(text):
        if text[i] == "^":
            j = text.index("(", i)
            depth, k = 0, j
            while True:
                depth += {"(": 1, ")": -1}.get(text[k], 0)
                if depth == 0:
                    break
                k += 1
            inverse.append(text[j + 1:k])
            normal.append(" ")
            i = k + 1
        else:
            normal.append(text[i])
            i += 1
    return "".join(normal), inverse


def _face_turns(moves, what: str):
    for m in moves:
        if m.kind != "face":
            raise InputError(f"{what}: fmc works with face turns (U R F D L B), not {m}")
    return moves


def read_moves(text: str, what: str, niss: bool):
    """(normal moves, inverse moves) of FMC notation; InputError with the column on a fault."""
    from cubelab.cube.alg import NotationError
    from cubelab.cube.notation import parse, parse_moves
    try:
        parse(text)
        normal_text, groups = _split_niss(text)
        if groups and not niss:
            raise InputError(f"{what}: the scramble takes no ^( ) (give moves found on the "
                             "inverse in --after)")
        normal = parse_moves(normal_text)
        inverse = [m for g in groups for m in parse_moves(g)]
    except NotationError as e:
        raise InputError(f"{what}: {e}") from None
    return _face_turns(normal, what), _face_turns(inverse, what)


def _per_step(text: str, what: str, read, default: dict) -> dict:
    """'X' (every step) or 'eo=X,dr=Y' -> {kind: value} over the defaults."""
    out = dict(default)
    if not text.strip():
        return out
    if "=" not in text:
        value = read(text.strip())
        return {k: value for k in out}
    for part in text.split(","):
        kind, sep, value = part.partition("=")
        kind = kind.strip().lower()
        if not sep or kind not in _KINDS:
            raise InputError(f"{what}: {part.strip()!r} is not STEP=VALUE with STEP one of "
                             f"{', '.join(_KINDS)}")
        out[kind] = read(value.strip())
    return out


def _niss_mode(text: str) -> str:
    from cubelab.solvers.fmc.niss import NISS_MODES
    if text.lower() not in NISS_MODES:
        raise InputError(f"--niss: unknown mode {text!r} (choose {', '.join(NISS_MODES)})")
    return text.lower()


def _keep_count(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 100:
        raise InputError(f"--keep: {text!r} is not a whole number from 1 to 100")
    return int(text)


# ---- running ----------------------------------------------------------------------------------

def run(args) -> int:
    from cubelab.cube.goals import GoalError
    from cubelab.cube.moves import move_state
    from cubelab.cube.state import CubeState
    from cubelab.solvers.fmc.pipeline import DEFAULT_KEEP, DEFAULT_NISS
    from cubelab.solvers.fmc.steps import StepError, check_axes, check_pairs, check_steps

    scramble_text = " ".join(args.scramble)
    scramble, _ = read_moves(scramble_text, "scramble", niss=False)
    after_normal, after_inverse = read_moves(args.after, "--after", niss=True)
    try:
        kinds = check_steps([w.strip().lower() for w in args.steps.split(",") if w.strip()])
        axes = {"eo": check_axes(args.eo_axes, "--eo-axes"),
                "dr": check_axes(args.dr_axes, "--dr-axes")}
        check_pairs(kinds, axes)
    except StepError as e:
        raise InputError(str(e)) from None
    niss = _per_step(args.niss, "--niss", _niss_mode, DEFAULT_NISS)
    keep = _per_step(args.keep, "--keep", _keep_count, DEFAULT_KEEP)
    if args.all and len(kinds) > 1:
        raise InputError("--all lists one step's optimal solutions: give one step (--steps dr)")
    state = CubeState.identity()
    for m in scramble:
        state = state * move_state(m)
    from cubelab.solvers.fmc.niss import StepSolution
    start = StepSolution(tuple(after_normal), tuple(after_inverse)).after(state)
    try:
        if len(kinds) == 1:
            return _run_step(args, scramble_text, start, kinds[0], axes, niss[kinds[0]])
        return _run_pipeline(args, scramble_text, state, start,
                             (tuple(after_normal), tuple(after_inverse)), kinds, axes, niss,
                             keep)
    except (StepError, GoalError) as e:
        raise InputError(str(e)) from None


class _Progress:
    """The live line on stderr (a terminal only): step, length searched, nodes, best."""

    def __init__(self, counters, enabled: bool, labels):
        self.counters = counters
        self.enabled = enabled
        self.labels = labels
        self.lock = threading.Lock()
        self.best = None
        self.shown = False

    def tick(self):
        if not self.enabled:
            return
        from cubelab.solvers.protocol import BOUND, NODES, PHASE
        c = self.counters
        phase = int(c[PHASE])
        label = self.labels[phase] if 0 <= phase < len(self.labels) else ""
        best = f", best {self.best}" if self.best is not None else ""
        with self.lock:
            sys.stderr.write(f"\r\033[Kfmc: {label}, length {int(c[BOUND])}, "
                             f"{int(c[NODES]):,} nodes{best}")
            sys.stderr.flush()
            self.shown = True

    def clear(self, interrupted: bool = False):
        if self.lock.acquire(timeout=GRACE if interrupted else -1):
            if self.shown:
                sys.stderr.write("\r\033[K")
                sys.stderr.flush()
                self.shown = False
            self.lock.release()


def _interruptible(work, cancel, progress):
    interrupted = None
    try:
        res = run_interruptible(work, cancel, name="fmc", tick=progress.tick, every=0.2)
    except Interrupted as stop:
        interrupted, res = stop, stop.partial
    progress.clear(interrupted is not None)
    if res is None and interrupted is not None:
        raise interrupted
    return res, interrupted


def _run_step(args, scramble_text, start, kind, axes, mode) -> int:
    from cubelab.solvers.fmc.cases import case_after
    from cubelab.solvers.fmc.blocks import search_choice
    from cubelab.solvers.fmc.steps import StepError, choices, detect_previous
    from cubelab.solvers.protocol import new_cancel, new_counters

    counters, cancel = new_counters(), new_cancel()
    previous = detect_previous(start, kind)
    picks = choices(kind, previous, axes.get(kind, ()))
    if not picks:
        raise StepError(f"DR on {', '.join(axes['dr'])} cannot follow the EO on "
                        f"{previous.get('eo')} this position has (the DR keeps it)")
    count_ = args.count or 5
    progress = _Progress(counters, sys.stderr.isatty() and not args.json,
                         [c.label for c in picks])

    def work():
        from cubelab.solvers.protocol import PHASE, Deadline
        out = []
        with Deadline(cancel, args.time_limit):
            for i, choice in enumerate(picks):
                counters[PHASE] = i
                out.append((choice, search_choice(start, choice, mode, all=args.all,
                                                  n=None if args.all else count_,
                                                  counters=counters, cancel=cancel)))
                if cancel[0]:
                    break
        return out

    results, interrupted = _interruptible(work, cancel, progress)
    rows = []
    for choice, res in results:
        for s in res.solutions:
            rows.append((choice, s, case_after(kind, s.after(start), choice.axis)))
    rows.sort(key=lambda r: r[1].sort_key())
    optimum = min((r.optimum for _, r in results if r.optimum is not None), default=None)
    if args.all:
        rows = [r for r in rows if r[1].length == optimum]
    else:
        rows = rows[:count_]
    optimal = bool(results) and all(r.optimal or r.status == "not found" for _, r in results) \
        and optimum is not None
    status = "solved" if rows else "not found"
    stopped = [r.status for _, r in results if r.status in ("cancelled", "time limit")]
    if interrupted or stopped:
        status = "cancelled" if interrupted else stopped[0]
    if args.json:
        print(json.dumps({
            "scramble": scramble_text, "after": args.after, "step": kind, "niss": mode,
            "status": status, "optimal": optimal, "optimum": optimum,
            "nodes": int(counters[0]),
            "seconds": round(sum(r.seconds for _, r in results), 6),
            "solutions": [{**s.to_json(), "step": c.label, "axis": c.axis,
                           "moveset": c.moveset, "case": case} for c, s, case in rows]}))
    else:
        from cubelab.solvers.fmc.steps import LABELS
        print(f"{LABELS[kind]} of {scramble_text}"
              f"{' then ' + args.after if args.after.strip() else ''}; NISS {mode}")
        for c, s, case in rows:
            print(f"  {c.label:<8} {s.text or '(already done)':<40} ({s.length})"
                  f"{'  ' + case if case else ''}")
        if not rows:
            print("  no solution found")
        elif optimal:
            print(f"optimal: {optimum} moves")
    if interrupted:
        raise interrupted
    return 0


def _run_pipeline(args, scramble_text, scramble, start, after, kinds, axes, niss, keep) -> int:
    from cubelab.solvers.fmc.pipeline import run_pipeline
    from cubelab.solvers.fmc.steps import LABELS
    from cubelab.solvers.protocol import new_cancel, new_counters

    counters, cancel = new_counters(), new_cancel()
    count_ = args.count or 3
    progress = _Progress(counters, sys.stderr.isatty() and not args.json,
                         [LABELS[k] for k in kinds])

    def heard(solution):
        progress.best = solution.length

    res, interrupted = _interruptible(
        lambda: run_pipeline(scramble, kinds, start=start, after=after, axes=axes, niss=niss,
                             keep=keep, count=count_, time_limit=args.time_limit,
                             counters=counters, cancel=cancel, on_solution=heard,
                             insert=not args.no_insert),
        cancel, progress)
    if interrupted and res is not None:
        res.status = "cancelled"
    if args.json:
        best = res.best
        record = {"scramble": scramble_text, "after": args.after,
                  "solution": best.text if best else None,
                  "length": best.length if best else None,
                  "niss": best.chain.niss_text if best else None,
                  "steps": [s.to_json() for s in best.chain.steps] if best else [],
                  "status": res.status, "complete": res.complete,
                  "seconds": round(res.seconds, 6), "nodes": res.nodes,
                  "searches": res.searches, "scramble_cases": res.scramble_cases,
                  "settings": {"steps": kinds, "axes": {k: list(v) for k, v in axes.items()},
                               "niss": niss, "keep": keep},
                  "solutions": [s.to_json() for s in res.solutions]}
        print(json.dumps(record))
    else:
        _print_pipeline(scramble_text, args.after, res)
    if interrupted:
        raise interrupted
    return 0


def _print_pipeline(scramble_text, after, res) -> None:
    eo = "; ".join(f"{a} {c}" for a, c in res.scramble_cases["eo"].items())
    print(f"scramble: {scramble_text}{'  then ' + after if after.strip() else ''}")
    print(f"EO cases: {eo}")
    if not res.solutions:
        print(f"no complete solution ({res.status})")
        return
    for k, sol in enumerate(res.solutions, 1):
        print()
        width = max(len(s.solution.text) for s in sol.chain.steps)
        for s in sol.chain.steps:
            text = s.solution.text or "(already done)"
            print(f"  {text:<{max(width, 14)}}  // {s.choice.label:<7} "
                  f"({s.solution.length}/{s.total}){'  ' + s.case if s.case else ''}")
        if sol.insertion is not None:
            _print_insertions(sol)
        word = "solution" if sol.solves else "skeleton"
        print(f"#{k} {word} ({sol.length}): {sol.text}")
    first = res.solutions[0]
    last = first.chain.steps[-1].choice.kind if first.chain.steps else ""
    if last == "ls" and first.insertion is None:
        print(f"\nthe slice's edges are left for insertions: cubelab insert --skeleton "
              f"\"{res.solutions[0].text}\" {scramble_text}")
    note = "" if res.complete else f" (stopped: {res.status}; the best found so far)"
    print(f"\n{len(res.solutions)} shown, {res.searches} step searches in {res.seconds:.1f} s"
          f"{note}")


def _print_insertions(sol) -> None:
    """A leave-slice skeleton and the insertions that finish it, each marked where it goes."""
    from cubelab.solvers.fmc.insertions import moves_text
    print(f"  skeleton ({len(sol.chain.final)}): {sol.skeleton_text}")
    for n, ins in enumerate(sol.insertion.insertions, 1):
        print(f"    {ins.marked(f'[{n}]')}")
        print(f"    [{n}] = {moves_text(ins.alg)}  // {ins.what()}, {ins.cancelled} cancelled")
