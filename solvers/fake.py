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
from cubelab.tables.spec import BuildCancelled, TableSpec
from cubelab.solvers.fake_about import FAKE
from cubelab.solvers.protocol import BOUND, NODES, Answer, SolveJob, SolverBase, SolverError

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


class FakeSolver(SolverBase):
    """Implements the solver protocol quickly and predictably (see the module docstring)."""

    description = FAKE

    def __init__(self, step_seconds: float = 0.05, improvements: int = 2,
                 tables_built: bool = True, build_steps: int = 5, build_seconds: float = 0.02,
                 store_build: bool = False):
        """store_build: prepare() builds a real (tiny) table through the table store, with
        its lock, temporary file and build notes, in `build_steps` steps of `build_seconds`;
        it hears its cancel flag late, stopping `build_seconds` after it (as a build does
        that is inside a numba compile when the flag goes up)."""
        self.step_seconds = step_seconds
        self.improvements = improvements
        self._prepared = tables_built
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
        return [] if self.prepared else [self._table]

    def _prepare(self, progress, cancel, log) -> None:
        """Pretend to build the table in build_steps steps (BuildCancelled on a cancel), or
        build the real tiny one through the store (store_build)."""
        if self._table is not _PRETEND_TABLE:
            from cubelab.tables.store import load_or_build
            load_or_build(self._table, progress=progress, cancel=cancel, log=log)
            return
        for step in range(self.build_steps):
            if cancel is not None and cancel[0]:
                raise BuildCancelled("the fake build was cancelled")
            time.sleep(self.build_seconds)
            if progress is not None:
                progress(step + 1, self.build_steps)

    def _wait(self, seconds: float, cancel: np.ndarray, counters: np.ndarray) -> bool:
        """Sleep, counting pretend nodes; False as soon as cancel is raised."""
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            if cancel[0]:
                return False
            time.sleep(0.01)
            counters[NODES] += 1000
        return not cancel[0]

    def search(self, job: SolveJob) -> Answer:
        best = shortest_solution(job.position, job.counters)
        if best is None:
            raise SolverError("the fake solver only solves positions within "
                              f"{2 * HALF_DEPTH} moves of solved")
        final = None
        for pads in range(self.improvements, -1, -1):
            job.counters[BOUND] = len(best) + 2 * pads
            if not self._wait(self.step_seconds, job.cancel, job.counters):
                break
            moves = best + list(_PAD) * pads
            if job.max_length is not None and len(moves) > job.max_length:
                continue
            job.offer(moves)
            final = moves
        done = job.stopped() is None
        return Answer(final, optimal=done and final == best,
                      lower_bound=len(best) if done else None)


if __name__ == "__main__":
    import sys
    from cubelab.cube.moves import alg_state
    result = FakeSolver().solve(alg_state(" ".join(sys.argv[1:]) or "R U R' F"),
                                on_solution=lambda s: print("found", s.text()))
    print(result.to_json())
