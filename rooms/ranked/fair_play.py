"""Results played at an inhuman pace (docs/RULES.md §Fair play): flagged when the race
ends (mahjong/race_rules/pace.py), then cleared or voided by an admin. The one write path of the
flags; the admin's actions call it (rooms/admin.py)."""

from django.db import transaction

from accounts import actions as accounts_actions
from mahjong.race_rules import pace
from rooms.models import Entry, Move, Race
from rooms.ranked import rated_places


def flag_inhuman_pace(race: Race, entries: list[Entry]) -> None:
    """At the end of the race (its room locked): mark each human board whose own pairs
    came at an inhuman pace, with the figures that showed it."""
    times: dict[int, list] = {}
    human_pairs = Move.objects.filter(entry__race=race, kind=Move.Kind.PAIR, by_cpu=False)
    for entry_id, at in human_pairs.order_by("entry_id", "number").values_list("entry_id", "at"):
        times.setdefault(entry_id, []).append(at)
    for entry in entries:
        if entry.seat.player_id is None:
            continue
        found = pace.inhuman(pace.intervals_ms(times.get(entry.pk, [])))
        if found is not None:
            entry.pace_flagged = True
            entry.pace_median_ms, entry.pace_spread = found.median_ms, round(found.spread, 3)
            entry.save(update_fields=["pace_flagged", "pace_median_ms", "pace_spread"])


# What other domains redo when an admin clears flags (arenas re-score: docs/RULES.md
# §Arenas), registered in their apps.py: `redo(entries)` in the clearing's transaction.
_AT_FLAGS_CLEARED: list = []


def at_flags_cleared(redo) -> None:
    if redo not in _AT_FLAGS_CLEARED:
        _AT_FLAGS_CLEARED.append(redo)


def counts(entry: Entry) -> bool:
    """Whether a result may stand on boards and in ratings."""
    return not entry.pace_flagged and not entry.voided


@transaction.atomic
def clear_flags(entries) -> int:
    """An admin looked and found a fast human: the results (a queryset) count again on
    the boards, and a ranked one is rated now — against the others' ratings from before
    that race, which keep theirs (accounts.actions.record_late_result)."""
    cleared = list(entries.filter(pace_flagged=True).select_related("seat", "race__room"))
    for entry in cleared:
        entry.pace_flagged = False
        entry.save(update_fields=["pace_flagged"])
    for entry in cleared:
        if entry.race.room.ranked and entry.race.status == Race.Status.FINISHED:
            _rate_late(entry)
    for redo in _AT_FLAGS_CLEARED:
        redo(cleared)
    return len(cleared)


def _rate_late(entry: Entry) -> None:
    race = entry.race
    field = list(race.entries.select_related("seat__player"))
    places = dict(rated_places.rated_places(race, field, counts))
    if entry not in places:
        return  # voided meanwhile, or a CPU seat
    others = [(e.seat.player, place) for e, place in places.items() if e.pk != entry.pk]
    player = next(e.seat.player for e in field if e.pk == entry.pk)
    accounts_actions.record_late_result(player, places[entry], others, race.pk)


@transaction.atomic
def void_and_ban(entries) -> int:
    """An admin found a script: the results (a queryset) never count, and their players
    may not queue for ranked races any more."""
    for entry in entries.exclude(seat__player=None).select_related("seat__player"):
        accounts_actions.ban_from_ranked(entry.seat.player)
    return entries.update(voided=True)
