"""The end of a race: places and points (mahjong/race_rules/ranking.py), the winners'
handicap streaks, what other domains settle at the end (fair play and ratings:
rooms/ranked/results.py, registered through `at_race_end`), and the closing of races
past their cut-off (docs/RULES.md §Ranking and points). Every function here runs with
the room locked."""

from collections.abc import Callable
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from mahjong.race_rules import ranking
from mahjong.rules import time_limit_ms
from rooms.core import events
from rooms.core.errors import RoomError
from rooms.core.room import advance_version, locked_room
from rooms.models import Entry, Race, Seat

Settle = Callable[[Race, list[Entry], datetime], None]

# What other domains settle when a race ends, in the same transaction, stage by stage:
# ranked play flags inhuman pace and rates (FLAGS, rooms/apps.py), then arenas score,
# reading those flags (SCORES, arenas/apps.py). Registered rather than imported so the
# race knows nothing of who listens; staged so the order is said, not left to the order
# the apps start in (docs/ARCHITECTURE.md §Mechanisms).
FLAGS, SCORES = 10, 20
_AT_RACE_END: list[tuple[int, Settle]] = []


def at_race_end(settle: Settle, stage: int) -> None:
    """Have `settle(race, entries, now)` run inside every race's end, once, after every
    settle of an earlier stage."""
    if all(settle is not known for _, known in _AT_RACE_END):
        _AT_RACE_END.append((stage, settle))
        _AT_RACE_END.sort(key=lambda staged: staged[0])  # stable: a stage keeps its order


def end_race(race: Race, now: datetime) -> None:
    """Rank, score and close a race (caller holds the room lock). Idempotent."""
    if race.status == Race.Status.FINISHED:
        return
    # The race's row, locked before its boards are read: a pair stored without the room's
    # lock (on the event loop) share-locks it, so it is either stored before this read and
    # counted, or waits and then finds the race over (rooms/core/hot_sql.py record_pair).
    Race.objects.select_for_update().filter(pk=race.pk).values_list("pk").get()
    entries = list(race.entries.select_related("seat"))
    ranked = ranking.rank([e.standing() for e in entries], time_limit_ms(race.rules))
    ranked = {r.key: r for r in ranked}
    for entry in entries:
        entry.place = ranked[entry.pk].place
        entry.points = float(ranked[entry.pk].points)
    Entry.objects.bulk_update(entries, ["place", "points"])  # one statement, in the lock
    _update_win_streaks(entries)
    race.status = Race.Status.FINISHED
    race.finished_at = now
    race.save(update_fields=["status", "finished_at"])
    for _stage, settle in _AT_RACE_END:
        settle(race, entries, now)
    events.publish_race_finished(race.room, race, advance_version(race.room))


def _update_win_streaks(entries: list[Entry]) -> None:
    for entry in entries:
        won = entry.place == 1 and entry.status == Entry.Status.FINISHED
        entry.seat.win_streak = entry.seat.win_streak + 1 if won else 0
    Seat.objects.bulk_update([entry.seat for entry in entries], ["win_streak"])


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
