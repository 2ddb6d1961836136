"""What ranked play settles when any race ends (registered with
rooms.race.end.at_race_end in rooms/apps.py): boards played at an inhuman pace are
flagged (docs/RULES.md §Fair play), then a ranked race's humans are rated from their
places among the humans (docs/RULES.md §Ranked play and ratings)."""

from datetime import datetime

from accounts import actions as accounts_actions
from rooms.models import Entry, Race
from rooms.ranked import fair_play, rated_places


def settle(race: Race, entries: list[Entry], now: datetime) -> None:
    """In end_race's transaction, the room locked. The flags come first: a flagged
    result is not rated."""
    fair_play.flag_inhuman_pace(race, entries)
    if race.room.ranked:
        _rate(race, entries, now)


def _rate(race: Race, entries: list[Entry], now: datetime) -> None:
    """Every human whose result counts is rated from their place among the humans (ties
    share it); record_rated_result ignores a race already rated."""
    places = rated_places.rated_places(race, entries, fair_play.counts)
    results = [(entry.seat.player, place) for entry, place in places]
    accounts_actions.record_rated_result(results, race_ref=race.pk, at=now)
