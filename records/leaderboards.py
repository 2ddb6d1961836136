"""Site-wide boards (read only): fastest practice wins per layout, the daily challenge,
fastest race wins per level, ratings."""

import datetime
import hashlib
from dataclasses import dataclass

from django.db.models import F, IntegerField, Window
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast, RowNumber
from django.utils import timezone

from accounts.models import Rating
from mahjong.engine.catalog import BY_NAME, CATALOG
from mahjong.engine.codes import SEED_LIMIT, make_code
from mahjong.rules import MINUTE_MS, layout_label
from practice.models import SoloGame
from rooms.models import Entry, Level, Race

BOARD_SIZE = 10
DAILY_LAYOUT = BY_NAME["easy"].number


@dataclass
class Board:
    title: str
    rows: list  # SoloGame for practice boards, rooms' Entry for race boards


def best_win_per_player(games, limit: int = BOARD_SIZE) -> list[SoloGame]:
    """Each player's fastest win among `games` (earliest on equal times), fastest first."""
    ranked = games.filter(status=SoloGame.Status.WON).annotate(
        rank_for_player=Window(
            RowNumber(), partition_by=F("player"), order_by=[F("time_ms"), F("finished_at")]
        )
    )
    best = ranked.filter(rank_for_player=1).select_related("player")
    return list(best.order_by("time_ms", "finished_at")[:limit])


def practice_boards() -> list[Board]:
    """One board per built-in layout that has at least one win, in catalogue order."""
    boards = []
    for entry in CATALOG:
        rows = best_win_per_player(SoloGame.objects.filter(layout_number=entry.number))
        if rows:
            boards.append(Board(layout_label(entry.number), rows))
    return boards


def today() -> datetime.date:
    return timezone.now().astimezone(datetime.UTC).date()


def daily_code(day: datetime.date) -> str:
    """The challenge of a UTC day: the same Easy deal for everyone, derived from the date.

    A hash, not the date's ordinal, so consecutive days are unrelated deals; the seed
    only depends on the date, so the code is stable forever like every game code.
    """
    digest = hashlib.sha256(f"mahjong-daily-{day.isoformat()}".encode()).digest()
    return make_code(DAILY_LAYOUT, int.from_bytes(digest[:8], "big") % SEED_LIMIT)


def daily_board(day: datetime.date) -> list[SoloGame]:
    """Fastest wins of the day's code among games started on that UTC day."""
    start = datetime.datetime.combine(day, datetime.time.min, tzinfo=datetime.UTC)
    games = SoloGame.objects.filter(
        code=daily_code(day),
        started_at__gte=start,
        started_at__lt=start + datetime.timedelta(days=1),
    )
    return best_win_per_player(games)


def rating_board(limit: int = 50) -> list[Rating]:
    rated = Rating.objects.filter(games__gt=0, player__merged_into__isnull=True)
    return list(rated.select_related("player").order_by("-value", "player_id")[:limit])


def fastest_race_wins(level: str, limit: int = BOARD_SIZE) -> list[Entry]:
    """Each human's fastest race finished within the race's time limit at `level`."""
    time_limit_ms = (
        Cast(KeyTextTransform("time_limit_minutes", "race__rules"), IntegerField()) * MINUTE_MS
    )
    wins = Entry.objects.filter(
        level=level,
        status=Entry.Status.FINISHED,
        race__status=Race.Status.FINISHED,
        seat__player__isnull=False,
    ).alias(time_limit_ms=time_limit_ms)
    ranked = wins.filter(finished_ms__lte=F("time_limit_ms")).annotate(
        rank_for_player=Window(
            RowNumber(),
            partition_by=F("seat__player"),
            order_by=[F("finished_ms"), F("race__finished_at")],
        )
    )
    best = ranked.filter(rank_for_player=1).select_related("seat__player", "race__room")
    return list(best.order_by("finished_ms", "race__finished_at")[:limit])


def race_boards() -> list[Board]:
    """One board per level that has at least one race won in time, easiest first."""
    boards = [Board(label, fastest_race_wins(level)) for level, label in Level.choices]
    return [board for board in boards if board.rows]
