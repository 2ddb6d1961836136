"""The final ranking and points of a race (docs/RULES.md §Ranking and points), as a pure function.

Groups, each in order: 1. finished within the time limit, by time; 2. finished after
it, by time; 3. not finished (still playing at the end, or out of moves), by progress;
4. gave up, by progress. Equal keys tie. Points: one for each player ranked below, half
for each player tied with you; none unless you finished within the limit.
"""

from dataclasses import dataclass
from fractions import Fraction

FINISHED, OUT, GAVE_UP, PLAYING = "finished", "out", "gave_up", "playing"


@dataclass(frozen=True)
class Standing:
    key: object  # whatever identifies the player to the caller (a seat id)
    status: str  # finished, playing, out or gave_up
    progress: Fraction  # tiles removed / tiles of the deal
    finished_ms: int | None = None


class HasStanding:
    """Progress and standing of a board, for anything with `pk`, `status`,
    `pairs_removed`, `tile_count` and `finished_ms` (an Entry, or a row of the standings
    read without one)."""

    @property
    def progress(self) -> int:  # whole per cent, as shown
        return self.pairs_removed * 2 * 100 // self.tile_count

    def standing(self) -> Standing:
        progress = Fraction(self.pairs_removed * 2, self.tile_count)
        return Standing(self.pk, self.status, progress, self.finished_ms)


@dataclass(frozen=True)
class Ranked:
    key: object
    place: int  # 1-based; tied players share the best place of their tie
    points: Fraction
    group: int


def sort_key(standing: Standing, time_limit_ms: int) -> tuple:
    """Smaller is better. Equal keys are ties."""
    if standing.status == FINISHED:
        late = standing.finished_ms > time_limit_ms
        return (2 if late else 1, standing.finished_ms)
    if standing.status == GAVE_UP:
        return (4, -standing.progress)
    return (3, -standing.progress)


def rank(standings: list[Standing], time_limit_ms: int) -> list[Ranked]:
    keyed = sorted(((sort_key(s, time_limit_ms), s) for s in standings), key=lambda p: p[0])
    result = []
    for key, standing in keyed:
        better = sum(1 for other, _ in keyed if other < key)
        tied = sum(1 for other, _ in keyed if other == key) - 1
        below = len(keyed) - better - tied - 1
        on_time = key[0] == 1
        points = Fraction(below) + Fraction(tied, 2) if on_time else Fraction(0)
        result.append(Ranked(standing.key, better + 1, points, key[0]))
    return result


def live_order(standings: list[Standing], time_limit_ms: int) -> list[Standing]:
    """The live panel's order: finished by time, then playing by progress, then out."""

    def live_key(s: Standing):
        if s.status == FINISHED:
            return (0, s.finished_ms, 0)
        if s.status == PLAYING:
            return (1, 0, -s.progress)
        return (2, 0, -s.progress)

    return sorted(standings, key=live_key)
