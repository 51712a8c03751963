"""A table of `:` commands declared beside their code, for the modules that add commands.

commands.py interprets the language and gathers every table (its own and the feature modules':
cycles and cases, patterns, sharing, recording), so a feature's commands live with the feature
and the interpreter stays one place.
"""

from __future__ import annotations

from typing import Callable


class CommandTable:
    """Commands in the order declared: `help[name] = (arguments, what it does)`, `handlers[name]`
    a function of (session, words, rest of the line) returning an Outcome, and `completers[name]`
    a function of (session, the words typed so far) giving the words that may come next."""

    def __init__(self):
        self.help: dict[str, tuple[str, str]] = {}
        self.handlers: dict[str, Callable] = {}
        self.completers: dict[str, Callable] = {}

    def command(self, name: str, args: str, what: str, complete: Callable | None = None):
        """Declare the function below as command `name`, taking `args`, doing `what`."""
        def declare(handler):
            self.help[name] = (args, what)
            self.handlers[name] = handler
            if complete is not None:
                self.completers[name] = complete
            return handler
        return declare
