"""One bar over all the tables a solver builds: table k of N, bytes done, time left; and an estimate up front.

A solver's prepare() builds its missing tables one after another (dependencies first), each
reporting its own progress. The front ends feed its log and progress callbacks to a
`BuildProgress`, which follows the store's build notes (tables/store.py `BuildNote`) and turns
them into one fraction weighted by how long each table should take, with the time left. Textual-
free: the command line, the REPL and the workbench draw the same figures.
"""

from __future__ import annotations

import time

BYTES_PER_SECOND = 6e6
"""How fast the breadth-first builders fill a table on the reference machine (2 cores): the
figure behind the estimates said before a build starts (the bar's estimate then follows the
build itself)."""
SECONDS_PER_TABLE = 1.0
"""What a table costs besides its bytes (its kernels, its move tables): small tables take
about this long whatever their size."""
COMPILE_SECONDS = 20.0
"""Compiling a solver's search kernels once tables are there (the first time only)."""


def _weight(spec) -> float:
    """A table's expected build time in seconds: its own figure where it has one, else from its
    size."""
    seconds = getattr(spec, "expected_seconds", None)
    if seconds is None:
        seconds = (getattr(spec, "expected_bytes", 0) or 0) / BYTES_PER_SECOND
    return SECONDS_PER_TABLE + seconds


def duration(seconds: float) -> str:
    """'a few seconds', 'about 30 s', 'about 3 min'."""
    if seconds < 4:
        return "a few seconds"
    if seconds < 90:
        return f"about {max(5, round(seconds / 5) * 5):.0f} s"
    return f"about {round(seconds / 60):.0f} min"


def megabytes(nbytes: float) -> str:
    return f"{nbytes / 1e6:,.0f} MB" if nbytes >= 1e6 else f"{nbytes / 1e6:.1f} MB"


def describe_build(specs, compile_seconds: float = COMPILE_SECONDS) -> str:
    """What building `specs` (the solver's missing tables) means: '17 tables, 74 MB, about
    35 s the first time' (`compile_seconds`: what compiling the solver adds)."""
    sizes = [s.expected_bytes or 0 for s in specs]
    seconds = sum(_weight(s) for s in specs) + compile_seconds
    count = f"{len(sizes)} table{'s' if len(sizes) != 1 else ''}"
    size = f", {megabytes(sum(sizes))}" if sum(sizes) else ""
    return f"{count}{size}, {duration(seconds)} the first time"


class BuildProgress:
    """Follows the builds of `specs` (and of any table they pull in) through the store's notes.

    Pass `log` and `progress` on as a solver's prepare() callbacks (or call them from yours);
    read `fraction`, `index`, `count`, `current`, `seconds_left()` and `line()`."""

    def __init__(self, specs, clock=time.perf_counter):
        self._clock = clock
        self.sizes: dict[str, int] = {s.name: int(s.expected_bytes or 0) for s in specs}
        self.weights: dict[str, float] = {s.name: _weight(s) for s in specs}
        self.finished: list[str] = []
        self.stack: list[str] = []          # builds under way, innermost last
        self.within = 0.0                   # the innermost build's own fraction
        self.started: float | None = None
        self.last_message = ""
        self.loose: float | None = None     # progress reported outside any build note

    # ---- the callbacks ------------------------------------------------------------------
    def log(self, message) -> None:
        """A prepare() log callback: build notes move the bar, other messages are kept."""
        event = getattr(message, "event", None)
        name = getattr(message, "name", None)
        if event == "building":
            if self.started is None:
                self.started = self._clock()
            self.sizes.setdefault(name, 0)
            self.weights.setdefault(name, SECONDS_PER_TABLE)
            self.stack.append(name)
            self.within = 0.0
        elif event == "built":
            if name in self.stack:
                self.stack.remove(name)
            if name not in self.finished:
                self.finished.append(name)
            if not self.sizes.get(name):
                self.sizes[name] = int(getattr(message, "nbytes", 0))
            self.weights.setdefault(name, SECONDS_PER_TABLE)
            self.within = 0.0
        else:
            self.last_message = str(message)

    def progress(self, done: int, total: int) -> None:
        """A prepare() progress callback: the innermost build's own progress (a solver that
        reports progress without the store's notes moves the whole bar)."""
        fraction = min(1.0, done / total) if total else 0.0
        if self.started is None:
            self.started = self._clock()
        if self.stack:
            self.within = fraction
        else:
            self.loose = fraction

    # ---- what to show -------------------------------------------------------------------
    @property
    def count(self) -> int:
        return len(self.sizes)

    @property
    def index(self) -> int:
        """The number of the table being built (1-based), or of the last one when all are done."""
        return min(self.count, len(self.finished) + (1 if self.stack else 0))

    @property
    def current(self) -> str | None:
        return self.stack[-1] if self.stack else None

    @property
    def building(self) -> bool:
        return bool(self.stack) or (self.loose is not None and self.loose < 1.0)

    def _weights(self) -> tuple[float, float]:
        """(expected seconds of the work done, expected seconds in all)."""
        total = sum(self.weights.values())
        done = sum(self.weights[n] for n in self.finished)
        if self.stack:
            done += self.within * self.weights[self.stack[-1]]
        return done, total

    @property
    def fraction(self) -> float:
        if self.loose is not None and not self.stack and not self.finished:
            return self.loose
        done, total = self._weights()
        return min(1.0, done / total) if total else 0.0

    @property
    def bytes_done(self) -> int:
        done = sum(self.sizes[n] for n in self.finished)
        if self.stack:
            done += int(self.within * self.sizes[self.stack[-1]])
        return done

    @property
    def total_bytes(self) -> int:
        return sum(self.sizes.values())

    def seconds_left(self) -> float:
        """From the pace so far once there is one; from the expected times before that."""
        done, total = self._weights()
        if self.started is not None and done > 0.05 * total:
            elapsed = self._clock() - self.started
            return max(0.0, elapsed * (total - done) / done)
        return max(0.0, total - done)

    def line(self) -> str:
        """'table 9/17 kociemba.phase1_prune · 31/74 MB · about 20 s left'."""
        head = f"table {self.index}/{self.count}"
        if self.current:
            head += f" {self.current}"
        size = f" · {self.bytes_done / 1e6:,.0f}/{megabytes(self.total_bytes)}" \
            if self.total_bytes >= 1e6 else ""
        if self.fraction >= 1.0:
            return f"{head}{size} · done"
        return f"{head}{size} · {duration(self.seconds_left())} left"


if __name__ == "__main__":
    from types import SimpleNamespace as Note
    specs = [Note(name=f"t{i}", expected_bytes=n) for i, n in enumerate((1e5, 35e6, 2e6))]
    bar = BuildProgress(specs)
    print("up front:", describe_build(specs))
    for spec in specs:
        bar.log(Note(event="building", name=spec.name))
        bar.progress(1, 2)
        print(f"{bar.fraction:4.0%}", bar.line())
        bar.log(Note(event="built", name=spec.name, nbytes=spec.expected_bytes))
