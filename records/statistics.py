"""Personal records, the player's leaderboard and statistics, read from solo games, and
the player's recent races (docs/RULES.md §Records and boards)."""

from dataclasses import dataclass

from django.db.models import Avg, Count, Min, Q, Sum

from mahjong.rules import layout_label
from practice.models import SoloGame
from rooms.models import Entry, Race

LEADERBOARD_SIZE = 10
RECENT_RACES = 10


def wins(player):
    return player.solo_games.filter(status=SoloGame.Status.WON)


def leaderboard(player) -> list[SoloGame]:
    """The player's fastest clean wins (no hint, a first sight of the deal), whatever the
    layout: the others are practice, in the history only."""
    clean = wins(player).filter(SoloGame.CLEAN)
    return list(clean.order_by("time_ms", "finished_at")[:LEADERBOARD_SIZE])


@dataclass
class LayoutStatistics:
    layout_number: int
    label: str
    games: int
    wins: int
    best_ms: int | None
    average_ms: int | None
    hints_used: int

    @property
    def win_rate(self) -> int:
        return round(100 * self.wins / self.games) if self.games else 0


def played(player):
    """Games that count: every game with at least one pair removed, and every win."""
    return player.solo_games.filter(~Q(moves=[]) | Q(status=SoloGame.Status.WON))


def statistics(player) -> list[LayoutStatistics]:
    rows = (
        played(player)
        .values("layout_number")
        .annotate(
            games=Count("pk"),
            wins=Count("pk", filter=Q(status=SoloGame.Status.WON)),
            # The record counts clean wins only; every game counts in the rest.
            best=Min("time_ms", filter=SoloGame.CLEAN & Q(status=SoloGame.Status.WON)),
            average=Avg("time_ms"),
            hints=Sum("hints_used"),
        )
        .order_by("layout_number")
    )
    return [
        LayoutStatistics(
            layout_number=row["layout_number"],
            label=layout_label(row["layout_number"]),
            games=row["games"],
            wins=row["wins"],
            best_ms=row["best"],
            average_ms=round(row["average"]) if row["average"] is not None else None,
            hints_used=row["hints"] or 0,
        )
        for row in rows
    ]


def totals(rows: list[LayoutStatistics]) -> dict:
    games = sum(row.games for row in rows)
    won = sum(row.wins for row in rows)
    return {
        "games": games,
        "wins": won,
        "win_rate": round(100 * won / games) if games else 0,
        "hints_used": sum(row.hints_used for row in rows),
    }


def recent_games(player, limit: int = RECENT_RACES) -> list[SoloGame]:
    """The player's last practice games that are over (won or left with a pair removed),
    newest first: each can be watched again (replays/)."""
    over = played(player).exclude(status=SoloGame.Status.PLAYING)
    return list(over.order_by("-started_at", "-pk")[:limit])


def recent_races(player, limit: int = RECENT_RACES) -> list:
    """The player's last finished races (their Entry, with `field_size`), newest first."""
    entries = Entry.objects.filter(seat__player=player, race__status=Race.Status.FINISHED)
    entries = entries.annotate(field_size=Count("race__entries"))
    return list(entries.select_related("race__room").order_by("-race__finished_at", "-pk")[:limit])
