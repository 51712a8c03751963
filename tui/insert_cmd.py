"""`cubelab insert --skeleton ALG SCRAMBLE`: insertions of 3-cycle and parity algs into an FMC
skeleton.

The skeleton (face turns, or FMC notation `A ^(B)` as `cubelab fmc` prints it: B on the
inverse scramble) leaves a few corners and edges unsolved; the command finds where to insert
corner and edge 3-cycle algs (every sequence of up to 10 moves that is one) and, when the
skeleton leaves an odd permutation (two 2-swaps), one parity alg (every sequence of up to 11
moves swapping two corners and two edges), so that the whole cancels to the fewest moves. It
prints each insertion marked in the sequence it goes into (`[1]`), the alg, the moves
cancelled, and the final solution, checked on the model. `--json` writes one record. Bad
input (parity with parity algs left out, a kind not allowed, too many pieces) exits 2 with one
line saying why.
"""

from __future__ import annotations

import json
import sys

from cubelab.tui.argtypes import count, seconds
from cubelab.tui.errors import InputError
from cubelab.tui.interrupts import Interrupted, run_interruptible


def register(sub) -> None:
    p = sub.add_parser(
        "insert", help="FMC insertions: 3-cycle and parity algs inserted into a skeleton",
        description="Finds where to insert corner and edge 3-cycle algs (every face-turn "
                    "sequence of up to 10 moves that is one) and, for a skeleton leaving "
                    "parity, a parity alg (every sequence of up to 11 moves swapping two "
                    "corners and two edges; searched once, a minute or two) into a skeleton "
                    "so that the solution cancels to the fewest moves; several insertions "
                    "when the skeleton leaves several 3-cycles, twisted corners or flipped "
                    "edges.")
    p.add_argument("scramble", nargs="+", metavar="SCRAMBLE", help="the scramble (face turns)")
    p.add_argument("-s", "--skeleton", required=True, metavar="ALG",
                   help="the skeleton: face turns, FMC notation A ^(B) allowed")
    p.add_argument("--algs", default="corners,edges,parity", metavar="KINDS",
                   help="algs that may be inserted: corners and edges (3-cycles), parity "
                        "(a corner and an edge 2-swap) (default: %(default)s)")
    p.add_argument("--max-insertions", type=count(1, 6), default=4, metavar="N",
                   help="refuse a skeleton that needs more insertions (default: %(default)s)")
    p.add_argument("--beam", type=count(1, 1_000_000), default=None, metavar="N",
                   help="sequences kept after each insertion of several (default: 100)")
    p.add_argument("--exhaustive", action="store_true",
                   help="keep every sequence: the best is then proven among insertions")
    p.add_argument("-n", "--count", type=count(1, 100), default=3, metavar="N",
                   help="solutions to print (default: %(default)s)")
    p.add_argument("--time-limit", type=seconds, default=None, metavar="S",
                   help="stop after S seconds")
    p.add_argument("--json", action="store_true", help="one JSON record")
    p.set_defaults(func=run)


def _kinds(text: str) -> tuple[str, ...]:
    from cubelab.tables.insertions.algs import ALL_KINDS
    names = {"corners": "corners", "corner": "corners", "3cp": "corners",
             "edges": "edges", "edge": "edges", "3ep": "edges",
             "parity": "parity", "2c2e": "parity"}
    out = []
    for word in (w.strip().lower() for w in text.split(",")):
        if word not in names:
            raise InputError(f"--algs: unknown alg set {word!r} (choose from "
                             f"{', '.join(ALL_KINDS)})")
        out.append(names[word])
    return tuple(out)


def run(args) -> int:
    from cubelab.solvers.fmc.insertions import (
        DEFAULT_BEAM, InsertionError, check_skeleton, find_insertions, leftover_of,
    )
    from cubelab.tables.insertions.specs import load_alg_sets, load_parity_set
    from cubelab.solvers.protocol import Deadline, new_cancel, new_counters
    from cubelab.tables.sequences import invert_seq
    from cubelab.tui.fmc_cmd import read_moves

    if args.exhaustive and args.beam is not None:
        raise InputError("--exhaustive keeps every sequence: give it or --beam, not both")
    scramble_text = " ".join(args.scramble)
    scramble, _ = read_moves(scramble_text, "scramble", niss=False)
    normal, inverse = read_moves(args.skeleton, "--skeleton", niss=True)
    if not normal and not inverse:
        raise InputError("--skeleton: no moves (give the skeleton's face turns)")
    kinds = _kinds(args.algs)
    from cubelab.cube.moves import FACE_MOVES
    idx = [FACE_MOVES.index(m) for m in scramble]
    skeleton = tuple(FACE_MOVES.index(m) for m in normal) + \
        invert_seq(tuple(FACE_MOVES.index(m) for m in inverse))
    beam = 10 ** 9 if args.exhaustive else (args.beam or DEFAULT_BEAM)
    counters, cancel = new_counters(), new_cancel()

    try:            # a skeleton no insertion can finish is refused before any table is read
        needs = check_skeleton(leftover_of(idx, skeleton), kinds, args.max_insertions)
    except InsertionError as e:
        raise InputError(str(e)) from None

    def work():
        sets = load_alg_sets(cancel=cancel)     # made once (seconds): not against the limit
        if needs[1].get("parity"):
            sets["parity"] = load_parity_set(cancel=cancel)
        with Deadline(cancel, args.time_limit):
            return find_insertions(idx, skeleton, kinds=kinds, beam=beam, sets=sets,
                                   max_insertions=args.max_insertions, count=args.count,
                                   counters=counters, cancel=cancel)

    interrupted = None
    try:
        res = run_interruptible(work, cancel, name="insert")
    except InsertionError as e:
        raise InputError(str(e)) from None
    except Interrupted as stop:
        interrupted, res = stop, stop.partial
        if res is None:
            raise
    if res.status == "cancelled" and args.time_limit is not None and not interrupted:
        res.status = "time limit"
    if args.json:
        print(json.dumps(_record(scramble_text, args.skeleton, res, args.exhaustive)))
    else:
        _print(scramble_text, args.skeleton, res)
    if interrupted:
        raise interrupted
    return 0


def _record(scramble_text, skeleton_text, res, exhaustive) -> dict:
    from cubelab.solvers.fmc.insertions import moves_text
    best = res.best
    return {
        "scramble": scramble_text, "skeleton": skeleton_text,
        "skeleton_moves": moves_text(res.reduced), "skeleton_length": len(res.reduced),
        "leftover": res.leftover, "insertions_needed": res.needed,
        "solution": best.text if best else None, "length": best.length if best else None,
        "cancelled": best.cancelled if best else None,
        "insertions": best.to_json()["insertions"] if best else [],
        "verified": bool(best), "optimal": res.optimal, "status": res.status,
        "nodes": res.nodes, "seconds": round(res.seconds, 6),
        "settings": {"algs": list(res.kinds), "max_len": res.max_len,
                     "beam": None if exhaustive else res.beam},
        "truncated_levels": res.truncated_levels,
        "solutions": [s.to_json() for s in res.solutions]}


def leftover_words(left: dict) -> str:
    """What a skeleton leaves, in words: its corner and edge cycles, and parity if odd."""
    parts = [f"corners {left['corners']}" if left["corners"] else "",
             f"edges {left['edges']}" if left["edges"] else "",
             "parity (an odd permutation)" if left.get("parity") else ""]
    return ", ".join(p for p in parts if p) or "nothing"


def _print(scramble_text, skeleton_text, res) -> None:
    from cubelab.solvers.fmc.insertions import moves_text
    left = res.leftover
    what = leftover_words(left)
    print(f"scramble: {scramble_text}")
    print(f"skeleton ({len(res.reduced)}): {moves_text(res.reduced) or '(empty)'}")
    print(f"leaves {what}: {res.needed} insertion{'s' * (res.needed != 1)}")
    if not res.solutions:
        print(f"no solution found ({res.status})")
        return
    if res.needed == 0:
        print(f"the skeleton solves the scramble as it is ({res.best.length} moves)")
        return
    for k, sol in enumerate(res.solutions, 1):
        print()
        print(f"#{k} {sol.length} moves ({sol.cancelled} cancelled)")
        for n, ins in enumerate(sol.insertions, 1):
            print(f"  {ins.marked(f'[{n}]')}")
            print(f"    [{n}] = {moves_text(ins.alg)}  // {ins.what()}, {len(ins.alg)} moves, "
                  f"{ins.cancelled} cancelled -> {len(ins.after)}")
        print(f"  solution ({sol.length}): {sol.text}")
    scope = ", ".join(f"{k} up to {n} moves" for k, n in res.max_len.items())
    print()
    if res.optimal:
        print(f"optimal: {res.best.length} moves is the shortest of every way of making "
              f"{res.needed} insertion{'s' * (res.needed != 1)} of these algs ({scope})")
    elif res.status == "solved":
        print(f"best found keeping {res.beam} sequences per insertion (not proven; "
              "--exhaustive tries them all)")
    else:
        print(f"stopped ({res.status}): the best found so far")
