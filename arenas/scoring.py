"""An arena race's scores (docs/RULES.md §Arenas), settled inside every race's end
(registered with rooms.race.end.at_race_end in arenas/apps.py), and written again for a
player whenever one of their results changes (an admin clears a pace flag).

Each race's humans are placed among themselves (mahjong/race_rules/arena_points.py); a
player's whole sequence of results is then scored in order (the streak runs across
races), and the player's sums on ArenaPlayer follow from the rows: the table can always
be recomputed from the races (`rescore_arena`)."""

from datetime import datetime
from fractions import Fraction

from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from arenas import live
from arenas.models import ArenaPlayer, ArenaRace, ArenaResult
from mahjong.race_rules import arena_points
from mahjong.rules import time_limit_ms
from rooms.models import Entry, Race, Room


def settle(race: Race, entries: list[Entry], now: datetime) -> None:
    """In end_race's transaction, the room locked: score an arena's race, and pause its
    players (the page offers the next race at once)."""
    if not race.room.hosted:
        return
    owned = ArenaRace.objects.filter(race=race).select_related("arena").first()
    if owned is None or owned.scored_at is not None:
        return
    humans = [e for e in entries if e.seat.player_id is not None]
    places = {
        p.key: p
        for p in arena_points.place_race([_board(e) for e in humans], time_limit_ms(race.rules))
    }
    arena = owned.arena
    by_player = {
        p.player_id: p
        for p in ArenaPlayer.objects.select_for_update().filter(
            arena=arena, player_id__in=[e.seat.player_id for e in humans]
        )
    }
    results, seated = [], []
    for entry in humans:
        arena_player = by_player.get(entry.seat.player_id)
        if arena_player is None:
            continue
        results.append(_result(owned, entry, arena_player, places[entry.pk], now))
        seated.append(arena_player)
    ArenaResult.objects.bulk_create(results)
    _pause(p for p in seated if p.state == ArenaPlayer.State.RACING)
    rescore_players(seated)
    owned.scored_at = now
    owned.save(update_fields=["scored_at"])
    live.changed(arena.code)


def _result(owned: ArenaRace, entry: Entry, arena_player, place, now) -> ArenaResult:
    return ArenaResult(
        arena=owned.arena,
        arena_race=owned,
        entry=entry,
        arena_player=arena_player,
        share=None if place.share is None else float(place.share),
        all_in=entry.seat_id in owned.all_in_seats,
        finished_in_time=place.in_time,
        flagged=_flagged(entry),
        stand_in=bool(entry.cpu_pairs),
        finished_ms=entry.finished_ms if place.in_time else None,
        ended_at=now,
    )


def _pause(racing) -> None:
    """The race is over for them: the page offers the next one."""
    ids = [p.pk for p in racing]
    ArenaPlayer.objects.filter(pk__in=ids).update(
        state=ArenaPlayer.State.PAUSED, waiting_since=None
    )


def _board(entry: Entry) -> arena_points.Board:
    return arena_points.Board(
        key=entry.pk,
        status=entry.status,
        pairs=entry.pairs_removed,
        tiles=entry.tile_count,
        finished_ms=entry.finished_ms,
        cpu_pairs=entry.cpu_pairs,
        flagged=_flagged(entry),
    )


def _flagged(entry: Entry) -> bool:
    return entry.pace_flagged or entry.voided


def rescore_player(arena_player: ArenaPlayer) -> None:
    """Score the player's results again in order and store the sums."""
    rescore_players([arena_player])


SUMS = ["points", "races", "streak", "share_total", "best_ms"]
SCORED = ["points", "top_half", "streak_applied"]


def rescore_players(arena_players: list[ArenaPlayer]) -> None:
    """Score each player's results again in order and store the sums: one read of every
    result, one write of the rows that changed and one of the players (a race's end does
    this inside its room's lock, for up to 20 players)."""
    rows_of = {p.pk: [] for p in arena_players}
    for row in ArenaResult.objects.filter(arena_player__in=arena_players).order_by(
        "ended_at", "pk"
    ):
        rows_of[row.arena_player_id].append(row)
    changed = []
    for arena_player in arena_players:
        changed += _score(arena_player, rows_of[arena_player.pk])
    ArenaResult.objects.bulk_update(changed, SCORED)
    ArenaPlayer.objects.bulk_update(arena_players, SUMS)


def _score(arena_player: ArenaPlayer, rows: list[ArenaResult]) -> list[ArenaResult]:
    """Set the player's sums from their rows in order; the rows whose score changed."""
    outcomes = [
        arena_points.RaceOutcome(
            key=row.pk,
            share=None if row.share is None else Fraction(row.share).limit_denominator(1000),
            in_time=row.finished_in_time,
            all_in=row.all_in,
            flagged=row.flagged,
        )
        for row in rows
    ]
    scores = arena_points.score_races(outcomes)
    changed = []
    for row, score in zip(rows, scores, strict=True):
        if (row.points, row.top_half, row.streak_applied) != (
            score.points,
            score.top_half,
            score.streak_applied,
        ):
            row.points, row.top_half = score.points, score.top_half
            row.streak_applied = score.streak_applied
            changed.append(row)
    counted = [row for row in rows if not row.flagged]
    times = [row.finished_ms for row in counted if row.finished_ms is not None]
    arena_player.points = sum(score.points for score in scores)
    arena_player.races = len(rows)
    arena_player.streak = scores[-1].streak_after if scores else 0
    arena_player.share_total = sum(row.share or 0.0 for row in counted)
    arena_player.best_ms = min(times) if times else None
    return changed


@transaction.atomic
def rescore_entries(entries) -> int:
    """An admin cleared these boards' pace flags (rooms.ranked.fair_play.clear_flags): their
    arena results count again, and their players' sequences are scored again."""
    changed = 0
    for entry in entries:
        row = ArenaResult.objects.filter(entry_id=entry.pk).select_related("arena").first()
        if row is None:
            continue
        row.flagged = _flagged(entry)
        row.save(update_fields=["flagged"])
        rescore_player(ArenaPlayer.objects.select_for_update().get(pk=row.arena_player_id))
        live.changed(row.arena.code)
        changed += 1
    return changed


@transaction.atomic
def rescore_arena(arena) -> None:
    """Every player of the arena scored again from the stored results."""
    rescore_players(list(ArenaPlayer.objects.select_for_update().filter(arena=arena)))
    live.changed(arena.code)


def host_of(room: Room) -> dict | None:
    """The arena hosting a room, as a race page links back to it (rooms'
    serializers.register_host)."""
    owned = (
        ArenaRace.objects.filter(race__room=room).select_related("arena").order_by("-pk").first()
    )
    if owned is None:
        return None
    url = reverse("arena", args=[owned.arena.code])
    return {
        "name": owned.arena.name,
        "url": url,
        "next_url": f"{url}?next=1",
        "label": _("Back to the arena"),
    }
