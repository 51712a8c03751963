"""The seed study's experiment: solvers against scramble depth, timed, with lengths and nodes.

For each depth 1..N, K scrambles of random face turns (never one face twice in a row) from a
seed; or K uniformly random states. Every solver runs on every position with a cancel deadline;
its tables are prepared (built or loaded, and its kernels compiled) before any timing starts.
"""

from __future__ import annotations

import statistics
import threading
from dataclasses import asdict, dataclass
from typing import Callable

import numpy as np

from cubelab.cube.moves import FACE_MOVES, apply_moves
from cubelab.cube.notation import Move, format_moves, metric_lengths
from cubelab.cube.random_states import face_scramble, random_state
from cubelab.cube.state import CubeState
from cubelab.solvers.protocol import (
    NODES, Deadline, SolverError, new_cancel, new_counters, verify,
)

RANDOM_DEPTH = 0
"""The depth recorded for uniformly random states (their depth is unknown)."""


def scramble(rng: np.random.Generator, depth: int) -> list[Move]:
    """`depth` random face turns, never the same face twice in a row."""
    out: list[Move] = []
    while len(out) < depth:
        m = FACE_MOVES[int(rng.integers(18))]
        if out and out[-1].family == m.family:
            continue
        out.append(m)
    return out


@dataclass
class Trial:
    solver: str
    depth: int
    index: int
    scramble: str
    seconds: float
    solved: bool
    length: int | None
    nodes: int
    optimal: bool
    verified: bool
    status: str


@dataclass
class Positions:
    """What to run: (depth, index, scramble text, state) tuples."""

    items: list[tuple[int, int, str, CubeState]]

    @classmethod
    def by_depth(cls, depths, per_depth: int, seed: int) -> "Positions":
        rng = np.random.default_rng(seed)
        items = []
        for d in depths:
            for i in range(per_depth):
                moves = face_scramble(rng, d)
                items.append((d, i, format_moves(moves), apply_moves(CubeState.identity(), moves)))
        return cls(items)

    @classmethod
    def random_states(cls, count: int, seed: int) -> "Positions":
        rng = np.random.default_rng(seed)
        return cls([(RANDOM_DEPTH, i, "random", random_state(rng)) for i in range(count)])


def run_trial(solver, state: CubeState, limit: float) -> tuple[float, object, np.ndarray, str]:
    """Solve with a cancel deadline; returns (seconds, result or None, counters, status)."""
    counters, cancel = new_counters(), new_cancel()
    with Deadline(cancel, limit) as clock:
        try:
            result = solver.solve(state, counters=counters, cancel=cancel)
            status = result.status if not cancel[0] else "time limit"
        except SolverError as e:
            result, status = None, f"refused: {e}"
    return clock.elapsed(), result, counters, status


def run_experiment(solvers: dict[str, object], positions: Positions, limit: float,
                   progress: Callable[[int, int, str], None] | None = None,
                   stop: threading.Event | None = None) -> list[Trial]:
    """Every solver on every position; `progress(done, total, solver)` after each trial."""
    total = len(solvers) * len(positions.items)
    done = 0
    trials: list[Trial] = []
    for name, solver in solvers.items():
        for depth, index, text, state in positions.items:
            if stop is not None and stop.is_set():
                return trials
            trials.append(one_trial(name, solver, depth, index, text, state, limit))
            done += 1
            if progress is not None:
                progress(done, total, name)
    return trials


def one_trial(name: str, solver, depth: int, index: int, text: str, state: CubeState,
              limit: float) -> Trial:
    """One solver on one position, timed, as a Trial."""
    seconds, result, counters, status = run_trial(solver, state, limit)
    moves = result.moves if result is not None else None
    # a solution counts when it arrived within the limit (give the timer thread a little slack
    # to be heard); improving solvers may hold one when cancelled
    solved = moves is not None and seconds <= limit * 1.05
    return Trial(
        solver=name, depth=depth, index=index, scramble=text, seconds=seconds, solved=solved,
        length=metric_lengths(moves)["htm"] if moves is not None else None,
        nodes=int(result.nodes if result is not None else counters[NODES]),
        optimal=bool(result is not None and result.optimal),
        verified=bool(moves is not None and verify(state, moves)), status=status)


def summarize(trials: list[Trial]) -> list[dict]:
    """Per (solver, depth): count, share solved, median and max time, mean length and nodes."""
    groups: dict[tuple[str, int], list[Trial]] = {}
    for t in trials:
        groups.setdefault((t.solver, t.depth), []).append(t)
    rows = []
    for (solver, depth), ts in groups.items():
        times = [t.seconds for t in ts]
        lengths = [t.length for t in ts if t.solved and t.length is not None]
        rows.append({
            "solver": solver,
            "depth": depth,
            "count": len(ts),
            "solved_share": sum(t.solved for t in ts) / len(ts),
            "median_seconds": statistics.median(times),
            "max_seconds": max(times),
            "mean_length": statistics.fmean(lengths) if lengths else None,
            "mean_nodes": statistics.fmean(t.nodes for t in ts),
            "all_verified": all(t.verified for t in ts if t.solved),
        })
    return rows


def trial_dicts(trials: list[Trial]) -> list[dict]:
    return [asdict(t) for t in trials]
