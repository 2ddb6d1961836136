"""The daily challenge as practice frames it (read only): today's best times and a
player's streak of days played. The deal itself is mahjong/daily.py."""

import datetime
import itertools
from dataclasses import dataclass

from django.db.models import F, Window
from django.db.models.functions import RowNumber
from django.utils import dateformat
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from accounts.models import Player
from mahjong import daily
from practice.models import SoloGame

TOP_TIMES = 5
# A streak is read back this many days at a time, so a long one costs a few queries.
STREAK_WINDOW_DAYS = 60


def games_of_the_day(day: datetime.date):
    """Games of that day's code started on that UTC day (a replay later does not count)."""
    start, end = daily.day_bounds(day)
    return SoloGame.objects.filter(
        code=daily.daily_code(day), started_at__gte=start, started_at__lt=end
    )


def daily_board(day: datetime.date, limit: int = 10) -> list[SoloGame]:
    """One attempt a day: each player's first win of the day's code among games started
    on that UTC day (a later win is practice), fastest first."""
    wins = games_of_the_day(day).filter(status=SoloGame.Status.WON)
    firsts = wins.annotate(
        nth_win=Window(RowNumber(), partition_by=F("player"), order_by=[F("started_at"), F("pk")])
    )
    best = firsts.filter(nth_win=1).select_related("player").order_by("time_ms", "finished_at")
    # A first win at an inhuman pace is on no board, and no later win takes its place
    # (docs/RULES.md §Fair play), so it is left out after the ranking, not before.
    return list(itertools.islice((g for g in best.iterator() if not g.pace_flagged), limit))


def days_played(player: Player, first: datetime.date, last: datetime.date) -> set:
    """The UTC days in [first, last] on which `player` started that day's challenge."""
    start, _end = daily.day_bounds(first)
    _start, end = daily.day_bounds(last)
    games = player.solo_games.filter(
        layout_number=daily.DAILY_LAYOUT, started_at__gte=start, started_at__lt=end
    ).values_list("code", "started_at")
    days = set()
    for code, started_at in games:
        day = started_at.astimezone(datetime.UTC).date()
        if code == daily.daily_code(day):
            days.add(day)
    return days


def streak(player: Player, day: datetime.date) -> int:
    """Consecutive days up to `day` on which the player started the day's challenge,
    finished or not (mahjong.daily.days_in_a_row: alive until a whole day passes
    unplayed). Read a window of days at a time, back as far as the run goes."""
    played: set = set()
    last = day
    while True:
        first = last - datetime.timedelta(days=STREAK_WINDOW_DAYS - 1)
        played |= days_played(player, first, last)
        count = daily.days_in_a_row(played, day)
        run_end = day if day in played else day - datetime.timedelta(days=1)
        if not count or run_end - datetime.timedelta(days=count - 1) > first:
            return count  # the run broke inside what was read
        last = first - datetime.timedelta(days=1)


@dataclass
class DailyFrame:
    code: str
    title: str
    best: list  # SoloGame, fastest first
    streak: int
    streak_text: str


def title(day: datetime.date) -> str:
    """ "Daily challenge — 1 December", on the daily page and the home page alike."""
    # Translators: a day and month, as in "1 December" (Django date format characters).
    date = dateformat.format(day, pgettext("day and month", "j F"))
    return _("Daily challenge — %(date)s") % {"date": date}


def frame(player: Player, day: datetime.date) -> DailyFrame:
    """What the page says around today's deal."""
    days = streak(player, day)
    return DailyFrame(
        code=daily.daily_code(day),
        title=title(day),
        best=daily_board(day, TOP_TIMES),
        streak=days,
        streak_text=ngettext("%(count)s day in a row", "%(count)s days in a row", days)
        % {"count": days},
    )
