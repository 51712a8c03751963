"""How commands take a position: ALG words, --facelets S, or --file PATH (one position a line)."""

from __future__ import annotations

import json
import sys
from typing import Callable, Iterator

from cubelab.tui.errors import InputError
from cubelab.cube.positions import Position, PositionError, from_alg, from_facelets, parse_position


def add_position_arguments(parser) -> None:
    parser.add_argument("alg", nargs="*", metavar="ALG",
                        help="a move sequence, e.g. \"R U R' U'\" or \"[R, U]3\"")
    parser.add_argument("--facelets", metavar="S", help="a 54-character facelet string (URFDLB order)")
    parser.add_argument("--file", metavar="PATH",
                        help="one position a line: an alg or 'facelets: <54 chars>' ('-' for stdin)")


def single_position(args) -> Position:
    """The one position named by ALG words or --facelets; raises InputError on bad input."""
    given = sum(bool(x) for x in (args.alg, args.facelets))
    if given > 1:
        raise InputError("give either an alg or --facelets, not both")
    try:
        if args.facelets is not None:
            return from_facelets(args.facelets)
        return from_alg(" ".join(args.alg))
    except PositionError as e:
        raise InputError(str(e)) from None


def file_lines(path: str) -> Iterator[tuple[int, str]]:
    """(line number, text) for each non-blank, non-comment line of a file ('-' = stdin)."""
    try:
        handle = sys.stdin if path == "-" else open(path, encoding="utf-8")
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}") from None
    with handle:
        for number, line in enumerate(handle, start=1):
            text = line.strip()
            if text and not text.startswith("#"):
                yield number, text


def positions_from_file(path: str) -> Iterator[tuple[int, str, Position | PositionError]]:
    for number, text in file_lines(path):
        try:
            yield number, text, parse_position(text)
        except PositionError as e:
            yield number, text, e


def print_file_records(path: str, record_for: Callable[[str], dict], as_json: bool,
                       format_record: Callable[[dict], str], errors=(ValueError,)) -> int:
    """Run `record_for` on each line of a --file and print the records in order: JSON Lines
    (bad lines as {"error", "line", "input"} records) or text (errors on stderr). Returns the
    exit status: 2 if any line was bad."""
    status = 0
    for number, text in file_lines(path):
        try:
            record = record_for(text)
            record["line"] = number
        except errors as e:
            status = 2
            record = {"error": str(e), "line": number, "input": text}
        if as_json:
            print(json.dumps(record), flush=True)
        elif "error" in record:
            print(f"line {number}: {record['error']}", file=sys.stderr)
        else:
            print(f"# line {number}: {text}")
            print(format_record(record))
            print()
    return status
