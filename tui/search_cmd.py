"""`cubelab search`: move sequences whose effect meets a predicate, one line per class, streamed."""

from __future__ import annotations

import json
import sys
import threading

from cubelab.tui.errors import InputError
from cubelab.tui.interrupts import GRACE, Latch
from cubelab.tui.stopping import acknowledge

_MAX_LENGTH = 20


def register(sub) -> None:
    p = sub.add_parser(
        "search", help="find every move sequence up to N moves whose effect meets a predicate",
        description="Predicates: ll (only the U layer changes), only PIECE... (e.g. only UFR UF), "
                    "corner-3cycle, edge-3cycle, orient (twists/flips, nothing permuted), "
                    "equals ALG (or 'equals facelets: ...', with --ignore for a partial one), "
                    "symmetry TYPE (fixed by a subgroup of that type: Oh, D4h, C4v, ...). "
                    "One line per class of effects up to the 48 symmetries and inversion.")
    p.add_argument("predicate", nargs="+", metavar="PREDICATE", help="what the effect must do")
    p.add_argument("--max-length", "-n", type=int, required=True, metavar="N",
                   help="longest sequences to search, in the metric")
    p.add_argument("--metric", choices=("htm", "qtm"), default="htm",
                   help="count half turns as one move (htm) or two (qtm) (default: %(default)s)")
    p.add_argument("--auf", action="store_true",
                   help="also treat effects that differ by a U turn before or after as one class")
    p.add_argument("--ignore", action="append", default=[], metavar="PIECES",
                   help="with equals: pieces that may end anywhere (e.g. --ignore UFR,UF)")
    p.add_argument("--json", action="store_true",
                   help="JSON Lines: one record per class, then a summary record")
    p.set_defaults(func=run)


def _predicate(args):
    from cubelab.solvers.algsearch import parse_predicate
    if args.ignore and args.predicate[0].lower() != "equals":
        raise InputError("--ignore goes with the equals predicate")
    try:
        return parse_predicate(args.predicate, args.ignore)
    except ValueError as e:
        raise InputError(str(e)) from None


def _class_line(c) -> str:
    d = c.as_dict()
    return (f"{c.length:>3}  {d['moves']:<34} corners {d['corners']:<18} edges {d['edges']:<18} "
            f"order {d['order']:<4} morph {d['morph']}")


def run(args) -> int:
    if not 1 <= args.max_length <= _MAX_LENGTH:
        raise InputError(f"--max-length must lie between 1 and {_MAX_LENGTH}")
    predicate = _predicate(args)
    from cubelab.solvers.algsearch import SearchTooBig, check_size, search
    from cubelab.solvers.protocol import BEST, BOUND, NODES, new_cancel, new_counters
    try:
        check_size(args.metric, args.max_length)
    except SearchTooBig as e:
        raise InputError(str(e)) from None

    counters, cancel = new_counters(), new_cancel()
    lock = threading.Lock()
    tty = sys.stderr.isatty() and not args.json
    shown = [False]

    def clear_bar():
        if shown[0]:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
            shown[0] = False

    def on_class(c):
        with lock:
            clear_bar()
            if args.json:
                record = c.as_dict()
                del record["sequences"]     # still being counted; the summary has them
                print(json.dumps({"type": "class", **record}), flush=True)
            else:
                print(_class_line(c), flush=True)

    if not args.json:
        print(f"{predicate.description}; up to {args.max_length} {args.metric.upper()}"
              f"{', classes up to AUF too' if args.auf else ''}")
        print(f"{'len':>3}  {'first sequence found':<34} {'cycles':<24}")
    outcome: dict = {}
    # waited on instead of Thread.join (on Python 3.11 a Ctrl-C landing inside join() can mark
    # a still-running thread as finished) or an Event (see Latch)
    done = Latch()

    def work():
        try:
            outcome["result"] = search(predicate, args.max_length, args.metric, auf=args.auf,
                                       on_class=on_class, counters=counters, cancel=cancel)
        except BaseException as e:  # re-raised in the main thread
            outcome["error"] = e
        finally:
            done.set()

    worker = threading.Thread(target=work, name="algsearch", daemon=True)
    worker.start()
    interrupted: KeyboardInterrupt | None = None
    try:
        while not done.wait(0.2):
            if tty:
                with lock:
                    sys.stderr.write(f"\rsearching length {counters[BOUND]}: "
                                     f"{counters[NODES]:,} first halves, {counters[BEST]:,} classes")
                    sys.stderr.flush()
                    shown[0] = True
    except KeyboardInterrupt as stop:
        acknowledge()       # an orderly stop is under way (stopping.py)
        interrupted = stop
        cancel[0] = 1
        done.wait(GRACE)    # a search that is still compiling is abandoned, not awaited
    # after an interrupt the worker may hold the lock, blocked writing to a reader that stopped
    # reading (a full pipe): do not wait on it for ever
    if lock.acquire(timeout=GRACE if interrupted else -1):
        clear_bar()
        lock.release()
    if "error" in outcome:
        raise outcome["error"]
    if "result" not in outcome:
        raise interrupted
    res = outcome["result"]
    summary = {"classes": len(res.classes), "sequences": res.sequences,
               "complete_to": res.lengths_done, "seconds": round(res.seconds, 3),
               "status": res.status}
    if args.json:
        summary["sequences_by_class"] = [
            {str(k): v for k, v in sorted(c.sequences.items())} for c in res.classes]
        print(json.dumps({"type": "summary", "predicate": predicate.name, "metric": args.metric,
                          "max_length": args.max_length, **summary}), flush=True)
    else:
        shortest = min((c.length for c in res.classes), default=None)
        print(f"{len(res.classes)} classes, {res.sequences:,} sequences"
              f"{f', shortest {shortest}' if shortest else ''}; lengths 1..{res.lengths_done} "
              f"complete in {res.seconds:.1f} s" + ("" if res.status == "done" else " (cancelled)"))
    if interrupted:
        raise interrupted   # after the summary of what was found: exit 130 or 143
    return 0
