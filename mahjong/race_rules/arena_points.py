"""An arena's points (docs/RULES.md §Arenas), as pure functions: a race's humans ranked
among themselves (mahjong/race_rules/ranking.py), each given its share of the human
opponents placed below (a tie counts half); then a player's races, in order, scored with
the finish bonus, "all in" and the streak.

Pure: arenas/scoring.py reads the boards and asks these, and always scores a player's
whole sequence of races again, so the table can be recomputed from the races at any time
(a flag cleared re-scores)."""

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from mahjong.race_rules import ranking

SHARE_POINTS = 10  # for beating every human opponent
FINISH_BONUS = 2  # finished within the time limit
ALL_IN_BONUS = 1  # finished having dropped hints and shuffles before "go"
STREAK_AFTER = 2  # top-half races in a row that light the streak


@dataclass(frozen=True)
class Board:
    """One human's board in one arena race, as the race ended."""

    key: object  # whatever the caller identifies it by (an entry id)
    status: str  # finished, playing, out or gave_up (ranking's)
    pairs: int  # pairs removed
    tiles: int  # tiles of the deal
    finished_ms: int | None = None
    cpu_pairs: int = 0  # of the pairs, a stand-in's: they score nothing
    flagged: bool = False  # an inhuman pace, not cleared: scores 0


def arena_standing(board: Board) -> ranking.Standing:
    """A board as the arena ranks it: a stand-in's pairs score nothing, so a board a
    stand-in played on counts as given up at the human's own progress."""
    if board.cpu_pairs:
        own = Fraction((board.pairs - board.cpu_pairs) * 2, board.tiles)
        return ranking.Standing(board.key, ranking.GAVE_UP, own)
    return ranking.Standing(
        board.key, board.status, Fraction(board.pairs * 2, board.tiles), board.finished_ms
    )


@dataclass(frozen=True)
class Placed:
    key: object
    share: Fraction | None  # of the human opponents placed below; None with none to beat
    in_time: bool  # finished within the time limit (and counted: no stand-in)


def place_race(boards: Sequence[Board], time_limit_ms: int) -> list[Placed]:
    """Each human's share of the race's other humans placed below (a tie counts half).
    CPUs are not boards here: they never score and are never beaten for points."""
    standings = [arena_standing(b) for b in boards]
    ranked = {r.key: r for r in ranking.rank(standings, time_limit_ms)}
    opponents = len(boards) - 1
    placed = []
    for standing in standings:
        keyed = ranking.sort_key(standing, time_limit_ms)
        below = sum(1 for o in standings if ranking.sort_key(o, time_limit_ms) > keyed)
        tied = sum(1 for o in standings if ranking.sort_key(o, time_limit_ms) == keyed) - 1
        share = Fraction(2 * below + tied, 2 * opponents) if opponents else None
        placed.append(Placed(standing.key, share, ranked[standing.key].group == 1))
    return placed


@dataclass(frozen=True)
class RaceOutcome:
    """One race of one player, in the order the player raced them."""

    key: object
    share: Fraction | None
    in_time: bool
    all_in: bool = False
    flagged: bool = False


@dataclass(frozen=True)
class Score:
    key: object
    points: int
    base: int  # round(10 × share) + the bonuses, before the streak doubled it
    top_half: bool
    streak_applied: bool  # these points were doubled
    streak_after: int  # top-half races in a row once this race counted


def base_points(outcome: RaceOutcome) -> int:
    """round(10 × share) (halves up), +2 finished in time, +1 more if all in."""
    share = outcome.share or Fraction(0)
    points = int(share * SHARE_POINTS + Fraction(1, 2))  # round half up, never to even
    if outcome.in_time:
        points += FINISH_BONUS + (ALL_IN_BONUS if outcome.all_in else 0)
    return points


def top_half(outcome: RaceOutcome) -> bool | None:
    """In the top half: at least half the human opponents below. None (no effect on the
    streak) in a race without human opponents: racing the CPUs alone neither lights nor
    breaks a streak. A flagged board is outside."""
    if outcome.flagged:
        return False
    if outcome.share is None:
        return None
    return outcome.share >= Fraction(1, 2)


def score_races(outcomes: Sequence[RaceOutcome]) -> list[Score]:
    """A player's races in order: after STREAK_AFTER top-half races in a row, every later
    top-half race's points double, until a race outside the top half ends the streak
    (that race is not doubled). A flagged board scores 0 and ends the streak."""
    scores = []
    streak = 0
    for outcome in outcomes:
        half = top_half(outcome)
        base = 0 if outcome.flagged else base_points(outcome)
        doubled = streak >= STREAK_AFTER and half is not False
        if half is True:
            streak += 1
        elif half is False:
            streak = 0
        points = base * 2 if doubled else base
        scores.append(Score(outcome.key, points, base, bool(half), doubled, streak))
    return scores


def on_fire(streak: int) -> bool:
    """The streak mark: the next top-half race doubles."""
    return streak >= STREAK_AFTER
