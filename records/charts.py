"""A rating history as numbers for a small inline SVG line chart (no JS, no library)."""

from dataclasses import dataclass

WIDTH, HEIGHT, PAD = 600, 160, 8
MIN_SPAN = 50  # rating points: a flat history still gets a readable vertical scale


@dataclass
class LineChart:
    width: int
    height: int
    points: str  # the SVG polyline's "x,y x,y ..."
    low: int
    high: int
    count: int


def line_chart(values: list[float], width=WIDTH, height=HEIGHT) -> LineChart | None:
    """Values left to right, scaled into the box; None when there is nothing to draw."""
    if not values:
        return None
    low, high = min(values), max(values)
    if high - low < MIN_SPAN:
        middle = (high + low) / 2
        low, high = middle - MIN_SPAN / 2, middle + MIN_SPAN / 2
    step = (width - 2 * PAD) / max(1, len(values) - 1)
    scale = (height - 2 * PAD) / (high - low)
    points = " ".join(
        f"{PAD + i * step:.1f},{height - PAD - (value - low) * scale:.1f}"
        for i, value in enumerate(values)
    )
    return LineChart(width, height, points, round(low), round(high), len(values))


def rating_history(changes) -> list[float]:
    """The ratings a player has had: the first change's starting point, then each result."""
    changes = list(changes)
    return [changes[0].before, *(change.after for change in changes)] if changes else []
