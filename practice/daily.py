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
from practice.wording import ordinal

TOP_TIMES = 5
# A streak is read back this many days at a time, so a long one costs a few queries.
STREAK_WINDOW_DAYS = 60


def games_of_the_day(day: datetime.date):
    """Games of that day's code started on that UTC day (a replay later does not count)."""
    start, end = daily.day_bounds(day)
    return SoloGame.objects.filter(
        code=daily.daily_code(day), started_at__gte=start, started_at__lt=end, ghost=False
    )  # a ghost race is no attempt (docs/RULES.md §Ghost races)


def _first_wins(day: datetime.date):
    """One attempt a day: each player's first win of the day's code among games started
    on that UTC day (a later win is practice), fastest first."""
    wins = games_of_the_day(day).filter(status=SoloGame.Status.WON)
    firsts = wins.annotate(
        nth_win=Window(RowNumber(), partition_by=F("player"), order_by=[F("started_at"), F("pk")])
    )
    best = firsts.filter(nth_win=1).select_related("player").order_by("time_ms", "finished_at")
    # A first win at an inhuman pace, or played offline (its pace unrefereed), is on no
    # board, and no later win takes its place (docs/RULES.md §Fair play), so it is left
    # out after the ranking, not before.
    return (game for game in best.iterator() if not (game.pace_flagged or game.played_offline))


def daily_board(day: datetime.date, limit: int = 10) -> list[SoloGame]:
    """The day's table: each player's first win, fastest first (_first_wins)."""
    return list(itertools.islice(_first_wins(day), limit))


def place_of(game: SoloGame, day: datetime.date) -> int | None:
    """Where a win stands on that day's table (1 is the fastest), or None when it is on
    none (a second win of the day, a flagged one)."""
    for place, row in enumerate(_first_wins(day), start=1):
        if row.pk == game.pk:
            return place
    return None


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
    show_streak: bool  # not before the player's first attempt (a pair removed)
    attempted_today: bool = False  # a pair removed today: today's best may be raced as a ghost


def title(day: datetime.date) -> str:
    """ "Daily challenge — 1 December", on the daily page and the home page alike."""
    # Translators: a day and month, as in "1 December" (Django date format characters).
    date = dateformat.format(day, pgettext("day and month", "j F"))
    return _("Daily challenge — %(date)s") % {"date": date}


def frame(player: Player, day: datetime.date) -> DailyFrame:
    """What the page says around today's deal."""
    days = streak(player, day)
    # Opening the page starts today's game, so today counts at once: a streak of one is
    # said only once that game has a pair removed.
    today = games_of_the_day(day).filter(player=player).exclude(moves=[]).exists()
    attempted = days > 1 or today
    return DailyFrame(
        code=daily.daily_code(day),
        title=title(day),
        best=daily_board(day, TOP_TIMES),
        streak=days,
        streak_text=streak_text(days),
        show_streak=attempted,
        attempted_today=today,
    )


def streak_text(days: int) -> str:
    return ngettext("%(count)s day in a row", "%(count)s days in a row", days) % {"count": days}


def win_facts(game: SoloGame, day: datetime.date) -> dict | None:
    """A win of that day's challenge, for the win dialog: its place on today's table and
    the streak; None for any other game."""
    start, end = daily.day_bounds(day)
    if game.code != daily.daily_code(day) or not start <= game.started_at < end:
        return None
    place = place_of(game, day)
    if place is None:
        place_text = _("a second try today: practice, not on today's table")
    else:
        # Translators: %(ordinal)s is "1st", "2nd"… (the ordinal messages).
        place_text = _("%(ordinal)s on today's table") % {"ordinal": ordinal(place)}
    days = streak(game.player, day)
    return {"place": place, "place_text": place_text, "streak_text": streak_text(days)}
