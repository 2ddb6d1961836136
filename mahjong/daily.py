"""The daily challenge's deal: one Easy code a UTC day, the same for everyone
(docs/ACCOUNTS.md, leaderboards). Here, below the apps, so practice can open and frame
today's deal and records can rank it without either importing the other."""

import datetime
import hashlib

from django.utils import timezone

from mahjong.engine.catalog import BY_NAME
from mahjong.engine.codes import SEED_LIMIT, make_code

DAILY_LAYOUT = BY_NAME["easy"].number


def today() -> datetime.date:
    return timezone.now().astimezone(datetime.UTC).date()


def daily_code(day: datetime.date) -> str:
    """The challenge of a UTC day: the same Easy deal for everyone, derived from the date.

    A hash, not the date's ordinal, so consecutive days are unrelated deals; the seed
    only depends on the date, so the code is stable forever like every game code.
    """
    digest = hashlib.sha256(f"mahjong-daily-{day.isoformat()}".encode()).digest()
    return make_code(DAILY_LAYOUT, int.from_bytes(digest[:8], "big") % SEED_LIMIT)


def day_bounds(day: datetime.date) -> tuple[datetime.datetime, datetime.datetime]:
    """The UTC day as [start, end): a daily game counts on the day it was started."""
    start = datetime.datetime.combine(day, datetime.time.min, tzinfo=datetime.UTC)
    return start, start + datetime.timedelta(days=1)


def days_in_a_row(days, today: datetime.date) -> int:
    """How many consecutive days among `days` end at today, or at yesterday: a streak
    stays alive until a whole UTC day passes without a game (docs/RULES.md §Records and
    boards). Both streaks — the daily challenge's and the home page's — count this way."""
    played = set(days)
    day = today if today in played else today - datetime.timedelta(days=1)
    count = 0
    while day in played:
        count += 1
        day -= datetime.timedelta(days=1)
    return count
