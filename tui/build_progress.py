"""One bar over all the tables a solver builds: table k of N, bytes done, time left; and an estimate up front.

A solver's prepare() builds its missing tables one after another (dependencies first), each
reporting its own progress. The front ends feed its log and progress callbacks to a
`BuildProgress`, which follows the store's build notes (tables/store.py `BuildNote`) and turns
them into one fraction weighted by how long each table should take, with the time left. Textual-
free: the command line, the REPL and the workbench draw the same figures.

How the time left is judged. Each table has an expected time on the reference machine (its
spec's, or its size at BYTES_PER_SECOND). Before a table reports progress, that time is all
there is: scaled by the pace of the tables already built here, and before any, by how busy the
machine is (its load average over its cores: at load 15 on 2 cores a build takes several times
longer). Once the table reports progress, the smoothed rate of its progress units takes over
as its fraction done grows; the rate decays while nothing moves, so the estimate grows instead
of freezing. A table past its expected time that has shown too little progress to go by says
so ("preparing, 6 min so far") rather than guess. A busy machine is named on the line.
"""

from __future__ import annotations

import hashlib
import math
import os
import sys
import time
from pathlib import Path

BYTES_PER_SECOND = 6e6
"""How fast the breadth-first builders fill a table on the reference machine (2 cores): the
figure behind the estimates said before a build starts."""
SECONDS_PER_TABLE = 1.0
"""What a table costs besides its bytes (its kernels, its move tables): small tables take
about this long whatever their size."""
COMPILE_SECONDS = 20.0
"""Compiling a solver's search kernels and table builders (the first time only)."""
LOAD_SECONDS = 1.0
"""Loading them from numba's cache instead (every later process)."""
RATE_SECONDS = 30.0
"""Time constant of the smoothed progress rate: a burst or a pause of a few seconds moves the
estimate a little, one of a minute most of the way."""
PRIOR_SECONDS = 30.0
"""How much measured building (in expected seconds) weighs as much as the load's guess at the
machine's pace."""
TRUSTED_FRACTION = 0.05
"""Below this fraction done, a table past its expected time gives no estimate: breadth-first
builders fill few entries in their first levels, and a rate read there says hours."""


def machine_load() -> tuple[float, int]:
    """(the one-minute load average, the cores this process may use); a load of 0 where the
    system keeps none."""
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        load = 0.0
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 1
    return load, max(1, cores)


def slowdown(load: tuple[float, int]) -> float:
    """How many times longer than on an idle machine work takes at this load (at least 1)."""
    average, cores = load
    return max(1.0, average / cores)


def busy(load: tuple[float, int]) -> str:
    """'busy: load 15 on 2 cores' when the load average is above the core count, else ''."""
    average, cores = load
    if average <= cores:
        return ""
    return f"busy: load {average:.0f} on {cores} core{'s' if cores != 1 else ''}"


def _weight(spec) -> float:
    """A table's expected build time in seconds: its own figure where it has one (which says
    everything), else from its size and the fixed cost of a table."""
    seconds = getattr(spec, "expected_seconds", None)
    if seconds is not None:
        return seconds
    return SECONDS_PER_TABLE + (getattr(spec, "expected_bytes", 0) or 0) / BYTES_PER_SECOND


def _cache_folder(package_dir: str) -> Path | None:
    """Where numba caches the kernels of the modules in `package_dir` (numba names a folder of
    its NUMBA_CACHE_DIR after the source folder's name and the SHA-1 of its path), or None
    before the cache is placed (tables/jit.py places it when the first kernel module loads)."""
    root = os.environ.get("NUMBA_CACHE_DIR")
    if not root:
        return None
    digest = hashlib.sha1(package_dir.encode()).hexdigest()
    return Path(root) / f"{os.path.basename(package_dir)}_{digest}"


def compile_estimate(solver=None, specs=()) -> float:
    """What compiling adds before `solver` can build `specs` and search: COMPILE_SECONDS the
    first time, LOAD_SECONDS once numba's cache holds kernels of every folder involved (the
    solver's package and its tables' builders)."""
    folders = set()
    for thing in [solver, *(getattr(s, "build", None) for s in specs)]:
        module = sys.modules.get(getattr(thing, "__module__", None) or "")
        if thing is not None and module is not None and getattr(module, "__file__", None):
            folders.add(os.path.dirname(os.path.abspath(module.__file__)))
    caches = [_cache_folder(f) for f in folders]
    if caches and all(c is not None and any(c.glob("*.nbi")) for c in caches):
        return LOAD_SECONDS
    return COMPILE_SECONDS


def duration(seconds: float) -> str:
    """'a few seconds', 'about 30 s', 'about 3 min'."""
    if seconds < 4:
        return "a few seconds"
    if seconds < 90:
        return f"about {max(5, round(seconds / 5) * 5):.0f} s"
    return f"about {round(seconds / 60):.0f} min"


def megabytes(nbytes: float) -> str:
    return f"{nbytes / 1e6:,.0f} MB" if nbytes >= 1e6 else f"{nbytes / 1e6:.1f} MB"


def so_far(seconds: float) -> str:
    """Elapsed time, as said beside 'so far': '40 s', '6 min'."""
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"


def describe_build(specs, compile_seconds: float | None = None, load=machine_load,
                   solver=None) -> str:
    """What building `specs` (the solver's missing tables) means: '17 tables, 74 MB, about
    35 s the first time' (`compile_seconds`: what compiling the solver adds, by default
    compile_estimate's), longer on a busy machine, which is named: '..., about 30 min the first
    time (busy: load 15 on 2 cores)'."""
    if compile_seconds is None:
        compile_seconds = compile_estimate(solver, specs)
    sizes = [s.expected_bytes or 0 for s in specs]
    now = load()
    seconds = (sum(_weight(s) for s in specs) + compile_seconds) * slowdown(now)
    count = f"{len(sizes)} table{'s' if len(sizes) != 1 else ''}"
    size = f", {megabytes(sum(sizes))}" if sum(sizes) else ""
    note = f" ({busy(now)})" if busy(now) else ""
    return f"{count}{size}, {duration(seconds)} the first time{note}"


class BuildProgress:
    """Follows the builds of `specs` (and of any table they pull in) through the store's notes.

    Pass `log` and `progress` on as a solver's prepare() callbacks (or call them from yours);
    read `fraction`, `index`, `count`, `current`, `seconds_left()` and `line()`. `clock` and
    `load` (machine_load's figures) are what a test replaces."""

    def __init__(self, specs, clock=time.perf_counter, load=machine_load):
        self._clock = clock
        self._load = load
        self.sizes: dict[str, int] = {s.name: int(s.expected_bytes or 0) for s in specs}
        self.weights: dict[str, float] = {s.name: _weight(s) for s in specs}
        self.finished: list[str] = []
        self.stack: list[str] = []          # builds under way, innermost last
        self.within = 0.0                   # the innermost build's own fraction
        self.started: float | None = None
        self.last_message = ""
        self.loose: float | None = None     # progress reported outside any build note
        # the pace measured so far: the clock when the last table was built, and the expected
        # seconds of all the tables built by then
        self.built_at: float | None = None
        self.built_weight = 0.0
        # the unit under way (the innermost table, or loose progress): when it began, its
        # smoothed rate (fraction per second) and its last progress report
        self.unit_started: float | None = None
        self.rate: float | None = None
        self.last_report: tuple[float, float] | None = None     # (clock, fraction)

    # ---- the callbacks ------------------------------------------------------------------
    def log(self, message) -> None:
        """A prepare() log callback: build notes move the bar, other messages are kept."""
        event = getattr(message, "event", None)
        name = getattr(message, "name", None)
        if event == "building":
            now = self._clock()
            if self.started is None:
                self.started = now
            self.sizes.setdefault(name, 0)
            self.weights.setdefault(name, SECONDS_PER_TABLE)
            self.stack.append(name)
            self.within = 0.0
            self._new_unit(now)
        elif event == "built":
            now = self._clock()
            if name in self.stack:
                self.stack.remove(name)
            if name not in self.finished:
                self.finished.append(name)
                self.weights.setdefault(name, SECONDS_PER_TABLE)
                self.built_weight += self.weights[name]
                self.built_at = now
            if not self.sizes.get(name):
                self.sizes[name] = int(getattr(message, "nbytes", 0))
            self.within = 0.0
            self._new_unit(now)         # an outer table resumes: its rate starts afresh
        else:
            self.last_message = str(message)

    def progress(self, done: int, total: int) -> None:
        """A prepare() progress callback: the innermost build's own progress (a solver that
        reports progress without the store's notes moves the whole bar)."""
        fraction = min(1.0, done / total) if total else 0.0
        now = self._clock()
        if self.started is None:
            self.started = now
        if self.unit_started is None:
            self._new_unit(now)
        self._observe(now, fraction)
        if self.stack:
            self.within = fraction
        else:
            self.loose = fraction

    def _new_unit(self, now: float) -> None:
        self.unit_started = now
        self.rate = None
        self.last_report = None

    def _observe(self, now: float, fraction: float) -> None:
        """Fold one progress report into the smoothed rate (fraction per second)."""
        then, before = self.last_report or (self.unit_started, 0.0)
        self.last_report = (now, fraction)
        elapsed = now - then
        if elapsed <= 0:
            return
        rate = max(0.0, fraction - before) / elapsed
        if self.rate is None:
            self.rate = rate
        else:
            keep = math.exp(-elapsed / RATE_SECONDS)
            self.rate = keep * self.rate + (1 - keep) * rate

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
        if self._loose_only:
            return self.loose
        done, total = self._weights()
        return min(1.0, done / total) if total else 0.0

    @property
    def _loose_only(self) -> bool:
        return self.loose is not None and not self.stack and not self.finished

    @property
    def bytes_done(self) -> int:
        done = sum(self.sizes[n] for n in self.finished)
        if self.stack:
            done += int(self.within * self.sizes[self.stack[-1]])
        return done

    @property
    def total_bytes(self) -> int:
        return sum(self.sizes.values())

    def pace(self) -> float:
        """Seconds here per expected second: the tables built so far, weighed against the
        load's guess (which alone speaks before any table is built)."""
        guess = slowdown(self._load())
        if self.built_at is None or self.started is None:
            return guess
        measured = self.built_at - self.started
        return (measured + PRIOR_SECONDS * guess) / (self.built_weight + PRIOR_SECONDS)

    def seconds_left(self) -> float | None:
        """The time left, or None when there is nothing to go by: the unit under way is past
        its expected time and has shown too little progress to judge its rate."""
        now = self._clock()
        pace = self.pace()
        if self._loose_only:
            unit_weight, rest, fraction = sum(self.weights.values()), 0.0, self.loose
        else:
            current = self.current
            unit_weight = self.weights[current] if current else 0.0
            rest = sum(w for n, w in self.weights.items()
                       if n not in self.finished and n != current) * pace
            fraction = self.within
            if current is None:
                return rest
        began = now if self.unit_started is None else self.unit_started
        expected_left = unit_weight * pace - (now - began)
        measured_left = self._measured_left(now, fraction)
        if measured_left is None:
            if expected_left <= 0:
                return None
            return expected_left + rest
        if expected_left <= 0:       # past its expected time: the rate alone
            if fraction < TRUSTED_FRACTION:
                return None
            return measured_left + rest
        # the further along, the more the measured rate counts
        return (1 - fraction) * expected_left + fraction * measured_left + rest

    def _measured_left(self, now: float, fraction: float) -> float | None:
        """The unit's time left at its smoothed rate, the rate decaying while no progress comes
        (a stalled build's estimate grows); None before any progress."""
        if not self.rate or self.last_report is None or fraction <= 0:
            return None
        quiet = max(0.0, now - self.last_report[0])
        rate = self.rate * math.exp(-quiet / RATE_SECONDS)
        return (1 - fraction) / rate if rate > 0 else None

    def line(self) -> str:
        """'table 9/17 kociemba.phase1_prune · 31/74 MB · about 20 s left', then, as the case
        may be, 'preparing, 6 min so far' for the time left and ' · busy: load 15 on 2 cores'."""
        head = f"table {self.index}/{self.count}"
        if self.current:
            head += f" {self.current}"
        size = f" · {self.bytes_done / 1e6:,.0f}/{megabytes(self.total_bytes)}" \
            if self.total_bytes >= 1e6 else ""
        if self.fraction >= 1.0:
            return f"{head}{size} · done"
        left = self.seconds_left()
        if left is None:
            since = self.unit_started if self.unit_started is not None else self.started
            when = f"preparing, {so_far(self._clock() - since)} so far"
        else:
            when = f"{duration(left)} left"
        note = busy(self._load())
        return f"{head}{size} · {when}" + (f" · {note}" if note else "")


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
