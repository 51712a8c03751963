"""Where the records of `facts`, `solve` and `count` go: JSON Lines or text, one writer for all.

A record is a dict (what --json prints) and its text; `RecordWriter` writes it as a JSON line
(to stdout, or appended to an --output file and flushed as each is done) or as text, error
records of bad input lines ({"error", "line", "input"}) included: in text they go to stderr.
`write_file_records` is the one loop over the lines of a --file: the good lines' records come,
in order, from any source (computed here, or solved in workers), the bad lines' are errors.
"""

from __future__ import annotations

import json
import sys
from typing import Callable, Iterable


class RecordWriter:
    """JSON Lines (`as_json`, or always to `out`) or text through `text(record)`; `status` is 2
    once an error record was written (a bad line: the command exits 2 at the end)."""

    def __init__(self, as_json: bool, text: Callable[[dict], str], out=None):
        self.as_json = as_json
        self.text = text
        self.out = out
        self.status = 0
        self.written = 0

    def write(self, record: dict, number: int | None = None, source: str = "",
              text: str | None = None) -> None:
        """One record; `number` and `source`: the --file line it answers (text gets a heading);
        `text`: the record's text when it is not text(record)."""
        if "error" in record:
            self.status = 2
        self.written += 1
        if self.out is not None:
            self.out.write(json.dumps(record) + "\n")
            self.out.flush()
        elif self.as_json:
            print(json.dumps(record), flush=True)
        elif "error" in record:
            where = f"line {number}: " if number is not None else ""
            print(f"{where}{record['error']}", file=sys.stderr)
        elif number is not None:
            print(f"# line {number}: {source}")
            print(self.text(record) if text is None else text)
            print()
        else:
            print(self.text(record) if text is None else text, flush=True)


def error_record(message: str, number: int, source: str) -> dict:
    return {"error": message, "line": number, "input": source}


def write_file_records(entries: Iterable[tuple[int, str, object]],
                       answer: Callable[[object], tuple[dict, str | None]],
                       writer: RecordWriter) -> int:
    """Write one record per --file line, in order, as the lines come: a line whose entry is an
    exception gets its error record; a good line's entry (a position) gets answer(entry), a
    (record, text or None) pair (an "error" record gets the line and input too). Returns the
    writer's status."""
    for number, source, entry in entries:
        if isinstance(entry, Exception):
            writer.write(error_record(str(entry), number, source), number, source)
            continue
        record, text = answer(entry)
        if "error" in record:
            record.update(line=number, input=source)
        else:
            record["line"] = number
        writer.write(record, number, source, text)
    return writer.status
