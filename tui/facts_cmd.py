"""`cubelab facts`: the net and the group facts of a position of either cube, as text or JSON."""

from __future__ import annotations

from .inputs import PositionInput, add_position_arguments


def register(sub) -> None:
    p = sub.add_parser("facts", help="show the net and the group facts of a position")
    add_position_arguments(p)
    p.add_argument("--json", action="store_true", help="print JSON (JSON Lines with --file)")
    p.add_argument("--class", dest="show_class", action="store_true",
                   help="also list the positions of the morph class (as facelet strings)")
    p.add_argument("--link", action="store_true",
                   help="also print links that open the position in the cubing.js player")
    p.add_argument("--svg", metavar="FILE", help="also write the net as an SVG picture")
    p.add_argument("--letters", metavar="SCHEME", default="speffz",
                   help="the blindfold memo's letter scheme: speffz (default), or 24 letters "
                        "for both kinds of sticker, or 24 corner and 24 edge letters (quoted)")
    p.add_argument("--buffers", nargs=2, metavar=("CORNER", "EDGE"), default=("UFR", "UF"),
                   help="the memo's buffers: UFR or UBL, then UF or DF (default UFR UF)")
    p.set_defaults(func=run)


def memo_options(args):
    """The memo's letter scheme and buffers from --letters and --buffers; InputError."""
    from cubelab.cube.letters import MemoOptions, letter_scheme_from_text
    from .errors import InputError
    try:
        corner, edge = (b.upper() for b in args.buffers)
        return MemoOptions(letter_scheme_from_text(args.letters), corner, edge)
    except ValueError as e:
        raise InputError(f"--letters/--buffers: {e}") from None


def whole(position):
    """The position itself; for facelets with grey stickers, the one position they show, or
    InputError naming a piece they leave open (facts belong to whole positions)."""
    from cubelab.cube.masked_facelets import MaskedPosition, hidden_choice
    mask = position.state
    if not isinstance(mask, MaskedPosition):
        return position
    from cubelab.cube.positions import Position
    from .errors import InputError
    where = hidden_choice(mask)
    if where is not None:
        raise InputError(f"--facelets: the grey stickers could hide more than one position "
                         f"({where} is not pinned down); facts need the whole position (solve "
                         f"what is shown with cubelab solve --facelets)")
    return Position(mask.state)


def run(args) -> int:
    from cubelab.cube.facts_report import format_facts
    given = PositionInput.from_args(args)
    puzzle = given.puzzle
    options = memo_options(args)
    if given.file:
        from .record_writer import RecordWriter, write_file_records
        return write_file_records(
            given.lines(),
            lambda position: (puzzle.facts_record(position, args.show_class, options), None),
            RecordWriter(args.json, format_facts))
    position = given.single(grey=True)
    if given.facelets is not None:      # only facelets can be grey (masked_facelets: ~4 ms)
        position = whole(position)
    record = puzzle.facts_record(position, args.show_class, options)
    if args.link or args.svg:
        from .share import share_record
        record.update(share_record(puzzle, position, link=args.link, svg=args.svg))
    if args.json:
        import json
        print(json.dumps(record))
        return 0
    _print_net_and_facts(position, format_facts(record))
    for key, label in (("twizzle", "twizzle"), ("alg_cubing_net", "alg.cubing"), ("svg", "svg")):
        if key in record:
            print(f"{label:<12} {record[key]}")
    return 0


def _print_net_and_facts(position, text: str) -> None:
    """The net, then the facts' lines, as rich's Console prints them; written directly where
    the terminal lets that be byte for byte the same (tui/plain_terminal.py), which spares
    importing rich.console."""
    import sys
    from cubelab.cube.net import Net, net_size
    from .plain_terminal import terminal, unchanged
    net = Net(position.state)
    seen = terminal(sys.stdout)
    if (seen is not None and net_size(net.n, 1, grid=seen.colour)[0] <= seen.width
            and unchanged(text, seen.width)):
        sys.stdout.write(net.terminal_text(seen.colour) + text + "\n")
        sys.stdout.flush()
        return
    from rich.console import Console
    console = Console()
    console.print(net)
    console.print(text, highlight=False, markup=False)
