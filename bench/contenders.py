"""What a benchmark times: a contender, run on one case at a time by harness.interleave.

The interface is small, so that a peer fits it as well as we do:
- `prepare()`: untimed (load tables, compile, start a program); returns facts to record;
- `setup(case)`: untimed, per case: the input this contender reads (our CubeState, a facelet
  string, a scramble for a program that takes moves);
- `run(item)`: the timed work; returns what it measured (length, nodes, ...). The harness
  times it (wall, and this process's CPU) unless the contender sets `measures_itself` and
  reports "seconds" (and "cpu_seconds") itself;
- `close()`.

Kinds here: `Function` (callables in this process: ours, or a Python package such as
`kociemba`), `Solve` (one of our solvers through the solver protocol), `LineProgram` (an
external program fed one case a line, as rob-twophase, min2phase's driver or nissy's tool
are), and `Worker` (a contender of a benchmark script run in a process of its own, optionally
in another source tree: how a change is timed against its base, cube by cube). Run as a
program, this module is that worker.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent


class Contender:
    """One thing a benchmark times (see the module's docstring)."""

    name = "contender"
    measures_itself = False

    def prepare(self) -> dict | None:
        return None

    def setup(self, case):
        return case

    def run(self, item) -> dict:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def abort(self) -> None:
        """Stop now (the run was interrupted): by default, close."""
        self.close()


class Function(Contender):
    """Callables in this process: run(item) -> dict; setup and prepare optional."""

    def __init__(self, name: str, run: Callable, *, setup: Callable | None = None,
                 prepare: Callable | None = None, close: Callable | None = None):
        self.name = name
        self._run, self._setup, self._prepare, self._close = run, setup, prepare, close

    def prepare(self):
        return self._prepare() if self._prepare else None

    def setup(self, case):
        return self._setup(case) if self._setup else case

    def run(self, item):
        return self._run(item)

    def close(self):
        if self._close:
            self._close()


WARM_UP = "R U2 F' L D B2 R' U F2 D' L2 B"
"""A 12-move scramble every solver answers at once: solved once before the clock, so that the
first timed case pays no first-touch costs (pages of tables, lazily compiled code)."""


class Solve(Contender):
    """One of our solvers on the case's state, through the solver protocol: length (HTM),
    nodes, optimal, status, and what `detail(result)` adds. `make()` builds the solver;
    `options` go to every solve; `warm_up`: the alg solved before the clock (WARM_UP by
    default; False: none). Timed around `solve` alone (wall and this process's CPU), as the
    peers time their solve call: reading the result after it is not part of the solve."""

    measures_itself = True

    def __init__(self, name: str, make: Callable, *, warm_up: str | bool = True,
                 detail: Callable | None = None, **options):
        self.name, self._make, self.options, self.solver = name, make, options, None
        self.warm_up, self.detail = warm_up, detail

    def prepare(self):
        self.solver = self._make()
        self.solver.prepare()
        if self.warm_up:
            from cubelab.cube.moves import alg_state
            alg = WARM_UP if self.warm_up is True else self.warm_up
            self.solver.solve(alg_state(alg), **self.options)
        return {"solver": self.solver.name}

    def setup(self, case):
        from harness import state_of
        return state_of(case)

    def run(self, state):
        wall, cpu = time.perf_counter(), time.process_time()
        r = self.solver.solve(state, **self.options)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        if r.found and not r.verified:
            raise AssertionError(f"{self.name}: an unverified solution")
        out = {"length": r.length["htm"] if r.found else None, "nodes": int(r.nodes),
               "optimal": bool(r.optimal), "status": r.status, "lower_bound": r.lower_bound,
               "seconds": wall, "cpu_seconds": cpu}
        if self.detail is not None:
            out.update(self.detail(r))
        return out


class LineProgram(Contender):
    """An external program that reads a case a line and answers in lines: started once
    (prepare waits for `ready` on its output), fed `encode(item)`, read until `done(lines)`
    is true, its answer `decode(lines)` -> dict. Timed from the write to the last line read
    (or by the program, if decode reports "seconds"); its CPU time is its own, not ours."""

    measures_itself = True

    def __init__(self, name: str, argv: list[str], *, encode: Callable[[object], str],
                 done: Callable[[list[str]], bool], decode: Callable[[list[str]], dict],
                 setup: Callable | None = None, ready: str | None = None,
                 cwd: str | None = None, env: dict | None = None):
        self.name, self.argv, self.cwd, self.env = name, argv, cwd, env
        self.encode, self.done, self.decode, self._setup = encode, done, decode, setup
        self.ready = re.compile(ready) if ready else None
        self.proc = None

    def prepare(self):
        t = time.perf_counter()
        self.proc = subprocess.Popen(self.argv, cwd=self.cwd, env=self.env, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=1)
        if self.ready is not None:
            while not self.ready.search(self._line()):
                pass
        return {"start_seconds": round(time.perf_counter() - t, 3)}

    def _line(self) -> str:
        line = self.proc.stdout.readline()
        if not line:
            raise EOFError(f"{self.name} ended (exit {self.proc.poll()})")
        return line.rstrip("\n")

    def setup(self, case):
        return self._setup(case) if self._setup else case

    def run(self, item):
        self.proc.stdin.write(self.encode(item) + "\n")
        self.proc.stdin.flush()
        lines = [self._line()]
        while not self.done(lines):
            lines.append(self._line())
        return self.decode(lines)

    def close(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


# ---- a contender in a process of its own (and in another source tree) -------------------

def import_root(tree: Path) -> Path:
    """A folder that, first on sys.path, makes `import cubelab` read `tree` (a checkout laid
    out as ours: cube/, tables/, solvers/, tui/). Its path depends on the tree only: numba
    caches a kernel by its file's path, so a new folder each run would compile every time."""
    from cubelab.cube.paths import cache_dir
    root = cache_dir() / "bench" / "trees" / hashlib.sha1(str(tree).encode()).hexdigest()[:12]
    package = root / "cubelab"
    package.mkdir(parents=True, exist_ok=True)
    init = package / "__init__.py"
    if not init.exists():
        init.write_text(f'"""cubelab read from {tree} (a benchmark worker\'s)."""\n')
    for floor in ("cube", "tables", "solvers", "tui"):
        link = package / floor
        if not link.is_symlink() or os.readlink(link) != str(tree / floor):
            if link.is_symlink():
                link.unlink()
            link.symlink_to(tree / floor, target_is_directory=True)
    return root


class Worker(Contender):
    """The contender `factory` of benchmark `script`, in a process of its own reading `tree`
    (by default the cubelab this process imports); `fresh`: a new process per case (what it
    measures is the process's: peak memory, start-up). It prepares, times and reports each run
    itself; cases and outcomes cross as JSON lines."""

    measures_itself = True

    def __init__(self, name: str, script: Path, factory: str, argv: list[str], *,
                 tree: Path | None = None, fresh: bool = False):
        self.name, self.script, self.factory, self.argv = name, script, factory, argv
        self.tree, self.fresh, self.proc = tree, fresh, None

    def _start(self) -> dict:
        env = dict(os.environ)
        # the worker places numba's cache for its own sources (tables/jit.py, or the tree's
        # own way): a directory keyed to ours would hold another tree's kernels
        env.pop("NUMBA_CACHE_DIR", None)
        cmd = [sys.executable, str(HERE / "contenders.py"), str(self.script), self.factory,
               json.dumps(self.argv), str(import_root(self.tree)) if self.tree else ""]
        self.proc = subprocess.Popen(cmd, env=env, text=True, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, bufsize=1)
        return self._reply()

    def _reply(self) -> dict:
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"{self.name}: the worker ended (exit {self.proc.wait()})")
        reply = json.loads(line)
        if "error" in reply:
            raise RuntimeError(f"{self.name}: {reply['error']}")
        return reply

    def prepare(self):
        if self.fresh:
            return {"fresh": True}
        facts = self._start()["ready"]
        if self.tree is not None:
            from harness import commit
            facts["tree"], facts["commit"] = str(self.tree), commit(self.tree)
        return facts

    def run(self, case):
        if self.fresh:
            self._start()
        self.proc.stdin.write(json.dumps(case) + "\n")
        self.proc.stdin.flush()
        try:
            return self._reply()["outcome"]
        finally:
            if self.fresh:
                self.close()

    def close(self):
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.stdin.close()
                self.proc.wait()
            self.proc = None

    def abort(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None


def _serve(script: str, factory: str, argv: list[str], root: str) -> int:
    """The worker: build the contender, prepare it, then time one case a line."""
    out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)                   # whatever the code prints goes to stderr, not the protocol
    if root:
        sys.path.insert(0, root)
    sys.path.insert(0, str(HERE))
    sys.path.insert(0, str(Path(script).parent))

    def say(**reply):
        out.write(json.dumps(reply, default=str) + "\n")

    try:
        spec = importlib.util.spec_from_file_location("_bench_script", script)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        bench = module.bench
        contender = bench.build(factory, bench.parse(argv))
        t = time.perf_counter()
        facts = contender.prepare() or {}
        facts.setdefault("prepare_seconds", round(time.perf_counter() - t, 3))
        import cubelab.cube
        facts["cubelab"] = str(Path(cubelab.cube.__file__).resolve().parent.parent)
        say(ready=facts)
    except Exception as e:
        say(error=f"{type(e).__name__}: {e}")
        return 1
    for line in sys.stdin:
        try:
            item = contender.setup(json.loads(line))
            wall, cpu = time.perf_counter(), time.process_time()
            got = dict(contender.run(item) or {})
            got.setdefault("seconds", time.perf_counter() - wall)
            got.setdefault("cpu_seconds", time.process_time() - cpu)
            say(outcome=got)
        except Exception as e:
            say(outcome={"error": f"{type(e).__name__}: {e}"})
    contender.close()
    return 0


if __name__ == "__main__":
    script_, factory_, argv_, root_ = sys.argv[1:5]
    raise SystemExit(_serve(script_, factory_, json.loads(argv_), root_))
