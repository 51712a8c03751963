"""Running the workbench under Pilot with stand-in solvers, for the view and mouse tests."""

import asyncio

from cubelab.solvers.fake import FakeRegistry
from cubelab.tui.app import CubeLabApp
from cubelab.tui.history import InputHistory


def run_app(tmp_path, body, size=(80, 24), registry=None):
    """Run `await body(app, pilot)` in the workbench at `size`, fake solvers by default."""
    async def main():
        app = CubeLabApp(solvers=registry or FakeRegistry(),
                         history=InputHistory(tmp_path / "h"), compare_time_limit=None)
        async with app.run_test(size=size) as pilot:
            await body(app, pilot)
    asyncio.run(main())


WAIT = 180.0
"""How long a Pilot test waits for what it expects before it fails: a bound for a program gone
wrong, never a delay (each wait ends as soon as the condition holds), so generous: a loaded
machine runs the app many times slower."""


async def until(pilot, condition, what: str, seconds: float = WAIT) -> None:
    """Pause until `condition()` holds; fail saying `what` never happened."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not condition():
        assert loop.time() < deadline, f"{what} never happened"
        await pilot.pause(0.02)
