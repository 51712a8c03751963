"""`cubelab facts`: the net and the group facts of a position of either cube, as text or JSON."""

from __future__ import annotations

import json

from .inputs import add_position_arguments, print_file_records, single_position


def register(sub) -> None:
    p = sub.add_parser("facts", help="show the net and the group facts of a position")
    add_position_arguments(p)
    p.add_argument("--json", action="store_true", help="print JSON (JSON Lines with --file)")
    p.add_argument("--class", dest="show_class", action="store_true",
                   help="also list the positions of the morph class (as facelet strings)")
    p.add_argument("--link", action="store_true",
                   help="also print links that open the position in the cubing.js player")
    p.add_argument("--svg", metavar="FILE", help="also write the net as an SVG picture")
    p.set_defaults(func=run)


def run(args) -> int:
    from cubelab.cube.facts_report import format_facts
    from cubelab.cube.positions import PositionError
    from cubelab.cube.puzzles import puzzle_named
    puzzle = puzzle_named(args.puzzle)
    if args.file:
        return print_file_records(
            args.file,
            lambda text: puzzle.facts_record(puzzle.position(text, args.unreachable),
                                             args.show_class),
            args.json, format_facts, (PositionError,))
    position = single_position(args)
    record = puzzle.facts_record(position, args.show_class)
    if args.link or args.svg:
        from .share import share_record
        record.update(share_record(args, puzzle, position))
    if args.json:
        print(json.dumps(record))
        return 0
    from rich.console import Console
    from cubelab.cube.net import Net
    console = Console()
    console.print(Net(position.state))
    console.print(format_facts(record), highlight=False, markup=False)
    for key, label in (("twizzle", "twizzle"), ("alg_cubing_net", "alg.cubing"), ("svg", "svg")):
        if key in record:
            print(f"{label:<12} {record[key]}")
    return 0
