"""Running the workbench under Pilot with stand-in solvers, for the view and mouse tests."""

import asyncio

from cubelab.solvers import StandIn
from cubelab.tui.app import CubeLabApp
from cubelab.tui.history import InputHistory


def run_app(tmp_path, body, size=(80, 24), registry=None):
    """Run `await body(app, pilot)` in the workbench at `size`, fake solvers by default."""
    async def main():
        app = CubeLabApp(solvers=registry or StandIn(),
                         history=InputHistory(tmp_path / "h"), compare_time_limit=None)
        async with app.run_test(size=size) as pilot:
            await body(app, pilot)
    asyncio.run(main())
