"""Inhuman pace (docs/RULES.md §Fair play): a board whose human pairs come faster and
more evenly than people play is flagged when its race ends (rooms/ranked/fair_play.py) or its
practice game is won (practice/actions.py). Pure Python.

A person's time between pairs swings widely — the look for a pair depends on the board,
and the fastest CPU level, built to look like a sharp player, takes ~1.6 s a pair with a
wide spread. A script is fast and regular. So a board is flagged when, over any run of
WINDOW consecutive intervals between its human's own pairs, the median interval is under
FLAG_MEDIAN_MS *and* the spread (the interquartile range over the median) is under
FLAG_SPREAD. The figures and how they were chosen: docs/ACCOUNTS.md §Fair play.
"""

import itertools
import statistics
from dataclasses import dataclass
from datetime import datetime

WINDOW = 15
FLAG_MEDIAN_MS = 600
FLAG_SPREAD = 0.5


@dataclass(frozen=True)
class Pace:
    median_ms: int  # of the window's intervals
    spread: float  # interquartile range / median


def intervals_ms(times: list[datetime]) -> list[int]:
    """Milliseconds between consecutive pairs, in order."""
    return [round((b - a).total_seconds() * 1000) for a, b in itertools.pairwise(times)]


def intervals_ms_of_clock(clock_ms: list[int]) -> list[int]:
    """Milliseconds between consecutive pairs timed on a game clock (ms), in order."""
    return [b - a for a, b in itertools.pairwise(clock_ms)]


def window_pace(window: list[int]) -> Pace:
    q1, median, q3 = statistics.quantiles(window, n=4)
    return Pace(round(median), (q3 - q1) / median if median else 0.0)


def inhuman(intervals: list[int]) -> Pace | None:
    """The first window that no honest human plays at, or None."""
    for start in range(len(intervals) - WINDOW + 1):
        pace = window_pace(intervals[start : start + WINDOW])
        if pace.median_ms < FLAG_MEDIAN_MS and pace.spread < FLAG_SPREAD:
            return pace
    return None
