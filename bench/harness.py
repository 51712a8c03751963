"""The one benchmark harness: seeded cases, contenders run side by side, statistics, the
machine, and a JSON record per commit.

A benchmark is contenders (contenders.py: ours, ours from another checkout, a peer program or
package) run on the same cases (seeded random states, scrambles, table names, rounds): case by
case, each contender in turn, the first one rotating (A B, B A, A B...), so that the load of a
shared machine, which changes slowly, falls on all of them alike. It reports per contender the
median, 90th percentile and mean of what each run measured, the ratio of each contender to the
first (the median of the per-case ratios beside the ratio of medians), the machine, and the
load average at the start and the end; and keeps it all in bench/results/<script>-<commit>.json
(ignored by git: the figures that matter are quoted, with their command, in the issue notes).

A script declares its contenders with `@bench.contender(name)` (a factory taking the parsed
arguments) and runs them with `bench.compare(args, cases)`. The common arguments:
-n/--count, --seed, --only (contenders), --checkout LABEL=DIR (run every contender in each of
these source trees, in a process of its own: `--checkout base=../base --checkout new=.` times
a change against its base, cube by cube), --json (a copy of the record), --no-save.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Iterable

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
SEED = 2024
"""The seed of every benchmark's cases unless --seed says otherwise: the same states everywhere."""


# ---- cases ---------------------------------------------------------------------------------

def random_states(count: int, seed: int = SEED) -> list[dict]:
    """`count` uniformly random states, as cases {"id", "facelets"} (any checkout or peer reads
    facelets)."""
    import numpy as np

    from cubelab.cube.facelets import to_facelets
    from cubelab.cube.random_states import random_state
    rng = np.random.default_rng(seed)
    return [{"id": i, "facelets": to_facelets(random_state(rng))} for i in range(count)]


def scrambles(count: int, length: int, seed: int = SEED, quarter: bool = False) -> list[dict]:
    """`count` scrambles of `length` face turns (no face twice in a row, no three turns of one
    axis), as cases {"id", "scramble", "facelets"}: their optimum is at most `length`. Each
    length has its own stream (seeded by seed and length): 18-move scrambles do not begin with
    the 16-move ones. `quarter`: every turn a quarter turn (its direction drawn too), so the
    scramble is `length` quarter turns."""
    import numpy as np

    from cubelab.cube.alg import Move

    from cubelab.cube.facelets import to_facelets
    from cubelab.cube.moves import apply_moves
    from cubelab.cube.notation import format_moves
    from cubelab.cube.random_states import face_scramble
    from cubelab.cube.state import CubeState
    rng = np.random.default_rng([seed, length])
    out = []
    for i in range(count):
        moves = face_scramble(rng, length)
        if quarter:
            moves = [Move(m.family, 1 if rng.integers(2) else 3) for m in moves]
        out.append({"id": i, "scramble": format_moves(moves),
                    "facelets": to_facelets(apply_moves(CubeState.identity(), moves))})
    return out


def state_of(case: dict):
    """The cube of a case, read with the cubelab this process imports."""
    from cubelab.cube.facelets import parse_facelets
    return parse_facelets(case["facelets"])


# ---- statistics ----------------------------------------------------------------------------

def percentile(values: Iterable[float], q: float) -> float:
    """The q-th percentile (0..100), interpolated between the nearest ranks (numpy's default)."""
    xs = sorted(values)
    if not xs:
        return math.nan
    pos = (len(xs) - 1) * q / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def describe(values: Iterable[float]) -> dict:
    """n, mean, median, p90, min and max of the values (NaN-free: missing ones are left out)."""
    xs = [float(v) for v in values if v is not None and not math.isnan(float(v))]
    if not xs:
        return {"n": 0}
    return {"n": len(xs), "mean": sum(xs) / len(xs), "median": percentile(xs, 50),
            "p90": percentile(xs, 90), "min": xs[0] if len(xs) == 1 else min(xs),
            "max": max(xs)}


def paired_ratios(a: list[dict], b: list[dict], field: str = "seconds") -> list[float]:
    """b / a per case, over the cases both measured (outcomes matched by case id)."""
    mine = {o["case"]: o.get(field) for o in a if "error" not in o}
    out = []
    for o in b:
        x, y = mine.get(o["case"]), o.get(field)
        if "error" not in o and isinstance(x, (int, float)) and isinstance(y, (int, float)) \
                and x > 0:
            out.append(y / x)
    return out


def summarize(outcomes: list[dict]) -> dict:
    """describe() of every numeric field the outcomes share; booleans counted as the share
    true; errors counted."""
    good = [o for o in outcomes if "error" not in o]
    fields = sorted({k for o in good for k, v in o.items()
                     if k != "case" and isinstance(v, (int, float))})
    out: dict = {"runs": len(outcomes), "errors": len(outcomes) - len(good)}
    for k in fields:
        vals = [o.get(k) for o in good]
        if all(isinstance(v, bool) for v in vals if v is not None):
            known = [v for v in vals if v is not None]
            out[k] = {"n": len(known), "share": sum(known) / len(known) if known else math.nan}
        else:
            out[k] = describe(v for v in vals if isinstance(v, (int, float)))
    return out


# ---- side by side --------------------------------------------------------------------------

def interleave(contenders: list, cases: list, *, rotate: bool = True,
               on_outcome: Callable[[object, dict, dict], None] | None = None,
               out: dict | None = None) -> dict:
    """Run every contender on every case, case by case: {name: [outcome, ...]} in case order.

    Case k starts with contender k mod len(contenders) when `rotate` (the order within a case
    matters on a machine whose caches and load the one before leaves behind). An outcome is
    what the contender's run returned, plus "case" (the case's id, or its index) and, unless it
    measured them itself, "seconds" (wall) and "cpu_seconds" (this process's, all threads); a
    contender that raises gets {"error": ...} for that case, and the others carry on. `out`
    (filled as the runs end) keeps what was measured if the caller is interrupted.
    """
    out = {} if out is None else out
    out.update({c.name: [] for c in contenders})
    k = len(contenders)
    for i, case in enumerate(cases):
        first = i % k if rotate else 0
        for c in contenders[first:] + contenders[:first]:
            key = case.get("id", i) if isinstance(case, dict) else i
            try:
                item = c.setup(case)
                wall, cpu = time.perf_counter(), time.process_time()
                got = dict(c.run(item) or {})
                wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                got.setdefault("seconds", wall)
                if not c.measures_itself:
                    got.setdefault("cpu_seconds", cpu)
            except Exception as e:          # one failure must not hide the other figures
                got = {"error": f"{type(e).__name__}: {e}"}
            got["case"] = key
            out[c.name].append(got)
            if on_outcome is not None:
                on_outcome(c, case, got)
    return out


# ---- the machine and the run ---------------------------------------------------------------

def machine() -> dict:
    """CPU model, cores, memory, and the versions that set the speed."""
    info = {"cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(),
            "usable_cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
            else os.cpu_count(), "python": platform.python_version(),
            "system": platform.platform()}
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                info["cpu"] = line.split(":", 1)[1].strip()
                break
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal"):
                info["memory_gb"] = round(int(line.split()[1]) / 2**20, 1)
                break
    except OSError:
        pass
    for lib in ("numpy", "numba"):
        try:
            info[lib] = __import__(lib).__version__
        except ImportError:
            pass
    return info


def load() -> list[float]:
    """The load average over 1, 5 and 15 minutes."""
    return [round(x, 2) for x in os.getloadavg()]


def commit(tree: Path | str = HERE.parent) -> str:
    """The short commit of a source tree, with "+dirty" when it has uncommitted changes."""
    def git(*args):
        return subprocess.run(["git", "-C", str(tree), *args], capture_output=True,
                              text=True).stdout.strip()
    head = git("rev-parse", "--short", "HEAD") or "unknown"
    dirty = git("status", "--porcelain", "--untracked-files=no")
    return head + ("+dirty" if dirty else "")


def save(record: dict, script: str, path: Path | None = None) -> Path:
    """Append the record to bench/results/<script>-<commit>.json (a list of runs)."""
    path = path or RESULTS / f"{script}-{record['commit']}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    runs = []
    if path.exists():
        try:
            runs = json.loads(path.read_text())
        except ValueError:
            runs = []
    runs.append(record)
    path.write_text(json.dumps(runs, indent=1, default=str))
    return path


def table(rows: list[list], header: list[str]) -> str:
    """A Markdown table (what the notes quote)."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(x) for x in row) + " |" for row in rows]
    return "\n".join(lines)


def fmt(x, digits: int = 3) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    if isinstance(x, float):
        return f"{x:.{digits}g}" if abs(x) < 10 ** digits else f"{x:,.0f}"
    return f"{x:,}" if isinstance(x, int) else str(x)


# ---- the benchmark ------------------------------------------------------------------------

class Bench:
    """A benchmark script: its arguments, its contenders, and its run record."""

    def __init__(self, script: str, doc: str, *, count: int = 100, seed: int = SEED):
        self.script = Path(script).resolve()
        self.name = self.script.stem
        self.factories: dict[str, Callable] = {}
        self.parser = argparse.ArgumentParser(
            description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
        p = self.parser
        p.add_argument("-n", "--count", type=int, default=count,
                       help=f"cases (random states unless the script says; default {count})")
        p.add_argument("--seed", type=int, default=seed, help=f"seed of the cases ({seed})")
        p.add_argument("--only", default="", metavar="A,B",
                       help="contenders to run (default: all the script declares)")
        p.add_argument("--checkout", action="append", default=[], metavar="LABEL=DIR",
                       help="run the contenders in this source tree too (in a process of its "
                            "own); repeat to compare trees side by side")
        p.add_argument("--json", metavar="PATH", help="also write the record here")
        p.add_argument("--no-save", action="store_true",
                       help="do not keep the record in bench/results/")
        p.add_argument("-q", "--quiet", action="store_true", help="no line per run")
        self.record: dict = {}
        self.ready: dict = {}          # contender -> what its prepare said
        self.default: list = []
        self.interrupted = False

    def contender(self, name: str, *, process: bool = False, fresh: bool = False,
                  variants: Callable | None = None):
        """Declare a contender: factory(args) -> Contender. `process`: always run it in a
        process of its own (what it measures is the process's, e.g. its peak memory);
        `fresh`: a new process for every case; `variants(args)` -> names: one contender per
        name, made by factory(args, name) (a solver's table sets, say)."""
        def register(factory):
            factory.process, factory.fresh, factory.variants = process or fresh, fresh, variants
            self.factories[name] = factory
            return factory
        return register

    def parse(self, argv=None) -> argparse.Namespace:
        args = self.parser.parse_args(argv)
        args.argv = list(sys.argv[1:] if argv is None else argv)
        return args

    def names(self, args) -> list[str]:
        """Every contender the script declares for these arguments."""
        out = []
        for name, factory in self.factories.items():
            out += factory.variants(args) if factory.variants else [name]
        return out

    def _factory(self, name: str, args):
        if name in self.factories and not self.factories[name].variants:
            return self.factories[name], ()
        for factory in self.factories.values():
            if factory.variants and name in factory.variants(args):
                return factory, (name,)
        raise SystemExit(f"unknown contender {name!r}; this script has {self.names(args)}")

    def build(self, name: str, args):
        """The contender `name`, made in this process."""
        factory, extra = self._factory(name, args)
        c = factory(args, *extra)
        c.name = name
        return c

    def contenders(self, args, names: list[str] | None = None) -> list:
        """The contenders to run (--only, else `names`, else all): each in this process or
        (with --checkout, or when it asks) in a worker process of each source tree."""
        from contenders import Worker
        names = args.only.split(",") if args.only else (names or self.names(args))
        trees = [tuple(c.split("=", 1)) if "=" in c else (Path(c).name, c)
                 for c in args.checkout]
        out = []
        for name in names:
            factory, _ = self._factory(name, args)
            if trees:
                for label, tree in trees:
                    out.append(Worker(f"{name}@{label}", self.script, name, args.argv,
                                      tree=Path(tree).resolve(), fresh=factory.fresh))
            elif factory.process:
                out.append(Worker(name, self.script, name, args.argv, fresh=factory.fresh))
            else:
                out.append(self.build(name, args))
        return out

    def begin(self, args, **about) -> dict:
        """Start the run record: the script, commit, arguments, machine and load now."""
        self.record = {"script": self.name, "commit": commit(), "argv": args.argv,
                       "started": datetime.datetime.now().isoformat(timespec="seconds"),
                       "machine": machine(), "load_start": load(), **about}
        m = self.record["machine"]
        print(f"{self.name} at {self.record['commit']}: {m['cpu']}, {m['cores']} cores, "
              f"{m.get('memory_gb', '?')} GB; load {self.record['load_start']}", flush=True)
        return self.record

    def compare(self, args, cases: list, *, contenders: list | None = None,
                fields: tuple = ("seconds",), rotate: bool = True, label: str = "",
                lines: bool = True,
                show: Callable[[object, dict, dict], str] | None = None,
                derive: Callable[[object, dict], dict] | None = None) -> dict:
        """Prepare the contenders (untimed, reported), run them side by side on the cases,
        print a summary of `fields`, and return {name: [outcomes]} (the record keeps it all).
        `derive(contender, outcome)` adds fields computed from a run's (rates, say); `show`
        says what a run's line adds to its time (`lines`: a line per run unless --quiet;
        False for runs of microseconds)."""
        if self.interrupted:            # Ctrl-C ended an earlier section: the record is kept
            return {}
        if contenders is None:          # the script's contenders, made once for every section
            self.default = self.default or self.contenders(args)
            contenders = self.default
        if not self.record:
            self.begin(args)
        section = {"label": label, "cases": cases, "contenders": {}}
        if label:
            print(f"[{label}] {len(cases)} cases, {len(contenders)} contenders", flush=True)
        self.record.setdefault("sections", []).append(section)
        for c in contenders:
            if c not in self.ready:      # prepared once, kept for the sections after
                t = time.perf_counter()
                facts = c.prepare() or {}
                facts.setdefault("prepare_seconds", round(time.perf_counter() - t, 3))
                self.ready[c] = facts
                print(f"  {c.name}: ready in {facts['prepare_seconds']:.1f} s", flush=True)
            section["contenders"][c.name] = {"prepare": self.ready[c]}

        def said(c, case, got):
            if derive is not None and "error" not in got:
                got.update(derive(c, got))
            if (args.quiet or not lines) and "error" not in got:
                return
            text = show(c, case, got) if show and "error" not in got else ""
            print(f"  {got['case']!s:>5} {c.name:<22} {got.get('seconds', 0):9.3f} s  "
                  f"{text}{got.get('error', '')}", flush=True)

        results: dict = {}
        try:
            interleave(contenders, cases, rotate=rotate, on_outcome=said, out=results)
        except KeyboardInterrupt:       # Ctrl-C: keep the cases so far, stop the contenders
            print("interrupted: the cases so far", flush=True)
            section["interrupted"] = self.interrupted = True
            for c in contenders:
                c.abort()
                self.ready.pop(c, None)
        for name, outcomes in results.items():
            section["contenders"][name].update(outcomes=outcomes, summary=summarize(outcomes))
        print(self.summary_table(results, fields), flush=True)
        return results

    @staticmethod
    def summary_table(results: dict, fields: tuple = ("seconds",),
                      ratios: tuple | None = None) -> str:
        """Per contender and field: median, p90, mean; then, per field of `ratios` (by default
        the first two), the median of the per-case ratios to the first contender."""
        names = list(results)
        ratios = fields[:2] if ratios is None else ratios
        rows = []
        for name in names:
            s = summarize(results[name])
            row = [name, s["runs"] - s["errors"]]
            for f in fields:
                d = s.get(f, {})
                if "share" in d:        # a yes/no field: the share of yes
                    row += [f"{100 * d['share']:.0f}%", "", ""]
                else:
                    row += [fmt(d.get("median")), fmt(d.get("p90")), fmt(d.get("mean"))]
            for f in ratios:
                r = paired_ratios(results[names[0]], results[name], f)
                row.append(fmt(percentile(r, 50)) + "x" if r else "-")
            rows.append(row)
        header = ["contender", "runs"] + [f"{f} {w}" for f in fields
                                          for w in ("median", "p90", "mean")]
        header += [f"{f} / {names[0]} (median per case)" for f in ratios]
        return table(rows, header)

    def finish(self, args, **extra) -> dict:
        """Close the contenders and the record (the load now, anything the script adds), and
        save it."""
        for c in self.ready:
            c.close()
        self.ready = {}
        self.record.update(extra, load_end=load())
        print(f"load average at the start {self.record['load_start']}, at the end "
              f"{self.record['load_end']}", flush=True)
        if not args.no_save:
            path = save(self.record, self.name)
            print(f"record: {path}", flush=True)
        if args.json:
            Path(args.json).write_text(json.dumps(self.record, indent=1, default=str))
        return self.record


def show(path: str, fields: tuple = ("seconds", "cpu_seconds")) -> None:
    """Print the summary tables of the last run kept in a record file."""
    run = json.loads(Path(path).read_text())[-1]
    print(f"{run['script']} at {run['commit']} ({run['started']}): {' '.join(run['argv'])}")
    print(f"load average at the start {run['load_start']}, at the end {run.get('load_end')}")
    for section in run.get("sections", []):
        results = {name: c.get("outcomes", []) for name, c in section["contenders"].items()}
        print(f"\n{section.get('label') or ''}")
        print(Bench.summary_table(results, fields))


if __name__ == "__main__":
    # python bench/harness.py RECORD.json [FIELD ...]: the tables of a kept run
    show(sys.argv[1], tuple(sys.argv[2:]) or ("seconds", "cpu_seconds"))
