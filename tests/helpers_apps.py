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


async def run_from_palette(pilot, text: str, first: str) -> None:
    """Open Ctrl+P, type `text`, wait until the highlighted command starts with `first` (the
    palette searches in a worker), press Enter and wait until the palette has closed."""
    from textual.command import CommandList, CommandPalette
    app = pilot.app
    await pilot.press("ctrl+p")
    await until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")
    await pilot.press(*text)

    def ready() -> bool:
        if not isinstance(app.screen, CommandPalette):
            return False
        found = app.screen.query_one(CommandList)
        at = found.highlighted
        if not found.option_count or at is None:
            return False
        prompt = found.get_option_at_index(at).prompt
        return getattr(prompt, "plain", str(prompt)).startswith(first)
    await until(pilot, ready, f"{first!r} highlighted in the palette")
    await pilot.press("enter")
    await until(pilot, lambda: not isinstance(app.screen, CommandPalette), "the palette closing")
