"""Site-wide boards (read only): fastest practice wins per layout, the daily challenge,
fastest race wins per level, ratings."""

from dataclasses import dataclass

from django.db.models import F, IntegerField, Window
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast, RowNumber

from accounts.models import Rating
from accounts.ratings import PROVISIONAL_DEVIATION
from mahjong.daily import DAILY_LAYOUT as DAILY_LAYOUT  # the deal lives below the apps
from mahjong.daily import daily_code as daily_code
from mahjong.daily import today as today
from mahjong.engine.catalog import CATALOG
from mahjong.rules import MINUTE_MS, layout_label
from practice.daily import daily_board as daily_board  # practice frames it too
from practice.models import SoloGame
from practice.wins import BOARD_SIZE
from practice.wins import best_win_per_player as best_win_per_player
from rooms.models import Entry, Level, Race


@dataclass
class Board:
    title: str
    rows: list  # SoloGame for practice boards, rooms' Entry for race boards


def practice_boards() -> list[Board]:
    """One board per built-in layout that has at least one win, in catalogue order."""
    boards = []
    for entry in CATALOG:
        clean = SoloGame.objects.filter(SoloGame.CLEAN, layout_number=entry.number)
        rows = best_win_per_player(clean)
        if rows:
            boards.append(Board(layout_label(entry.number), rows))
    return boards


def rating_board(limit: int = 50) -> list[Rating]:
    """Established ratings only, as lichess lists them: a provisional one ("?") could top
    the board after one lucky race (docs/ACCOUNTS.md §Ratings)."""
    rated = Rating.objects.filter(
        games__gt=0,
        player__merged_into__isnull=True,
        deviation__lte=PROVISIONAL_DEVIATION,
    )
    return list(rated.select_related("player").order_by("-value", "player_id")[:limit])


def fastest_race_wins(level: str, limit: int = BOARD_SIZE) -> list[Entry]:
    """Each human's fastest race finished within the race's time limit at `level`, every
    pair of it made by the human."""
    time_limit_ms = (
        Cast(KeyTextTransform("time_limit_minutes", "race__rules"), IntegerField()) * MINUTE_MS
    )
    wins = Entry.objects.filter(
        level=level,
        status=Entry.Status.FINISHED,
        race__status=Race.Status.FINISHED,
        seat__player__isnull=False,
        cpu_pairs=0,  # a stand-in's pairs are nobody's record (docs/RULES.md §Leaving)
        pace_flagged=False,  # nor a pace no human plays at, until an admin clears it
        voided=False,
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
