"""`:gen` in the workbench and the REPL: a case set's generation run in a thread, and its rows.

`cubelab gen` (gen_cmd.py) writes a case set's records to a file; here the same engine
(solvers/goals/generate.py) runs in a thread as a `GenRun` (a runner.Run: counters, cancel,
`done`), its records kept as each case ends, so the workbench's gen panel fills while it runs
and the REPL prints each case as it completes. The rows are the algs: one row per alg of a case
(a case with none found keeps one row saying why). A row sets its case up on the cube, the
inverse of the row's alg (its AUF turns included) made from solved, so the row's alg played
from there ends solved; for the case's best alg that is the setup the engine gives. Textual-free.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from cubelab.cube.alg import Move
from cubelab.cube.notation import format_moves, invert_moves, parse_moves

from .runner import Run


@dataclass(frozen=True)
class GenRequest:
    """Search `cases` (in the set's order) of case set `set` with `options`
    (solvers.goals.generate.SearchOptions)."""

    set: object
    """A cube.case_sets.CaseSet."""
    cases: tuple
    """The cube.case_sets.Case to search."""
    options: object

    def describe(self) -> str:
        """'pll · 2 of 21 cases · <R,U> · HTM · best alg'."""
        from cubelab.cube.case_sets import cases as set_cases
        from cubelab.cube.goal_catalog import resolve_moveset
        o = self.options
        every = len(set_cases(self.set))
        count = f"{len(self.cases)} case{'s' if len(self.cases) != 1 else ''}" \
            if len(self.cases) == every else f"{len(self.cases)} of {every} cases"
        how = ("all optimal" if o.all else f"{o.n} best" if (o.n or 1) > 1 else "best alg")
        if o.within is not None:
            how = f"within {o.within:g} of the optimum"
        parts = [self.set.name, count, resolve_moveset(o.moves).text, o.metric.upper(), how]
        if o.weights:
            parts.append(f"weights {o.weights}")
        return " · ".join(parts)


@dataclass(frozen=True)
class GenRow:
    """One alg of a case (`alg` None: the case had none), with the case's record."""

    record: dict
    alg: dict | None
    rank: int = 0
    """The alg's place among its case's algs (0: the best)."""

    @property
    def case(self) -> str:
        return self.record["case"]

    @property
    def moves(self) -> tuple[Move, ...]:
        """The alg with its AUF turns around it (what takes the case's setup to solved)."""
        if self.alg is None:
            return ()
        auf = self.alg.get("auf") or {}
        text = " ".join(filter(None, (auf.get("pre"), self.alg["solution"], auf.get("post"))))
        return tuple(parse_moves(text))

    @property
    def setup(self) -> tuple[Move, ...] | None:
        """Moves that make the case from solved: the inverse of the row's alg (None: no alg)."""
        return None if self.alg is None else tuple(invert_moves(self.moves))

    @property
    def auf(self) -> str:
        auf = (self.alg or {}).get("auf") or {}
        return ", ".join(f"{k} {v}" for k, v in auf.items() if v)

    @property
    def text(self) -> str:
        return self.alg["solution"] if self.alg is not None else ""

    def length(self, metric: str) -> str:
        if self.alg is None:
            return "-"
        return f"{self.alg['metric_cost']:g}" if "metric_cost" in self.alg else \
            str(self.alg["length"][metric])

    def state(self):
        """The position the row sets up: the setup from solved, or the case's own position
        when no alg was found."""
        from cubelab.cube.facelets import parse_facelets
        from cubelab.cube.moves import apply_moves
        from cubelab.cube.state import CubeState
        if self.alg is None:
            return parse_facelets(self.record["facelets"])
        return apply_moves(CubeState.identity(), list(self.setup))


def rows_of(records) -> list[GenRow]:
    """The rows of case records, in their order: each case's algs, best first."""
    out = []
    for record in records:
        algs = record.get("algs") or []
        if not algs:
            out.append(GenRow(record, None))
        out += [GenRow(record, alg, k) for k, alg in enumerate(algs)]
    return out


def row_line(number: int, row: GenRow, metric: str) -> str:
    """A row as the REPL prints it: its number for :apply N, the case (on a case's first row),
    the alg, its cost in the metric, optimal, AUF."""
    record = row.record
    head = row.case if row.rank == 0 else ""
    if row.alg is None:
        return f"{number:>3}. {head:<10} - ({record['status']})"
    optimal = " optimal" if record.get("optimal") and row.rank == 0 else ""
    auf = f"  [{row.auf}]" if row.auf else ""
    return (f"{number:>3}. {head:<10} {row.text or '(none needed)':<40} "
            f"{row.length(metric):>4} {metric.upper()}{optimal}{auf}")


@dataclass(eq=False, kw_only=True)
class GenRun(Run):
    """The cases of a request searched one after the other in a thread: `records` grows as each
    case ends (a case stopped by a cancel is not kept); `at` counts the cases ended."""

    request: GenRequest
    records: list = field(default_factory=list)
    at: int = 0
    status: str = "search"

    thread_name = "gen"
    stop_is_cancel = True

    def _work(self) -> None:
        from cubelab.cube.case_sets import cases as set_cases
        from cubelab.solvers.goals.generate import generate
        r, o = self.request, self.request.options
        self.phase = "search"
        self.started = time.perf_counter()
        wanted = {c.name for c in r.cases}

        def heard(record: dict) -> None:
            if record["status"] != "cancelled":
                self.records.append(record)

        def progress(done: int, _total: int) -> None:
            self.at = done

        generate(r.set, o.moves, metric=o.metric, weights=o.weights, n=o.n or 1, all=o.all,
                 within=o.within, max_length=o.max_length, time_limit=o.time_limit,
                 fold=o.fold, done=[c.name for c in set_cases(r.set) if c.name not in wanted],
                 on_case=heard, progress=progress, cancel=self.cancel, counters=self.counters)
        self.status = "cancelled" if self.cancel[0] else "done"

    def _message(self, error: Exception) -> str:
        from cubelab.cube.goals import GoalError
        return str(error) if isinstance(error, GoalError) else super()._message(error)

    @property
    def current(self) -> str:
        """The case being searched ('' once all have ended)."""
        cases = self.request.cases
        return cases[self.at].name if self.at < len(cases) else ""

    @property
    def preparing(self) -> bool:
        """No node searched yet: the first case's tables are being made (or loaded, or the
        kernels compiled)."""
        from cubelab.solvers.protocol import NODES
        return self.active and self.at == 0 and int(self.counters[NODES]) == 0

    def progress(self) -> str:
        from cubelab.solvers.protocol import BOUND, NODES
        total = len(self.request.cases)
        bound = int(self.counters[BOUND])
        now = self.current
        if self.preparing:
            return (f"case 1/{total}" + (f" ({now})" if now else "")
                    + f" · making the set's tables (once) · {self.elapsed():.1f}s")
        return (f"case {min(self.at + 1, total)}/{total}" + (f" ({now})" if now else "")
                + (f" · length {bound}" if bound > 0 else "")
                + f" · {int(self.counters[NODES]):,} nodes · {self.elapsed():.1f}s")

    def summary(self) -> str:
        done = len(self.records)
        total = len(self.request.cases)
        cases = f"{done} of {total} case{'s' if total != 1 else ''}"
        if self.error and self.error != "cancelled":
            return f"gen stopped: {self.error} ({cases} done)"
        if self.status == "cancelled" or self.error == "cancelled":
            return f"cancelled: {cases} done (the rows found stay)"
        if self.active:
            return "still searching"
        optimal = sum(1 for r in self.records if r.get("optimal"))
        found = sum(1 for r in self.records if r.get("algs"))
        return (f"{done} case{'s' if done != 1 else ''} done, {found} with algs, {optimal} "
                "optimal · Enter sets up, P plays")


@dataclass
class GenState:
    """The session's last generation: what it asked and its rows (:apply N picks from them)."""

    about: str = ""
    metric: str = "htm"
    rows: list = field(default_factory=list)


def setup_label(row: GenRow) -> str:
    """The undo entry's label for setting a row's case up."""
    return f":gen {row.record['set']} {row.case}"


def setup_text(row: GenRow) -> str:
    """What setting a row's case up says: the case, the setup moves, the alg that solves it."""
    if row.alg is None:
        return f"case {row.case} set up (no alg found: {row.record['status']})"
    return (f"case {row.case} set up ({format_moves(row.setup) or 'solved'}) · "
            f"alg: {row.text or '(none needed)'}" + (f" [{row.auf}]" if row.auf else "")
            + " · P plays it")
