"""A fast, deterministic stand-in solver for UI tests: short solutions, streamed slowly.

It finds a shortest solution of positions within 6 face turns of solved (meet in the middle:
3 turns from each side, in plain Python, no numba), then plays the part of an improving search:
it reports that solution padded with cancelling pairs (U U'), then with fewer of them, then bare,
sleeping `step_seconds` between reports while it advances the shared counters and checks the
cancel flag every 10 ms. `prepare` pretends to build tables in `build_steps` steps, so the UI's
"tables missing" offer and progress bar can be tested too.
"""

from __future__ import annotations

import time
from functools import lru_cache
from typing import Callable

import numpy as np

from cubelab.cube.moves import FACE_MOVES, apply_moves
from cubelab.cube.notation import Move, invert_moves
from cubelab.cube.state import CubeState
from cubelab.tables.spec import TableSpec
from cubelab.solvers.protocol import (
    BEST, BOUND, NODES, SOLUTIONS, Deadline, Solution, SolveResult, SolverError, begin_solve,
    verify,
)

HALF_DEPTH = 3
_PAD = (Move("U", 1), Move("U", 3))


def _sequences(depth: int):
    """Face-turn sequences of exactly `depth` moves, never turning one face twice in a row."""
    if depth == 0:
        yield ()
        return
    for seq in _sequences(depth - 1):
        for m in FACE_MOVES:
            if not seq or seq[-1].family != m.family:
                yield seq + (m,)


@lru_cache(maxsize=1)
def _near_solved() -> dict[bytes, tuple[Move, ...]]:
    """Every position within HALF_DEPTH turns of solved -> a shortest sequence reaching it."""
    table: dict[bytes, tuple[Move, ...]] = {}
    for depth in range(HALF_DEPTH + 1):
        for seq in _sequences(depth):
            key = apply_moves(CubeState.identity(), seq).key()
            table.setdefault(key, seq)
    return table


def shortest_solution(state: CubeState, counters=None) -> list[Move] | None:
    """A shortest face-turn solution if one has at most 2 * HALF_DEPTH moves, else None."""
    table = _near_solved()
    best: list[Move] | None = None
    for depth in range(HALF_DEPTH + 1):
        if best is not None and len(best) <= depth:
            break
        for seq in _sequences(depth):
            if counters is not None:
                counters[NODES] += 1
            reached = apply_moves(state, seq)
            tail = table.get(reached.key())
            if tail is not None and (best is None or depth + len(tail) < len(best)):
                # state * seq = tail, so state * seq * tail^-1 = solved
                best = list(seq) + invert_moves(tail)
    return best


def _build_nothing(ctx):
    raise RuntimeError("the fake solver's table is pretend: prepare() fakes its build")


_PRETEND_TABLE = TableSpec("fake.pretend", "fake", {}, _build_nothing,
                           description="the fake solver's pretend table", expected_bytes=1 << 20)


class FakeSolver:
    """Implements the solver protocol quickly and predictably (see the module docstring)."""

    name = "fake"
    description = "test stand-in: shortest solution within 6 moves, streamed with padding"
    puzzle = "3x3"
    metrics = ("htm",)

    def __init__(self, step_seconds: float = 0.05, improvements: int = 2,
                 tables_built: bool = True, build_steps: int = 5, build_seconds: float = 0.02,
                 store_build: bool = False):
        """store_build: prepare() builds a real (tiny) table through the table store, with
        its lock, temporary file and build notes, in `build_steps` steps of `build_seconds`;
        it hears its cancel flag late, stopping `build_seconds` after it (as a build does
        that is inside a numba compile when the flag goes up)."""
        self.step_seconds = step_seconds
        self.improvements = improvements
        self._built = tables_built
        self.build_steps = build_steps
        self.build_seconds = build_seconds
        self._table = _PRETEND_TABLE
        if store_build:
            self._table = TableSpec(
                "fake.steps", "fake", {"steps": build_steps}, self._build_in_steps,
                description="the fake solver's table, built slowly", expected_bytes=1 << 10)

    def _build_in_steps(self, ctx) -> np.ndarray:
        for step in range(self.build_steps):
            end = time.perf_counter() + self.build_seconds
            while time.perf_counter() < end:
                if ctx.cancelled:
                    time.sleep(self.build_seconds)      # the step under way goes on
                    ctx.check_cancel()
                time.sleep(0.01)
            ctx.progress(step + 1, self.build_steps)
        return np.zeros(1 << 10, np.uint8)

    def table_specs(self) -> tuple:
        return (self._table,)

    def missing_tables(self) -> list:
        """The pretend table until prepare() has "built" it (the UI offers to build it)."""
        return [] if self._built else [self._table]

    def prepare(self, progress: Callable[[int, int], None] | None = None,
                cancel: np.ndarray | None = None, log=None) -> None:
        if self._built:
            return
        if self._table is not _PRETEND_TABLE:
            from cubelab.tables.spec import BuildCancelled
            from cubelab.tables.store import load_or_build
            try:
                load_or_build(self._table, progress=progress, cancel=cancel, log=log)
            except BuildCancelled:
                return
            self._built = True
            return
        for step in range(self.build_steps):
            if cancel is not None and cancel[0]:
                return
            time.sleep(self.build_seconds)
            if progress is not None:
                progress(step + 1, self.build_steps)
        self._built = True

    def _wait(self, seconds: float, cancel: np.ndarray, counters: np.ndarray) -> bool:
        """Sleep, counting pretend nodes; False as soon as cancel is raised."""
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            if cancel[0]:
                return False
            time.sleep(0.01)
            counters[NODES] += 1000
        return not cancel[0]

    def solve(self, state: CubeState, *, max_length: int | None = None,
              time_limit: float | None = None,
              on_solution: Callable[[Solution], None] | None = None,
              counters: np.ndarray | None = None,
              cancel: np.ndarray | None = None) -> SolveResult:
        target, counters, cancel = begin_solve(state, counters, cancel)
        self.prepare(cancel=cancel)
        if not self._built:
            return SolveResult(self.name, None, status="cancelled")
        with Deadline(cancel, time_limit) as clock:
            best = shortest_solution(target, counters)
            if best is None:
                raise SolverError("the fake solver only solves positions within "
                                  f"{2 * HALF_DEPTH} moves of solved")
            found: list[Solution] = []
            status = "solved"
            for pads in range(self.improvements, -1, -1):
                counters[BOUND] = len(best) + 2 * pads
                if not self._wait(self.step_seconds, cancel, counters):
                    status = "time limit" if clock.expired else "cancelled"
                    break
                moves = best + list(_PAD) * pads
                if max_length is not None and len(moves) > max_length:
                    continue
                sol = Solution(moves, clock.elapsed(), int(counters[NODES]))
                found.append(sol)
                counters[BEST] = len(moves)
                counters[SOLUTIONS] += 1
                if on_solution is not None:
                    on_solution(sol)
            final = found[-1] if found else None
            if final is None and status == "solved":
                status = "not found"
            moves = final.moves if final else None
            return SolveResult(
                solver=self.name, moves=moves, nodes=int(counters[NODES]),
                seconds=clock.elapsed(), optimal=status == "solved" and moves == best,
                lower_bound=len(best) if status == "solved" else None,
                verified=moves is not None and verify(state, moves), status=status,
                solutions=found)


class FakeRegistry:
    """A solver source for the UI that offers the fake solver for the 3x3x3 (one shared
    instance, so a "built" table stays built across solves) and the real solvers of the 2x2x2
    (they are fast), with the same two functions as cubelab.solvers.Registry."""

    def __init__(self, **options):
        self.solver = FakeSolver(**options)

    def solver_names(self, puzzle: str = "3x3") -> list[str]:
        from cubelab.solvers import solver_names
        return ["fake"] if puzzle == "3x3" else solver_names(puzzle)

    def get_solver(self, name: str, puzzle: str = "3x3", **options):
        if puzzle != "3x3":
            from cubelab.solvers import get_solver
            return get_solver(name, puzzle, **options)
        if name != "fake":
            raise KeyError(f"unknown solver {name!r} (choose from fake)")
        return self.solver


if __name__ == "__main__":
    import sys
    from cubelab.cube.moves import alg_state
    result = FakeSolver().solve(alg_state(" ".join(sys.argv[1:]) or "R U R' F"),
                                on_solution=lambda s: print("found", s.text()))
    print(result.to_json())
