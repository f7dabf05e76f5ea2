"""Line charts of rating and Reputation over a campaign, drawn as server-side SVG (no JavaScript).

Each standing snapshot (a gang joining, a new cycle, a confirmed battle) is one step along the x
axis, in the order they happened; each gang's line joins its own snapshots. The template
``campaigns/_chart.html`` draws what :func:`standing_chart` prepares.
"""

from __future__ import annotations

from dataclasses import dataclass

WIDTH, HEIGHT = 420, 220
LEFT, RIGHT, TOP, BOTTOM = 44, 10, 12, 28
# Colour-blind-safe palette (Okabe-Ito); past eight gangs the dash pattern tells lines apart.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")
DASHES = ("", "6 3", "2 3", "8 3 2 3")


@dataclass(frozen=True)
class Line:
    name: str
    colour: str
    dash: str
    points: str  # "x,y x,y ..." for <polyline>
    last: int
    dots: tuple[tuple[float, float, int, str], ...]  # x, y, value, label for a <title>


@dataclass(frozen=True)
class Chart:
    title: str
    width: int
    height: int
    lines: tuple[Line, ...]
    y_ticks: tuple[tuple[float, int], ...]
    x_left: int
    x_right: int
    y_top: int
    y_bottom: int

    @property
    def is_empty(self) -> bool:
        return not self.lines


def _ticks(low: int, high: int, count: int = 4) -> list[int]:
    step = max(1, (high - low) // count)
    return list(range(low, high + 1, step))


def standing_chart(snapshots, field: str) -> Chart:
    """``field`` is ``"rating"`` or ``"reputation"``; ``snapshots`` in the order they were taken."""
    title = "Gang rating" if field == "rating" else "Reputation"
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    values = [getattr(s, field) for s in snapshots]
    if not values:
        return Chart(title, WIDTH, HEIGHT, (), (), LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM)
    low, high = min(0, min(values)), max(values)
    high = high if high > low else low + 1
    steps = max(1, len(snapshots) - 1)

    def x(i: int) -> float:
        return round(LEFT + plot_w * i / steps, 1)

    def y(v: int) -> float:
        return round(TOP + plot_h * (high - v) / (high - low), 1)

    series: dict[int, list] = {}
    names: dict[int, str] = {}
    for i, snap in enumerate(snapshots):
        series.setdefault(snap.gang_id, []).append((x(i), y(getattr(snap, field)), getattr(snap, field), snap.reason))
        names[snap.gang_id] = snap.gang.name
    lines = []
    for n, (gang_id, dots) in enumerate(sorted(series.items(), key=lambda item: names[item[0]])):
        lines.append(
            Line(
                names[gang_id],
                COLOURS[n % len(COLOURS)],
                DASHES[n // len(COLOURS) % len(DASHES)],
                " ".join(f"{px},{py}" for px, py, _, _ in dots),
                dots[-1][2],
                tuple(dots),
            )
        )
    y_ticks = tuple((y(v), v) for v in _ticks(low, high))
    return Chart(title, WIDTH, HEIGHT, tuple(lines), y_ticks, LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM)
