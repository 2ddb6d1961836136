"""The end of a race: places and points (rooms/ranking.py), the winners' handicap
streaks, ratings in a ranked room, and the closing of races past their cut-off
(docs/RULES.md §Ranking and points). Every function here runs with the room locked."""

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import actions as accounts_actions
from mahjong.rules import time_limit_ms
from rooms import events, fair_play, ranking, rated_places
from rooms.errors import RoomError
from rooms.lobby import advance_version, locked_room
from rooms.models import Entry, Race


def end_race(race: Race, now: datetime) -> None:
    """Rank, score and close a race (caller holds the room lock). Idempotent."""
    if race.status == Race.Status.FINISHED:
        return
    entries = list(race.entries.select_related("seat"))
    ranked = ranking.rank([e.standing() for e in entries], time_limit_ms(race.rules))
    ranked = {r.key: r for r in ranked}
    for entry in entries:
        entry.place = ranked[entry.pk].place
        entry.points = float(ranked[entry.pk].points)
        entry.save(update_fields=["place", "points"])
    _update_win_streaks(entries)
    fair_play.flag_inhuman_pace(race, entries)
    race.status = Race.Status.FINISHED
    race.finished_at = now
    race.save(update_fields=["status", "finished_at"])
    if race.room.ranked:
        _rate(race, entries, now)
    events.publish_race_finished(race.room, race, advance_version(race.room))


def _update_win_streaks(entries: list[Entry]) -> None:
    for entry in entries:
        won = entry.place == 1 and entry.status == Entry.Status.FINISHED
        entry.seat.win_streak = entry.seat.win_streak + 1 if won else 0
        entry.seat.save(update_fields=["win_streak"])


def _rate(race: Race, entries: list[Entry], now: datetime) -> None:
    """docs/RULES.md §Ranked play and ratings: every human of a ranked race is rated from
    their place among the humans (ties share it). In end_race's transaction;
    record_rated_result ignores a race already rated. A result under review or voided is
    not rated (docs/RULES.md §Fair play)."""
    places = rated_places.rated_places(race, entries, fair_play.counts)
    results = [(entry.seat.player, place) for entry, place in places]
    accounts_actions.record_rated_result(results, race_ref=race.pk, at=now)


@transaction.atomic
def close_if_due(code: str, now=None) -> bool:
    """End the room's race if its cut-off has passed (the sweeper calls this)."""
    now = now or timezone.now()
    room = locked_room(code)
    race = room.current_race()
    if race is None or race.status != Race.Status.RUNNING or now < race.cut_off_at:
        return False
    end_race(race, now)
    return True


@transaction.atomic
def end_race_by_staff(code: str, now=None) -> Race:
    """The admin's "End race now" for a stuck race: placed and scored as at the cut-off
    (and rated, in a ranked room)."""
    room = locked_room(code)
    race = room.current_race()
    if race is None or race.status != Race.Status.RUNNING:
        raise RoomError(_("this room has no running race"), "no_race")
    end_race(race, now or timezone.now())
    return race
