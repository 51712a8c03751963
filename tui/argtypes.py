"""argparse types for the numbers users type: finite seconds, bounded counts, port numbers.

A bad value becomes argparse's one-line error (exit 2) instead of an OverflowError in a timer
thread (`inf`, `1e300`), a search that never stops (`nan`) or an int64 overflow (`10**20`).
"""

from __future__ import annotations

import argparse
import math

MAX_SECONDS = 1e7
"""About 115 days: longer time limits are typing mistakes (and overflow the timer's clock)."""


def seconds(text: str) -> float:
    """A time limit: a finite number of seconds above 0 and at most MAX_SECONDS."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if math.isnan(value) or value <= 0 or value > MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            f"{text!r} seconds: give a number above 0 and at most {MAX_SECONDS:g}")
    return value


def count(low: int, high: int):
    """An argparse type for a whole number from low to high."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is outside {low}-{high}")
        return value
    parse.__name__ = "count"
    return parse


def length_cap(low: int, high: int):
    """An argparse type for a length cap from low to high: a whole number, or a decimal (a
    weighted cost; the caller refuses one where no weights are given). A whole value comes
    back as an int."""
    def parse(text: str) -> int | float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if value != value or not low <= value <= high:     # (NaN compares false)
            raise argparse.ArgumentTypeError(f"{text} is outside {low}-{high}")
        return int(value) if value.is_integer() else value
    parse.__name__ = "length"
    return parse


def port_number(text: str) -> int:
    """A TCP port a server may listen on (1-65535)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port {port} is outside 1-65535")
    return port
