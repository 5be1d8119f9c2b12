"""Small server-drawn SVG charts: no script, printable, readable without colour."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass
class Band:
    """A line (the estimate) inside a shaded band (the uncertainty), ready for SVG."""

    width: int
    height: int
    line: str
    band: str
    ticks: list[tuple[float, str]]
    points: list[tuple[float, float, str]]


def rating_band(
    values: Sequence[tuple[float, float, str]], width: int = 640, height: int = 200
) -> Band | None:
    """``values`` are (mu, sigma, label) in time order; the band is mu ± sigma."""
    if not values:
        return None
    pad = 28
    lows = [m - s for m, s, _ in values]
    highs = [m + s for m, s, _ in values]
    low, high = min(lows), max(highs)
    if high - low < 4:
        # A flat or narrow line: a range of four around it, on whole numbers, so the five
        # ticks read five different values.
        mid = round((high + low) / 2)
        low, high = mid - 2.0, mid + 2.0
    n = len(values)

    def x(i: int) -> float:
        return pad + (width - 2 * pad) * (i / (n - 1) if n > 1 else 0.5)

    def y(v: float) -> float:
        return height - pad - (height - 2 * pad) * (v - low) / (high - low)

    line = " ".join(f"{x(i):.1f},{y(m):.1f}" for i, (m, _, _) in enumerate(values))
    upper = [f"{x(i):.1f},{y(h):.1f}" for i, h in enumerate(highs)]
    lower = [f"{x(i):.1f},{y(lo):.1f}" for i, lo in reversed(list(enumerate(lows)))]
    steps = 4
    ticks = [
        (y(low + (high - low) * k / steps), f"{low + (high - low) * k / steps:.0f}")
        for k in range(steps + 1)
    ]
    points = [(x(i), y(m), label) for i, (m, _, label) in enumerate(values)]
    return Band(width, height, line, " ".join(upper + lower), ticks, points)
