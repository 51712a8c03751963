"""`cubelab facts`: the net and the group facts of a position, as text or JSON."""

from __future__ import annotations

import json
import sys

from .inputs import add_position_arguments, print_file_records, single_position


def register(sub) -> None:
    p = sub.add_parser("facts", help="show the net and the group facts of a position")
    add_position_arguments(p)
    p.add_argument("--json", action="store_true", help="print JSON (JSON Lines with --file)")
    p.add_argument("--class", dest="show_class", action="store_true",
                   help="also list the positions of the morph class (as facelet strings)")
    p.add_argument("--puzzle", choices=("3x3", "2x2"), default="3x3",
                   help="which cube (default %(default)s; 2x2 facelets have 24 stickers)")
    p.set_defaults(func=run)


def facts_record(position, show_class: bool = False) -> dict:
    from cubelab.cube.facelets import to_facelets
    from cubelab.cube.facts import facts
    from cubelab.cube.notation import (format_moves, invert_moves, metric_lengths, mirror_moves,
                                       simplify)
    record = facts(position.state).as_dict()
    if position.alg is not None:
        record["alg"] = position.alg
        record["length"] = metric_lengths(position.moves)
        record["moves"] = format_moves(position.moves)
        record["simplified"] = format_moves(simplify(position.moves))
        record["inverse"] = format_moves(invert_moves(position.moves))
        record["mirror"] = format_moves(mirror_moves(position.moves))
    if show_class:
        from cubelab.cube.symmetry import morph_class
        record["class"] = [to_facelets(s) for s in morph_class(position.state.normalized())]
    return record


def format_facts(record: dict) -> str:
    """The facts as aligned text lines (shared with the plain REPL)."""
    lines = []
    if "alg" in record:
        ln = record["length"]
        lines.append(f"alg          {record['alg'] or '(none)'}")
        lines.append(f"length       {ln['htm']} HTM, {ln['qtm']} QTM, {ln['stm']} STM, {ln['etm']} ETM")
        if record["simplified"] != record["moves"]:
            lines.append(f"simplified   {record['simplified'] or '(nothing)'}")
        lines.append(f"inverse      {record['inverse'] or '(none)'}")
        lines.append(f"mirror       {record['mirror'] or '(none)'}")
    reach = "reachable" if record["reachable"] else "unreachable: " + "; ".join(record["invariants"])
    lines += [
        f"facelets     {record['facelets']}",
        f"order        {record['order']}",
        f"parity       {record['parity']}",
        f"trace        ({', '.join(str(t) for t in record['trace'])})  {reach}",
        f"morph        {record['morph']}",
        f"corners      {record['corner_cycles'] or '(solved)'}",
        f"edges        {record['edge_cycles'] or '(solved)'}",
        f"3-cycles     corners {record['corner_3cycles'] or '-'}",
        f"             edges   {record['edge_3cycles'] or '-'}",
        f"in centre    {'yes' if record['in_centre'] else 'no'}",
    ]
    c = record["coordinates"]
    lines.append(f"coordinates  corner perm {c['corner_perm']}, twist {c['corner_twist']}, "
                 f"edge perm {c['edge_perm']}, flip {c['edge_flip']}")
    if "class" in record:
        lines.append(f"class        {len(record['class'])} positions:")
        lines += [f"             {f}" for f in record["class"]]
    return "\n".join(lines)


def run(args) -> int:
    if args.puzzle == "2x2":
        return _run_pocket(args)
    if args.file:
        return _run_file(args)
    position = single_position(args)
    record = facts_record(position, args.show_class)
    if args.json:
        print(json.dumps(record))
        return 0
    from rich.console import Console
    from cubelab.cube.net import Net
    console = Console()
    console.print(Net(position.state))
    console.print(format_facts(record), highlight=False, markup=False)
    return 0


def _run_file(args) -> int:
    from cubelab.cube.positions import PositionError, parse_position
    return print_file_records(
        args.file, lambda text: facts_record(parse_position(text), args.show_class), args.json,
        format_facts, (PositionError,))


def _pocket_record(text: str) -> dict:
    from cubelab.cube.pocket import pocket_facts_record
    return pocket_facts_record(text)


def _run_pocket(args) -> int:
    """The 2x2x2: the same command with its own model, net and facts."""
    from cubelab.cube.pocket import PocketError, PocketNet, format_facts as pocket_format, parse_position
    from .errors import InputError
    if args.file:
        return print_file_records(args.file, _pocket_record, args.json, pocket_format,
                                  (PocketError,))
    if args.facelets is not None and args.alg:
        raise InputError("give either an alg or --facelets, not both")
    text = "facelets: " + args.facelets if args.facelets is not None else " ".join(args.alg)
    try:
        record = _pocket_record(text)
        state = parse_position(text).state
    except PocketError as e:
        raise InputError(str(e)) from None
    if args.json:
        print(json.dumps(record))
        return 0
    from rich.console import Console
    console = Console()
    console.print(PocketNet(state))
    console.print(pocket_format(record), highlight=False, markup=False)
    return 0
