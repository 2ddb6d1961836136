"""The stand-in CPU (docs/RULES.md §Leaving): when it takes an away or idle human's
board, and when the human takes it back. Both are announced to the room (a `stand_in`
event) and ordered by the room's lock, so no CPU step acts after a return.

The sweeper finds who is away on its rounds (rooms/sweeper.py); a race action looks too
when a board ends, for the last human still playing (a lazy deadline, as the cut-off is).
"""

from collections import defaultdict
from datetime import datetime

from django.db import transaction

from rooms.core import events
from rooms.core.room import advance_version, locked_room
from rooms.cpus import cpu_steps
from rooms.live import standings_feed
from rooms.models import Entry, Move, Race, Room


def humans_present(playing: list[Entry]) -> dict[int, set[int]]:
    """Per race, the boards humans are still playing themselves (no CPU standing in)."""
    present = defaultdict(set)
    for entry in playing:
        if entry.seat.player_id is not None and not entry.cpu_control:
            present[entry.race_id].add(entry.pk)
    return present


@transaction.atomic
def take(entry: Entry, now: datetime) -> bool:
    """A CPU stands in for an away or idle human. Only the board as the caller read it:
    a player who acted since keeps the seat."""
    room = locked_room(entry.race.room.code)
    unchanged = {"cpu_control": False, "last_action_at": entry.last_action_at}
    claimed = Entry.objects.filter(pk=entry.pk, **unchanged).update(
        cpu_control=True, cpu_kicked_at=now
    )
    if claimed:
        cpu_steps.schedule(room.code, entry.seat_id, entry.cpu_step + 1, 0.5)
        events.publish_stand_in(room, entry.seat, True, advance_version(room))
        standings_feed.changed(room.code)
    return bool(claimed)


def give_back(room: Room, entry: Entry, now: datetime) -> None:
    """The human is back: the stand-in lets go at once (the caller holds the room's and
    the board's locks); the return counts as the player's activity."""
    entry.cpu_control = False
    entry.last_action_at = now
    entry.save(update_fields=["cpu_control", "last_action_at"])
    pairs = pairs_while_away(entry)
    events.publish_stand_in(room, entry.seat, False, advance_version(room), pairs=pairs)
    standings_feed.changed(room.code)


def pairs_while_away(entry: Entry) -> int:
    """The pairs a stand-in made on this board since the human's own last pair: what
    the player is told on coming back (they were all made while the player was away)."""
    pairs = entry.moves.filter(kind=Move.Kind.PAIR)
    own = pairs.filter(by_cpu=False).order_by("-number").values_list("number", flat=True).first()
    return pairs.filter(by_cpu=True, number__gt=-1 if own is None else own).count()


def take_idle_last_player(race: Race, now: datetime) -> list[int]:
    """A board just ended: if one human is left playing, idle past LAST_PLAYER_IDLE, a
    CPU plays on for them now rather than at the sweeper's next round."""
    playing = list(
        race.entries.filter(status=Entry.Status.PLAYING).select_related("race__room", "seat")
    )
    present = humans_present(playing)[race.pk]
    if len(present) != 1:
        return []
    (last,) = present
    entry = next(e for e in playing if e.pk == last)
    return [entry.pk] if entry.away_or_idle(now, last_one_playing=True) and take(entry, now) else []
