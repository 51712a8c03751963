"""A small terminal line chart (a Rich renderable).

Series against an integer x axis, optional logarithmic y axis, one colour and marker per series. Enough for `cubelab bench`'s plots.
"""

from __future__ import annotations

import math

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text

MARKERS = "*o+x#@%&"
COLOURS = ("bright_cyan", "bright_magenta", "bright_yellow", "bright_green", "bright_red",
           "bright_blue", "white", "cyan")


class LineChart:
    def __init__(self, title: str, series: dict[str, list[tuple[float, float]]], *,
                 log_y: bool = False, width: int = 64, height: int = 14, y_label: str = "",
                 x_label: str = "depth"):
        self.title, self.series, self.log_y = title, series, log_y
        self.width, self.height, self.y_label, self.x_label = width, height, y_label, x_label

    def _y(self, v: float) -> float:
        return math.log10(max(v, 1e-9)) if self.log_y else v

    def _format_y(self, v: float) -> str:
        if self.log_y:
            real = 10 ** v
            return f"{real:.0e}" if real < 0.01 or real >= 1000 else f"{real:.3g}"
        return f"{v:.3g}"

    def lines(self) -> list[tuple[str, list[tuple[int, str]]]]:
        """Rows of the chart as (text, [(column, style)...]) so it renders with or without colour."""
        points = [(x, self._y(y)) for s in self.series.values() for x, y in s if y is not None]
        if not points:
            return [(f"{self.title}: no data", [])]
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        x0, x1 = min(xs), max(xs)
        y0, y1 = min(ys), max(ys)
        if y1 == y0:
            y0, y1 = y0 - 1, y1 + 1
        label_w = 8
        plot_w = max(10, self.width - label_w - 2)
        grid = [[" "] * plot_w for _ in range(self.height)]
        styles = [[None] * plot_w for _ in range(self.height)]

        def cell(x, y):
            cx = 0 if x1 == x0 else round((x - x0) / (x1 - x0) * (plot_w - 1))
            cy = self.height - 1 - round((y - y0) / (y1 - y0) * (self.height - 1))
            return cx, cy

        for k, (name, pts) in enumerate(self.series.items()):
            mark, colour = MARKERS[k % len(MARKERS)], COLOURS[k % len(COLOURS)]
            pts = sorted((x, self._y(y)) for x, y in pts if y is not None)
            for (xa, ya), (xb, yb) in zip(pts, pts[1:]):
                (ca, ra), (cb, rb) = cell(xa, ya), cell(xb, yb)
                steps = max(abs(cb - ca), abs(rb - ra), 1)
                for s in range(1, steps):
                    c = ca + round((cb - ca) * s / steps)
                    r = ra + round((rb - ra) * s / steps)
                    if grid[r][c] == " ":
                        grid[r][c], styles[r][c] = ".", colour
            for x, y in pts:
                c, r = cell(x, y)
                grid[r][c], styles[r][c] = mark, colour
        out = [(self.title + (f"  ({self.y_label}, log scale)" if self.log_y else
                              f"  ({self.y_label})" if self.y_label else ""), [])]
        for r in range(self.height):
            yv = y1 - (y1 - y0) * r / (self.height - 1)
            label = self._format_y(yv) if r % 3 == 0 or r == self.height - 1 else ""
            prefix = f"{label:>{label_w}} |"
            out.append((prefix + "".join(grid[r]),
                        [(len(prefix) + c, styles[r][c]) for c in range(plot_w) if styles[r][c]]))
        axis = " " * label_w + " +" + "-" * plot_w
        out.append((axis, []))
        # room past the right edge so the last label is never cut ("14", not "1")
        ticks = [" "] * (plot_w + 4)
        free = 0
        for x in sorted(set(xs)):
            c, _ = cell(x, y0)
            label = str(int(x))
            if c < free:
                continue        # labels too close to the previous one are skipped
            for i, ch in enumerate(label):
                ticks[c + i] = ch
            free = c + len(label) + 1
        out.append((" " * (label_w + 2) + "".join(ticks).rstrip() + f"  {self.x_label}", []))
        legend = "   ".join(f"{MARKERS[k % len(MARKERS)]} {name}"
                            for k, name in enumerate(self.series))
        out.append((" " * (label_w + 2) + legend, []))
        return out

    def plain_text(self) -> str:
        return "\n".join(text.rstrip() for text, _ in self.lines())

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(self.width, self.width)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for text, spans in self.lines():
            t = Text(text)
            for col, style in spans:
                t.stylize(style, col, col + 1)
            yield t
