"""Benchmark of the 3-D view's pictures: a still cube and a frame of a turning layer, at the box
sizes the workbench gives it, beside the net (the picture every position redraws) in one run.

Run: .venv/bin/python bench/bench_iso.py [--repeat N]
Medians of N renders each (the machine is shared and noisy), as milliseconds and as a ratio to
the net's: a picture drawn cold (its geometry rasterised) and again (the raster of that size,
holding and turn is kept, only the colours change). An animation draws a frame every 1/30 s: a
frame well under 33 ms keeps up, and the workbench turns animation off by itself when frames
come late.
"""

from __future__ import annotations

import argparse
import io
import statistics
import time

from rich.console import Console

from cubelab.cube.alg import Move
from cubelab.cube import iso
from cubelab.cube.iso import IsoView
from cubelab.cube.layer_turns import move_turn
from cubelab.cube.moves import alg_state
from cubelab.cube.net import Net

BOXES = ((35, 9, "80x24"), (61, 26, "120x40"), (61, 33, "160x48"), (100, 46, "220x60"))
"""The 3-D view's content at each terminal size (the box the workbench sizes for it)."""


def median_ms(make, width: int, repeat: int, cold: bool = False) -> float:
    console = Console(file=io.StringIO(), color_system="256", force_terminal=True,
                      width=max(width, 40))
    times = []
    for _ in range(repeat):
        if cold:
            iso._cached_raster.cache_clear()
        start = time.perf_counter()
        list(console.render(make(), console.options.update(width=width)))
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=21)
    args = ap.parse_args()
    state = alg_state("R U R' F2 D L' B")
    turn = move_turn(Move("R", 1)).part(0.4)
    net = median_ms(lambda: Net(state), 35, args.repeat)
    print(f"net (35 x 9): {net:.1f} ms")
    print(f"{'terminal':<9} {'box':>7} {'cold ms':>8} {'x net':>6} {'again ms':>9} "
          f"{'x net':>6} {'frame cold':>11} {'x net':>6}")
    for width, height, terminal in BOXES:
        def still():
            return IsoView(state, width=width, height=height)

        def frame():
            return IsoView(state, width=width, height=height, turn=turn)
        cold = median_ms(still, width, args.repeat, cold=True)
        again = median_ms(still, width, args.repeat)
        turning = median_ms(frame, width, args.repeat, cold=True)
        print(f"{terminal:<9} {width:>3}x{height:<3} {cold:>8.1f} {cold / net:>6.0f} "
              f"{again:>9.1f} {again / net:>6.1f} {turning:>11.1f} {turning / net:>6.0f}")

if __name__ == "__main__":
    main()
