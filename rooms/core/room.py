"""The room at the bottom of every action: its row lock, its event version, and the
checks each action makes first (docs/ARCHITECTURE.md §One sequential owner per room,
§Versioned events). Lobby, race and CPU actions all build on these."""

from django.db.models import F
from django.utils.translation import gettext as _

from accounts.models import Player
from rooms.core import events, hot_sql
from rooms.core.errors import RoomError
from rooms.models import Race, Room, room_code


def locked_room(code: str) -> Room:
    """The room, its row locked until the transaction commits."""
    room = hot_sql.lock_room(room_code(code))
    if room is None:
        raise RoomError(_("no room has this code"), "no_room")
    return room


def advance_version(room: Room) -> int:
    """The room's next event version, stored (the caller holds the room's lock): every
    event sent to its sockets carries one (docs/ARCHITECTURE.md §Versioned events)."""
    Room.objects.filter(pk=room.pk).update(version=F("version") + 1)
    room.refresh_from_db(fields=["version"])
    return room.version


def lobby_changed(room: Room) -> None:
    events.publish_lobby(room, advance_version(room))


def owner_only(room: Room, player: Player | None) -> None:
    if room.ranked:
        raise RoomError(_("a ranked room's rules and seats are fixed"), "ranked")
    if room.hosted:
        raise RoomError(_("an arena's races are run by the arena"), "hosted")
    if room.quick:
        raise RoomError(_("a quick race's rules and seats are fixed"), "quick")
    if player is None or room.owner_id != player.pk:
        raise RoomError(_("only the room's owner can do that"), "not_owner")


def no_race_running(room: Room) -> None:
    race = room.current_race()
    if race is not None and race.status == Race.Status.RUNNING:
        raise RoomError(_("not while a race is running"), "race_running")
